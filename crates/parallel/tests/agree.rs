//! The parallel value is the sequential value: on 200 positions of 30–44 stones, with 1, 2 and
//! 4 workers (4 oversubscribes a 2-core machine on purpose), under both assumptions, with small
//! and self-deepened cutoffs and a tree budget small enough to be reached.

use std::path::PathBuf;
use std::time::Duration;

use score4_bench::protocol::{read_set, set_path};
use score4_board::GameRecord;
use score4_parallel::{solve, Assumption, Config, Race};
use score4_solver::table::KEY_WIDTH_3D;
use score4_solver::{
    narrow, BestFirst, Format, Mode, Replacement, Solver, TableConfig, TranspositionTable,
};

fn positions() -> Vec<GameRecord> {
    let sets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/positions");
    (30..=44)
        .step_by(2)
        .flat_map(|difficulty| read_set(&set_path(&sets, difficulty), 25).expect("a committed set"))
        .collect()
}

fn table() -> TranspositionTable {
    TranspositionTable::of_size(
        TranspositionTable::minimum_bytes(Replacement::TwoBig),
        Replacement::TwoBig,
    )
    .expect("the smallest table")
}

fn sequential_values(games: &[GameRecord]) -> Vec<bool> {
    let table = table();
    let mut solver = Solver::new(&table);
    games
        .iter()
        .map(|game| solver.solve(game.position()).first_player_wins)
        .collect()
}

fn check(games: &[GameRecord], expected: &[bool], config: &Config) {
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

/// A race from the start ([`Race`]) gives the sequential value. With one worker, that worker
/// only races: the racer settles every root the tree's first walk leaves open, and the tree
/// solves no task. With two, the racer and a worker on the tree run side by side, and
/// whichever settles the root first gives the value.
#[test]
fn a_race_gives_the_sequential_value() {
    let games = positions();
    let expected = sequential_values(&games);
    let race = Some(Race {
        after: Duration::ZERO,
        best_first: BestFirst::DEFAULT,
    });
    let table = table();
    let mut raced = 0;
    for (game, &expected) in games.iter().zip(&expected) {
        let config = Config {
            threads: 1,
            race,
            ..Config::default()
        };
        let solution = solve(game.position(), &table, &config, |_| {}).expect("no deadline");
        assert_eq!(solution.first_player_wins, expected, "{game} raced alone");
        assert_eq!(solution.progress.done, 0, "{game}: the only worker races");
        raced += usize::from(solution.by_race);
    }
    assert!(raced >= 100, "the racer settled {raced} of 200 roots");
    let config = Config {
        threads: 2,
        race,
        ..Config::default()
    };
    check(&games, &expected, &config);
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

/// Exact scores through the parallel solver (one parallel solve per question of
/// [`score4_solver::narrow`], over a table of bounds) are the sequential solver's, on 40
/// positions of 36–44 stones, with 2 and 4 workers and both assumptions.
#[test]
fn parallel_exact_scores_are_the_sequential_scores() {
    let games: Vec<GameRecord> = positions()
        .into_iter()
        .filter(|game| game.position().count() >= 36)
        .step_by(2)
        .take(40)
        .collect();
    let bounds = || {
        let bytes = TranspositionTable::minimum_bytes_for(Replacement::TwoBig, Format::Bounds);
        let config = TableConfig::new(bytes, KEY_WIDTH_3D).format(Format::Bounds);
        TranspositionTable::new(&config.threads(2)).expect("the smallest table of bounds")
    };
    let table = bounds();
    let mut sequential = Solver::new(&table);
    let expected: Vec<i32> = games
        .iter()
        .map(|game| sequential.evaluate(game.position(), Mode::Exact).value)
        .collect();
    let distinct: std::collections::BTreeSet<_> = expected.iter().collect();
    assert!(distinct.len() >= 5, "a spread of scores: {distinct:?}");
    for (threads, assumption) in [
        (2, Assumption::FirstPlayerWins),
        (4, Assumption::SecondPlayerHolds),
    ] {
        table.clear();
        for (game, &expected) in games.iter().zip(&expected) {
            let position = game.position();
            let narrowed = narrow(position, Mode::Exact, |threshold| {
                let config = Config {
                    threads,
                    threshold,
                    assumption,
                    ..Config::default()
                };
                solve(position, &table, &config, |_| {})
                    .ok()
                    .map(|s| s.first_player_wins)
            });
            let (score, _) = narrowed.expect("no deadline was set");
            assert_eq!(score, expected, "{game} with {threads} threads");
        }
    }
}

/// The parallel solver on the classic game: exact scores with 2 and 4 workers, both
/// assumptions and small cutoffs, equal Pons's published scores on every 20th position of his
/// Middle-Medium and Begin-Medium sets, and win/draw/loss too.
#[test]
fn parallel_classic_scores_are_pons_scores() {
    use score4_classic::ClassicRecord;
    let mut cases: Vec<(ClassicRecord, i32)> = Vec::new();
    for (name, step) in [("Test_L2_R2", 20), ("Test_L1_R2", 100)] {
        for (moves, score) in score4_bench::pons::set(name).into_iter().step_by(step) {
            cases.push((moves.parse().unwrap(), score));
        }
    }
    assert_eq!(cases.len(), 60);
    let config = TableConfig::new(64 << 20, score4_classic::KEY_WIDTH).format(Format::Bounds);
    let table = TranspositionTable::new(&config.threads(2)).unwrap();
    for (threads, assumption, mode) in [
        (2, Assumption::FirstPlayerWins, Mode::Exact),
        (4, Assumption::SecondPlayerHolds, Mode::Exact),
        (2, Assumption::SecondPlayerHolds, Mode::Wdl),
    ] {
        table.clear();
        for (game, published) in &cases {
            let position = game.position();
            let narrowed = narrow(position, mode, |threshold| {
                let config = Config {
                    threads,
                    threshold,
                    assumption,
                    first_cutoff: 1,
                    ..Config::default()
                };
                solve(position, &table, &config, |_| {})
                    .ok()
                    .map(|s| s.first_player_wins)
            });
            let (score, _) = narrowed.expect("no deadline was set");
            let expected = if mode == Mode::Wdl {
                published.signum()
            } else {
                *published
            };
            assert_eq!(score, expected, "{game} with {threads} threads, {mode}");
        }
    }
}
