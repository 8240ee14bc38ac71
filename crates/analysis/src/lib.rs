//! # score4-analysis
//!
//! What players and researchers ask of a position beyond its value:
//!
//! - [`analyze`]: every legal move's value — exact if the solver finds it within the time
//!   budget, else win/draw/loss, else what is proven plus a heuristic estimate — the best move
//!   and a principal variation;
//! - [`heuristic`]: an iterative-deepening alpha-beta search with a static evaluation (threats,
//!   the parity of their rows, lines still open), for positions too hard to solve in time; it
//!   scores a win or loss it sees inside its horizon exactly, so it never misses one;
//! - [`Player`]: the player built from both — perfect whenever the position is solved in time.
//!
//! All of it is generic over [`Game`](score4_game::Game) (the 3-D and the classic game),
//! monomorphised. It depends on `score4-game` and `score4-solver` only, never on a concrete
//! game; no terminal, no threads, no I/O.
#![warn(missing_docs)]

mod analyze;
pub mod heuristic;
mod player;

pub use analyze::{analyze, analyze_watched, Analysis, MoveAnalysis, MoveValue};
pub use player::{Choice, Player};
