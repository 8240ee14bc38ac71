//! # score4-solver
//!
//! The sequential solver of Connect Four 3D, as the report describes it and then better:
//!
//! - [`search`]: binary minimax for "does the first player win?", with the decisive situations
//!   of DESIGN §4 read off the bitboards — and the same search for "is the first player's
//!   score at least t?";
//! - [`score`]: win/draw/loss and exact scores, by a few such questions over a table of bounds;
//! - [`ordering`]: the report's line-score move ordering, insertion sort, best first;
//! - [`rules`]: static proofs that the second player holds (claimeven and baseinverse on the
//!   76 lines), each a strategy for black checked against every line white could complete,
//!   and that the first player wins by zugzwang on a layer-2 threat; both may mirror two
//!   columns of equal height;
//! - [`best_first`]: a proof-number driver over the top of the tree whose leaves are budgeted
//!   probes of the search, taking turns with it on roots the search does not settle soon;
//! - [`forcing`]: wins of the first player by a chain of threats the second must block;
//! - [`table`]: the transposition table — compact keys folded over the symmetries that can
//!   matter below the root (canonical keys when all can), prime size, exact hits by the Chinese
//!   remainder theorem, TWOBIG / NEW / BIG, one relaxed atomic word per entry;
//! - statistics: nodes, seconds, table probes, hits, stores and replacements.
//!
//! The search is generic over [`game::Game`], monomorphised for the 3-D board and for the
//! classic 7×6 board of `score4-classic`.
//!
//! Modules, lowest first; each uses only modules listed before it (documentation links
//! aside), so that they form no circle:
//!
//! 1. `memory` (the table's block of words), [`ordering`], [`rules`]: no other module;
//! 2. [`table`] (on `memory`); [`forcing`] (on ordering and rules);
//! 3. [`game`]: the trait, and its implementations over ordering, rules and forcing;
//! 4. [`best_first`]: the driver, which sees the depth-first search only through a trait of
//!    its own (`DepthFirst`: budgeted probes, the moves the search would try, what its table
//!    knows of them), so that it needs nothing of [`search`];
//! 5. [`search`]: the [`Solver`], which implements that trait and, when its settings say so,
//!    hands a root over to the driver;
//! 6. [`score`]: the modes and the narrowing of scores, over the [`Solver`].
//!
//! It depends on `score4-board` and `score4-classic` only. The search allocates nothing per node and uses no dynamic
//! dispatch; the table is the one place with `unsafe` (its memory, see `memory.rs`).
#![warn(missing_docs)]

pub mod best_first;
pub mod forcing;
pub mod game;
mod memory;
pub mod ordering;
pub mod rules;
pub mod score;
pub mod search;
pub mod table;

pub use best_first::BestFirst;
pub use game::Game;
pub use score::{narrow, Mode, ScoreRange, Valuation};
pub use search::{examine, examine_at_least, Examined, Monitor, SearchStats, Solution, Solver};
pub use table::{
    Bound, Format, LeafArea, Replacement, TableConfig, TableError, TableStats, TranspositionTable,
};
