//! The player: [`crate::analyze`] every move, play the best.
//!
//! Whenever the solver decides the position within the time, every move's exact score (or at
//! least its win/draw/loss) is known and the player plays one that keeps the position's value —
//! the fastest win, or the slowest loss. A move proven to win is always preferred to one that
//! is only estimated, and a move proven to lose is played only when every move is (the best is
//! ranked first by what it is sure to get). Otherwise the heuristic search's estimates decide.

use std::time::Duration;

use score4_solver::{Book, TranspositionTable};

use crate::analyze::{analyze, Analysis};
use score4_game::Game;

/// A move (a column `C`) chosen by the player, with the analysis behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<C> {
    /// The move.
    pub column: C,
    /// Why.
    pub analysis: Analysis<C>,
}

/// A player with its own table and a time per move.
pub struct Player<'t> {
    table: &'t TranspositionTable,
    book: Option<&'t Book>,
    time_per_move: Duration,
}

impl<'t> Player<'t> {
    /// An player using `table` (of bounds) and about `time_per_move` for each move.
    pub fn new(table: &'t TranspositionTable, time_per_move: Duration) -> Player<'t> {
        Player {
            table,
            book: None,
            time_per_move,
        }
    }

    /// This player, reading `book` in its analyses ([`score4_solver::Solver::with_book`]).
    pub fn with_book(self, book: Option<&'t Book>) -> Player<'t> {
        Player { book, ..self }
    }

    /// The player's move in `position`.
    ///
    /// Contract: nobody has four in a line in `position` and it is not full.
    pub fn choose<B: Game>(&self, position: &B) -> Choice<B::Column> {
        let analysis = analyze(position, self.table, self.book, self.time_per_move);
        Choice {
            column: analysis.best,
            analysis,
        }
    }
}
