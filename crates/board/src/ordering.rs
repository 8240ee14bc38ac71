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
//! The report put every move that creates an opening first; such a move forces the reply but
//! spends the threat, and when it fails its whole subtree is wasted. Worth far less than one
//! more line of two stones, it only breaks ties (docs/PERFORMANCE.md: 30 points instead of
//! 1000, 12 % fewer nodes on the first 100 positions of d28; 10 instead of 30 once the moves
//! that win by force came first, −7.2 % on the first 300 of d28, −12 % on the first 300 of
//! d30, −1 % on all of d32).
//!
//! A move that wins by force is tried first, whatever else scores: the opponent, who has no
//! opening of its own, cannot stop both threats (−7.8 % nodes on the first 300 of d28, −6.5 %
//! on all of d32; the opening points alone left such a move behind moves with more lines of
//! two).
//!
//! A move makes the cell above it playable. Where the opponent could create a threat by playing
//! there, the move is worth a little less (3 points per such threat; −2.2 % nodes on the first
//! 300 of d28, −2.6 % on the first 300 of d30, −3.9 % on all of d32, −5.7 % on the first 100
//! of d26). Much more than that costs: 20 points per threat, +14 % on d28.
//!
//! A threat of the mover right above a playable cell bars the opponent from that column (it
//! would open the threat). A move scores for every column the opponent is barred from after it:
//! the opponent's choices shrink, and with them the subtree (−13 % to −19 % nodes on the four
//! sets of docs/PERFORMANCE.md). When the opponent is left with few moves, each one fewer
//! counts more (−4 % to −11 % again).
//!
//! Moves also score by how close each brings the mover to a static proof (`rules::follow_up_gap`
//! for black, `rules::zugzwang_gap` for white, which the search computes anyway when it tries
//! the rules after each move): a move leaving the opponent fewer lines alive is tried earlier.

use crate::bitboard::Layers;
use crate::geometry::CellCoordinates;
use crate::geometry::{lines_in, LINE_SET_THROUGH, MAX_LINES_PER_CELL};
use crate::symmetry::SymmetryGroup;
use crate::{BitBoard, Cell, Colour, Position};
use score4_game::{ForcedLine, Opening, OrderedMoves};

/// Points for a line free of opponent stones holding 0, 1 or 2 stones of the mover.
const LINE_POINTS: [u32; 3] = [1, 10, 100];
/// Points for each opening of the mover after the move.
const OPENING_POINTS: u32 = 10;
/// Points for each line through the cell above a move on which the opponent could *not*
/// create a threat by playing there (so a move gives up 3 points per threat it lets the
/// opponent create on top of it). Grid on the first 300 of d28 (ninth session's ordering,
/// 135,471,875 nodes): 1 → 132,773,141; 2 → 132,034,142; **3 → 132,449,595**;
/// 5 → 133,446,815; 8 → 136,557,158; 20 → 154,607,793; 100 → 253,277,309. On the first 300 of
/// d30 (37,709,152): 2 / 3 / 5 → 36,783,522 / 36,728,268 / 36,603,979; all of d32
/// (44,451,090): 42,889,133 / 42,717,197 / 42,291,357. The same for the opponent's lines of one
/// stone (3 points) gave +7 % on d28.
const TOP_THREAT_POINTS: u32 = 3;
/// Points a white move gets for each playable cell right below one of white's threats after
/// it (a column black may not play in: black's choice shrinks, and with it the tree of a
/// white win). Grid with [`BARRED_POINTS_BLACK`] on the first 300 of d28 and d30, all of d32
/// and the first 100 of d26 (eleventh session; without barred points 116,801,399 /
/// 32,874,791 / 38,215,090 / 42,692,844 nodes), white / black points: 5 / 0 109,175,895 /
/// 31,288,954 / 36,674,306 / 39,856,232; 0 / 5 103,320,081 / 31,292,311 / 35,231,143 /
/// 41,044,286; 5 / 5 100,208,604 / 29,773,766 / 33,774,423 / 38,249,220; 5 / 10 104,046,080 /
/// 28,704,685 / 32,404,339 / 36,420,904; **5 / 15 101,407,126 / 27,989,208 / 31,121,998 /
/// 36,154,317**; 5 / 20 104,408,540 / 28,323,808 / 31,566,026 / 36,861,987; 4 / 15
/// 101,723,965 / 27,962,631 / 31,284,180 / 36,562,179; 6 / 15 101,358,827 / 27,974,657 /
/// 31,022,316 / 37,786,867; 8 / 15 102,073,177 / 27,668,700 / 30,804,200 / 37,813,775;
/// 20 / 0 122,977,914 on d28.
const BARRED_POINTS_WHITE: u32 = 5;
/// Points a black move gets for each playable cell right below one of black's threats after
/// it (white may not play there); see [`BARRED_POINTS_WHITE`].
const BARRED_POINTS_BLACK: u32 = 15;
/// Points for each move fewer than [`FEW_MOVES_BELOW`] the opponent is left with after the
/// move (the playable cells it is not barred from), on top of the barred cells' points: a
/// subtree shrinks faster than the count of barred cells says when few moves remain. Grid on
/// the four sets of [`BARRED_POINTS_WHITE`] (eleventh session, against 101,407,126 /
/// 27,989,208 / 31,121,998 / 36,154,317), below / points: 2 / 10 99,043,863 / 27,328,083 /
/// 30,237,548 / 35,525,384; 3 / 10 97,841,401 / 26,951,477 / 29,675,558 / 35,176,692; 5 / 10
/// 95,389,804 / 26,012,800 / 28,297,162 / 34,660,978; **7 / 10 95,072,240 / 25,722,084 /
/// 27,692,894 / 34,716,719**; 7 / 5 95,152,015 / 25,983,179 / 28,286,009 / 34,668,044; 7 / 15
/// 95,340,953 / 25,660,090 / 27,504,121 / 34,730,182; 8 / 10 95,834,918 / 25,553,923 /
/// 27,230,103 / 35,168,449; 9 / 10 98,619,859 / 25,835,531 / 26,938,283 / 36,377,208.
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
/// black move (`rules::follow_up_gap`); black's moves only. Grid on whole sets (sixth
/// session): 3 and 6 points, −7 % and −8 % nodes on d32, −10 % and −12 % on d30. Again in the
/// ninth session (first 300 of d28): 3 and 10 points, +2.8 % and +7.0 % against 6.
const GAP_POINTS: u32 = 6;

/// Points for each black line fewer than [`WHITE_GAP_CAP`] that white's zugzwang strategy
/// leaves alive after a white move (`rules::zugzwang_gap`); white's moves only. Only moves
/// that nearly prove the win score: points for every line not alive (as for black) gave 13 %
/// more nodes on the first 100 of d32. Grid there (cap / points): 2 / 1–6 −1 %, 4 / 1–3
/// −7.7 %, 8 / 1 −7.6 %, 8 / 6 +2 %; whole sets with 4 / 2: d32 −6.4 %, d30 −0.1 %, d28 −3.0 %.
/// With 10 points per opening and moves that win by force first (ninth session), 8 points
/// instead of 2 (cap 4): first 300 of d28 −2.0 %, first 300 of d30 −1.4 %, all of d32 −1.5 %,
/// first 100 of d26 −6.4 % (4 and 16 points: d28 −1.0 % and −2.6 %, d30 −0.6 % and −0.9 %).
/// With the barred cells and few moves' points (eleventh session), 12 instead of 8 on the four
/// sets of [`BARRED_POINTS_WHITE`]: 95,072,240 → 94,549,808 / 25,722,084 → 25,607,722 /
/// 27,692,894 → 27,205,989 / 34,716,719 → 34,361,654 (−0.4 % to −1.8 %; 12 had won on all four
/// with the barred cells alone too); 16: 95,830,485 / 25,664,417 / 26,711,931 / 35,332,610.
const WHITE_GAP_POINTS: u32 = 12;
/// See [`WHITE_GAP_POINTS`].
const WHITE_GAP_CAP: u32 = 4;

/// Points for a black move in the column of white's move before it (on top of it: the answer
/// of black's follow-up strategy, or a block of what white's stone started there), on top of
/// the gap points (seventeenth session). Grid on the first 300 of d28 (59,178,176 nodes
/// without): 2 → 58,899,212; **4 → 58,535,209**; 5 → 58,579,950; 8 → 58,558,852; 20 →
/// 63,289,371; only when the answer lies on layer 1 or 3 (the follow-up's own cells): 4 →
/// 58,983,363, 8 → 59,075,556. The same for white (on top of black's move) costs: 5 →
/// 60,157,619, 20 → 64,680,199; and so do points for white's moves *elsewhere*: 3 →
/// 60,060,387, 10 → 61,807,750.
const FOLLOW_UP_POINTS: u32 = 4;

/// `moves` sorted by [`move_score`], best first; equal scores keep increasing cell order.
#[inline(always)]
pub fn order_moves(position: &Position, moves: BitBoard) -> OrderedMoves {
    order_scored(position, moves, |_| 0)
}

/// [`order_moves`] with points for how close each move brings the mover to a static proof:
/// `gaps` holds, by column, how many of the opponent's lines the mover's strategy leaves
/// alive after the move (`rules::follow_up_gap` for black, `rules::zugzwang_gap` for white).
/// Black gets `GAP_POINTS` (6) for each line not left alive, and `FOLLOW_UP_POINTS` (4) for a
/// move in `last_column`, the column of white's move that led here ([`NO_COLUMN`](score4_game::NO_COLUMN) at a root);
/// white gets `WHITE_GAP_POINTS` (12) for each line fewer than `WHITE_GAP_CAP` (4) left alive.
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
