//! # score4-solver
//!
//! The sequential solver, generic over the game ([`Game`]) and
//! monomorphised for each: the report's search and then better.
//!
//! - [`search`]: binary minimax for "does the first player win?", with the decisive situations
//!   (docs/RULES.md) read off the bitboards and the game's static rules — and the same search
//!   for "is the first player's score at least t?";
//! - [`score`]: win/draw/loss and exact scores, by a few such questions over a table of bounds;
//! - [`best_first`]: a proof-number driver over the top of the tree whose leaves are budgeted
//!   probes of the search, taking turns with it on roots the search does not settle soon;
//! - [`table`]: the transposition table — compact keys folded over the symmetries that can
//!   matter below the root (canonical keys when all can), prime size, exact hits by the Chinese
//!   remainder theorem, TWOBIG / NEW / BIG, one relaxed atomic word per entry; the near-leaf
//!   area's wide keys in two-word entries under a seqlock;
//! - [`book`]: proven bounds from outside (an opening book), read near the root;
//! - statistics: nodes, seconds, table probes, hits, stores and replacements.
//!
//! What a game knows — its move ordering, static rules and threat chains — is the game's
//! crate's (for Connect Four 3D, `score4_board::{ordering, rules, forcing}`), reached through
//! the trait.
//!
//! Modules, lowest first; each uses only modules listed before it (documentation links
//! aside), so that they form no circle:
//!
//! 1. `memory` (the table's block of words), then [`table`]; [`book`], which needs neither;
//! 2. [`best_first`]: the driver, which sees the depth-first search only through a trait of
//!    its own (`DepthFirst`: budgeted probes, the moves the search would try, what its table
//!    knows of them), so that it needs nothing of [`search`];
//! 3. [`search`]: the [`Solver`], which implements that trait and, when its settings say so,
//!    hands a root over to the driver;
//! 4. [`score`]: the modes and the narrowing of scores, over the [`Solver`].
//!
//! It depends on `score4-game`, and on `score4-board` for one fact: the near-leaf area of the
//! table reads a position's stone count from the 3-D key. It never depends on a front-end. The
//! search allocates nothing per node and uses no dynamic dispatch; the table is the one place
//! with `unsafe` (its memory, see `memory.rs`).
#![warn(missing_docs)]

pub mod best_first;
pub mod book;
mod memory;
pub mod score;
pub mod search;
pub mod table;

pub use best_first::BestFirst;
pub use book::Book;
pub use memory::{format_bytes, format_minimum, memory_ceiling, MemoryCeiling};
pub use score::{narrow, Mode, ScoreRange, Valuation};
pub use score4_game::Game;
pub use search::{examine, examine_at_least, Examined, Monitor, SearchStats, Solution, Solver};
pub use table::{
    Bound, Format, LeafArea, Replacement, TableConfig, TableError, TableStats, TranspositionTable,
};
