//! The forcing sequences of `forcing::forcing_win`, for either player: every goal it claims
//! (white: a win; black: white does not win) is reached — replayed move by move with the
//! search's own reading of each position (`examine`, independent of the forcing code) on
//! thousands of positions of 16–56 stones, and confirmed by the plain reference solver on those
//! of 44 stones or more.

mod plain;
mod walk;

use plain::PlainSolver;
use score4_bench::PositionGenerator;
use score4_board::forcing::forcing_win;
use score4_board::{Colour, Position};
use score4_solver::{examine, Examined};
use walk::positions_from;

/// Whether `attacker` reaches its goal (white: a win; black: white does not win) within
/// `plies` more moves along lines where every move of the defender is forced: at the
/// attacker's nodes any move that does, at the defender's the one move `examine` leaves (with a
/// choice, this says no). `examine` settles the ends: a double threat, a threat below a threat,
/// a static rule.
fn reaches_goal_by_forced_line(position: &Position, attacker: Colour, plies: u32) -> bool {
    let moves = match examine(position) {
        Examined::Settled(first_player_wins) => {
            return first_player_wins == (attacker == Colour::White)
        }
        Examined::Moves(moves) => moves,
    };
    if plies == 0 {
        return false;
    }
    let next = |cell| reaches_goal_by_forced_line(&position.after(cell), attacker, plies - 1);
    if position.mover() == attacker {
        moves.iter().any(next)
    } else {
        !moves.has_several() && moves.iter().all(next)
    }
}

#[test]
fn every_forced_goal_found_is_reached() {
    const DEPTH: u32 = 4;
    // By attacker (white, black): positions looked at, goals found, found only with two moves
    // or more, checked by the reference.
    let mut counts = [[0u32; 4]; 2];
    for stones in (16..=56u32).step_by(2) {
        for game in PositionGenerator::new(stones, 31_000 + stones as u64).take(600) {
            for (position, columns) in positions_from(&game) {
                let openings = (position.threats(Colour::White).0
                    | position.threats(Colour::Black).0)
                    & position.playable().0;
                if openings != 0 {
                    continue;
                }
                let attacker = position.mover();
                let [looked, found, longer, by_reference] = &mut counts[attacker as usize];
                *looked += 1;
                let mut visited = 0;
                let reached: Vec<bool> = (1..=DEPTH)
                    .map(|depth| forcing_win(&position, depth, &mut visited))
                    .collect();
                // A longer chain allowed never loses a goal found with a shorter one.
                assert!(
                    reached.windows(2).all(|w| !w[0] || w[1]),
                    "{columns:?}: {reached:?}"
                );
                if !reached[DEPTH as usize - 1] {
                    continue;
                }
                *found += 1;
                *longer += !reached[0] as u32;
                let first = reached.iter().position(|&r| r).unwrap() as u32 + 1;
                assert!(
                    reaches_goal_by_forced_line(&position, attacker, 2 * first),
                    "{columns:?}: no forced line of {first} moves for {attacker:?}"
                );
                assert!(visited > 0, "{columns:?}: nothing counted");
                if position.count() >= 44 {
                    assert_eq!(
                        PlainSolver::new(&columns).first_player_wins(),
                        attacker == Colour::White,
                        "{columns:?}"
                    );
                    *by_reference += 1;
                }
            }
        }
    }
    for (attacker, [looked, found, longer, by_reference]) in ["white", "black"].iter().zip(counts) {
        eprintln!(
            "{attacker}: {looked} positions looked at, {found} goals reached by force ({longer} \
             needing two moves or more), {by_reference} checked by the reference"
        );
        // The test means something only if many were found, long ones among them.
        assert!(found > 2_000, "{attacker}: {found} found");
        assert!(longer > 300, "{attacker}: {longer} longer");
        assert!(
            by_reference > 200,
            "{attacker}: {by_reference} by reference"
        );
    }
}
