//! `analyze` against solving each child directly, the player against won positions, and the
//! heuristic search against short forced wins the solver finds — for the 3-D game and for the
//! classic one (positions from Pons's test sets).

use std::fmt::Display;
use std::time::{Duration, Instant};

use score4_analysis::heuristic::{exact_behind, HeuristicSearch};
use score4_analysis::{analyze, MoveValue, Player};
use score4_bench::PositionGenerator;
use score4_board::Position;
use score4_classic::{ClassicPosition, ClassicRecord};
use score4_game::Game;
use score4_solver::{Format, Mode, Replacement, Solver, TableConfig, TranspositionTable};

/// A table of bounds for `B`'s keys (the smallest 3-D one, 64 MiB for the classic game).
fn bounds_table<B: Game>() -> TranspositionTable {
    let bytes = TranspositionTable::minimum_bytes_for_keys(
        Replacement::TwoBig,
        Format::Bounds,
        B::KEY_WIDTH,
    )
    .max(64 << 20);
    let config = TableConfig::new(bytes, B::KEY_WIDTH).format(Format::Bounds);
    TranspositionTable::new(&config.threads(2)).unwrap()
}

/// Every 50th position of Pons's set `name`, after `skip`.
fn pons_positions(name: &str, skip: usize) -> Vec<ClassicPosition> {
    score4_bench::pons::set(name)
        .into_iter()
        .skip(skip)
        .step_by(50)
        .map(|(moves, _)| *moves.parse::<ClassicRecord>().unwrap().position())
        .collect()
}

/// The exact score of the mover playing `column`, solved directly on a table of its own.
fn direct_score<B: Game>(table: &TranspositionTable, position: &B, column: B::Column) -> i32 {
    let cell = position.drop_cell(column).expect("legal");
    if position.wins_with(cell) {
        return B::CELLS / 2 - position.stone_count() / 2;
    }
    -Solver::new(table)
        .evaluate(&position.after(cell), Mode::Exact)
        .value
}

#[test]
fn analyze_agrees_with_solving_each_child_directly() {
    let positions: Vec<Position> = (42..=48)
        .flat_map(|stones| PositionGenerator::new(stones, 900 + stones as u64).take(5))
        .map(|game| *game.position())
        .collect();
    check_analyses(&positions);
}

#[test]
fn analyze_agrees_with_solving_each_child_directly_in_the_classic_game() {
    let mut positions = pons_positions("Test_L2_R2", 7);
    positions.extend(pons_positions("Test_L1_R1", 11));
    assert_eq!(positions.len(), 40);
    check_analyses(&positions);
}

/// Every move of each position gets the score of solving its child directly, the best move
/// the best score, and the principal variation keeps it.
fn check_analyses<B: Game + std::fmt::Debug>(positions: &[B]) {
    let table = bounds_table::<B>();
    let direct = bounds_table::<B>();
    for position in positions {
        let game = format!("{position:?}");
        let analysis = analyze(position, &table, None, Duration::from_secs(60));
        let legal = B::columns()
            .filter(|&c| position.drop_cell(c).is_some())
            .count();
        assert_eq!(analysis.moves.len(), legal, "{game}");
        let mut best_score = i32::MIN;
        for m in &analysis.moves {
            direct.clear();
            let expected = direct_score(&direct, position, m.column);
            assert_eq!(
                m.value,
                MoveValue::Exact(expected),
                "{game}, move {}",
                m.column
            );
            best_score = best_score.max(expected);
        }
        let best = analysis
            .moves
            .iter()
            .find(|m| m.column == analysis.best)
            .unwrap();
        assert_eq!(
            best.value,
            MoveValue::Exact(best_score),
            "{game}: the best move"
        );
        // The principal variation keeps the score at every move.
        assert!(analysis.proven_variation, "{game}");
        let mut current = *position;
        let mut expected = best_score;
        for &column in &analysis.principal_variation {
            direct.clear();
            assert_eq!(
                direct_score(&direct, &current, column),
                expected,
                "{game}: variation {:?}",
                analysis.principal_variation
            );
            let cell = current.drop_cell(column).unwrap();
            if current.wins_with(cell) {
                break;
            }
            current = current.after(cell);
            expected = -expected;
        }
    }
}

#[test]
fn the_engine_never_lets_a_won_position_slip() {
    let positions: Vec<Position> = (44..=48)
        .flat_map(|stones| PositionGenerator::new(stones, 4_000 + stones as u64).take(40))
        .map(|game| *game.position())
        .collect();
    check_engine(&positions, 50);
}

#[test]
fn the_engine_never_lets_a_won_position_slip_in_the_classic_game() {
    let mut positions = pons_positions("Test_L2_R2", 3);
    positions.extend(pons_positions("Test_L2_R1", 5));
    check_engine(&positions, 15);
}

/// The player, from `wanted` positions of `starts` the solver knows are won, wins every game
/// against its own defence and pseudo-random replies, the judge confirming the win after
/// each of its moves.
fn check_engine<B: Game + std::fmt::Debug>(starts: &[B], wanted: usize) {
    let table = bounds_table::<B>();
    let judge_table = bounds_table::<B>();
    let mut judge = Solver::new(&judge_table);
    let player = Player::new(&table, Duration::from_secs(5));
    let mut won = 0;
    for (i, start) in starts.iter().enumerate() {
        if won == wanted {
            break;
        }
        let game = format!("{start:?}");
        let start = *start;
        if judge.evaluate(&start, Mode::Wdl).value != 1 {
            continue;
        }
        won += 1;
        // The opponent alternates between the player's own choice and a pseudo-random move.
        let mut position = start;
        let mut ply = 0;
        loop {
            let player_cell = position.drop_cell(player.choose(&position).column).unwrap();
            if position.wins_with(player_cell) {
                break; // the player won
            }
            position = position.after(player_cell);
            assert!(!position.is_full(), "{game}: the player drew a won game");
            assert_eq!(
                judge.evaluate(&position, Mode::Wdl).value,
                -1,
                "{game}: the win slipped after {ply} plies"
            );
            let opponent_cell = if (i + ply) % 2 == 0 {
                position.drop_cell(player.choose(&position).column).unwrap()
            } else {
                let legal: Vec<_> = position.playable().into_iter().collect();
                legal[(i * 7 + ply * 13) % legal.len()]
            };
            assert!(
                !position.wins_with(opponent_cell),
                "{game}: the opponent won"
            );
            position = position.after(opponent_cell);
            ply += 2;
        }
    }
    assert_eq!(won, wanted, "{wanted} won positions tried");
}

#[test]
fn the_heuristic_search_sees_every_short_forced_win() {
    let positions: Vec<Position> = (36..=50)
        .flat_map(|stones| PositionGenerator::new(stones, 70 + stones as u64).take(40))
        .map(|game| *game.position())
        .collect();
    check_short_wins(&positions, 20);
}

#[test]
fn the_heuristic_search_sees_every_short_forced_win_in_the_classic_game() {
    let mut positions = Vec::new();
    for skip in 0..10 {
        positions.extend(pons_positions("Test_L3_R1", skip));
        positions.extend(pons_positions("Test_L2_R1", skip));
    }
    check_short_wins(&positions, 20);
}

/// The heuristic search finds every forced win within 5 plies among `positions` (at least
/// `wanted` of them) with its exact score.
fn check_short_wins<B: Game + Display>(positions: &[B], wanted: usize) {
    let table = bounds_table::<B>();
    let mut solver = Solver::new(&table);
    let mut seen = 0;
    for position in positions {
        let score = solver.evaluate(position, Mode::Exact).value;
        let mine = position.stone_count() / 2;
        // A win with the mover's second or third stone from now: within 5 plies.
        if score <= 0 || score < B::CELLS / 2 - 2 - mine {
            continue;
        }
        seen += 1;
        let estimate =
            HeuristicSearch::run(position, None, Instant::now() + Duration::from_secs(2));
        assert_eq!(
            exact_behind(estimate.value),
            Some(score),
            "{position}: {estimate:?}"
        );
    }
    assert!(seen >= wanted, "{seen} short wins");
}
