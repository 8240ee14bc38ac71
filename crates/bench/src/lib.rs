//! # score4-bench
//!
//! Benchmarking score4 by the report's protocol (docs/RULES.md, "The benchmark protocol"):
//!
//! - [`generate`]: positions by random reasonable play, reproducibly from a seed, for either
//!   game (the committed sets `bench/positions/dDD.txt` were made with it);
//! - [`protocol`]: a run per difficulty — fresh table, clock started before its set-up, the
//!   set's positions solved in order until done or out of time — and the frontier;
//! - [`report`]: the human table, CSV and JSON of a run;
//! - [`plot`]: charts of time and nodes per difficulty, one line per run (PNG and SVG);
//! - [`pons`]: Pons's test sets of the classic game (`bench/pons/`) and his benchmark.
//!
//! It solves through the engine (`score4-engine`), on the two games' crates, and never depends
//! on the command line (progress bars and
//! argument parsing live there).
#![warn(missing_docs)]

pub mod generate;
pub mod plot;
pub mod pons;
pub mod protocol;
pub mod report;

pub use generate::PositionGenerator;
pub use protocol::{BenchConfig, BenchError, BenchRun, DifficultyResult, PositionResult, Progress};
