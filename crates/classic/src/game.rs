//! [`Game`] for [`ClassicPosition`] and [`Record`] for [`ClassicRecord`]: the classic game as
//! the search and the analysis see it.

use score4_game::evaluation::side_points;
use score4_game::{BitBoard, Cell, Colour, Game, OrderedMoves, Outcome, Record};

use crate::{ClassicColumn, ClassicPosition, ClassicRecord};

/// The cells of each column of the classic board, from the centre out: Pons's order for equal
/// scores.
const CENTRE_FIRST: [u64; 7] = {
    let columns = [3, 2, 4, 1, 5, 0, 6];
    let mut cells = [0; 7];
    let mut i = 0;
    while i < 7 {
        cells[i] = ClassicPosition::column_cells(columns[i]).0;
        i += 1;
    }
    cells
};

impl Game for ClassicPosition {
    const NAME: &'static str = "classic";
    const CELLS: i32 = crate::CELLS as i32;
    const KEY_WIDTH: u32 = crate::KEY_WIDTH;
    #[inline(always)]
    fn white_to_move(&self) -> bool {
        ClassicPosition::white_to_move(self)
    }
    #[inline(always)]
    fn stone_count(&self) -> i32 {
        self.count() as i32
    }
    #[inline(always)]
    fn playable(&self) -> BitBoard {
        ClassicPosition::playable(self)
    }
    #[inline(always)]
    fn threats(&self, colour: Colour) -> BitBoard {
        ClassicPosition::threats(self, colour)
    }
    fn column_of(cell: Cell) -> u32 {
        ClassicPosition::column_of(cell)
    }
    #[inline(always)]
    fn above(cells: BitBoard) -> BitBoard {
        ClassicPosition::above(cells)
    }
    #[inline(always)]
    fn below(cells: BitBoard) -> BitBoard {
        ClassicPosition::below(cells)
    }
    #[inline(always)]
    fn after(&self, cell: Cell) -> ClassicPosition {
        ClassicPosition::after(self, cell)
    }
    type Symmetries = ();
    fn transposing_symmetries(&self) {}
    #[inline(always)]
    fn key(&self, _: ()) -> u128 {
        ClassicPosition::key(self) as u128
    }
    #[inline(always)]
    fn key_after(&self, cell: Cell, _: ()) -> u128 {
        ClassicPosition::key_after(self, cell) as u128
    }
    type ChildKeys = ();
    fn child_keys(&self, _: ()) {}
    #[inline(always)]
    fn key_after_with(&self, cell: Cell, _: &()) -> u128 {
        ClassicPosition::key_after(self, cell) as u128
    }
    /// Pons's ordering: by the number of threats the mover has after the move, centre
    /// columns first among equals.
    #[inline(always)]
    fn order(&self, moves: BitBoard) -> OrderedMoves {
        let mut order = OrderedMoves::empty();
        let mut scores = [0; 16];
        let playable = self.playable().0;
        // At most one move per column: its lowest empty cell.
        let mut bits = [0; 8];
        for (bit, column) in bits.iter_mut().zip(CENTRE_FIRST) {
            *bit = moves.0 & column;
        }
        let threats = self.threats_after_each(&bits);
        for (&bit, &threats) in bits.iter().zip(&threats) {
            if bit == 0 {
                continue;
            }
            let cell = bit.trailing_zeros() as u8;
            let playable_after = (playable & !bit) | ClassicPosition::above(BitBoard(bit)).0;
            let opens = threats & playable_after != 0;
            order.insert(&mut scores, cell, threats.count_ones(), threats, opens);
        }
        order
    }
    #[inline(always)]
    fn play_ordered(&mut self, order: &OrderedMoves, i: usize) {
        let cell = Cell::from_index(order.as_slice()[i]);
        self.play_with_threats(cell, order.threats_created(i));
    }
    #[inline(always)]
    fn cannot_win(&self, _colour: Colour) -> bool {
        false
    }
    #[inline(always)]
    fn second_player_holds(&self) -> bool {
        false
    }
    #[inline(always)]
    fn first_player_wins_statically(&self) -> bool {
        false
    }

    type Column = ClassicColumn;
    fn column_char(index: u32) -> char {
        let column = ClassicColumn::new(index);
        column.expect("a column of the board").to_char()
    }
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
        let side = |colour: Colour| {
            let own = self.stones(colour).0;
            let theirs = self.stones(colour.other()).0;
            let stones = crate::LINES
                .iter()
                .filter(move |&&line| line & theirs == 0)
                .map(move |&line| (line & own).count_ones());
            let parity = if colour == Colour::White {
                crate::ODD_ROWS
            } else {
                !crate::ODD_ROWS
            };
            side_points(stones, ClassicPosition::threats(self, colour).0, parity)
        };
        let me = Game::mover(self);
        side(me) - side(me.other())
    }
}

impl Record for ClassicRecord {
    type Position = ClassicPosition;
    const COMMAND: &'static str = "score4 --game classic";
    const COLUMN_CHARACTERS: &'static str = "1-7";
    /// 16 MiB stays in the processor's cache and was the fastest on Pons's sets
    /// (docs/CLASSIC.md); 49-bit keys keep any size exact.
    const DEFAULT_TABLE_BYTES: u64 = 16 << 20;
    const SOLVE_TABLE_BYTES: Option<u64> = Some(Self::DEFAULT_TABLE_BYTES);
    fn position(&self) -> &ClassicPosition {
        ClassicRecord::position(self)
    }
    fn outcome(&self) -> Outcome {
        ClassicRecord::outcome(self)
    }
    fn play_column(&mut self, column: ClassicColumn) -> Result<(), String> {
        ClassicRecord::play(self, column.index()).map_err(|error| error.to_string())
    }
    fn columns_played(&self) -> Vec<ClassicColumn> {
        self.moves()
            .iter()
            .map(|&c| ClassicColumn::new(c).expect("a played column exists"))
            .collect()
    }
    fn column_from_char(character: char) -> Option<ClassicColumn> {
        ClassicColumn::from_char(character)
    }
    fn board_text(&self) -> String {
        ClassicRecord::position(self).to_string()
    }
    /// Columns `1`–`7` as Pons writes them, rows `1`–`6` from the bottom (Allis's odd rows are
    /// the first player's).
    fn cell_text(cell: Cell) -> String {
        let row = cell.index() as u32 % crate::geometry::STRIDE + 1;
        format!(
            "column {} at row {row}",
            <ClassicPosition as Game>::column(cell)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_by_column_1_to_7_and_row_1_to_6() {
        let game: ClassicRecord = "4411".parse().unwrap();
        let cell = |column| game.position().drop_cell(column).unwrap();
        assert_eq!(ClassicRecord::cell_text(cell(0)), "column 1 at row 3");
        assert_eq!(ClassicRecord::cell_text(cell(3)), "column 4 at row 3");
        assert_eq!(ClassicRecord::cell_text(cell(6)), "column 7 at row 1");
        let full: ClassicRecord = "77777".parse().unwrap();
        let top = full.position().drop_cell(6).unwrap();
        assert_eq!(ClassicRecord::cell_text(top), "column 7 at row 6");
    }
}
