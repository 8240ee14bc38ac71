//! Static rules that prove the second player (black) keeps the first from four, so a node is
//! settled without searching it. Each rule is a strategy for black for the rest of the game,
//! checked against every line white could still complete.
//!
//! The strategy here is Allis's *claimeven* on every column together with *baseinverse* on
//! pairs of columns, generalised to the 76 lines of the 4×4×4 board:
//!
//! - white to move means an even number of stones, so the columns of odd height come in pairs
//!   of cells: the lowest empty cell of each such column, which lies on layer 1 or 3 (counting
//!   from 0);
//! - black pairs those cells up. When white plays one cell of a pair, black plays the other;
//!   when white plays anywhere else (a column of even height, so on layer 0 or 2), black plays
//!   on top of it (layer 1 or 3). Black always has that answer, so every column returns to even
//!   height after black's reply;
//! - so white only ever gets the empty cells of layers 0 and 2 and one cell of each pair. A line
//!   white could still complete must therefore contain an empty cell of layer 1 or 3 that is not
//!   in a pair (black's for sure), or both cells of one pair.
//!
//! If some pairing kills every line white is still live on, white cannot win: the position is
//! not a first-player win. With no column of odd height this is Tromp's "evens" test.

use score4_board::geometry::LINES;
use score4_board::{Colour, Position};

/// Cells of layers 1 and 3 (counting from 0 at the bottom).
pub const ODD_LAYERS: u64 = 0xFFFF_0000_FFFF_0000;

/// Pairings tried before the rule gives up (and says nothing); keeps the worst case bounded.
const PAIRING_BUDGET: u32 = 64;

/// Lines needing a pair that the rule handles; with more it gives up (and says nothing). Small,
/// so that the lists live in a few cache lines on the stack.
const MAX_NEEDS: usize = 16;

/// Whether black, with white to move, keeps white from four by the follow-up-and-pairs strategy
/// described above (module documentation).
///
/// Contract: white is to move and nobody has four in a line. `true` is a proof that the
/// position is not a first-player win; `false` says nothing.
#[inline]
pub fn follow_up_holds(position: &Position) -> bool {
    debug_assert_eq!(position.mover(), Colour::White);
    let paired = position.playable().0 & ODD_LAYERS;
    let empty = !position.occupied().0;
    let blacks = position.stones(Colour::Black).0 | (empty & ODD_LAYERS & !paired);
    // The paired cells of each line black's sure cells do not already kill.
    let mut needs = [0u64; MAX_NEEDS];
    let mut count = 0;
    let mut live = position.live_lines(Colour::White);
    while live != 0 {
        let line = LINES[live.trailing_zeros() as usize];
        live &= live - 1;
        if line & blacks == 0 {
            let in_pairs = line & paired;
            if in_pairs.count_ones() < 2 {
                return false; // white gets every cell of this line it lacks
            }
            if count == MAX_NEEDS {
                return false;
            }
            needs[count] = in_pairs;
            count += 1;
        }
    }
    let mut budget = PAIRING_BUDGET;
    pairing_exists(&needs[..count], paired, &mut budget)
}

/// Whether the cells of `unpaired` can be paired so that each of `needs` holds a whole pair
/// (the pairs already chosen have removed their cells from `unpaired` and every need they
/// satisfy from `needs`). Gives up with `false` once `budget` pairings were tried.
fn pairing_exists(needs: &[u64], unpaired: u64, budget: &mut u32) -> bool {
    let Some((&need, rest)) = needs.split_first() else {
        return true; // the remaining cells pair up any way (white to move: an even number)
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
    use super::pairing_exists;

    const A: u64 = 1 << 16;
    const B: u64 = 1 << 17;
    const C: u64 = 1 << 18;
    const D: u64 = 1 << 19;

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
