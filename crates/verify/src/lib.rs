//! `score4-verify`: checks proof certificates (docs/CERTIFICATE.md) of Connect Four 3D
//! positions without trusting the solver that wrote them.
//!
//! It must never depend on any other score4 crate — not the board, the solver or the rules —
//! nor on anything outside the standard library: its board is a plain array of 64 cells
//! ([`board`]), its 76 lines are found by walking the 13 directions from every cell, and each
//! leaf kind and the strategies of the `pairs` and `zugzwang` leaves (the kill test of the module `strategy`) are
//! checked here from their definitions. A bug in the
//! search's bitboards or rules therefore cannot hide in a certificate this crate accepts.
//!
//! The checker streams: it reads one line at a time and keeps, per node id, the position the
//! node must have (two 64-bit masks) and whether it is defined, so its memory grows with the
//! number of ids, not with the file.
//!
//! A long proof may come as a set of files: a top whose `part` leaves are proven by other
//! certificates of the set. Each file is checked alone by [`verify`], so the files can be
//! checked anywhere, and [`join`] then matches every `part` leaf to a file that proves it.

pub mod board;
mod check;
mod join;
mod strategy;

pub use check::{verify, Claim, Fault, KindCounts, Obligation, Verdict, MAX_LINE_BYTES};
pub use join::{join, Joined};
