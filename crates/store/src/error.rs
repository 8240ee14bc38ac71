//! [`StoreError`]: what went wrong with a store, always naming its file.

use std::path::PathBuf;

/// What went wrong with a store. Every variant names the file; none leaves a partial write
/// behind (writes are transactions).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file is not an SQLite database (or is damaged beyond SQLite's reading).
    #[error("{path}: not a score4 store: {reason}")]
    NotAStore {
        /// The file.
        path: PathBuf,
        /// What SQLite or the check found.
        reason: String,
    },
    /// A store of another schema version.
    #[error(
        "{path}: a score4 store of schema version {found}; this score4 reads version {expected}"
    )]
    OtherVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: i64,
        /// The version this build reads.
        expected: i64,
    },
    /// A store of the other game.
    #[error("{path}: a store of the {found} game, not of the {expected} game")]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game in the file.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// Another process writes to the store.
    #[error("{path}: in use by another process that writes to it (a prove or merge running)")]
    Busy {
        /// The file.
        path: PathBuf,
    },
    /// Two different values proven for one position: they cannot both be right, so one was
    /// made by a bug.
    #[error(
        "{path}: position {moves} has two values that contradict each other: {first} and \
         {second} (one of them is wrong: a bug)"
    )]
    Contradiction {
        /// The file.
        path: PathBuf,
        /// A move string reaching the position.
        moves: String,
        /// The bounds already known.
        first: String,
        /// The bounds that contradict them.
        second: String,
    },
    /// The store's integrity check failed.
    #[error("{path}: damaged: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What the check reported.
        reason: String,
    },
    /// Any other failure of SQLite or the file system (a full disk, a read-only file, ...).
    #[error("{path}: {action}: {source}")]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// The lock file could not be made or opened.
    #[error("{path}: {action}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}
