//! Forcing sequences: a player reaches its goal by a chain of threats the other must answer,
//! found without a search of the whole tree (the survey's threat-space search, in the narrow
//! form gravity allows). The goal is the report's question's: for the first player (white) a
//! win, for the second (black) a win or a draw.
//!
//! The *attacker* (the player to move) plays a move that creates an *opening* — a threat the
//! defender can play on at once. The defender must block it, on that very cell: anything else
//! lets the attacker make four there. The attacker goes on with another such move, and so on,
//! until a move leaves the defender two openings to block, or one right below another threat
//! of the attacker's (blocking it makes the cell above playable, and the attacker wins there),
//! or until a quiet move leaves the attacker a static proof: for white a win by zugzwang on a
//! layer-2 threat ([`crate::rules::zugzwang_on_odd_threat`]), for black the follow-up that
//! keeps white from four ([`crate::rules::follow_up_holds`]). The defender has no opening of
//! its own along the way (lines where a block makes one are left out), so the defender never
//! gets a tempo to win first.
//!
//! [`forcing_win`] tries every such chain up to a given number of the attacker's moves. It
//! settles nodes the move ordering would otherwise get wrong: an ordering that puts the most
//! promising lines first can leave a short forced win behind a long proof
//! (docs/PERFORMANCE.md, "Move ordering and forcing").

use crate::bitboard::Layers;
use crate::{Cell, Colour, Position};

use crate::ordering::{after_move, unstoppable};
use crate::rules::{follow_up_holds_after, zugzwang_after};

/// Whether the player to move in `position` reaches its goal (white: a win; black: a win or a
/// draw) by a chain of at most `depth` moves that each create an opening, the last one
/// leaving the defender two to block or one below another threat, or (a quiet move) a static
/// proof (module documentation). `visited` grows by the positions the chains play: two for
/// each move and the defender's block, one for the move that ends a chain.
///
/// Contract: nobody has four in a line, and neither player has an opening. `true` is a proof
/// (that white wins, or that white does not); `false` says nothing.
///
/// ```
/// use score4_board::GameRecord;
/// use score4_board::forcing::forcing_win;
/// let game: GameRecord = "5E220C7E".parse().unwrap();
/// let position = game.position();
/// assert_eq!(position.to_string(), "\
/// z=0      z=1      z=2      z=3      columns
/// X · X ·  · · O ·  · · · ·  · · · ·  0 1 2 3
/// · X · X  · · · ·  · · · ·  · · · ·  4 5 6 7
/// · · · ·  · · · ·  · · · ·  · · · ·  8 9 A B
/// O · O ·  · · O ·  · · · ·  · · · ·  C D E F
/// ");
/// // No single X move threatens twice. But X in column 3 threatens cell 1 (X holds 0 and 2),
/// // O must block there, and X in column F then threatens cells A (the diagonal 0-5-A-F) and
/// // B (the edge 3-7-B-F) at once: two white moves.
/// let mut visited = 0;
/// assert!(!forcing_win(position, 1, &mut visited));
/// assert!(forcing_win(position, 2, &mut visited));
/// assert!(visited >= 3);
/// ```
pub fn forcing_win(position: &Position, depth: u32, visited: &mut u64) -> bool {
    chains_win::<true>(position, depth, visited)
}

/// [`forcing_win`] for a caller that has already found that no single move of the mover
/// reaches its goal: none wins by force ([`crate::ordering::wins_by_force`]) and none leaves
/// the mover's rule proven ([`crate::rules::zugzwang_after`] for white,
/// [`crate::rules::follow_up_holds_after`] for black). The chains' first moves are then not
/// tested for that again (the search asks both before its look: the repeated tests cost as
/// much as the rest of the look); the answer is [`forcing_win`]'s.
///
/// Contract: as [`forcing_win`], and no single move of the mover reaches its goal as above.
pub fn forcing_win_beyond_one_move(position: &Position, depth: u32, visited: &mut u64) -> bool {
    debug_assert!(
        !chains_win::<true>(position, 1, &mut 0),
        "a single move reaches the mover's goal"
    );
    chains_win::<false>(position, depth, visited)
}

/// [`forcing_win`]; with `FIRST_ENDS` false, chains of a single move are not tried (the caller
/// knows none ends there).
fn chains_win<const FIRST_ENDS: bool>(position: &Position, depth: u32, visited: &mut u64) -> bool {
    let attacker = position.mover();
    let playable = position.playable();
    let theirs = position.threats(attacker.other());
    debug_assert!(
        ((position.threats(attacker) | theirs) & playable).is_empty(),
        "an opening"
    );
    // Never below a threat of the defender's: it would win on top.
    for cell in playable & !theirs.down() {
        let created = position.threats_created_by(cell);
        let (_, threats_after, openings) = after_move(position, cell, created.0);
        if openings == 0 {
            // A quiet move ends a chain too when it leaves the attacker a static proof.
            let proven = FIRST_ENDS
                && match attacker {
                    Colour::White => zugzwang_after(position, cell),
                    Colour::Black => follow_up_holds_after(position, cell),
                };
            if proven {
                *visited += 1;
                return true;
            }
            continue;
        }
        if FIRST_ENDS && unstoppable(openings, threats_after) {
            *visited += 1;
            return true;
        }
        if depth <= 1 {
            continue;
        }
        let mut after_block = *position;
        after_block.play_creating(cell, created);
        after_block.play(Cell::from_index(openings.trailing_zeros() as u8));
        *visited += 2;
        // A block that gives the defender an opening ends the chain: the attacker would have
        // to answer it.
        let defender_openings = after_block.threats(attacker.other()).0 & after_block.playable().0;
        if defender_openings == 0 && chains_win::<true>(&after_block, depth - 1, visited) {
            return true;
        }
    }
    false
}
