//! # score4-board
//!
//! Connect Four 3D (Score Four, Sogo): a 4×4×4 cube, 16 columns with gravity, 76 lines of
//! four. This crate is the game: everything about a position, and the game's knowledge that the
//! search uses, behind the [`Game`] trait it implements for [`Position`]:
//!
//! - [`bitboard`]: what a [`BitBoard`] means in 3-D (bit `16*z + 4*y + x`; layers up and down,
//!   drawings), and [`geometry`]: cells, columns and the 76 lines;
//! - [`Position`]: stones, threats, live lines and the lines holding each player's stones,
//!   updated move by move; its keys, computed from the stones;
//! - [`symmetry`]: the 8 symmetries (the report's `flipLR`, `flipUD`, `flipDI`) and their
//!   subgroups; [`key`]: the 80-bit compact encoding, the canonical key, the least key over
//!   a group of symmetries, and the wide keys that merge dead stones from 44 stones on;
//! - [`notation`]: move strings such as `0FC3484B7`, and [`GameRecord`]s;
//! - the game's search knowledge, pure functions of a position: [`ordering`] (the line-score
//!   move ordering), [`rules`] (static proofs: black's claimeven-and-pairs follow-up, white's
//!   zugzwang, with aftereven, mirrored columns and the spare tempo) and [`forcing`] (chains of
//!   threats the defender must block);
//! - text drawings of the four layers side by side (`Display` of [`Position`],
//!   [`Layers::drawn`] of a [`BitBoard`]).
//!
//! It depends on `score4-game` only (the shared vocabulary), never on the search: no
//! allocation in [`Position::play`] or in the rules, no dynamic dispatch. The search runs on it
//! millions of times a second.
#![warn(missing_docs)]

pub mod bitboard;
pub mod forcing;
mod game;
pub mod geometry;
pub mod key;
pub mod notation;
pub mod ordering;
pub mod position;
mod render;
pub mod rules;
pub mod symmetry;

pub use bitboard::{Drawn, Layers};
pub use geometry::{CellCoordinates, Column};
pub use notation::{GameRecord, NotationError};
pub use position::{Position, PositionError};
pub use score4_game::{BitBoard, Cell, Colour, Game, Outcome, Record};
pub use symmetry::Symmetry;
