//! [`Game`] for [`Position`]: the 3-D game's geometry, keys, move ordering, static rules and
//! forcing chains, as the search and the analysis see them; and [`Record`] for
//! [`GameRecord`].

use score4_game::evaluation::side_points;
use score4_game::{
    BitBoard, Cell, Colour, ForcedLine, Game, Opening, OrderedMoves, Outcome, Record,
};

use crate::bitboard::Layers;
use crate::forcing::forcing_win_beyond_one_move;
use crate::geometry::{lines_in, CellCoordinates, Column};
use crate::ordering::{
    forced_line, opening_after, order_moves, order_moves_by_gaps, wins_by_force,
};
use crate::position::ChildKeys;
use crate::rules::{
    follow_up_gap, follow_up_gap_after, follow_up_holds, follow_up_holds_after, zugzwang_after,
    zugzwang_gap, zugzwang_gap_after, zugzwang_on_odd_threat, zugzwang_on_threat_combination,
    zugzwang_on_threat_combination_after, NO_ODD_THREAT,
};
use crate::symmetry::SymmetryGroup;
use crate::{GameRecord, Position};

/// Layers 0 and 2 of the board: its odd rows counting from 1, white's parity
/// ([`score4_game::evaluation`]).
const ODD_LAYERS: u64 = 0x0000_FFFF_0000_FFFF;

impl Game for Position {
    const NAME: &'static str = "3d";
    const CELLS: i32 = 64;
    const KEY_WIDTH: u32 = 80;
    #[inline(always)]
    fn white_to_move(&self) -> bool {
        Position::mover(self) == Colour::White
    }
    #[inline(always)]
    fn mover(&self) -> Colour {
        Position::mover(self)
    }
    #[inline(always)]
    fn stone_count(&self) -> i32 {
        self.count() as i32
    }
    #[inline(always)]
    fn playable(&self) -> BitBoard {
        Position::playable(self)
    }
    #[inline(always)]
    fn threats(&self, colour: Colour) -> BitBoard {
        Position::threats(self, colour)
    }
    fn column_of(cell: Cell) -> u32 {
        cell.column().number() as u32
    }
    #[inline(always)]
    fn above(cells: BitBoard) -> BitBoard {
        cells.up()
    }
    #[inline(always)]
    fn below(cells: BitBoard) -> BitBoard {
        cells.down()
    }
    #[inline(always)]
    fn after(&self, cell: Cell) -> Position {
        Position::after(self, cell)
    }
    type Symmetries = SymmetryGroup;
    fn transposing_symmetries(&self) -> SymmetryGroup {
        Position::transposing_symmetries(self)
    }
    #[inline(always)]
    fn key(&self, symmetries: SymmetryGroup) -> u128 {
        self.table_key_within(symmetries)
    }
    #[inline(always)]
    fn key_after(&self, cell: Cell, symmetries: SymmetryGroup) -> u128 {
        self.table_key_after_within(cell, symmetries)
    }
    type ChildKeys = ChildKeys;
    #[inline(always)]
    fn child_keys(&self, symmetries: SymmetryGroup) -> ChildKeys {
        Position::child_keys(self, symmetries)
    }
    #[inline(always)]
    fn key_after_with(&self, cell: Cell, keys: &ChildKeys) -> u128 {
        self.table_key_after_with(cell, keys)
    }
    #[inline(always)]
    fn order(&self, moves: BitBoard) -> OrderedMoves {
        order_moves(self, moves)
    }
    #[inline(always)]
    fn opening_after(&self, cell: Cell) -> Opening {
        opening_after(self, cell)
    }
    #[inline(always)]
    fn forced_line(&self, cell: Cell, block: Cell, symmetries: SymmetryGroup) -> ForcedLine {
        forced_line(self, cell, block, symmetries)
    }
    #[inline(always)]
    fn play_ordered(&mut self, order: &OrderedMoves, i: usize) {
        let cell = Cell::from_index(order.as_slice()[i]);
        self.play_creating(cell, order.threats_created(i));
    }
    #[inline(always)]
    fn cannot_win(&self, colour: Colour) -> bool {
        self.live_lines(colour) == 0
    }
    #[inline(always)]
    fn second_player_holds(&self) -> bool {
        follow_up_holds(self)
    }
    #[inline(always)]
    fn holding_gap(&self) -> u32 {
        follow_up_gap(self)
    }
    #[inline(always)]
    fn winning_gap(&self) -> u32 {
        zugzwang_gap(self)
    }
    #[inline(always)]
    fn holding_gap_after(&self, cell: Cell) -> u32 {
        follow_up_gap_after(self, cell)
    }
    #[inline(always)]
    fn winning_gap_after(&self, cell: Cell) -> u32 {
        zugzwang_gap_after(self, cell)
    }
    #[inline(always)]
    fn holds_after(&self, cell: Cell) -> bool {
        follow_up_holds_after(self, cell)
    }
    #[inline(always)]
    fn wins_statically_after(&self, cell: Cell) -> bool {
        zugzwang_after(self, cell)
    }
    #[inline(always)]
    fn order_by_gaps(&self, moves: BitBoard, gaps: &[u8; 16], last_column: u8) -> OrderedMoves {
        order_moves_by_gaps(self, moves, gaps, last_column)
    }
    #[inline(always)]
    fn first_player_wins_statically(&self) -> bool {
        zugzwang_on_odd_threat(self)
    }
    #[inline(always)]
    fn first_player_wins_by_combination(&self) -> bool {
        zugzwang_on_threat_combination(self)
    }
    #[inline(always)]
    fn first_player_wins_by_combination_after(&self, cell: Cell) -> bool {
        zugzwang_on_threat_combination_after(self, cell)
    }
    /// Only where white has no odd threat: there the rule settled 0.21 % of the moves it was
    /// asked about (first 300 of d28), elsewhere 0.03 %. On all of d24, asking only there took
    /// the time of never asking for 4.5 % fewer nodes; asking after every move took 3.8 % more
    /// time (docs/PERFORMANCE.md, "d24: where white's threat combinations are asked").
    #[inline(always)]
    fn combination_worth_asking(gap: u32) -> bool {
        gap == NO_ODD_THREAT
    }
    #[inline(always)]
    fn forcing_win(&self, depth: u32, visited: &mut u64) -> bool {
        forcing_win_beyond_one_move(self, depth, visited)
    }
    #[inline(always)]
    fn wins_by_force(&self, moves: BitBoard) -> bool {
        wins_by_force(self, moves)
    }

    type Column = Column;
    fn column_char(index: u32) -> char {
        let column = u8::try_from(index).ok().and_then(Column::new);
        column.expect("a column of the board").to_char()
    }
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

impl Record for GameRecord {
    type Position = Position;
    const COMMAND: &'static str = "score4";
    const COLUMN_CHARACTERS: &'static str = "0-9, A-F";
    /// 1 GiB: the report's table size, enough for the positions a user analyses or plays.
    const DEFAULT_TABLE_BYTES: u64 = 1 << 30;
    /// The game's positions are hard: a solve takes the machine.
    const SOLVE_TABLE_BYTES: Option<u64> = None;
    fn position(&self) -> &Position {
        GameRecord::position(self)
    }
    fn outcome(&self) -> Outcome {
        GameRecord::outcome(self)
    }
    fn play_column(&mut self, column: Column) -> Result<(), String> {
        GameRecord::play(self, column)
            .map(|_| ())
            .map_err(|error| error.to_string())
    }
    fn columns_played(&self) -> Vec<Column> {
        self.moves().to_vec()
    }
    fn column_from_char(character: char) -> Option<Column> {
        Column::from_char(character)
    }
    fn board_text(&self) -> String {
        GameRecord::position(self).to_string()
    }
    /// Layers as the drawings label them: `z=0` at the bottom to `z=3` at the top.
    fn cell_text(cell: Cell) -> String {
        format!("column {} at z={}", cell.column(), cell.z())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_by_column_and_layer_as_drawn() {
        assert_eq!(GameRecord::cell_text(Cell::new(0, 0, 0)), "column 0 at z=0");
        assert_eq!(GameRecord::cell_text(Cell::new(3, 1, 1)), "column 7 at z=1");
        assert_eq!(GameRecord::cell_text(Cell::new(3, 3, 3)), "column F at z=3");
    }
}
