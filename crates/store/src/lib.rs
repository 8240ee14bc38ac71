//! `score4-store`: a persistent store of solved positions, one SQLite file (WAL mode) that any
//! SQLite tool can open — what a proof run settled, kept across crashes, kills and resumptions,
//! and merged from several machines. docs/STORE.md documents the schema.
//!
//! A position is stored under its table key (the search's 80-bit key, which names the position
//! or a symmetric image of it, never another position) with what is proven of its exact score
//! for the side to move, as bounds `lower..=upper`: every question the solver answers (does the
//! first player win? win, draw or loss? the exact score) is a bound. A row whose bounds decide
//! nothing records work spent on a position that was then split into its children.
//!
//! This crate knows SQLite and nothing of the game: keys, stones and move strings come from the
//! caller. It must never depend on the search crates, so that a store can be read without them.

mod error;
mod record;
mod schema;
mod store;

pub use error::StoreError;
pub use record::{Bounds, Record, Run, Summary};
pub use schema::SCHEMA_VERSION;
pub use store::Store;
