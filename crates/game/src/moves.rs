//! What a game's move ordering hands the search: the moves in order with what scoring them
//! found, and what a move leaves the opponent.

use crate::{BitBoard, Cell};

/// Moves in the order to search them, best first, with what scoring them found; a fixed-size list,
/// no allocation.
pub struct OrderedMoves {
    cells: [u8; 16],
    created: [u64; 16],
    opens: [bool; 16],
    len: usize,
}

impl OrderedMoves {
    /// No moves yet (for orderings that [`Self::insert`] one move at a time).
    pub fn empty() -> OrderedMoves {
        OrderedMoves {
            cells: [0; 16],
            created: [0; 16],
            opens: [false; 16],
            len: 0,
        }
    }

    /// The first `len` moves of `cells`, already sorted best first, with what scoring them
    /// found ([`Self::threats_created`], [`Self::creates_opening`]): for an ordering that
    /// sorts in arrays of its own.
    #[inline(always)]
    pub const fn from_sorted(
        cells: [u8; 16],
        created: [u64; 16],
        opens: [bool; 16],
        len: usize,
    ) -> OrderedMoves {
        OrderedMoves {
            cells,
            created,
            opens,
            len,
        }
    }

    /// Adds `cell` with `score` by insertion sort, after the moves of higher or equal score;
    /// `scores` holds the scores of the moves so far (the caller's, so that the list itself
    /// stays small).
    #[inline(always)]
    pub fn insert(
        &mut self,
        scores: &mut [u32; 16],
        cell: u8,
        score: u32,
        created: u64,
        opens: bool,
    ) {
        let mut i = self.len;
        while i > 0 && scores[i - 1] < score {
            scores[i] = scores[i - 1];
            self.cells[i] = self.cells[i - 1];
            self.created[i] = self.created[i - 1];
            self.opens[i] = self.opens[i - 1];
            i -= 1;
        }
        scores[i] = score;
        self.cells[i] = cell;
        self.created[i] = created;
        self.opens[i] = opens;
        self.len += 1;
    }

    /// The moves, best first.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.cells[..self.len]
    }

    /// What scoring the `i`-th move found about the mover's threats, for playing it without
    /// finding it again: the threats it creates in the 3-D
    /// game, all the mover's threats after it in the classic game.
    #[inline(always)]
    pub fn threats_created(&self, i: usize) -> BitBoard {
        BitBoard(self.created[i])
    }

    /// Whether the `i`-th move creates an opening for the mover (the opponent's reply is then
    /// forced, or the opponent has lost).
    #[inline(always)]
    pub fn creates_opening(&self, i: usize) -> bool {
        self.opens[i]
    }
}

/// What a move leaves the opponent, who has no opening (`Game::opening_after`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// No opening of the mover: the opponent chooses freely.
    None,
    /// One opening of the mover, not below another of its threats: the opponent must block
    /// on this cell (anything else loses at once), so the position after the block has the
    /// move's value.
    Block(Cell),
    /// Two openings, or one below another threat: the opponent has lost.
    Unstoppable,
    /// Not looked at (the classic game): the search keys the child unless the move is below a
    /// threat of the mover, and reads it only if the ordering finds the move opens nothing.
    NotLookedAt,
}

/// Where the forced replies after a move that opens one threat lead (`Game::forced_line`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedLine {
    /// The table key of the first position of the line where the player to move has a choice
    /// (or, for a line longer than the game's limit, of its last position looked at):
    /// the move has its value.
    Reaches(u128),
    /// A forced reply of the opponent opens two threats, or one below another: the mover loses.
    MoverLoses,
    /// A forced reply of the mover does: the mover wins.
    MoverWins,
}

/// The `last_column` of a search's root, which no move led to: no column has this number, so
/// no move gets the points
/// of a move on top of the opponent's last one.
pub const NO_COLUMN: u8 = 16;
