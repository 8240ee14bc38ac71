//! The parallel value is the sequential value: on 200 positions of 30–44 stones, with 1, 2 and
//! 4 workers (4 oversubscribes a 2-core machine on purpose), under both assumptions, with small
//! and self-deepened cutoffs and a tree budget small enough to be reached.

use std::path::PathBuf;
use std::time::Duration;

use score4_bench::protocol::{read_set, set_path};
use score4_board::Game;
use score4_parallel::{solve, Assumption, Config};
use score4_solver::{Replacement, Solver, TranspositionTable};

fn positions() -> Vec<Game> {
    let sets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/positions");
    (30..=44)
        .step_by(2)
        .flat_map(|difficulty| read_set(&set_path(&sets, difficulty), 25).expect("a committed set"))
        .collect()
}

fn table() -> TranspositionTable {
    TranspositionTable::new(
        TranspositionTable::minimum_bytes(Replacement::TwoBig),
        Replacement::TwoBig,
    )
    .expect("the smallest table")
}

fn sequential_values(games: &[Game]) -> Vec<bool> {
    let table = table();
    let mut solver = Solver::new(&table);
    games
        .iter()
        .map(|game| solver.solve(game.position()).first_player_wins)
        .collect()
}

fn check(games: &[Game], expected: &[bool], config: &Config) {
    let table = table();
    for (game, &expected) in games.iter().zip(expected) {
        let solution = solve(game.position(), &table, config, |_| {}).expect("no deadline was set");
        assert_eq!(
            solution.first_player_wins, expected,
            "{game} with {config:?}"
        );
    }
}

#[test]
fn the_parallel_value_is_the_sequential_value() {
    let games = positions();
    assert_eq!(games.len(), 200);
    let expected = sequential_values(&games);
    assert!(expected.iter().any(|&v| v) && expected.iter().any(|&v| !v));
    for threads in [1, 2, 4] {
        for assumption in [Assumption::FirstPlayerWins, Assumption::SecondPlayerHolds] {
            let config = Config {
                threads,
                assumption,
                first_cutoff: 2,
                progress_every: Duration::from_millis(5),
                ..Config::default()
            };
            check(&games, &expected, &config);
        }
    }
}

#[test]
fn a_tree_at_its_memory_budget_still_gives_the_value() {
    let games = positions();
    let expected = sequential_values(&games);
    // Room for a handful of nodes: the tree stops growing and hands out shallow tasks.
    let config = Config {
        threads: 2,
        dag_bytes: 8 << 10,
        first_cutoff: 6,
        ..Config::default()
    };
    check(&games, &expected, &config);
}
