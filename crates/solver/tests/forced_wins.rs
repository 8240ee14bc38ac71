//! The ordering's "wins by force" (`ordering::move_score`): every move it flags leaves the
//! opponent lost — by the decisive situations at the child (an independent reading of the
//! bitboards) on thousands of positions of 24–58 stones, and by the plain reference solver on
//! those of 44 stones or more — and the ordering puts such a move first; the search's check
//! before the ordering (`ordering::wins_by_force`) finds one exactly when the ordering does.

mod plain;
mod walk;

use plain::PlainSolver;
use score4_bench::PositionGenerator;
use score4_board::ordering::{move_score, order_moves, wins_by_force};
use score4_board::CellCoordinates;
use score4_board::Colour;
use score4_solver::{examine, Examined};
use walk::positions_from;

#[test]
fn every_move_that_wins_by_force_wins_and_comes_first() {
    let (mut flagged, mut checked_by_reference, mut nodes_with_choice) = (0, 0, 0);
    for stones in (24..=58u32).step_by(2) {
        for game in PositionGenerator::new(stones, 9_000 + stones as u64).take(250) {
            for (position, columns) in positions_from(&game) {
                // Only where the search orders moves: a choice, after the decisive situations.
                let Examined::Moves(moves) = examine(&position) else {
                    continue;
                };
                if !moves.has_several() {
                    continue;
                }
                nodes_with_choice += 1;
                let mover_is_white = position.mover() == Colour::White;
                let mut any = false;
                for cell in moves {
                    let (_, _, _, wins) = move_score(&position, cell);
                    if !wins {
                        continue;
                    }
                    any = true;
                    flagged += 1;
                    let child = position.after(cell);
                    // The opponent, to move, cannot block both threats: the child's head says the
                    // first player wins exactly when the mover is the first player.
                    assert_eq!(
                        examine(&child),
                        Examined::Settled(mover_is_white),
                        "{columns:?} + cell {}",
                        cell.index()
                    );
                    if position.count() >= 44 {
                        let mut extended = columns.clone();
                        extended.push(cell.column().number());
                        assert_eq!(
                            PlainSolver::new(&extended).first_player_wins(),
                            mover_is_white,
                            "{columns:?} + cell {}",
                            cell.index()
                        );
                        checked_by_reference += 1;
                    }
                }
                // The search's question before the ordering says the same.
                assert_eq!(
                    wins_by_force(&position, moves),
                    any,
                    "{columns:?}: wins_by_force"
                );
                if any {
                    let order = order_moves(&position, moves);
                    let first = score4_board::Cell::from_index(order.as_slice()[0]);
                    assert!(move_score(&position, first).3, "{columns:?}: first move");
                }
            }
        }
    }
    eprintln!("{nodes_with_choice} nodes with a choice, {flagged} moves flagged, {checked_by_reference} checked by the reference");
    // The test means something only if many moves were flagged, and many checked in full.
    assert!(nodes_with_choice > 20_000, "{nodes_with_choice} nodes");
    assert!(flagged > 1_000, "{flagged} flagged");
    assert!(
        checked_by_reference > 200,
        "{checked_by_reference} by reference"
    );
}
