//! # score4-bench
//!
//! Benchmark positions and (later) benchmark runs for score4. [`generate`] produces positions by
//! the random reasonable play of DESIGN §3, reproducibly from a seed.
//!
//! It depends on the board and the solver, never on the command line.
#![warn(missing_docs)]

pub mod generate;

pub use generate::PositionGenerator;
