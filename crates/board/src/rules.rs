//! Static rules: strategies for the rest of the game, checked against every line the other
//! player could still complete, that settle a node without searching it. Both are Allis's
//! Connect Four rules generalised to the 76 lines of the 4×4×4 board; in both, the player with
//! the strategy answers each move of the other on top of it, so it gets every other cell of a
//! column, and pairs up the next cells of the columns where that parity is wrong.
//!
//! **Black holds** ([`follow_up_holds`], white to move): Allis's *claimeven* on every column
//! with *baseinverse* on pairs of columns.
//!
//! - White to move means an even number of stones, so the columns of odd height come in pairs
//!   of cells: the lowest empty cell of each such column, which lies on layer 1 or 3 (counting
//!   from 0).
//! - Black pairs those cells up. When white plays one cell of a pair, black plays the other;
//!   when white plays anywhere else (a column of even height, so on layer 0 or 2), black plays
//!   on top of it (layer 1 or 3). Black always has that answer, so every column returns to even
//!   height after black's reply.
//! - So white only ever gets the empty cells of layers 0 and 2 and one cell of each pair. A line
//!   white could still complete must therefore contain an empty cell of layer 1 or 3 that is not
//!   in a pair (black's for sure), or both cells of one pair.
//!
//! If some pairing kills every line white is still live on, white cannot win: the position is
//! not a first-player win. With no column of odd height this is Tromp's "evens" test.
//!
//! A line is also harmless when black, by the same strategy, completes a line of his own
//! first: one made of his stones and sure cells that each lie below a cell of white's line in
//! the same column (Allis's *aftereven*; see `completed_first`). Both rules use it.
//!
//! **White wins by zugzwang** ([`zugzwang_on_odd_threat`], black to move): Allis's rule for a
//! white *odd threat* (a threat on layer 2, the third row), with the same follow-up and pairs
//! played by white in the other columns; the proof is in the function's documentation.
//!
//! **White wins by a threat combination** ([`zugzwang_on_threat_combination`], black to move):
//! Allis's rule for an odd threat white does not have yet: two white lines that lack the same
//! layer-2 cell and two cells one above the other in another column, so that white gets the
//! threat or two threats one above the other whatever black does; the same strategy as the
//! zugzwang's, with what black may take besides (the proof is in the function's documentation).
//!
//! **Mirrored columns** (both rules): when the strategy leaves the attacker a single line, and
//! that line lies in one layer, the defender may instead *mirror* two of its columns of equal
//! height: a move of the attacker in one is answered at the same height in the other. Heights
//! stay equal, so the answer is always playable; the defender gets one cell of each pair at the
//! same height (which kills the line), and loses the two columns' sure cells and pairs (so the
//! whole strategy is checked again, see `holds_with_mirror`). The columns of odd height outside
//! the mirror still come in an even number, as the mirror takes two of equal height. A mirrored
//! column needs a stone of the defender: else its vertical line is the attacker's. The mirror
//! is tried once per call, and only for one line: searching up to eight mirrors at every rule
//! call cost more than it saved (docs/PERFORMANCE.md, "Static rules").
//!
//! **A counter-threat as a spare tempo** (both rules): the commonest failure of black's rule is
//! a single white threat on layer 2 above a column of one stone (`t2` above the playable `t1`):
//! the follow-up pairs `t1` and gives white `t2`. When black has a threat of its own on layer 2
//! above another column of one stone (`v2` above `v1`), white can never play `v1`, so black may
//! answer `t1` with `t2` (Allis's *vertical*) and spend `v1` later, as the answer to `t3`.
//! White's zugzwang gets the mirror image with a second white threat. The strategy and its
//! proof, for both, are in `spare_tempo_kills`. It is tried when the lines the strategy leaves
//! the attacker (the first two, as far as the test looks) share such a layer-2 cell, however
//! many lines it leaves.
//!
//! **Verticals: befores and lowinverses** (both rules): most lines the strategy leaves the
//! attacker lie on layer 2, where it gets every cell. A column whose layer-1 and layer-2 cells
//! are empty may instead be played as Allis's *vertical*: the attacker's move on layer 1 is
//! answered on layer 2, and the column's other empty cells become *free* cells, answered by
//! free cells (the strategy and its proof are in `verticals_kill`). Two verticals under one
//! line make a *lowinverse*: the defender never enters them first, so it gets the layer-2 cell
//! of the column the attacker enters first, which kills the line. A vertical under a line also
//! kills it when the defender's line below, made of its stones, sure cells and the verticals'
//! layer-1 cells, would be completed first (Allis's *before*).
//!
//! The search applies each rule at the nodes of its contract and after every move of the player
//! to move (a move that hands the other a settled position settles this node too). The tests
//! (`tests/rules.rs`) check every position a rule settles against the plain reference solver.
//! After a move the search asks for the rule's *gap* instead ([`follow_up_gap`],
//! [`zugzwang_gap`]: 0 exactly when the rule holds, else how many lines it leaves alive), and
//! orders the moves by it.

use crate::geometry::{
    lines_in, lines_through_any, lines_through_any_on_odd_layers, LINE_SET_THROUGH,
};
use crate::{BitBoard, Cell, Colour, Position};

/// Cells of layers 1 and 3 (counting from 0 at the bottom).
pub const ODD_LAYERS: u64 = 0xFFFF_0000_FFFF_0000;

/// Pairings tried before the rule gives up (and says nothing); keeps the worst case bounded.
const PAIRING_BUDGET: u32 = 64;

/// Lines needing a pair that the rule handles; with more it gives up (and says nothing). Small,
/// so that the lists live in a few cache lines on the stack.
const MAX_NEEDS: usize = 16;

/// Whether black, with white to move, keeps white from four by the follow-up-and-pairs strategy
/// described above, or by it with two columns mirrored (module documentation).
///
/// Contract: white is to move and nobody has four in a line. `true` is a proof that the
/// position is not a first-player win; `false` says nothing.
///
/// ```
/// use score4_board::GameRecord;
/// use score4_board::rules::{follow_up_holds, ODD_LAYERS};
/// let game: GameRecord = "59B5A685E3CFC1E1402CFF65B42A12EE1AF4CB".parse().unwrap();
/// let position = game.position();
/// assert_eq!(position.to_string(), "\
/// z=0      z=1      z=2      z=3      columns
/// O O X O  · O X ·  · X O ·  · X · ·  0 1 2 3
/// X X O ·  O O X ·  O O · ·  · O · ·  4 5 6 7
/// X O X X  · · O X  · · O O  · · · ·  8 9 A B
/// X · X O  X · X X  O · X O  X · O X  C D E F
/// ");
/// // Columns 0, 2, 3, 4, 8, 9, A and B have odd height: the evens test alone cannot
/// // apply, but with their next cells paired black holds, so X (to move) does not win.
/// assert_eq!((position.playable().0 & ODD_LAYERS).count_ones(), 8);
/// assert!(follow_up_holds(position));
/// ```
///
/// With a mirror (module documentation):
///
/// ```
/// use score4_board::GameRecord;
/// use score4_board::rules::{follow_up_holds, follow_up_holds_without_mirror};
/// let game: GameRecord = "50551DC518DC1103DCC3266AAD4873".parse().unwrap();
/// let position = game.position();
/// assert_eq!(position.to_string(), "\
/// z=0      z=1      z=2      z=3      columns
/// O X X O  X X · O  · X · O  · O · ·  0 1 2 3
/// X X O X  · X X ·  · O · ·  · O · ·  4 5 6 7
/// O · O ·  O · X ·  · · · ·  · · · ·  8 9 A B
/// X O · ·  O X · ·  O X · ·  X O · ·  C D E F
/// ");
/// // The follow-up and pairs leave X the line of columns 2, 6, A, E on layer 2 (X gets
/// // every cell of layers 0 and 2); mirroring columns 6 and A (two stones each, an O in
/// // each) gives O one of their cells on layer 2.
/// assert!(!follow_up_holds_without_mirror(position));
/// assert!(follow_up_holds(position));
/// ```
///
/// With a counter-threat (module documentation):
///
/// ```
/// use score4_board::GameRecord;
/// use score4_board::rules::{follow_up_holds, follow_up_holds_without_counter_threat};
/// let game: GameRecord = "FD4C856D2C01933A65AF7248F559111A2BD4A6F049".parse().unwrap();
/// let position = game.position();
/// assert_eq!(position.to_string(), "\
/// z=0      z=1      z=2      z=3      columns
/// X O X O  O X O X  · O X ·  · X · ·  0 1 2 3
/// X O X X  X O X ·  O O O ·  X X · ·  4 5 6 7
/// X X O O  O O X ·  · O O ·  · · X ·  8 9 A B
/// O O · X  O O · O  · X · X  · · · X  C D E F
/// ");
/// // Columns 7 and B hold one stone each. The follow-up pairs their cells on layer 1 and
/// // leaves X a line through B's cell on layer 2. O holds 4, 5 and 6 on layer 2, so X never
/// // plays 7's layer-1 cell: O answers X in B's layer 1 on B's layer 2, and X in B's top
/// // cell with 7's layer-1 cell. Neither the pairs nor a mirror settle it.
/// assert!(!follow_up_holds_without_counter_threat(position));
/// assert!(follow_up_holds(position));
/// ```
#[inline(always)]
pub fn follow_up_holds(position: &Position) -> bool {
    lines_left_to_white::<false, ALL_EXTRAS>(position) == 0
}

/// [`follow_up_holds`] without mirrored columns: claimeven and pairs alone (for the tests, which
/// count the positions only the mirror settles).
///
/// Contract: as [`follow_up_holds`].
pub fn follow_up_holds_without_mirror(position: &Position) -> bool {
    lines_left_to_white::<false, NO_EXTRAS>(position) == 0
}

/// [`follow_up_holds`] without the counter-threat (for the tests, which count the positions
/// only the counter-threat settles).
///
/// Contract: as [`follow_up_holds`].
pub fn follow_up_holds_without_counter_threat(position: &Position) -> bool {
    lines_left_to_white::<false, MIRROR_ONLY>(position) == 0
}

/// [`follow_up_holds`] without the verticals (befores and lowinverses; for the tests, which
/// count the positions only the verticals settle).
///
/// Contract: as [`follow_up_holds`].
pub fn follow_up_holds_without_verticals(position: &Position) -> bool {
    lines_left_to_white::<false, NO_VERTICALS>(position) == 0
}

/// The rules' strategies beyond follow-up and pairs that a check tries: none, the mirror only,
/// the mirror and the counter-threat (for white, the second threat), or those and the
/// verticals (befores and lowinverses).
const NO_EXTRAS: u8 = 0;
/// See [`NO_EXTRAS`].
const MIRROR_ONLY: u8 = 1;
/// See [`NO_EXTRAS`].
const NO_VERTICALS: u8 = 2;
/// See [`NO_EXTRAS`].
const ALL_EXTRAS: u8 = 3;

/// How far black is from holding by the strategy of [`follow_up_holds`] (white to move): 0
/// when it holds, else the number of white's lines it leaves alive (1 when only the pairing
/// fails). The search orders black's moves by it: a move that leaves white fewer lines tends
/// to hold sooner.
#[inline(always)]
pub fn follow_up_gap(position: &Position) -> u32 {
    lines_left_to_white::<true, ALL_EXTRAS>(position)
}

/// [`follow_up_gap`] of the position after black, to move in `position`, plays `cell`: the
/// same count, read without making the move (no keys, no threats: the rule needs neither).
///
/// Contract: black is to move, `cell` is playable and the move makes no four.
#[inline(always)]
pub fn follow_up_gap_after(position: &Position, cell: Cell) -> u32 {
    let gap = left_to_white_after::<true>(position, cell);
    debug_assert_eq!(gap, follow_up_gap(&position.after(cell)));
    gap
}

/// Whether [`follow_up_gap_after`] is 0 — black holds after playing `cell` — without counting
/// the lines left alive (it stops at the first). The search asks this where the count orders
/// nothing: a node with a single move.
///
/// Contract: as [`follow_up_gap_after`].
#[inline(always)]
pub fn follow_up_holds_after(position: &Position, cell: Cell) -> bool {
    let holds = left_to_white_after::<false>(position, cell) == 0;
    debug_assert_eq!(holds, follow_up_holds(&position.after(cell)));
    holds
}

/// [`follow_up_gap_after`]; with `COUNT_ALL` false only whether it is 0.
#[inline(always)]
fn left_to_white_after<const COUNT_ALL: bool>(position: &Position, cell: Cell) -> u32 {
    debug_assert_eq!(position.mover(), Colour::Black);
    let bit = 1u64 << cell.index();
    left_to_white::<COUNT_ALL, ALL_EXTRAS>(
        position.occupied().0 | bit,
        position.stones(Colour::Black).0 | bit,
        position.live_lines(Colour::White) & !LINE_SET_THROUGH[cell.index() as usize],
        || (position.threats(Colour::Black).0 | position.threats_created_by(cell).0) & !bit,
    )
}

/// [`follow_up_gap`]; with `COUNT_ALL` false only whether it is 0; `EXTRAS` says which of the
/// mirror and the counter-threat are tried.
#[inline(always)]
fn lines_left_to_white<const COUNT_ALL: bool, const EXTRAS: u8>(position: &Position) -> u32 {
    debug_assert_eq!(position.mover(), Colour::White);
    left_to_white::<COUNT_ALL, EXTRAS>(
        position.occupied().0,
        position.stones(Colour::Black).0,
        position.live_lines(Colour::White),
        || position.threats(Colour::Black).0,
    )
}

/// [`lines_left_to_white`] from what it reads of the position: the occupied cells, black's
/// stones and white's live lines, and (asked only when the counter-threat might apply)
/// black's threats.
#[inline(always)]
fn left_to_white<const COUNT_ALL: bool, const EXTRAS: u8>(
    occupied: u64,
    blacks: u64,
    white_lines: u128,
    black_threats: impl Fn() -> u64,
) -> u32 {
    let empty = !occupied;
    let paired = empty & !(empty << 16) & ODD_LAYERS;
    let sure = empty & ODD_LAYERS & !paired;
    // White's live lines hold no black stone already.
    let unkilled = white_lines & !lines_through_any_on_odd_layers(sure);
    let mut first_two = Alive::default();
    let stop_after = lines_to_count(COUNT_ALL, EXTRAS);
    let left = lines_left_alive(
        unkilled,
        blacks | sure,
        paired,
        empty,
        stop_after,
        &mut first_two,
    );
    if EXTRAS != NO_EXTRAS && left >= 1 && first_two.first != 0 {
        let alive_cells = first_two.shared();
        let strategy = Strategy {
            occupied,
            defended: blacks,
            sure_odd: 0,
            paired,
            fixed: 0,
            lines: white_lines,
        };
        // The counter-threat's cheap test in line: a cell of the lines alive above a column
        // of one stone (black's threats are then read, after a move found).
        if (left == 1 && mirror_kills(strategy, alive_cells))
            || (EXTRAS >= NO_VERTICALS
                && alive_cells & above_one_stone(occupied) != 0
                && spare_tempo_kills(strategy, black_threats(), alive_cells))
            || (EXTRAS == ALL_EXTRAS
                && left <= 2
                && verticals_kill(strategy, first_two, &black_threats))
        {
            return 0;
        }
    }
    left
}

/// Whether the defender reaches its goal by `strategy` with one change, when the strategy
/// leaves the attacker lines alive that all (as far as `alive_cells`, the cells the first two
/// share, says) run through the layer-2 cell `t2` of a column *T* holding one stone, and the
/// defender has a threat (one of `defender_threats`) on layer 2 of another column *V* holding
/// one stone (`v2`, above the playable `v1`). For black's rule this is the counter-threat, for
/// white's zugzwang the second threat (module documentation); *T* and *V* lie outside
/// `strategy.fixed`, the zugzwang threat's column.
///
/// The defender's strategy: in every column but *T* and *V* (and the fixed one), the follow-up
/// and pairs as before (*T* and *V* both have odd height, so the columns of odd height left to
/// pair keep their parity). In *T*, the defender answers the attacker's `t1` with `t2`
/// (Allis's *vertical*), and `t3` with `v1`. In *V*, the attacker's `v1` lets the defender
/// win on `v2` (and whenever `v2` is playable and empty on the defender's turn, it wins
/// there); after the defender's `v1`, the attacker must block on `v2`, and the defender
/// answers with `v3`. Every answer is playable when it is due: `t2` right after `t1`; `v1`
/// when `t3` is played, as only that answer ever fills it (or the attacker, who then loses);
/// `v3` right after `v2`. Every attacker's move is answered, so for the zugzwang the count of
/// black's other moves keeps its parity.
///
/// So the defender gets `t2` and `v3` for sure, besides what the strategy gave it; the
/// attacker may get `t1`, `t3` and `v2`, and `v1` only by a move that loses unless it makes
/// four itself — so `v1` counts as the attacker's, and lines through it must die otherwise. If
/// every attacker's line still dies (a sure cell, a whole pair, or the defender's line
/// completed first), the attacker never makes four first.
#[cold]
#[inline(never)]
fn spare_tempo_kills(strategy: Strategy, defender_threats: u64, alive_cells: u64) -> bool {
    let empty = !strategy.occupied;
    let tops = above_one_stone(strategy.occupied) & !strategy.fixed;
    let mut counters = defender_threats & tops;
    // The candidate cells t2: on the lines left alive.
    let threatened = alive_cells & tops;
    if counters == 0 || threatened == 0 {
        return false;
    }
    while counters != 0 {
        let v2 = counters & counters.wrapping_neg();
        counters &= counters - 1;
        let v_column = COLUMN_0 << (v2.trailing_zeros() % 16);
        let mut t_cells = threatened & !v_column;
        while t_cells != 0 {
            let t2 = t_cells & t_cells.wrapping_neg();
            t_cells &= t_cells - 1;
            let t_column = COLUMN_0 << (t2.trailing_zeros() % 16);
            let changed = t_column | v_column;
            let paired = strategy.paired & !changed;
            let sure_odd = (empty & ODD_LAYERS & !paired & !changed & !strategy.fixed)
                | strategy.sure_odd
                | (v2 << 16);
            let unkilled = strategy.lines
                & !lines_through_any_on_odd_layers(sure_odd)
                & !LINE_SET_THROUGH[t2.trailing_zeros() as usize];
            let left = lines_left_alive(
                unkilled,
                strategy.defended | sure_odd | t2,
                paired,
                empty,
                0,
                &mut Alive::default(),
            );
            if left == 0 {
                return true;
            }
        }
    }
    false
}

/// Whether the defender reaches its goal by `strategy` with some columns played as Allis's
/// *verticals* instead: a column with its layer-1 cell `v1` and layer-2 cell `v2` empty, where
/// the attacker's move on `v1` is answered on `v2`. The changes tried are those that can kill
/// the first two lines the strategy leaves alive (`first_two`): *befores* (every column of one
/// stone below a layer-2 cell of those lines made a vertical, or each alone) and *lowinverses*
/// (two verticals below two layer-2 cells of one line), a lowinverse on each line, each with
/// and without the befores.
///
/// **The strategy with verticals.** In every other column, `strategy` as before. In a vertical
/// column, the cells outside the vertical (`v0` if the column is empty, and `v3`) are *free*,
/// as are the columns of odd height the change leaves unpaired. An attacker's move on `v1` is
/// answered on `v2`; the defender may also take `v1` itself (then `v2` is free too), except in
/// a lowinverse whose two columns are both untouched. An attacker's move on a free cell is
/// answered on another free cell that is playable, or else by taking the `v1` of a vertical
/// that is not part of an untouched lowinverse.
///
/// **Why the defender always has that answer.** Count the free cells that are empty, less two
/// for each untouched lowinverse (whose two top cells only the attacker's entry releases). With
/// the attacker to move the count is even: the columns of odd height are even in number, and
/// each is paired, free, or a vertical with one free top cell (an empty vertical column has two
/// free cells), and a lowinverse's two top cells are taken out together. An attacker's free move
/// leaves it odd, so at least one such cell is empty: a free cell that is playable, or the top
/// cell of a vertical whose `v1` the defender may take (which frees `v2` and keeps the count
/// even). An attacker's `v1` answered on `v2` releases `v3` and, in a lowinverse, the other
/// column's top cell: the count is unchanged. So the defender never has to play the lower cell
/// of a follow-up pair, and every pair and sure cell of the strategy holds. Free cells are
/// counted as the attacker's.
///
/// **What the defender gets.** Its sure cells outside the vertical columns, one cell of each
/// pair, `v1` or `v2` of each vertical, and of a lowinverse also one of the two `v2` cells (the
/// column the attacker enters first gives the defender its `v2`). So a line dies if it holds
/// both `v1` and `v2` of a vertical, or both `v2` cells of a lowinverse, or if the defender
/// completes a line of its own first: one made of its stones, sure cells below the line
/// (aftereven) and `v1` cells below the line's `v2` cells (Allis's *before*). If the attacker
/// ever held all of its line, it held each such `v2`, so the defender held each such `v1`, and
/// the last of the defender's cells to be filled completed its line while the cell above it was
/// still empty ([`completed_first_with_verticals`]).
#[inline(always)]
fn verticals_kill(strategy: Strategy, first_two: Alive, threats: impl Fn() -> u64) -> bool {
    // Each of the two lines must be one a change can kill: a line of layer 2 with two cells
    // above empty layer-1 cells (a lowinverse), or one a before kills with the verticals below
    // it (most lines are neither, and the strategy is not checked again).
    let empty = !strategy.occupied;
    let below_empty = ((empty & LAYER_1 & !strategy.fixed) << 16) & LAYER_2;
    let candidates = (first_two.first | first_two.second) >> 16 & strategy.paired & LAYER_1;
    let threats = if candidates != 0 { threats() } else { 0 };
    let before_under = |line: u64| (line >> 16) & candidates & threats;
    let (first, second) = (
        first_two.first & below_empty,
        first_two.second & below_empty,
    );
    let befores = (
        before_under(first_two.first),
        before_under(first_two.second),
    );
    let killable = |inverse: u64, before: u64, line: u64| {
        line == 0 || inverse.count_ones() >= 2 || before != 0
    };
    if !killable(first, befores.0, first_two.first)
        || !killable(second, befores.1, first_two.second)
    {
        return false;
    }
    some_verticals_kill(
        strategy,
        befores.0 | befores.1,
        if first.count_ones() >= 2 { first } else { 0 },
        if second.count_ones() >= 2 { second } else { 0 },
    )
}

/// [`verticals_kill`] with its candidates: `befores`, the layer-1 cells of columns of one
/// stone below the lines where a before may kill them; `first` and `second`, the layer-2 cells
/// of each line with an empty cell below, where there are two or more (else 0).
#[cold]
#[inline(never)]
fn some_verticals_kill(strategy: Strategy, befores: u64, first: u64, second: u64) -> bool {
    if befores != 0 {
        if holds_with_verticals(strategy, befores, [0, 0]) {
            return true;
        }
        if befores.count_ones() > 1 {
            let mut each = befores;
            while each != 0 {
                let vertical = each & each.wrapping_neg();
                each &= each - 1;
                if holds_with_verticals(strategy, vertical, [0, 0]) {
                    return true;
                }
            }
        }
    }
    // Lowinverses: a pair of cells of one line (0 for none on the second line).
    let mut budget = LOWINVERSE_BUDGET;
    for upper in core::iter::once(0).chain(pairs_of(first)) {
        for other in core::iter::once(0).chain(pairs_of(second)) {
            if upper | other == 0 || columns_of(other) & columns_of(upper) != 0 {
                continue;
            }
            let inverses = upper | other;
            for with_befores in [false, true] {
                let extra = befores & !columns_of(inverses);
                if with_befores && extra == 0 {
                    continue;
                }
                if budget == 0 {
                    return false;
                }
                budget -= 1;
                let verticals = (inverses >> 16) | if with_befores { extra } else { 0 };
                if holds_with_verticals(strategy, verticals, [upper, other]) {
                    return true;
                }
            }
        }
    }
    false
}

/// Strategies [`some_verticals_kill`] tries with lowinverses before it gives up (and says
/// nothing).
const LOWINVERSE_BUDGET: u32 = 16;

/// Every set of two cells of `cells`.
fn pairs_of(cells: u64) -> impl Iterator<Item = u64> {
    single_bits(cells)
        .flat_map(move |a| single_bits(cells & !(a << 1).wrapping_sub(1)).map(move |b| a | b))
}

/// The cells of `cells` one by one, each as a set of one bit, lowest first.
fn single_bits(cells: u64) -> impl Iterator<Item = u64> {
    BitBoard(cells).iter().map(|cell| 1u64 << cell.index())
}

/// The whole columns of the cells of `cells`.
#[inline(always)]
fn columns_of(cells: u64) -> u64 {
    let columns = (cells | cells >> 16 | cells >> 32 | cells >> 48) & LAYER_0;
    columns * COLUMN_0
}

/// Whether `strategy` with the columns of the layer-1 cells `verticals` played as verticals,
/// and the pairs of layer-2 cells `lowinverses` (0 for none) as lowinverses, kills every line
/// of the attacker ([`verticals_kill`]).
fn holds_with_verticals(strategy: Strategy, verticals: u64, lowinverses: [u64; 2]) -> bool {
    let empty = !strategy.occupied;
    let columns = columns_of(verticals);
    let paired = strategy.paired & !columns;
    let sure_before = empty & ODD_LAYERS & !strategy.paired & !strategy.fixed;
    let sure = (sure_before & !columns) | strategy.sure_odd;
    let defended = strategy.defended | sure;
    let unkilled = strategy.lines & !lines_through_any_on_odd_layers(sure);
    // The lines only the sure cells the verticals give up killed are the likeliest to survive:
    // they are checked first.
    let revived = unkilled & lines_through_any_on_odd_layers(sure_before & columns);
    let lines = lines_in(revived).chain(lines_in(unkilled & !revived));
    // Both cells of a vertical, or both upper cells of a lowinverse: the defender gets one.
    let changed = |line: u64| {
        line & (line >> 16) & verticals != 0
            || lowinverses
                .iter()
                .any(|&upper| upper != 0 && line & upper == upper)
    };
    every_line_dies(lines, changed, paired, defended, verticals, empty)
}

/// Whether every one of `lines` dies: killed by a rule's change (`changed`), holding both
/// cells of a pair of `paired` for some pairing, or completed first by the defender, who holds
/// `defended` and the lower cells of the `verticals` below the line
/// ([`completed_first_with_verticals`]).
fn every_line_dies(
    lines: impl Iterator<Item = u64>,
    changed: impl Fn(u64) -> bool,
    paired: u64,
    defended: u64,
    verticals: u64,
    empty: u64,
) -> bool {
    let mut needs = [0u64; MAX_NEEDS];
    let mut count = 0;
    for line in lines {
        if changed(line) {
            continue;
        }
        let in_pairs = line & paired;
        if in_pairs.count_ones() >= 2 && count < MAX_NEEDS {
            needs[count] = in_pairs;
            count += 1;
            continue;
        }
        if !completed_first_with_verticals(line, defended, verticals, empty) {
            return false;
        }
    }
    let mut budget = PAIRING_BUDGET;
    pairing_exists(&needs[..count], paired, &mut budget)
}

/// How many lines [`lines_left_alive`] counts before it stops: all for a gap; for a yes or no
/// one, or with the mirror and the counter-threat two, or with the verticals too three (the
/// mirror is tried only when a single line is left alive, the counter-threat on the cells the
/// first two lines alive share, and the verticals when at most two are alive, in both, so that
/// a gap is 0 exactly when the rule holds).
#[inline(always)]
const fn lines_to_count(count_all: bool, extras: u8) -> u32 {
    if count_all {
        u32::MAX
    } else if extras == ALL_EXTRAS {
        2
    } else if extras != NO_EXTRAS {
        1
    } else {
        0
    }
}

/// A defender's strategy of follow-up and pairs, as [`holds_with_mirror`] reads it: the
/// defender answers the attacker on top in most columns (and gets their empty odd-layer
/// cells), pairs the next cells of `paired`, and, for the zugzwang, keeps the cells of `fixed`
/// (its threat's column) out of both.
#[derive(Clone, Copy)]
struct Strategy {
    /// The board's occupied cells.
    occupied: u64,
    /// The defender's stones, and the cells it is sure of besides the odd-layer ones (the
    /// zugzwang's threat).
    defended: u64,
    /// Odd-layer cells the defender is sure of outside the columns' follow-up (the cell above
    /// the zugzwang's threat).
    sure_odd: u64,
    /// Playable cells paired up; none in `fixed`'s columns but the zugzwang's empty bottom.
    paired: u64,
    /// Cells outside the follow-up: the zugzwang threat's column (none for black's rule).
    fixed: u64,
    /// The attacker's lines still to kill: live, and through none of the cells `defended`
    /// adds to the stones.
    lines: u128,
}

/// Whether the defender, when its strategy leaves the attacker `alive` (the first line found
/// alive), wins its goal by mirroring two columns of equal height through which `alive` runs
/// in one layer: when the attacker plays in one, the defender plays at the same height in the
/// other. The defender then gets one of each pair of cells at the same height of the two
/// columns, which kills `alive`; it loses their odd-layer cells and their pairs (the columns
/// of odd height left outside the mirror still come in an even number, as a mirror takes two
/// of equal height). Every other column keeps the strategy.
#[inline(always)]
fn mirror_kills(strategy: Strategy, alive: u64) -> bool {
    let layer = alive.trailing_zeros() / 16;
    let row = alive >> (16 * layer);
    // A line through several layers: no mirror kills it. (Most calls end here or at the
    // count of open columns, so those two tests are made in line.)
    if row >> 16 != 0 {
        return false;
    }
    // A mirrored column without a stone of the defender fails: its vertical line is the
    // attacker's, and the mirror leaves the defender none of its cells for sure.
    let d = strategy.defended;
    let defended_columns = d | d >> 16 | d >> 32 | d >> 48;
    let open =
        (!strategy.occupied >> (16 * layer)) & row & defended_columns & !(strategy.fixed & 0xFFFF);
    open.count_ones() >= 2 && some_mirror_kills(strategy, open)
}

/// [`mirror_kills`] with the columns `open` (a bit per column) where the line is empty.
#[cold]
#[inline(never)]
fn some_mirror_kills(strategy: Strategy, open: u64) -> bool {
    let occupied = strategy.occupied;
    let mut first = open;
    while first != 0 {
        let a = first.trailing_zeros();
        first &= first - 1;
        let mut second = first;
        while second != 0 {
            let b = second.trailing_zeros();
            second &= second - 1;
            if (occupied >> a) & COLUMN_0 == (occupied >> b) & COLUMN_0
                && holds_with_mirror(strategy, a, b)
            {
                return true;
            }
        }
    }
    false
}

/// Whether `strategy` with columns `a` < `b` (of equal height, outside `fixed`) mirrored kills
/// every line of the attacker.
fn holds_with_mirror(strategy: Strategy, a: u32, b: u32) -> bool {
    let empty = !strategy.occupied;
    let mirrored = (COLUMN_0 << a) | (COLUMN_0 << b);
    let paired = strategy.paired & !mirrored;
    let sure =
        (empty & ODD_LAYERS & !strategy.paired & !strategy.fixed & !mirrored) | strategy.sure_odd;
    let defended = strategy.defended | sure;
    let unkilled = strategy.lines & !lines_through_any_on_odd_layers(sure);
    // The defender gets one of the two cells at each height of the mirrored columns.
    let changed = |line: u64| ((line & empty & (COLUMN_0 << a)) << (b - a)) & line != 0;
    every_line_dies(lines_in(unkilled), changed, paired, defended, 0, empty)
}

/// The layer-2 cells right above a playable cell of layer 1: the cells `t2` of columns holding
/// one stone, where the counter-threat and the second threat apply.
#[inline(always)]
fn above_one_stone(occupied: u64) -> u64 {
    let empty = !occupied;
    (empty & !(empty << 16) & LAYER_1) << 16
}

/// Cells of layer 0, the bottom.
const LAYER_0: u64 = 0x0000_0000_0000_FFFF;

/// Cells of layer 1 (counting from 0).
const LAYER_1: u64 = 0x0000_0000_FFFF_0000;

/// Cells of layer 2 (counting from 0).
const LAYER_2: u64 = 0x0000_FFFF_0000_0000;

/// The four cells of column 0; shift left by the column's number for the others.
const COLUMN_0: u64 = 0x0001_0001_0001_0001;

/// Whether white, with black to move, wins by zugzwang on a threat in layer 2 (Allis's odd
/// threat, on the 76 lines).
///
/// The strategy: take a white threat `t` on layer 2 whose column holds one stone, so that the
/// cell below `t` (layer 1) is the column's next cell. Black can never play there, or white
/// wins on `t`. In every other column white answers black on top of it, and pairs up the next
/// cells of the other columns of odd height (black plays one, white the other), so that after
/// each white reply those columns have even height again. Black thus only ever gets the empty
/// cells of layers 0 and 2 outside `t`'s column, one cell of each pair, and the cell below `t`
/// (as its last move). Black, always to move with an odd number of empty cells, runs out of
/// other moves first and must play below `t`; then white wins on `t`. If no line black is
/// still live on fits inside what black can get (pairs as in [`follow_up_holds`]), black never
/// makes four first: the position is a first-player win.
///
/// `t`'s column may also be empty: its bottom cell then joins the pairs (the other columns of
/// odd height are then odd in number, so the count stays even). When black plays one cell of
/// that pair and white the other, the column holds one stone and the argument above goes on.
///
/// Two columns outside `t`'s may also be mirrored (module documentation): white answers a
/// black move in one at the same height in the other, so those columns too are balanced after
/// each white reply, and the count of black's other moves keeps its parity.
///
/// Contract: black is to move, black has no opening, and nobody has four in a line. `true` is
/// a proof that white wins; `false` says nothing.
#[inline]
pub fn zugzwang_on_odd_threat(position: &Position) -> bool {
    lines_left_to_black::<false, ALL_EXTRAS>(position) == 0
}

/// Whether white, with black to move, wins by zugzwang on a *threat combination* (Allis's
/// rule, 1988, §8.4, carried to the 76 lines): a threat white does not have yet but is sure
/// to get.
///
/// The combination: a layer-2 cell `s` whose column holds at most one stone (so the cell below
/// `s` is empty), and two white lines `A` and `B` through `s`, each with two white stones and two
/// empty cells: `A` lacks `s` and `o`, `B` lacks `s` and `e`, where `o` lies on layer 0 or 2 of
/// another column and `e` right above it. White plays the strategy of
/// [`zugzwang_on_odd_threat`] with `s` as the threat: follow-up on top of black elsewhere, the
/// next cells of the columns of odd height (and `s`'s column's bottom cell, if empty) paired.
///
/// - While black keeps out of the cell below `s`, the follow-up gives white `e` when black
///   plays `o` (the pair `o`, `e` is one of the follow-up's vertical pairs): `B` then lacks only
///   `s`, a real threat on layer 2, and the proof of [`zugzwang_on_odd_threat`] goes on.
/// - If black plays below `s` first, white takes `s`: `A` lacks only `o` and `B` only `e`, two
///   threats one above the other, so black can never play `o` or below it. Black may still
///   spend the last cell of `s`'s column; white then spends a cell of `o`'s column below `o`
///   (or plays `o` and wins), and black, running out of other moves first, must open `o`.
///
/// So black gets the cells black gets in [`zugzwang_on_odd_threat`], and besides them the top
/// cell of `s`'s column and the cells of `o`'s column below `o` (a white move there may hand
/// black the cell above it). If no line black is still live on fits inside those, white wins.
///
/// Contract: black is to move, black has no opening, and nobody has four in a line. `true` is
/// a proof that white wins; `false` says nothing.
pub fn zugzwang_on_threat_combination(position: &Position) -> bool {
    debug_assert_eq!(position.mover(), Colour::Black);
    wins_by_threat_combination(
        position.occupied().0,
        position.stones(Colour::White).0,
        position.live_lines(Colour::White),
        position.live_lines(Colour::Black),
    )
}

/// [`zugzwang_on_threat_combination`] of the position after white, to move in `position`, plays
/// `cell`, read without making the whole move (no keys).
///
/// Contract: white is to move, `cell` is playable, the move makes no four and leaves black no
/// opening.
#[inline]
pub fn zugzwang_on_threat_combination_after(position: &Position, cell: Cell) -> bool {
    debug_assert_eq!(position.mover(), Colour::White);
    let bit = 1u64 << cell.index();
    let wins = wins_by_threat_combination(
        position.occupied().0 | bit,
        position.stones(Colour::White).0 | bit,
        position.live_lines(Colour::White),
        position.live_lines(Colour::Black) & !LINE_SET_THROUGH[cell.index() as usize],
    );
    debug_assert_eq!(wins, zugzwang_on_threat_combination(&position.after(cell)));
    wins
}

/// [`zugzwang_on_threat_combination`] from what it reads of the position: the occupied cells,
/// white's stones, and both players' live lines.
fn wins_by_threat_combination(
    occupied: u64,
    whites: u64,
    white_lines: u128,
    black_lines: u128,
) -> bool {
    let empty = !occupied;
    let playable = empty & !(empty << 16);
    let mut shared_cells = empty & (above_one_stone(occupied) | ((playable & LAYER_0) << 32));
    while shared_cells != 0 {
        let shared = shared_cells & shared_cells.wrapping_neg();
        shared_cells &= shared_cells - 1;
        let shared_index = shared.trailing_zeros() as usize;
        // The other empty cell of each white line through `s` that lacks two cells.
        let mut partners = 0u64;
        for line in lines_in(white_lines & LINE_SET_THROUGH[shared_index]) {
            let holes = line & empty;
            if holes.count_ones() == 2 {
                partners |= holes & !shared;
            }
        }
        let column = COLUMN_0 << (shared_index % 16);
        let paired = (playable & ODD_LAYERS & !column) | (playable & LAYER_0 & column);
        let mut lower = partners & (LAYER_0 | LAYER_2) & (partners >> 16) & !column;
        while lower != 0 {
            let o = lower & lower.wrapping_neg();
            lower &= lower - 1;
            let below_o = (COLUMN_0 << (o.trailing_zeros() % 16)) & (o - 1);
            let sure_odd = empty & ODD_LAYERS & !paired & !column & !below_o;
            let unkilled = black_lines
                & !lines_through_any_on_odd_layers(sure_odd)
                & !LINE_SET_THROUGH[shared_index];
            let defended = whites | sure_odd | shared;
            if lines_left_alive(unkilled, defended, paired, empty, 0, &mut Alive::default()) == 0 {
                return true;
            }
        }
    }
    false
}

/// [`zugzwang_on_odd_threat`] without mirrored columns (as [`follow_up_holds_without_mirror`]).
///
/// Contract: as [`zugzwang_on_odd_threat`].
pub fn zugzwang_without_mirror(position: &Position) -> bool {
    lines_left_to_black::<false, NO_EXTRAS>(position) == 0
}

/// [`zugzwang_on_odd_threat`] without the second threat (as
/// [`follow_up_holds_without_counter_threat`]).
///
/// Contract: as [`zugzwang_on_odd_threat`].
pub fn zugzwang_without_second_threat(position: &Position) -> bool {
    lines_left_to_black::<false, MIRROR_ONLY>(position) == 0
}

/// [`zugzwang_on_odd_threat`] without the verticals (as [`follow_up_holds_without_verticals`]).
///
/// Contract: as [`zugzwang_on_odd_threat`].
pub fn zugzwang_without_verticals(position: &Position) -> bool {
    lines_left_to_black::<false, NO_VERTICALS>(position) == 0
}

/// How far white is from winning by the zugzwang of [`zugzwang_on_odd_threat`] (black to
/// move): 0 when it wins, else the fewest black lines the strategy leaves alive over the
/// threats it could use (1 when only the pairing fails), or [`NO_ODD_THREAT`] when there is
/// no such threat. The search orders white's moves by it.
#[inline(always)]
pub fn zugzwang_gap(position: &Position) -> u32 {
    lines_left_to_black::<true, ALL_EXTRAS>(position)
}

/// [`zugzwang_gap`] when white has no threat the zugzwang rule could use.
pub const NO_ODD_THREAT: u32 = 76;

/// [`zugzwang_gap`] of the position after white, to move in `position`, plays `cell`: the same
/// count, read without making the whole move (no keys).
///
/// Contract: white is to move, `cell` is playable and the move makes no four.
#[inline(always)]
pub fn zugzwang_gap_after(position: &Position, cell: Cell) -> u32 {
    let gap = left_to_black_after::<true>(position, cell);
    debug_assert_eq!(gap, zugzwang_gap(&position.after(cell)));
    gap
}

/// Whether [`zugzwang_gap_after`] is 0 — white wins by zugzwang after playing `cell` — without
/// counting the lines left alive (as [`follow_up_holds_after`]).
///
/// Contract: as [`zugzwang_gap_after`].
#[inline(always)]
pub fn zugzwang_after(position: &Position, cell: Cell) -> bool {
    let wins = left_to_black_after::<false>(position, cell) == 0;
    debug_assert_eq!(wins, zugzwang_on_odd_threat(&position.after(cell)));
    wins
}

/// [`zugzwang_gap_after`]; with `COUNT_ALL` false only whether it is 0.
#[inline(always)]
fn left_to_black_after<const COUNT_ALL: bool>(position: &Position, cell: Cell) -> u32 {
    debug_assert_eq!(position.mover(), Colour::White);
    let bit = 1u64 << cell.index();
    let created = position.threats_created_by(cell).0;
    left_to_black::<COUNT_ALL, ALL_EXTRAS>(
        position.occupied().0 | bit,
        position.stones(Colour::White).0 | bit,
        (position.threats(Colour::White).0 | created) & !bit,
        position.live_lines(Colour::Black) & !LINE_SET_THROUGH[cell.index() as usize],
    )
}

/// [`zugzwang_gap`]; with `COUNT_ALL` false only whether it is 0; `EXTRAS` says which of the
/// mirror and the second threat are tried.
#[inline(always)]
fn lines_left_to_black<const COUNT_ALL: bool, const EXTRAS: u8>(position: &Position) -> u32 {
    debug_assert_eq!(position.mover(), Colour::Black);
    left_to_black::<COUNT_ALL, EXTRAS>(
        position.occupied().0,
        position.stones(Colour::White).0,
        position.threats(Colour::White).0,
        position.live_lines(Colour::Black),
    )
}

/// [`lines_left_to_black`] from what it reads of the position: the occupied cells, white's
/// stones and threats, and black's live lines.
#[inline(always)]
fn left_to_black<const COUNT_ALL: bool, const EXTRAS: u8>(
    occupied: u64,
    whites: u64,
    white_threats: u64,
    black_lines: u128,
) -> u32 {
    let empty = !occupied;
    let playable = empty & !(empty << 16);
    // Threats on layer 2 right above a playable cell of layer 1 (the column holds one stone)
    // or two above one of layer 0 (the column is empty).
    let mut candidates = white_threats & (above_one_stone(occupied) | ((playable & LAYER_0) << 32));
    let mut fewest = NO_ODD_THREAT;
    if candidates == 0 {
        return fewest;
    }
    while candidates != 0 {
        let threat = candidates & candidates.wrapping_neg();
        candidates &= candidates - 1;
        let column = COLUMN_0 << (threat.trailing_zeros() % 16);
        // The column's bottom cell, if empty, is paired like the odd columns' next cells.
        let paired = (playable & ODD_LAYERS & !column) | (playable & LAYER_0 & column);
        // White's for sure: its stones, the unpaired odd-layer cells outside the column, and
        // the threat and the cell above it.
        let sure_odd = (empty & ODD_LAYERS & !paired & !column) | (threat << 16);
        // Black's live lines hold no white stone already.
        let unkilled = black_lines
            & !lines_through_any_on_odd_layers(sure_odd)
            & !LINE_SET_THROUGH[threat.trailing_zeros() as usize];
        let mut first_two = Alive::default();
        let alive = lines_left_alive(
            unkilled,
            whites | sure_odd | threat,
            paired,
            empty,
            lines_to_count(COUNT_ALL, EXTRAS),
            &mut first_two,
        );
        if alive == 0 {
            return 0;
        }
        if EXTRAS != NO_EXTRAS && first_two.first != 0 {
            let alive_cells = first_two.shared();
            let strategy = Strategy {
                occupied,
                defended: whites | threat,
                sure_odd: threat << 16,
                paired,
                fixed: column,
                lines: black_lines & !LINE_SET_THROUGH[threat.trailing_zeros() as usize],
            };
            if (alive == 1 && mirror_kills(strategy, alive_cells))
                || (EXTRAS >= NO_VERTICALS
                    && alive_cells & above_one_stone(occupied) & !column != 0
                    && spare_tempo_kills(strategy, white_threats, alive_cells))
                || (EXTRAS == ALL_EXTRAS
                    && alive <= 2
                    && verticals_kill(strategy, first_two, || white_threats))
            {
                return 0;
            }
        }
        fewest = fewest.min(alive);
    }
    fewest
}

/// The first two lines a strategy leaves the attacker ([`lines_left_alive`]), 0 for none: a
/// change of the strategy that kills every line must kill these two, so the extras look for
/// their changes on them.
#[derive(Clone, Copy, Default)]
struct Alive {
    first: u64,
    second: u64,
}

impl Alive {
    /// The cells both lines share (the first line's cells if there is no second).
    #[inline(always)]
    fn shared(self) -> u64 {
        if self.second == 0 {
            self.first
        } else {
            self.first & self.second
        }
    }
}

/// How many of the attacker's `unkilled` lines survive when the defender gets every cell of
/// `defended` and one cell of each pair of `paired`, for the best pairing of `paired`'s cells:
/// a line dies if it holds a defended cell, or both cells of one pair, or the defender
/// completes a line first ([`completed_first`]). 0 when every line dies; else the first line
/// that no defended cell, pair or line completed first kills and the later ones that no
/// defended cell or pair kills, or 1 when only the pairing fails. It stops counting once more
/// than `stop_after` lines are alive. `first_two` is set to the first two lines left alive
/// that no line completed first kills, as far as there are any: the same whatever
/// `stop_after` is, as long as it is at least 1.
///
/// Contract: `unkilled` holds only lines through no cell of `defended` (the callers remove
/// them with the line tables of `geometry`, which costs less than testing line by line).
#[inline(always)]
fn lines_left_alive(
    unkilled: u128,
    defended: u64,
    paired: u64,
    empty: u64,
    stop_after: u32,
    first_two: &mut Alive,
) -> u32 {
    debug_assert_eq!(unkilled & lines_through_any(defended), 0);
    // Lines that need a pair are only counted here; their paired cells are gathered in a
    // second pass, needed only when no line is left alive (an array filled on every call cost
    // more).
    let mut count = 0;
    let mut alive = 0;
    for line in lines_in(unkilled) {
        let in_pairs = line & paired;
        if in_pairs.count_ones() < 2 || count == MAX_NEEDS {
            // Once two lines are alive the strategy fails, and the extras' test has its cells:
            // the rest are only counted, the dearer test left out.
            if alive <= 1 && completed_first(line, defended, empty) {
                continue;
            }
            // (A rule's change that kills the lines left alive must kill the first two.)
            if alive == 0 {
                first_two.first = line;
            } else if alive == 1 {
                first_two.second = line;
            }
            // The attacker gets every cell of this line it lacks.
            alive += 1;
            if alive > stop_after {
                return alive;
            }
            continue;
        }
        count += 1;
    }
    if alive > 0 {
        return alive;
    }
    if count == 0 {
        return 0;
    }
    // The paired cells of each line that needs a pair: the first `count` such lines, as above.
    let mut needs = [0u64; MAX_NEEDS];
    let mut gathered = 0;
    for line in lines_in(unkilled) {
        let in_pairs = line & paired;
        if in_pairs.count_ones() >= 2 {
            needs[gathered] = in_pairs;
            gathered += 1;
            if gathered == count {
                break;
            }
        }
    }
    let mut budget = PAIRING_BUDGET;
    !pairing_exists(&needs[..count], paired, &mut budget) as u32
}

/// Whether the defender, playing the strategy, completes a line of its own before the
/// attacker can complete `line` (Allis's *aftereven*, on the 76 lines).
///
/// The defender gets each of its sure empty cells (`defended & empty`) when the column is
/// filled up to it, never earlier or later. Take a line `own` of the defender made of its
/// stones and sure empty cells that each lie below a cell of `line` in the same column. The
/// attacker completes `line` only once each of those cells above is filled, so only once every
/// empty cell of `own` below them is filled — by the defender, who has then completed `own`
/// and ended the game first. Such a `line` is no danger.
#[inline]
fn completed_first(line: u64, defended: u64, empty: u64) -> bool {
    completed_first_with_verticals(line, defended, 0, empty)
}

/// [`completed_first`] where the defender also holds, of each vertical whose upper cell is on
/// `line`, the lower cell (one of `verticals`): if the attacker completes `line` it holds the
/// upper cell, so the defender answered the lower with it or took the lower itself
/// ([`verticals_kill`]).
#[inline]
fn completed_first_with_verticals(line: u64, defended: u64, verticals: u64, empty: u64) -> bool {
    let below = (line >> 16) | (line >> 32) | (line >> 48);
    let claimed = (empty & defended & below) | (verticals & (line >> 16));
    if claimed == 0 {
        return false;
    }
    let own = (defended & !empty) | claimed;
    // Only lines through a claimed cell can fit (the defender's stones alone hold no four).
    // (A loop over the few claimed cells: `geometry::lines_through_any`'s eight table reads
    // ran 1.5 % more instructions here.)
    let mut candidates = 0u128;
    let mut cells = claimed;
    while cells != 0 {
        candidates |= LINE_SET_THROUGH[cells.trailing_zeros() as usize];
        cells &= cells - 1;
    }
    lines_in(candidates).any(|candidate| candidate & !own == 0)
}

/// Whether the cells of `unpaired` can be paired so that each of `needs` holds a whole pair
/// (the pairs already chosen have removed their cells from `unpaired` and every need they
/// satisfy from `needs`). Gives up with `false` once `budget` pairings were tried.
fn pairing_exists(needs: &[u64], unpaired: u64, budget: &mut u32) -> bool {
    let Some((&need, rest)) = needs.split_first() else {
        return true; // the remaining cells pair up any way (there is always an even number)
    };
    let free = need & unpaired;
    let mut first = free;
    while first != 0 {
        let a = first & first.wrapping_neg();
        first &= first - 1;
        let mut second = first;
        while second != 0 {
            let b = second & second.wrapping_neg();
            second &= second - 1;
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let pair = a | b;
            // Needs holding this pair are met; the others must be met by later pairs.
            let mut left = [0u64; MAX_NEEDS];
            let mut n = 0;
            let mut possible = true;
            for &other in rest {
                if other & pair != pair {
                    if (other & unpaired & !pair).count_ones() < 2 {
                        possible = false;
                        break;
                    }
                    left[n] = other;
                    n += 1;
                }
            }
            if possible && pairing_exists(&left[..n], unpaired & !pair, budget) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{completed_first, pairing_exists};

    const A: u64 = 1 << 16;
    const B: u64 = 1 << 17;
    const C: u64 = 1 << 18;
    const D: u64 = 1 << 19;

    /// The four cells of row 0 (columns 0–3) on `layer`.
    const fn row_0(layer: u32) -> u64 {
        0xF << (16 * layer)
    }

    #[test]
    fn a_line_above_a_line_the_defender_is_sure_of_is_completed_first() {
        let empty = !0;
        // The defender gets all of row 0 on layer 1, so row 0 on layer 2 (or 3) comes too late.
        assert!(completed_first(row_0(2), row_0(1), empty));
        assert!(completed_first(row_0(3), row_0(1), empty));
        // Not the line below it, nor when one cell of the defender's line is not sure.
        assert!(!completed_first(row_0(0), row_0(1), empty));
        assert!(!completed_first(row_0(2), row_0(1) & !(1 << 16), empty));
        // A stone of the defender counts like a sure cell; a cell beside the line's columns
        // does not help.
        assert!(completed_first(row_0(2), row_0(1), empty & !(1 << 17)));
        assert!(!completed_first(1 << 36, row_0(1), empty));
    }

    #[test]
    fn a_pairing_meeting_every_need_is_found() {
        let mut budget = 64;
        assert!(pairing_exists(
            &[A | B | C, C | D],
            A | B | C | D,
            &mut budget
        ));
        let mut budget = 64;
        assert!(pairing_exists(&[], A | B, &mut budget));
    }

    #[test]
    fn needs_sharing_a_cell_with_different_partners_cannot_both_be_met() {
        let mut budget = 64;
        assert!(!pairing_exists(&[A | B, A | C], A | B | C | D, &mut budget));
    }

    #[test]
    fn the_search_gives_up_when_the_budget_runs_out() {
        let mut budget = 0;
        assert!(!pairing_exists(&[A | B], A | B, &mut budget));
    }
}
