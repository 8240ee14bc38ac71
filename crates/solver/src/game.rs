//! What the search needs of a game, and the two games it knows.
//!
//! The search ([`crate::search`]) and the scores ([`crate::score`]) are generic over [`Game`]
//! and monomorphised for each board, so the 3-D game pays nothing for the classic one. Only
//! what really differs lives behind the trait: geometry (playable cells, what lies above and
//! below), threats, keys and symmetry, the move ordering, and the static rules (the 3-D game's
//! claimeven-and-pairs and zugzwang; none yet for the classic game).

use score4_board::symmetry::SymmetryGroup;
use score4_board::{BitBoard, Cell, Colour, Position};
use score4_classic::ClassicPosition;

use crate::forcing::forcing_win_beyond_one_move;
use crate::ordering::{
    forced_line, opening_after, order_moves, order_moves_by_gaps, wins_by_force, ForcedLine,
    Opening, OrderedMoves,
};
use crate::rules::{
    follow_up_gap, follow_up_gap_after, follow_up_holds, follow_up_holds_after, zugzwang_after,
    zugzwang_gap, zugzwang_gap_after, zugzwang_on_odd_threat,
};

/// A board the search can solve. Cells are bit indices of a `u64` ([`BitBoard`]).
pub trait Game: Copy {
    /// Cells of the board (even): a win with the winner's `k`-th stone scores
    /// `CELLS / 2 + 1 - k`.
    const CELLS: i32;
    /// Whether the first player is to move.
    fn first_to_move(&self) -> bool;
    /// Stones on the board.
    fn stone_count(&self) -> i32;
    /// The cells a move can be played on.
    fn playable(&self) -> BitBoard;
    /// The empty cells that would complete a line of the first (`true`) or second player.
    fn threats_of(&self, first: bool) -> BitBoard;
    /// The column (0-based, as the notation numbers them: the 3-D game's hex digit, the
    /// classic game's digit minus one) of `cell`.
    fn column_of(cell: Cell) -> u32;
    /// The cells directly above those of `cells`.
    fn above(cells: BitBoard) -> BitBoard;
    /// The cells directly below those of `cells`.
    fn below(cells: BitBoard) -> BitBoard;
    /// The position after the mover plays `cell`.
    fn after(&self, cell: Cell) -> Self;
    /// Bits of [`Self::key`] (at most 80): the table must take keys this wide.
    const KEY_WIDTH: u32;
    /// The symmetries a search's table keys fold together ([`Self::key`]).
    type Symmetries: Copy + Send + Sync;
    /// The symmetries that can make two different positions of the search tree below this
    /// position images of each other: the search keys its table with them, so that it finds
    /// every such transposition and computes no image it cannot meet. The 3-D game:
    /// [`Position::transposing_symmetries`] (for most positions of twenty stones or more, none);
    /// the classic game merges no images (its mirror did not pay, docs/CLASSIC.md).
    fn transposing_symmetries(&self) -> Self::Symmetries;
    /// The key of the position in a table shared by searches (below `2^KEY_WIDTH`): the same
    /// for the position and its images under `symmetries`, and otherwise unique, so that a key
    /// found in the table is always this position or one of its images (of the same value),
    /// whichever symmetries the search that stored it used. Above 64 bits the table keeps keys
    /// that share their top bits (the *page*) in one block of memory: the 3-D game's key
    /// ([`Position::table_key_within`]) gives the children of a node one page.
    fn key(&self, symmetries: Self::Symmetries) -> u128;
    /// [`Self::key`] of the position after the mover plays `cell`.
    fn key_after(&self, cell: Cell, symmetries: Self::Symmetries) -> u128;
    /// `moves` in the order to search them, best first.
    fn order(&self, moves: BitBoard) -> OrderedMoves;
    /// What the mover's move to the playable `cell` leaves the opponent, who has no opening:
    /// a free choice, a single block, or a lost position ([`Opening`]). The classic game does
    /// not look ([`Opening::NotLookedAt`]): playing every move to see cost it more time than
    /// the table's answers after blocks saved (Middle-Medium: 8 % fewer nodes, 20–50 % more
    /// time).
    #[inline(always)]
    fn opening_after(&self, cell: Cell) -> Opening {
        let _ = cell;
        Opening::NotLookedAt
    }
    /// Where the mover's move to `cell` leads when it leaves the opponent a single block at
    /// `block` ([`Opening::Block`]): the key of the first position of the forced replies with a
    /// choice, or which player wins on the way ([`ForcedLine`]). By default the key after the
    /// block.
    #[inline(always)]
    fn forced_line(&self, cell: Cell, block: Cell, symmetries: Self::Symmetries) -> ForcedLine {
        ForcedLine::Reaches(self.after(cell).key_after(block, symmetries))
    }
    /// Plays the `i`-th move of `order` (faster than [`Self::after`] where the ordering
    /// found what the move creates).
    fn play_ordered(&mut self, order: &OrderedMoves, i: usize);
    /// Whether the first (`true`) or second player can no longer make four (`false` says
    /// nothing).
    fn cannot_win(&self, first: bool) -> bool;
    /// A static proof that the first player cannot win (contract: the first player is to
    /// move); `false` says nothing.
    fn second_player_holds(&self) -> bool;
    /// Whether the mover reaches its goal (the first player a win, the second a win or a draw)
    /// by a chain of at most `depth` moves that each create an opening the other must block
    /// ([`crate::forcing`]), counting the positions the chains play in `visited`. Contract:
    /// neither player has an opening, and no single move reaches the mover's goal: none wins
    /// by force ([`Self::wins_by_force`]) and none leaves the mover's rule proven (the gaps
    /// after each move are not 0); the search tests both first, so the chains' first moves are
    /// not tested for them again. `false` says nothing; the classic game does not look.
    #[inline(always)]
    fn forcing_win(&self, depth: u32, visited: &mut u64) -> bool {
        let _ = (depth, visited);
        false
    }
    /// Whether one of `moves` wins by force: afterwards the opponent, with no opening, faces
    /// two openings of the mover, or one right below another of its threats
    /// ([`crate::ordering::wins_by_force`]). Contract: neither player has an opening, and no
    /// move of `moves` lies below a threat of the opponent. `true` is a proof that the mover
    /// wins; `false` says nothing, and the classic game does not look.
    #[inline(always)]
    fn wins_by_force(&self, moves: BitBoard) -> bool {
        let _ = moves;
        false
    }
    /// A static proof that the first player wins (contract: the second player is to move);
    /// `false` says nothing.
    fn first_player_wins_statically(&self) -> bool;
    /// How far the second player is from [`Self::second_player_holds`] (contract: the first
    /// player is to move): 0 when it holds, else a positive measure, smaller when closer.
    #[inline(always)]
    fn holding_gap(&self) -> u32 {
        !self.second_player_holds() as u32
    }
    /// How far the first player is from [`Self::first_player_wins_statically`] (contract:
    /// the second player is to move): 0 when it wins, else a positive measure, smaller when
    /// closer.
    #[inline(always)]
    fn winning_gap(&self) -> u32 {
        !self.first_player_wins_statically() as u32
    }
    /// [`Self::holding_gap`] of the position after the mover (the second player) plays `cell`.
    #[inline(always)]
    fn holding_gap_after(&self, cell: Cell) -> u32 {
        self.after(cell).holding_gap()
    }
    /// Whether [`Self::holding_gap_after`] is 0, found without measuring the gap (for a move
    /// whose gap orders nothing).
    #[inline(always)]
    fn holds_after(&self, cell: Cell) -> bool {
        self.holding_gap_after(cell) == 0
    }
    /// Whether [`Self::winning_gap_after`] is 0, found without measuring the gap.
    #[inline(always)]
    fn wins_statically_after(&self, cell: Cell) -> bool {
        self.winning_gap_after(cell) == 0
    }
    /// [`Self::winning_gap`] of the position after the mover (the first player) plays `cell`.
    #[inline(always)]
    fn winning_gap_after(&self, cell: Cell) -> u32 {
        self.after(cell).winning_gap()
    }
    /// `moves` in the order to search them, best first, where `gaps` gives, by column, the
    /// mover's gap after each move ([`Self::holding_gap`] for the second player,
    /// [`Self::winning_gap`] for the first), and `last_column` the column of the move that led
    /// here ([`NO_COLUMN`](crate::ordering::NO_COLUMN) at a search's root).
    #[inline(always)]
    fn order_by_gaps(&self, moves: BitBoard, gaps: &[u8; 16], last_column: u8) -> OrderedMoves {
        let _ = (gaps, last_column);
        self.order(moves)
    }
}

impl Game for Position {
    const CELLS: i32 = 64;
    const KEY_WIDTH: u32 = 80;
    #[inline(always)]
    fn first_to_move(&self) -> bool {
        self.mover() == Colour::White
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
    fn threats_of(&self, first: bool) -> BitBoard {
        self.threats(if first { Colour::White } else { Colour::Black })
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
    fn cannot_win(&self, first: bool) -> bool {
        let colour = if first { Colour::White } else { Colour::Black };
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
    fn forcing_win(&self, depth: u32, visited: &mut u64) -> bool {
        forcing_win_beyond_one_move(self, depth, visited)
    }
    #[inline(always)]
    fn wins_by_force(&self, moves: BitBoard) -> bool {
        wins_by_force(self, moves)
    }
}

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
    const CELLS: i32 = score4_classic::CELLS as i32;
    const KEY_WIDTH: u32 = score4_classic::KEY_WIDTH;
    #[inline(always)]
    fn first_to_move(&self) -> bool {
        ClassicPosition::first_to_move(self)
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
    fn threats_of(&self, first: bool) -> BitBoard {
        self.threats(first)
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
    fn cannot_win(&self, _first: bool) -> bool {
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
}
