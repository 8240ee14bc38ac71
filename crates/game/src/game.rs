//! [`Game`]: what the search, the scores and the analysis need of a position.

use core::fmt;

use crate::{BitBoard, Cell, Colour, ForcedLine, Opening, OrderedMoves};

/// A position of a game: what the search, the scores and the analysis need of it.
///
/// Cells are bit indices of a `u64` ([`BitBoard`]) in the game's own layout. The search is
/// generic over this trait and monomorphised for each game, so that one game pays nothing for
/// another: every method a node calls is `#[inline(always)]` in its implementation. Only what
/// really differs between games lives here: geometry (playable cells, what lies above and
/// below), threats, keys and symmetry, the move ordering, the static rules, and for the
/// analysis a static evaluation. Provided methods are the defaults of a game that knows no
/// rules (the classic game keeps most of them).
pub trait Game: Copy + Send + Sync + 'static {
    /// The game's name on the command line (`3d`, `classic`).
    const NAME: &'static str;
    /// Cells of the board (even): a win with the winner's `k`-th stone scores
    /// `CELLS / 2 + 1 - k`.
    const CELLS: i32;
    /// Whether white, the first player, is to move.
    fn white_to_move(&self) -> bool;
    /// The player to move.
    #[inline(always)]
    fn mover(&self) -> Colour {
        if self.white_to_move() {
            Colour::White
        } else {
            Colour::Black
        }
    }
    /// Stones on the board.
    fn stone_count(&self) -> i32;
    /// The cells a move can be played on.
    fn playable(&self) -> BitBoard;
    /// The empty cells that would complete a line of `colour`.
    fn threats(&self, colour: Colour) -> BitBoard;
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
    /// `Position::transposing_symmetries` (for most positions of twenty stones or more, none);
    /// the classic game merges no images (its mirror did not pay, docs/CLASSIC.md).
    fn transposing_symmetries(&self) -> Self::Symmetries;
    /// The key of the position in a table shared by searches (below `2^KEY_WIDTH`): the same
    /// for the position and its images under `symmetries`, and otherwise unique, so that a key
    /// found in the table is always this position or one of its images (of the same value),
    /// whichever symmetries the search that stored it used. Above 64 bits the table keeps keys
    /// that share their top bits (the *page*) in one block of memory: the 3-D game's key
    /// (`Position::table_key_within`) gives the children of a node one page.
    fn key(&self, symmetries: Self::Symmetries) -> u128;
    /// [`Self::key`] of the position after the mover plays `cell`.
    fn key_after(&self, cell: Cell, symmetries: Self::Symmetries) -> u128;
    /// What the keys of a position's children share, computed once for them all by
    /// [`Self::child_keys`] and handed to [`Self::key_after_with`] for each child: the 3-D game's
    /// dead stones for its wide keys, the classic game's nothing.
    type ChildKeys: Copy;
    /// What the keys of this position's children under `symmetries` share.
    fn child_keys(&self, symmetries: Self::Symmetries) -> Self::ChildKeys;
    /// [`Self::key_after`], given [`Self::child_keys`] of this position: what the search calls
    /// for each child of a node.
    fn key_after_with(&self, cell: Cell, keys: &Self::ChildKeys) -> u128;
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
    /// Whether `colour` can no longer make four (`false` says nothing).
    fn cannot_win(&self, colour: Colour) -> bool;
    /// A static proof that the first player cannot win (contract: the first player is to
    /// move); `false` says nothing.
    fn second_player_holds(&self) -> bool;
    /// Whether the mover reaches its goal (the first player a win, the second a win or a draw) by a
    /// chain of at most `depth` moves that each create an opening the other must block (the 3-D
    /// game's forcing chains), counting the positions the chains play in `visited`. Contract:
    /// neither player has an opening, and no single move reaches the mover's goal: none wins by
    /// force ([`Self::wins_by_force`]) and none leaves the mover's rule proven (the gaps after each
    /// move are not 0); the search tests both first, so the chains' first moves are not tested for
    /// them again. `false` says nothing; the classic game does not look.
    #[inline(always)]
    fn forcing_win(&self, depth: u32, visited: &mut u64) -> bool {
        let _ = (depth, visited);
        false
    }
    /// Whether one of `moves` wins by force: afterwards the opponent, with no opening, faces
    /// two openings of the mover, or one right below another of its threats
    /// Contract: neither player has an opening, and no
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
    /// A static proof that the first player wins by a threat it does not have yet (contract:
    /// as [`Self::first_player_wins_statically`]); `false` says nothing, and the classic game
    /// does not look.
    #[inline(always)]
    fn first_player_wins_by_combination(&self) -> bool {
        false
    }
    /// [`Self::first_player_wins_by_combination`] after the first player, to move, plays
    /// `cell` (contract: the move makes no four and leaves the opponent no opening).
    #[inline(always)]
    fn first_player_wins_by_combination_after(&self, cell: Cell) -> bool {
        let _ = cell;
        false
    }
    /// Whether the search asks [`Self::first_player_wins_by_combination_after`] after a move
    /// whose [`Self::winning_gap_after`] is `gap` (the move's gap is at hand when the moves are
    /// ordered). Only time is at stake: the rule is sound wherever it is asked, and `false`
    /// leaves the move to the search.
    #[inline(always)]
    fn combination_worth_asking(gap: u32) -> bool {
        let _ = gap;
        false
    }
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
    /// here ([`NO_COLUMN`](crate::NO_COLUMN) at a search's root).
    #[inline(always)]
    fn order_by_gaps(&self, moves: BitBoard, gaps: &[u8; 16], last_column: u8) -> OrderedMoves {
        let _ = (gaps, last_column);
        self.order(moves)
    }

    /// How a move is named: a column.
    type Column: Copy + Eq + Ord + fmt::Display + fmt::Debug + Send + Sync;
    /// Every column, in the order moves are listed.
    fn columns() -> impl Iterator<Item = Self::Column>;
    /// The cell a stone dropped in `column` lands on, if the column is not full.
    fn drop_cell(&self, column: Self::Column) -> Option<Cell>;
    /// The column of `cell`, as moves are named.
    fn column(cell: Cell) -> Self::Column;
    /// The character that names the column numbered `index` (0-based, as
    /// [`Self::column_of`] numbers them).
    fn column_char(index: u32) -> char;
    /// Whether the mover makes four by playing `cell`.
    fn wins_with(&self, cell: Cell) -> bool;
    /// Whether the board is full.
    fn is_full(&self) -> bool;
    /// A static evaluation for the side to move, for a heuristic search where no proof is in
    /// reach: higher is better for the mover.
    fn evaluate(&self) -> i32;
    /// The mover's score if its next stone wins: with `k` stones of its own on the board, a
    /// win with stone `k + 1` scores `CELLS / 2 - k`.
    #[inline(always)]
    fn score_of_winning_now(&self) -> i32 {
        Self::CELLS / 2 - self.stone_count() / 2
    }
}
