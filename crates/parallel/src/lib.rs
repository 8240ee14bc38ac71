//! # score4-parallel
//!
//! The report's job-level parallel solver, on one machine: a DAG of canonical positions from
//! the root down to a cutoff depth ([`dag`]), whose open nodes at the cutoff are tasks under a
//! virtual value; worker threads solve tasks with the sequential [`score4_solver::Solver`] over
//! one shared lock-free table ([`solve()`]). Wrong assumptions are repaired upward and create the
//! tasks they need; tasks that can no longer change the root's value are dropped, and running
//! ones cancelled. Beyond the report, the program does what its author did by hand: the cutoff
//! deepens by itself when workers run dry, and the tree keeps within its share of memory.
//!
//! Like the sequential search it is generic over [`score4_game::Game`] (the 3-D and the
//! classic game), monomorphised. It depends on `score4-game` and `score4-solver` only, and on
//! nothing that draws or prints: progress leaves as plain [`Progress`] values for the caller
//! to show.
#![warn(missing_docs)]

pub mod dag;
pub mod solve;

pub use dag::Assumption;
pub use solve::{
    solve, Abandoned, Config, MoveStatus, ParallelSolution, Progress, Race, RootMove, STOP_LATENCY,
};
