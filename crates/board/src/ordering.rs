//! The report's move-ordering heuristic: score each move by the lines through its cell, sort
//! best first with insertion sort.
//!
//! | the move's line holds                 | points |
//! | ------------------------------------- | ------ |
//! | a stone of the opponent               | 0      |
//! | 0 / 1 / 2 stones of the mover         | 1 / 10 / 100 |
//! | each opening the move creates         | 10 (the report: 1000) |
//! | each threat the opponent could *not* create on top of the move (of the 7 lines at most through that cell) | 3 |
//! | each playable cell right below a threat of the mover after the move (the opponent may not play there) | white 5, black 15 |
//! | each move fewer than 7 the opponent is left with (playable cells not barred) | 10 |
//! | the move wins by force: it leaves the opponent two openings to block, or one below another threat of the mover | 2^20 (first) |
//! | black only, per line: 76 minus white's lines black's follow-up leaves alive after the move | 6 |
//! | white only, per line: 4 minus black's lines white's zugzwang leaves alive (if below 4) | 12 |
//! | black only: the move is in the column of white's move before it (on top of it) | 4 |
//!
//! A cell lies on at most 7 lines, so a level's line points never add up to the next level's.
//! The report puts every move that creates an opening first; such a move forces the reply but
//! spends the threat, and when it fails its whole subtree is wasted. Worth far less than one
//! more line of two stones, it only breaks ties.
//!
//! A move that wins by force is tried first, whatever else scores: the opponent, who has no
//! opening of its own, cannot stop both threats. The opening points alone would leave such a
//! move behind moves with more lines of two.
//!
//! A move makes the cell above it playable. Where the opponent could create a threat by playing
//! there, the move is worth a little less (3 points per such threat; much more costs nodes).
//!
//! A threat of the mover right above a playable cell bars the opponent from that column (it
//! would open the threat). A move scores for every column the opponent is barred from after it:
//! the opponent's choices shrink, and with them the subtree. When the opponent is left with few
//! moves, each one fewer counts more.
//!
//! Moves also score by how close each brings the mover to a static proof (`rules::follow_up_gap`
//! for black, `rules::zugzwang_gap` for white, which the search computes anyway when it tries
//! the rules after each move): a move leaving the opponent fewer lines alive is tried earlier.
//!
//! Every term and its points were measured on the committed sets: docs/PERFORMANCE.md, "Move
//! ordering and forcing" (the terms tried and dropped are there too).

use crate::bitboard::Layers;
use crate::geometry::CellCoordinates;
use crate::geometry::{lines_in, LINE_SET_THROUGH, MAX_LINES_PER_CELL};
use crate::symmetry::SymmetryGroup;
use crate::{BitBoard, Cell, Colour, Position};
use score4_game::{ForcedLine, Opening, OrderedMoves};

/// Points for a line free of opponent stones holding 0, 1 or 2 stones of the mover.
const LINE_POINTS: [u32; 3] = [1, 10, 100];
/// Points for each opening of the mover after the move: a tie-break only (module
/// documentation). Tuned on the committed sets: docs/TUNING.md, "The ordering's constants".
const OPENING_POINTS: u32 = 10;
/// Points for each line through the cell above a move on which the opponent could *not*
/// create a threat by playing there (so a move gives up 3 points per threat it lets the
/// opponent create on top of it). 3: between the best on d28 (2) and on d30 and d32 (5).
/// Tuned on the committed sets: docs/TUNING.md, "The ordering's constants".
const TOP_THREAT_POINTS: u32 = 3;
/// Points a white move gets for each playable cell right below one of white's threats after
/// it (a column black may not play in: black's choice shrinks, and with it the tree of a
/// white win). 5, with [`BARRED_POINTS_BLACK`] 15: the fewest nodes over the four sets
/// together. Tuned on the committed sets: docs/TUNING.md, "The ordering's constants".
const BARRED_POINTS_WHITE: u32 = 5;
/// Points a black move gets for each playable cell right below one of black's threats after
/// it (white may not play there); see [`BARRED_POINTS_WHITE`].
const BARRED_POINTS_BLACK: u32 = 15;
/// Points for each move fewer than [`FEW_MOVES_BELOW`] the opponent is left with after the
/// move (the playable cells it is not barred from), on top of the barred cells' points: a
/// subtree shrinks faster than the count of barred cells says when few moves remain. 10 below
/// 7: the fewest nodes over the four sets together. Tuned on the committed sets:
/// docs/TUNING.md, "The ordering's constants".
const FEW_MOVES_POINTS: u32 = 10;
/// See [`FEW_MOVES_POINTS`].
const FEW_MOVES_BELOW: u32 = 7;
/// Points for a move that wins by force: more than any other move scores (at most 7 lines of
/// 100, 16 openings, the top-threat points, the barred cells' and few moves' points and the
/// gap points), so it comes first.
const FORCED_WIN_POINTS: u32 = 1 << 20;

/// The report's score of the mover playing `cell`, the threats the move creates, whether it
/// creates an opening, and whether it wins by force (then its score is at least 2^20, above
/// every other move's).
///
/// A move wins by force when afterwards the opponent has no opening and the mover has two, or
/// one right below another of its threats: the opponent can block one cell only, and blocking
/// below a threat opens it. (The opponent's stone on a blocked cell makes no four of its own:
/// that cell would be an opening of the opponent.)
///
/// Contract: `cell` is playable and the mover has no opening (else the search has already won),
/// so no line through `cell` holds three of the mover's stones.
#[inline(always)]
pub fn move_score(position: &Position, cell: Cell) -> (u32, u64, bool, bool) {
    let me = position.mover();
    let [none, one, two] = [0, 1, 2].map(|stones| position.lines_through_holding(cell, me, stones));
    debug_assert!(!position.wins_with(cell), "the mover has an opening");
    let score = LINE_POINTS[0] * none.count_ones()
        + LINE_POINTS[1] * one.count_ones()
        + LINE_POINTS[2] * two.count_ones()
        + TOP_THREAT_POINTS * (MAX_LINES_PER_CELL as u32 - threats_on_top(position, cell));
    let new_threats = position.threats_created_by(cell).0;
    let (playable_after, threats_after, openings_after) = after_move(position, cell, new_threats);
    let theirs_open = position.threats(me.other()).0 & playable_after != 0;
    let wins = !theirs_open && unstoppable(openings_after, threats_after);
    // Playable cells right below a threat of the mover: the opponent may not play there.
    let barred = ((threats_after >> 16) & playable_after).count_ones();
    let barred_points = match me {
        Colour::White => BARRED_POINTS_WHITE,
        Colour::Black => BARRED_POINTS_BLACK,
    };
    // The opponent's moves left (the playable cells it is not barred from): few make a small
    // subtree.
    let left = playable_after.count_ones() - barred;
    let few_points = FEW_MOVES_POINTS * FEW_MOVES_BELOW.saturating_sub(left);
    (
        score
            + barred_points * barred
            + few_points
            + OPENING_POINTS * openings_after.count_ones()
            + if wins { FORCED_WIN_POINTS } else { 0 },
        new_threats,
        openings_after != 0,
        wins,
    )
}

/// What the mover's move to `cell` leaves, given the threats it creates (`created`, as
/// [`Position::threats_created_by`] finds them): the cells then playable, the mover's threats,
/// and its openings (the threats on playable cells).
///
/// Contract: `cell` is playable and not a threat of the mover (the mover has no opening).
#[inline(always)]
pub(crate) fn after_move(position: &Position, cell: Cell, created: u64) -> (u64, u64, u64) {
    let bit = 1u64 << cell.index();
    // (On the top layer `bit << 16` leaves the board: nothing above becomes playable.)
    let playable = (position.playable().0 & !bit) | (bit << 16);
    let threats = position.threats(position.mover()).0 | created;
    debug_assert_eq!(threats & bit, 0, "the move is no threat of the mover");
    (playable, threats, threats & playable)
}

/// Whether the opponent cannot stop the mover's `openings` (with `threats`, all the mover's
/// threats): two cells to block, or one right below another threat (blocking it makes that
/// threat playable). A win when the opponent has no opening of its own.
#[inline(always)]
pub(crate) fn unstoppable(openings: u64, threats: u64) -> bool {
    openings & openings.wrapping_sub(1) != 0 || (openings << 16) & threats != 0
}

/// Whether one of `moves` wins by force, as [`move_score`] flags it, found before the moves
/// are scored: the search asks this first at a node with a choice, and a yes settles the node
/// without the static rules, the ordering or a visit to the child.
///
/// Contract: neither player has an opening, and no move of `moves` lies below a threat of the
/// opponent (so no move gives the opponent an opening).
#[inline(always)]
pub fn wins_by_force(position: &Position, moves: BitBoard) -> bool {
    moves
        .iter()
        .any(|cell| opening_after(position, cell) == Opening::Unstoppable)
}

/// What the mover's move to `cell` leaves the opponent ([`Opening`]), found without playing
/// it.
///
/// Contract: `cell` is playable, neither player has an opening, and `cell` is not below a
/// threat of the opponent.
#[inline(always)]
pub fn opening_after(position: &Position, cell: Cell) -> Opening {
    let me = position.mover();
    // A move opens a threat only by creating one (on a line holding two of the mover's
    // stones) or by making the cell above playable (below one of the mover's threats).
    if position.lines_through_holding(cell, me, 2) == 0 && !position.threats(me).down().has(cell) {
        return Opening::None;
    }
    let created = position.threats_created_by(cell).0;
    let (playable_after, threats_after, openings) = after_move(position, cell, created);
    debug_assert_eq!(position.threats(me.other()).0 & playable_after, 0);
    if openings == 0 {
        Opening::None
    } else if unstoppable(openings, threats_after) {
        Opening::Unstoppable
    } else {
        Opening::Block(Cell::from_index(openings.trailing_zeros() as u8))
    }
}

/// The longest line of forced replies [`forced_line`] follows after the opponent's first block.
pub const FORCED_LINE_MAX_REPLIES: u32 = 8;

/// Where the mover's move to `cell`, which leaves the opponent a single block at `block`
/// ([`Opening::Block`]), leads: each player in turn must block the other's one opening, until
/// a block opens nothing (the position after it has the move's value: [`ForcedLine::Reaches`]
/// its key within `group`) or opens two threats, or one below another (the player who made it
/// wins). Anything but the block loses at once, and the player to block never has an opening
/// of its own: the line is the game's only continuation that does not lose at once for the
/// player who must block.
///
/// The position after the opponent's block is never stored when that block opens a threat
/// (a forced position has no choice to remember), so a search reads the end of the line
/// instead.
///
/// Contract: as [`opening_after`] for `cell`, and `opening_after(position, cell)` is
/// `Opening::Block(block)`.
#[inline(always)]
pub fn forced_line(
    position: &Position,
    cell: Cell,
    block: Cell,
    group: SymmetryGroup,
) -> ForcedLine {
    if !block_opens_threat(position, cell, block) {
        return ForcedLine::Reaches(position.table_key_after_reply_within(cell, block, group));
    }
    follow_forced_line(position, cell, block, group)
}

/// Whether the opponent's block at `block`, after the mover's move to `cell`, gives the
/// opponent an opening, found without playing either move.
///
/// Contract: as [`forced_line`].
#[inline(always)]
fn block_opens_threat(position: &Position, cell: Cell, block: Cell) -> bool {
    let opponent = position.mover().other();
    let played = 1u64 << cell.index() | 1u64 << block.index();
    // Lines through the block holding two of the opponent's stones, but not through `cell`
    // (the mover's stone closes them), make threats; the opponent's threats it already had
    // become openings once playable (none is playable now, nor above `cell`).
    let lines = position.lines_through_holding(block, opponent, 2)
        & !LINE_SET_THROUGH[cell.index() as usize];
    let threats = lines_in(lines).fold(position.threats(opponent).0, |cells, line| cells | line);
    // (On the top layer `<< 16` leaves the board: nothing above becomes playable.)
    let playable = (position.playable().0 | played << 16) & !played;
    threats & playable & !position.occupied().0 != 0
}

/// [`forced_line`] past its quick test: plays the line (kept out of the search's body).
#[inline(never)]
fn follow_forced_line(
    position: &Position,
    cell: Cell,
    block: Cell,
    group: SymmetryGroup,
) -> ForcedLine {
    let opponent = position.mover().other();
    let mut before_reply = position.after(cell);
    let mut reply = block;
    for _ in 0..FORCED_LINE_MAX_REPLIES {
        // The player to block has no opening, and the other player's only one is `reply`.
        match opening_after(&before_reply, reply) {
            Opening::None => break,
            Opening::Unstoppable if before_reply.mover() == opponent => {
                return ForcedLine::MoverLoses
            }
            Opening::Unstoppable => return ForcedLine::MoverWins,
            Opening::Block(next) => {
                before_reply.play(reply);
                reply = next;
            }
            Opening::NotLookedAt => unreachable!("the 3-D game looks"),
        }
    }
    ForcedLine::Reaches(before_reply.table_key_after_within(reply, group))
}

/// How many threats the opponent of the mover would create by playing on top of `cell` once
/// the mover has played there: the opponent's lines through the cell above holding two of its
/// stones, but not those through `cell` (the move closes them). 0 on the top layer.
#[inline(always)]
fn threats_on_top(position: &Position, cell: Cell) -> u32 {
    if cell.z() == 3 {
        return 0;
    }
    let above = Cell::from_index(cell.index() + 16);
    let theirs = position.lines_through_holding(above, position.mover().other(), 2);
    (theirs & !LINE_SET_THROUGH[cell.index() as usize]).count_ones()
}

/// Points for each of white's 76 lines *not* left alive by black's follow-up strategy after a
/// black move (`rules::follow_up_gap`); black's moves only. 6: fewer nodes than 3 or 10.
/// Tuned on the committed sets: docs/TUNING.md, "The ordering's constants".
const GAP_POINTS: u32 = 6;

/// Points for each black line fewer than [`WHITE_GAP_CAP`] that white's zugzwang strategy
/// leaves alive after a white move (`rules::zugzwang_gap`); white's moves only. Only moves
/// that nearly prove the win score: points for every line not alive (as for black) cost nodes.
/// 12 below 4: fewer nodes than 8 on all four sets and than 16 on three. Tuned on the
/// committed sets: docs/TUNING.md, "The ordering's constants".
const WHITE_GAP_POINTS: u32 = 12;
/// See [`WHITE_GAP_POINTS`].
const WHITE_GAP_CAP: u32 = 4;

/// Points for a black move in the column of white's move before it (on top of it: the answer
/// of black's follow-up strategy, or a block of what white's stone started there), on top of
/// the gap points. 4: the fewest nodes of 2 to 20 on d28; the same points for white cost nodes.
/// Tuned on the committed sets: docs/TUNING.md, "The ordering's constants".
const FOLLOW_UP_POINTS: u32 = 4;

/// `moves` sorted by [`move_score`], best first; equal scores keep increasing cell order.
#[inline(always)]
pub fn order_moves(position: &Position, moves: BitBoard) -> OrderedMoves {
    order_scored(position, moves, |_| 0)
}

/// [`order_moves`] with points for how close each move brings the mover to a static proof: `gaps`
/// holds, by column, how many of the opponent's lines the mover's strategy leaves alive after the
/// move (`rules::follow_up_gap` for black, `rules::zugzwang_gap` for white). Black gets
/// `GAP_POINTS` (6) for each line not left alive, and `FOLLOW_UP_POINTS` (4) for a move in
/// `last_column`, the column of white's move that led here ([`NO_COLUMN`](score4_game::NO_COLUMN)
/// at a root); white gets `WHITE_GAP_POINTS` (12) for each line fewer than `WHITE_GAP_CAP` (4) left
/// alive.
#[inline(always)]
pub fn order_moves_by_gaps(
    position: &Position,
    moves: BitBoard,
    gaps: &[u8; 16],
    last_column: u8,
) -> OrderedMoves {
    let column = |cell: Cell| cell.column().number();
    let gap = |cell: Cell| gaps[column(cell) as usize] as u32;
    if position.mover() == Colour::Black {
        order_scored(position, moves, |cell| {
            let follow_up = if column(cell) == last_column {
                FOLLOW_UP_POINTS
            } else {
                0
            };
            GAP_POINTS * (76 - gap(cell).min(76)) + follow_up
        })
    } else {
        order_scored(position, moves, |cell| {
            WHITE_GAP_POINTS * WHITE_GAP_CAP.saturating_sub(gap(cell))
        })
    }
}

/// `moves` sorted by [`move_score`] plus `bonus`, best first; equal scores keep increasing
/// cell order.
#[inline(always)]
fn order_scored(position: &Position, moves: BitBoard, bonus: impl Fn(Cell) -> u32) -> OrderedMoves {
    let mut cells = [0u8; 16];
    let mut scores = [0u32; 16];
    let mut created = [0u64; 16];
    let mut opens = [false; 16];
    let mut len = 0;
    for cell in moves {
        let (score, threats, opening, _) = move_score(position, cell);
        let score = score + bonus(cell);
        // Insertion sort: shift worse moves right, then drop this one in.
        let mut i = len;
        while i > 0 && scores[i - 1] < score {
            scores[i] = scores[i - 1];
            cells[i] = cells[i - 1];
            created[i] = created[i - 1];
            opens[i] = opens[i - 1];
            i -= 1;
        }
        scores[i] = score;
        cells[i] = cell.index();
        created[i] = threats;
        opens[i] = opening;
        len += 1;
    }
    OrderedMoves::from_sorted(cells, created, opens, len)
}

#[cfg(test)]
mod tests {
    use super::threats_on_top;
    use crate::geometry::{CellCoordinates, LINES};
    use crate::{Cell, GameRecord};

    /// The first 40 positions of each committed benchmark set from 20 to 48 stones.
    fn benchmark_positions() -> impl Iterator<Item = GameRecord> {
        let sets = [
            include_str!("../../../bench/positions/d20.txt"),
            include_str!("../../../bench/positions/d28.txt"),
            include_str!("../../../bench/positions/d36.txt"),
            include_str!("../../../bench/positions/d44.txt"),
            include_str!("../../../bench/positions/d48.txt"),
        ];
        sets.into_iter().flat_map(|set| {
            set.lines()
                .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
                .take(40)
                .map(|line| line.split_whitespace().next().unwrap().parse().unwrap())
        })
    }

    #[test]
    fn a_move_below_a_cell_where_the_opponent_makes_three_counts_that_threat() {
        // O holds columns 1 and 2 on layer 1: X in column 3 (or 0) lets O play the fourth
        // cell's neighbour on layer 1 and threaten the row; X in column 5 lets O nothing.
        let game: GameRecord = "1122".parse().unwrap();
        let position = game.position();
        assert_eq!(threats_on_top(position, Cell::new(3, 0, 0)), 1);
        assert_eq!(threats_on_top(position, Cell::new(0, 0, 0)), 1);
        assert_eq!(threats_on_top(position, Cell::new(1, 1, 0)), 0);
    }

    #[test]
    fn threats_on_top_match_their_definition() {
        let mut counted = 0;
        for game in benchmark_positions() {
            let position = game.position();
            let them = position.mover().other();
            for cell in position.playable() {
                let after = position.after(cell);
                let expected = if cell.z() == 3 {
                    0
                } else {
                    let above = 1u64 << (cell.index() + 16);
                    let (mine, theirs) = (after.stones(them.other()).0, after.stones(them).0);
                    LINES
                        .iter()
                        .filter(|&&line| {
                            line & above != 0
                                && line & mine == 0
                                && (line & theirs).count_ones() >= 2
                        })
                        .count() as u32
                };
                assert_eq!(threats_on_top(position, cell), expected, "{game}, {cell:?}");
                counted += expected;
            }
        }
        assert!(
            counted > 100,
            "the positions hold threats to count ({counted})"
        );
    }
}
