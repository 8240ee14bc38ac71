//! What the analysis needs of a game beyond the solver's [`Game`]: columns to name moves by,
//! the end of the game, and a static evaluation for the heuristic search.
//!
//! Both games' evaluations count, for each player, the lines still open to it by the stones it
//! has in them, and its threats — twice for a threat on a row of its parity (odd rows for the
//! first player, counting from 1; even rows for the second), Allis's insight that a threat on
//! the right parity usually wins the zugzwang at the end.

use std::fmt;

use score4_board::geometry::lines_in;
use score4_board::{Cell, Colour, Column, Position};
use score4_classic::{ClassicColumn, ClassicPosition};
use score4_solver::Game;

/// A board the analysis and the engine work on.
pub trait Board: Game {
    /// How a move is named: a column.
    type Column: Copy + Eq + Ord + fmt::Display + fmt::Debug;
    /// Every column, in the order moves are listed.
    fn columns() -> impl Iterator<Item = Self::Column>;
    /// The cell a stone dropped in `column` lands on, if the column is not full.
    fn drop_cell(&self, column: Self::Column) -> Option<Cell>;
    /// The column of `cell`, as moves are named.
    fn column(cell: Cell) -> Self::Column;
    /// Whether the mover makes four by playing `cell`.
    fn wins_with(&self, cell: Cell) -> bool;
    /// Whether the board is full.
    fn is_full(&self) -> bool;
    /// The static evaluation for the side to move (see the module documentation).
    fn evaluate(&self) -> i32;
    /// The mover's score if its next stone wins: with `k` stones of its own on the board, a
    /// win with stone `k + 1` scores `CELLS / 2 - k`.
    fn score_of_winning_now(&self) -> i32 {
        Self::CELLS / 2 - self.stone_count() / 2
    }
}

/// Points for an open line holding 0, 1 or 2 of the player's stones (3 is a threat).
const LINE_POINTS: [i32; 3] = [1, 4, 16];
/// Points for each threat, and again for one on the player's parity.
const THREAT_POINTS: i32 = 60;

/// One player's points: `open_line_stones` gives the player's stones in each line still open
/// to it; `threats` are its threats, `parity` its rows.
fn side_points(open_line_stones: impl Iterator<Item = u32>, threats: u64, parity: u64) -> i32 {
    let lines: i32 = open_line_stones
        .filter(|&n| n < 3)
        .map(|n| LINE_POINTS[n as usize])
        .sum();
    lines
        + THREAT_POINTS * threats.count_ones() as i32
        + THREAT_POINTS * (threats & parity).count_ones() as i32
}

/// Layers 0 and 2 of the 3-D board: its odd rows (counting from 1).
const ODD_LAYERS: u64 = 0x0000_FFFF_0000_FFFF;

impl Board for Position {
    type Column = Column;
    fn columns() -> impl Iterator<Item = Column> {
        Column::all()
    }
    fn drop_cell(&self, column: Column) -> Option<Cell> {
        Position::drop_cell(self, column)
    }
    fn column(cell: Cell) -> Column {
        cell.column()
    }
    fn wins_with(&self, cell: Cell) -> bool {
        Position::wins_with(self, cell)
    }
    fn is_full(&self) -> bool {
        Position::is_full(self)
    }
    fn evaluate(&self) -> i32 {
        let side = |colour: Colour| {
            let own = self.stones(colour).0;
            let stones =
                lines_in(self.live_lines(colour)).map(move |line| (line & own).count_ones());
            let threats = self.threats(colour).0 & !self.occupied().0;
            let parity = if colour == Colour::White {
                ODD_LAYERS
            } else {
                !ODD_LAYERS
            };
            side_points(stones, threats, parity)
        };
        let me = self.mover();
        side(me) - side(me.other())
    }
}

impl Board for ClassicPosition {
    type Column = ClassicColumn;
    fn columns() -> impl Iterator<Item = ClassicColumn> {
        ClassicColumn::all()
    }
    fn drop_cell(&self, column: ClassicColumn) -> Option<Cell> {
        ClassicPosition::drop_cell(self, column.index())
    }
    fn column(cell: Cell) -> ClassicColumn {
        ClassicColumn::new(ClassicPosition::column_of(cell)).expect("a cell of the board")
    }
    fn wins_with(&self, cell: Cell) -> bool {
        ClassicPosition::wins_with(self, cell)
    }
    fn is_full(&self) -> bool {
        ClassicPosition::is_full(self)
    }
    fn evaluate(&self) -> i32 {
        let side = |first: bool| {
            let own = self.stones(first).0;
            let theirs = self.stones(!first).0;
            let stones = score4_classic::LINES
                .iter()
                .filter(move |&&line| line & theirs == 0)
                .map(move |&line| (line & own).count_ones());
            let parity = if first {
                score4_classic::ODD_ROWS
            } else {
                !score4_classic::ODD_ROWS
            };
            side_points(stones, self.threats(first).0, parity)
        };
        let me = self.first_to_move();
        side(me) - side(!me)
    }
}
