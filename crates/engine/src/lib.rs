//! # score4-engine
//!
//! The one entry point for "evaluate this position, of either game, in this mode, with these
//! threads and this memory, and tell me how it goes": the command line, and every capability
//! built above it (a store of proofs, certificates, a cluster driver, a server), call this
//! crate and, below it, only the games' crates (to read and print positions).
//!
//! - [`Settings`] and [`Memory`]: the mode (first-wins, win/draw/loss, exact), threads, a memory
//!   budget or a table size, and the solvers' options;
//! - [`Engine`]: builds the table once (split from the budget as [`split_memory`] says), then
//!   evaluates positions on it — the sequential solver with one thread, the job-level parallel
//!   solver with more — reporting [`Event`]s and obeying a [`StopHandle`]; it also analyses
//!   positions and plays ([`Engine::analyze`], [`Engine::player`]);
//! - [`Evaluation`] / [`Interrupted`]: one result type for both solvers;
//! - what the machine offers: [`physical_cores`], [`available_memory`], [`machine_memory`].
//!
//! It is generic over [`Game`] and knows no concrete game. It depends on the
//! search crates (`score4-solver`, `score4-parallel`, `score4-analysis`) and the games'
//! vocabulary (`score4-game`), never on a front-end: no printing, no argument parsing.
#![warn(missing_docs)]

mod engine;
mod error;
mod evaluation;
mod resources;
mod settings;

pub use engine::{Engine, StopHandle};
pub use error::EngineError;
pub use evaluation::{Evaluation, Event, Interrupted, ParallelCounts};
pub use resources::{available_memory, machine_memory, physical_cores, split_memory};
pub use settings::{Memory, Setting, Settings, MIN_TREE_BYTES, RACE_AFTER};

// The vocabulary a front-end needs, so that it names nothing below this crate.
pub use score4_analysis::{Analysis, Choice, MoveAnalysis, MoveValue, Player};
pub use score4_game::{Colour, Game, Outcome, Record};
pub use score4_parallel::{Assumption, MoveStatus, Progress, RootMove};
pub use score4_solver::{
    format_bytes, format_minimum, Book, Format, LeafArea, Mode, Monitor, Replacement, ScoreRange,
    SearchStats, TableError, TableStats, TranspositionTable,
};
