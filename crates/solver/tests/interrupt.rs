//! A search stopped at its deadline leaves only proven values in the table: solving the same
//! positions afterwards on that table gives the values a fresh table gives.

use std::time::{Duration, Instant};

use score4_bench::PositionGenerator;
use score4_solver::{BestFirst, Replacement, Solver, TranspositionTable};

#[test]
fn a_deadline_in_the_past_searches_nothing() {
    let table = TranspositionTable::of_size(64 << 21, Replacement::TwoBig).unwrap();
    let mut solver = Solver::new(&table);
    let game = PositionGenerator::new(30, 1).next().unwrap();
    assert!(solver
        .solve_within(game.position(), Instant::now())
        .is_none());
    assert_eq!(solver.stats().nodes, 0);
}

#[test]
fn interrupted_searches_leave_only_proven_values() {
    check_interruptions(11, None);
}

/// The same with the best-first driver taking over after a few thousand nodes: a deadline
/// stops it between and inside its probes, and the table keeps only proven values.
#[test]
fn interrupted_best_first_searches_leave_only_proven_values() {
    let settings = BestFirst {
        after: 2_000,
        black_to_move_budget: 2_000,
        white_to_move_budget: 500,
        sequential_black: true,
        driver_turn_shift: Some(1),
    };
    check_interruptions(12, Some(settings));
}

/// Twelve positions of 28 stones (generator seed `seed`), each solved under deadlines of 1 to
/// 30 ms on one shared table and then without one: every answer found equals a fresh table's,
/// and at least ten searches were interrupted.
fn check_interruptions(seed: u64, best_first: Option<BestFirst>) {
    let games: Vec<_> = PositionGenerator::new(28, seed).take(12).collect();
    let shared = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
    let mut interrupted = 0;
    for game in &games {
        let fresh = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
        let expected = Solver::new(&fresh).first_player_wins(game.position());
        let mut solver = Solver::new(&shared).with_best_first(best_first);
        for millis in [1, 3, 10, 30] {
            let deadline = Instant::now() + Duration::from_millis(millis);
            match solver.solve_within(game.position(), deadline) {
                Some(solution) => assert_eq!(solution.first_player_wins, expected, "{game}"),
                None => interrupted += 1,
            }
        }
        assert_eq!(
            solver.first_player_wins(game.position()),
            expected,
            "{game} after interrupted searches"
        );
        shared.clear();
    }
    assert!(
        interrupted >= 10,
        "only {interrupted} searches were interrupted"
    );
}
