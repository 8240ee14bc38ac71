//! [`Settings`]: what an [`Engine`](crate::Engine) is asked to do and with what.

use std::sync::Arc;
use std::time::Duration;

use score4_parallel::Assumption;
use score4_solver::{Book, LeafArea, Mode, Replacement};

/// How much memory an engine may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// A budget for the table and the parallel solver's tree together: one worker gives the
    /// table everything, more give the tree an eighth ([`crate::split_memory`]).
    Budget(u64),
    /// The table's size; the parallel solver's tree may take an eighth of it on top, and at
    /// least [`MIN_TREE_BYTES`].
    Table(u64),
}

/// The least the parallel solver's tree may take beside a table of a given size
/// ([`Memory::Table`]): a small table (the classic game's 16 MiB) must not starve the tree,
/// which grows only as far as the workers need.
pub const MIN_TREE_BYTES: u64 = 64 << 20;

impl Memory {
    /// `(table, tree)` bytes for `threads` workers.
    pub fn split(self, threads: usize) -> (u64, u64) {
        match self {
            Memory::Budget(bytes) => crate::split_memory(bytes, threads),
            Memory::Table(bytes) => (bytes, (bytes / 8).max(MIN_TREE_BYTES)),
        }
    }
}

/// Which setting a problem concerns, so that a front-end can name its own option for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// [`Memory::Budget`].
    MemoryBudget,
    /// [`Memory::Table`].
    TableSize,
    /// [`Settings::leaf_area`].
    LeafArea,
}

/// What an engine evaluates and with what resources.
///
/// [`Settings::new`] gives the defaults of every field but the mode and the memory.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The question: first-wins (the report's), win/draw/loss, or the exact score. Win/draw/loss
    /// and exact need a table of bounds, which takes two words per entry.
    pub mode: Mode,
    /// Worker threads: 1 runs the sequential solver; more run the job-level parallel solver,
    /// which gives the same values.
    pub threads: usize,
    /// The memory for the table (and the parallel solver's tree).
    pub memory: Memory,
    /// The table's replacement scheme.
    pub replacement: Replacement,
    /// The table's near-leaf area (the 3-D game's keys only).
    pub leaf_area: LeafArea,
    /// Whether the sequential solver hands a root it has not settled within a million nodes to
    /// the best-first driver, taking turns with it (first-wins mode: with one thread, or in the
    /// parallel solver's race, [`Settings::race_after`]; the values are the same either way,
    /// the nodes differ).
    pub best_first: bool,
    /// The value the parallel solver assumes for tasks not yet solved.
    pub assumption: Assumption,
    /// The parallel solver's first cutoff depth (stones beyond the root); it deepens by itself.
    pub first_cutoff: u32,
    /// How often the parallel solver reports its progress ([`crate::Event::Progress`]).
    pub progress_every: Duration,
    /// An opening book the search reads near the root ([`Book`]; `None`: no book).
    pub book: Option<Arc<Book>>,
    /// With several threads in first-wins mode and the best-first driver on: how long the
    /// parallel solver's tree may go without settling a task before one worker leaves it to
    /// race it with the sequential solver and the driver ([`score4_parallel::Race`]; `None`:
    /// never).
    pub race_after: Option<Duration>,
}

/// [`Settings::race_after`] by default: longer than the tree needs for whole positions it is
/// good at (d24's heaviest take 9 to 18 s with two workers on the AMD EPYC VM of
/// docs/PARALLEL.md), short beside the minutes a heavy win costs it when its cheap winning
/// move lies far down the order.
pub const RACE_AFTER: Duration = Duration::from_secs(20);

impl Settings {
    /// `mode` with `memory`, one thread, the TWOBIG table with its automatic near-leaf area,
    /// the best-first driver, the report's virtual-win assumption, cutoff 2, a progress
    /// report every second and no book.
    pub fn new(mode: Mode, memory: Memory) -> Settings {
        Settings {
            mode,
            threads: 1,
            memory,
            replacement: Replacement::TwoBig,
            leaf_area: LeafArea::Auto,
            best_first: true,
            assumption: Assumption::FirstPlayerWins,
            first_cutoff: 2,
            progress_every: Duration::from_secs(1),
            book: None,
            race_after: Some(RACE_AFTER),
        }
    }

    /// These settings with `threads` workers.
    pub fn threads(self, threads: usize) -> Settings {
        Settings { threads, ..self }
    }
}
