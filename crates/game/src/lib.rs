//! # score4-game
//!
//! What every game of score4 shares with the search, and nothing else: the lowest crate of the
//! workspace.
//!
//! - [`BitBoard`] and [`Cell`]: a set of cells as one `u64`, and a cell as its bit index; each
//!   game chooses its own layout of cells on the bits;
//! - [`Colour`] and [`Outcome`]: the two players (white `X` moves first, black `O` second) and
//!   how a game stands;
//! - [`OrderedMoves`], [`Opening`], [`ForcedLine`]: what a game's move ordering hands the
//!   search;
//! - [`Game`]: what the search, the scores and the analysis need of a position;
//! - [`Record`]: a game record — the moves played, the position they reach, their notation;
//! - [`evaluation`]: the points both games' static evaluations count.
//!
//! A game is one crate that implements [`Game`] for its position and [`Record`] for its game
//! record (`score4-board` for Connect Four 3D, `score4-classic` for 7×6); the search and
//! everything above it are generic over them. This crate must never depend on anything: the
//! search runs on these types millions of times a second.
#![warn(missing_docs)]

mod bitboard;
pub mod evaluation;
mod game;
mod moves;
mod player;
mod record;

pub use bitboard::{BitBoard, BitIter, Cell};
pub use game::Game;
pub use moves::{ForcedLine, Opening, OrderedMoves, NO_COLUMN};
pub use player::{Colour, Outcome};
pub use record::Record;
