//! The report's binary search: "does the first player win?".
//!
//! White (the first player) needs a win; black is content with a draw. So at a white node the
//! search stops at the first winning move, at a black node at the first move that holds.
//! Before any move is tried, the decisive situations of DESIGN §4 are read off the bitboards.

use std::time::Instant;

use score4_board::{Cell, Colour, Position};

use crate::ordering::order_moves;
use crate::table::{TableStats, TranspositionTable};

/// What a search counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited (calls of the search function, the root included).
    pub nodes: u64,
    /// Use of the transposition table.
    pub table: TableStats,
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, other: SearchStats) {
        self.nodes += other.nodes;
        self.table += other.table;
    }
}

/// The answer for one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// Whether the first player wins with best play.
    pub first_player_wins: bool,
    /// What the search counted.
    pub stats: SearchStats,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
}

/// A sequential searcher over a (possibly shared) transposition table.
pub struct Solver<'t> {
    table: &'t TranspositionTable,
    stats: SearchStats,
}

impl<'t> Solver<'t> {
    /// A searcher using `table`.
    pub fn new(table: &'t TranspositionTable) -> Solver<'t> {
        Solver {
            table,
            stats: SearchStats::default(),
        }
    }

    /// Counters since this searcher was made.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Solves `position`, timing the search and counting its nodes.
    ///
    /// Contract: nobody has four in a line in `position` (a finished game has no value to find).
    pub fn solve(&mut self, position: &Position) -> Solution {
        let before = self.stats;
        let start = Instant::now();
        let first_player_wins = self.first_player_wins(position);
        let seconds = start.elapsed().as_secs_f64();
        let mut stats = self.stats;
        stats.nodes -= before.nodes;
        stats.table.probes -= before.table.probes;
        stats.table.hits -= before.table.hits;
        stats.table.stores -= before.table.stores;
        stats.table.replacements -= before.table.replacements;
        Solution {
            first_player_wins,
            stats,
            seconds,
        }
    }

    /// Whether the first player (white) wins `position` with best play; a draw counts as not a
    /// win.
    ///
    /// Contract: nobody has four in a line. Every position visited counts as one node.
    pub fn first_player_wins(&mut self, position: &Position) -> bool {
        self.stats.nodes += 1;
        let me = position.mover();
        let white_to_move = me == Colour::White;
        // The values of "the mover wins" and "the mover loses", for the first player.
        let (mover_wins, mover_loses) = (white_to_move, !white_to_move);

        let playable = position.playable();
        // The mover has an opening: it wins at once.
        if !(position.threats(me) & playable).is_empty() {
            return mover_wins;
        }
        if playable.is_empty() {
            return false; // full board, no four: a draw
        }
        let their_threats = position.threats(me.other());
        let their_openings = their_threats & playable;
        let moves = if !their_openings.is_empty() {
            // Two openings cannot both be blocked; one must be, and blocking it loses if the
            // cell above is also theirs to win on.
            if their_openings.has_several() || !(their_openings.up() & their_threats).is_empty() {
                return mover_loses;
            }
            their_openings
        } else {
            // Never play directly below a threat of the opponent: they would win on top.
            playable & !their_threats.down()
        };
        if moves.is_empty() {
            return mover_loses;
        }
        // The first player cannot win once the second has a stone in every line, nor with the
        // 63rd stone if it is not an opening now (the 64th is the second player's).
        if position.live_lines(Colour::White) == 0 || position.count() >= 62 {
            return false;
        }
        if !moves.has_several() {
            // A forced move: no choice to remember in the table.
            let cell = moves.first().expect("one move");
            return self.first_player_wins(&position.after(cell));
        }

        let slot = self.table.slot(position.canonical_key());
        self.table.prefetch(slot);
        if let Some(value) = self.table.probe(slot, &mut self.stats.table) {
            return value;
        }
        let nodes_before = self.stats.nodes;
        let mut value = mover_loses;
        for &cell in order_moves(position, moves).as_slice() {
            let child = position.after(Cell::from_index(cell));
            if self.first_player_wins(&child) == mover_wins {
                value = mover_wins;
                break;
            }
        }
        let subtree = self.stats.nodes - nodes_before;
        self.table
            .store(slot, value, subtree, &mut self.stats.table);
        value
    }
}
