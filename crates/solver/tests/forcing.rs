//! The forcing sequences of `forcing::forcing_win`: every win it claims is a win — replayed
//! move by move with the search's own reading of each position (`examine`, independent of the
//! forcing code) on thousands of positions of 16–56 stones, and confirmed by the plain
//! reference solver on those of 44 stones or more.

mod plain;
mod walk;

use plain::PlainSolver;
use score4_bench::PositionGenerator;
use score4_board::{Colour, Position};
use score4_solver::forcing::forcing_win;
use score4_solver::{examine, Examined};
use walk::positions_from;

/// Whether white wins within `plies` more moves along lines where every black move is forced:
/// at white nodes any move that does, at black nodes the one move `examine` leaves (with a
/// choice, this says no). `examine` settles the ends: a double threat, a threat below a threat.
fn wins_by_forced_line(position: &Position, plies: u32) -> bool {
    let moves = match examine(position) {
        Examined::Settled(first_player_wins) => return first_player_wins,
        Examined::Moves(moves) => moves,
    };
    if plies == 0 {
        return false;
    }
    if position.mover() == Colour::White {
        moves
            .iter()
            .any(|cell| wins_by_forced_line(&position.after(cell), plies - 1))
    } else {
        !moves.has_several()
            && moves
                .iter()
                .all(|cell| wins_by_forced_line(&position.after(cell), plies - 1))
    }
}

#[test]
fn every_forced_win_found_is_a_win() {
    const DEPTH: u32 = 4;
    let (mut looked, mut found, mut longer, mut by_reference) = (0, 0, 0, 0);
    for stones in (16..=56u32).step_by(2) {
        for game in PositionGenerator::new(stones, 31_000 + stones as u64).take(600) {
            for (position, columns) in positions_from(&game) {
                let openings = (position.threats(Colour::White).0
                    | position.threats(Colour::Black).0)
                    & position.playable().0;
                if position.mover() != Colour::White || openings != 0 {
                    continue;
                }
                looked += 1;
                let mut visited = 0;
                let wins: Vec<bool> = (1..=DEPTH)
                    .map(|depth| forcing_win(&position, depth, &mut visited))
                    .collect();
                // A longer chain allowed never loses a win found with a shorter one.
                assert!(
                    wins.windows(2).all(|w| !w[0] || w[1]),
                    "{columns:?}: {wins:?}"
                );
                if !wins[DEPTH as usize - 1] {
                    continue;
                }
                found += 1;
                longer += !wins[0] as u32;
                let first = wins.iter().position(|&w| w).unwrap() as u32 + 1;
                assert!(
                    wins_by_forced_line(&position, 2 * first),
                    "{columns:?}: no forced line of {first} white moves"
                );
                assert!(visited > 0, "{columns:?}: nothing counted");
                if position.count() >= 44 {
                    assert!(
                        PlainSolver::new(&columns).first_player_wins(),
                        "{columns:?}"
                    );
                    by_reference += 1;
                }
            }
        }
    }
    eprintln!(
        "{looked} positions looked at, {found} forced wins ({longer} needing two moves or \
         more), {by_reference} checked by the reference"
    );
    // The test means something only if many wins were found, long ones among them.
    assert!(found > 2_000, "{found} found");
    assert!(longer > 300, "{longer} longer");
    assert!(by_reference > 200, "{by_reference} by reference");
}
