//! Win/draw/loss and exact scores against the plain reference solver (tests/plain, extended to
//! exact scores) on 306 positions of 44–52 stones, with every replacement scheme; first-wins
//! agrees with wdl everywhere, and the symmetric images of positions have the same score.

mod plain;

use plain::PlainSolver;
use score4_bench::PositionGenerator;
use score4_board::{Colour, GameRecord, Symmetry};
use score4_solver::table::KEY_WIDTH_3D;
use score4_solver::{
    Format, Mode, Replacement, ScoreRange, Solver, TableConfig, TranspositionTable,
};
use std::sync::OnceLock;

/// 34 positions of each stone count from 44 to 52, with their reference exact scores.
fn reference_scores() -> &'static [(GameRecord, i32)] {
    static POSITIONS: OnceLock<Vec<(GameRecord, i32)>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let games: Vec<GameRecord> = (44..=52)
            .flat_map(|stones| PositionGenerator::new(stones, 5_000 + stones as u64).take(34))
            .collect();
        let score = |game: &GameRecord| {
            let columns: Vec<u8> = game.moves().iter().map(|c| c.number()).collect();
            PlainSolver::exact(&columns).value() as i32
        };
        let scores: Vec<i32> = std::thread::scope(|scope| {
            let odd = scope.spawn(|| games.iter().skip(1).step_by(2).map(score).collect());
            let even: Vec<i32> = games.iter().step_by(2).map(score).collect();
            let odd: Vec<i32> = odd.join().expect("reference thread");
            (0..games.len())
                .map(|i| if i % 2 == 0 { even[i / 2] } else { odd[i / 2] })
                .collect()
        });
        games.into_iter().zip(scores).collect()
    })
}

fn bounds_table(replacement: Replacement) -> TranspositionTable {
    let bytes = TranspositionTable::minimum_bytes_for(replacement, Format::Bounds);
    let config = TableConfig::new(bytes, KEY_WIDTH_3D).replacement(replacement);
    TranspositionTable::new(&config.format(Format::Bounds).threads(2)).unwrap()
}

#[test]
fn the_positions_have_every_kind_of_value() {
    let scores = reference_scores();
    assert!(scores.len() >= 300);
    let (wins, draws, losses) = scores.iter().fold((0, 0, 0), |(w, d, l), (_, s)| {
        (
            w + (*s > 0) as u32,
            d + (*s == 0) as u32,
            l + (*s < 0) as u32,
        )
    });
    // Draws are rare this late in the game (about 2 %).
    assert!(
        wins >= 30 && draws >= 3 && losses >= 30,
        "{wins} wins, {draws} draws, {losses} losses"
    );
    let distinct: std::collections::BTreeSet<i32> = scores.iter().map(|(_, s)| *s).collect();
    assert!(distinct.len() >= 10, "scores seen: {distinct:?}");
}

#[test]
fn exact_wdl_and_first_wins_agree_with_the_reference_for_every_scheme() {
    for replacement in [Replacement::TwoBig, Replacement::New, Replacement::Big] {
        let table = bounds_table(replacement);
        let mut solver = Solver::new(&table);
        for (game, expected) in reference_scores() {
            let position = game.position();
            let exact = solver.evaluate(position, Mode::Exact);
            assert_eq!(exact.value, *expected, "{game}: exact ({replacement})");
            assert_eq!(exact.range.exact(), Some(*expected));
            let wdl = solver.evaluate(position, Mode::Wdl);
            assert_eq!(wdl.value, expected.signum(), "{game}: wdl ({replacement})");
            let first_wins = solver.evaluate(position, Mode::FirstWins).value == 1;
            let white_score = if position.mover() == Colour::White {
                *expected
            } else {
                -expected
            };
            assert_eq!(first_wins, white_score > 0, "{game}: first-wins on bounds");
        }
    }
}

#[test]
fn each_mode_from_a_cleared_table_and_first_wins_on_a_binary_table_agree() {
    let bounds = bounds_table(Replacement::TwoBig);
    let binary = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
    for (game, expected) in reference_scores().iter().step_by(3) {
        let position = game.position();
        let mut values = Vec::new();
        for mode in [Mode::Wdl, Mode::Exact, Mode::FirstWins] {
            bounds.clear(); // nothing learned by another mode helps
            values.push(Solver::new(&bounds).evaluate(position, mode).value);
        }
        let white_wins = (position.mover() == Colour::White) == (*expected > 0) && *expected != 0;
        assert_eq!(
            values,
            [expected.signum(), *expected, white_wins as i32],
            "{game}"
        );
        let on_binary = Solver::new(&binary).evaluate(position, Mode::FirstWins);
        assert_eq!(on_binary.value, white_wins as i32, "{game}");
        // wdl and first-wins agree: the first player wins exactly when wdl says so for it.
        let wdl_for_white = if position.mover() == Colour::White {
            values[0]
        } else {
            -values[0]
        };
        assert_eq!(wdl_for_white == 1, on_binary.value == 1, "{game}");
    }
}

#[test]
fn every_symmetric_image_has_the_same_score() {
    let table = bounds_table(Replacement::New);
    let mut solver = Solver::new(&table);
    for (game, expected) in reference_scores().iter().step_by(17) {
        for sym in Symmetry::ALL {
            table.clear();
            let image = game.position().transformed(sym);
            assert_eq!(
                solver.evaluate(&image, Mode::Exact).value,
                *expected,
                "{game} under {sym:?}"
            );
        }
    }
}

#[test]
fn an_interrupted_exact_solve_returns_a_sound_range() {
    let table = bounds_table(Replacement::TwoBig);
    let mut solver = Solver::new(&table);
    for (game, expected) in reference_scores().iter().step_by(5) {
        let position = game.position();
        // A deadline already past: nothing is searched, the range is every possible score.
        let past = std::time::Instant::now();
        let range = solver
            .evaluate_within(position, Mode::Exact, Some(past))
            .expect_err("no time at all");
        assert_eq!(range, ScoreRange::possible(position), "{game}");
        assert!(range.lower <= *expected && *expected <= range.upper);
    }
}

/// The reference's own two value kinds agree (win/draw/loss is the sign of the score), on a
/// sample: the extension to exact scores did not change what it says.
#[test]
fn the_reference_scores_have_the_signs_of_its_win_draw_loss() {
    for (game, expected) in reference_scores().iter().step_by(6) {
        let columns: Vec<u8> = game.moves().iter().map(|c| c.number()).collect();
        assert_eq!(
            PlainSolver::new(&columns).value() as i32,
            expected.signum(),
            "{game}"
        );
        let white_score = if columns.len().is_multiple_of(2) {
            *expected
        } else {
            -expected
        };
        assert_eq!(
            PlainSolver::new(&columns).first_player_wins(),
            white_score > 0,
            "{game}"
        );
    }
}
