//! `score4-prove`: proof runs that survive crashes and resume. A proof is a tree of jobs over
//! the first-wins question (a graph: a position that several lines reach is one node): each job
//! is searched by the sequential solver for at most a checkpoint interval, and a job that takes
//! longer is split into its children, so that a kill loses at most that much work per worker.
//! Every position settled (and every one split, with the work spent on it) is committed to a
//! [`score4_store::Store`] about once a second; a run started again on the same store reads it
//! back and searches nothing settled before.
//!
//! It depends on the game, the solver and the store, never on the command line or the parallel
//! solver: its own tree of jobs is what makes it resumable.

mod book;
mod run;
mod searcher;
mod tree;
mod value;

pub use book::search_book;
pub use run::{prove, prove_with, ProveConfig, ProveError, ProveProgress, ProveReport};
pub use searcher::{JobAnswer, JobRequest, JobSearcher, LocalSearcher};
pub use tree::{store_key, JobOrder};
pub use value::{bounds_at, bounds_of, first_player_wins, reaches};
