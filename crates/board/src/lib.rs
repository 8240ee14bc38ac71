//! # score4-board
//!
//! The board of Connect Four 3D (Score Four, Sogo): a 4×4×4 cube, 16 columns with gravity,
//! 76 lines of four. This crate owns everything about a position and nothing about search:
//!
//! - [`BitBoard`]: a set of cells as a `u64`, bit `16*z + 4*y + x`;
//! - [`geometry`]: cells, columns and the 76 lines;
//! - [`Position`]: stones, threats, live lines and the lines holding each player's stones,
//!   updated move by move; its keys, computed from the stones;
//! - [`symmetry`]: the 8 symmetries (the report's `flipLR`, `flipUD`, `flipDI`) and their
//!   subgroups;
//! - [`key`]: the 80-bit compact encoding, the canonical key, and the least key over a group
//!   of symmetries;
//! - [`notation`]: move strings such as `0FC3484B7`, and [`Game`] records;
//! - text drawings of the four layers side by side (`Display` of [`Position`], `Debug` of
//!   [`BitBoard`]).
//!
//! It must never depend on anything: no crates, no allocation in [`Position::play`], no dynamic
//! dispatch. The search runs on it millions of times a second.
#![warn(missing_docs)]

pub mod bitboard;
pub mod geometry;
pub mod key;
pub mod notation;
pub mod position;
mod render;
pub mod symmetry;

pub use bitboard::BitBoard;
pub use geometry::{Cell, Column};
pub use notation::{Game, NotationError, Outcome};
pub use position::{Colour, Position, PositionError};
pub use symmetry::Symmetry;
