//! [`EngineError`]: why an engine could not be made.

use score4_solver::{Mode, Replacement, TableError};

use crate::settings::Setting;

/// Why an engine could not be made.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The table could not be made as the settings ask.
    #[error("{error}")]
    Table {
        /// The setting the problem concerns, for the front-end to name its option.
        setting: Setting,
        /// The mode asked for (win/draw/loss and exact need larger entries than first-wins).
        mode: Mode,
        /// The worker threads asked for (with more than one, a memory budget gives the
        /// parallel solver's tree an eighth).
        threads: usize,
        /// What the table said.
        error: TableError,
        /// When the memory setting is too small: the smallest value of it that works, in
        /// whole MiB, with the replacement scheme asked for first, then with each other scheme
        /// (all other settings unchanged).
        smallest: Vec<(Replacement, u64)>,
    },
}

impl EngineError {
    /// Whether the user asked for something impossible (rather than the system refusing
    /// memory).
    pub fn is_bad_input(&self) -> bool {
        match self {
            EngineError::Table { error, .. } => error.is_bad_input(),
        }
    }

    /// The setting the problem concerns.
    pub fn setting(&self) -> Setting {
        match self {
            EngineError::Table { setting, .. } => *setting,
        }
    }
}
