//! The classic 7×6 game against Pascal Pons's published test sets: every position of
//! Test_L3_R1 (end, easy), Test_L2_R1 (middle, easy), Test_L2_R2 (middle, medium) and
//! Test_L1_R1 (beginning, easy), strong (exact score) and weak (win/draw/loss), must get the
//! published score. The sets are read from `bench/pons/` in the repository.

use score4_classic::ClassicRecord;
use score4_solver::{Format, Mode, Replacement, Solver, TableConfig, TranspositionTable};

/// The set's positions and published scores.
fn pons_set(name: &str) -> Vec<(ClassicRecord, i32)> {
    score4_bench::pons::set(name)
        .into_iter()
        .enumerate()
        .map(|(i, (moves, score))| {
            let game = moves
                .parse()
                .unwrap_or_else(|error| panic!("{name} line {}: {error}", i + 1));
            (game, score)
        })
        .collect()
}

/// A bounds table of `bytes` for the classic game's 49-bit keys.
fn classic_table(bytes: u64) -> TranspositionTable {
    let key_width = score4_classic::KEY_WIDTH;
    let config = TableConfig::new(bytes, key_width).format(Format::Bounds);
    TranspositionTable::new(&config.threads(2)).unwrap()
}

fn check(name: &str) {
    let set = pons_set(name);
    assert_eq!(set.len(), 1000, "{name}");
    check_with(&set, name, &classic_table(64 << 20));
}

/// Every position of `set`, strong then weak (each from an empty `table`), gets Pons's score.
fn check_with(set: &[(ClassicRecord, i32)], name: &str, table: &TranspositionTable) {
    let mut solver = Solver::new(table);
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

/// The smallest classic table (2^10 buckets, 39 key bits per entry) is replaced tens of
/// thousands of times per position and must still never mistake one position for another.
#[test]
fn the_smallest_table_stays_exact() {
    let bytes = TranspositionTable::minimum_bytes_for_keys(
        Replacement::TwoBig,
        Format::Bounds,
        score4_classic::KEY_WIDTH,
    );
    assert!(bytes < 20 << 10, "{bytes} bytes");
    let table = classic_table(bytes);
    let mut set = pons_set("Test_L2_R1");
    set.extend(pons_set("Test_L2_R2").into_iter().take(100));
    let mut solver = Solver::new(&table);
    for (game, _) in &set[1000..] {
        solver.evaluate(game.position(), Mode::Exact);
    }
    let replacements = solver.stats().table.replacements;
    assert!(replacements > 1_000_000, "{replacements} replacements");
    check_with(&set, "Test_L2_R1 and 100 of Test_L2_R2", &table);
}

/// A table for shorter keys than the game's is refused: it could mistake positions.
#[test]
#[should_panic(expected = "cannot hold this game's 80-bit keys")]
fn a_table_for_shorter_keys_is_refused() {
    let table = classic_table(1 << 20);
    let position = score4_board::Position::default();
    Solver::new(&table).evaluate(&position, Mode::Exact);
}
