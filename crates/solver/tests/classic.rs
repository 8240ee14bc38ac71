//! The classic 7×6 game against Pascal Pons's published test sets: every position of
//! Test_L3_R1 (end, easy), Test_L2_R1 (middle, easy), Test_L2_R2 (middle, medium) and
//! Test_L1_R1 (beginning, easy), strong (exact score) and weak (win/draw/loss), must get the
//! published score. The sets are read from `../shared/data/pons/` beside the repository.

use std::path::PathBuf;

use score4_classic::ClassicGame;
use score4_solver::{Format, Mode, Replacement, Solver, TranspositionTable};

/// The set's positions and published scores (`MOVES SCORE` per line).
fn pons_set(name: &str) -> Vec<(ClassicGame, i32)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/pons")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let mut words = line.split_whitespace();
            let (moves, score) = (words.next().unwrap(), words.next().unwrap());
            let game: ClassicGame = moves
                .parse()
                .unwrap_or_else(|error| panic!("{name} line {}: {error}", i + 1));
            (game, score.parse().unwrap())
        })
        .collect()
}

fn check(name: &str) {
    let set = pons_set(name);
    assert_eq!(set.len(), 1000, "{name}");
    let table = TranspositionTable::with_format(
        TranspositionTable::minimum_bytes_for(Replacement::TwoBig, Format::Bounds) + (64 << 20),
        Replacement::TwoBig,
        Format::Bounds,
        2,
    )
    .unwrap();
    let mut solver = Solver::new(&table);
    for (mode, what) in [(Mode::Exact, "strong"), (Mode::Wdl, "weak")] {
        table.clear();
        for (i, (game, expected)) in set.iter().enumerate() {
            let expected = match mode {
                Mode::Wdl => expected.signum(),
                _ => *expected,
            };
            let value = solver.evaluate(game.position(), mode).value;
            assert_eq!(value, expected, "{name} line {} ({what}): {game}", i + 1);
        }
    }
}

#[test]
fn end_easy() {
    check("Test_L3_R1");
}

#[test]
fn middle_easy() {
    check("Test_L2_R1");
}

#[test]
fn middle_medium() {
    check("Test_L2_R2");
}

#[test]
fn beginning_easy() {
    check("Test_L1_R1");
}
