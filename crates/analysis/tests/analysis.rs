//! `analyze` against solving each child directly, the engine against won positions, and the
//! heuristic search against short forced wins the solver finds.

use std::time::{Duration, Instant};

use score4_analysis::heuristic::{exact_behind, HeuristicSearch};
use score4_analysis::{analyze, Engine, MoveValue};
use score4_bench::PositionGenerator;
use score4_board::{Game, Position};
use score4_solver::{Format, Mode, Replacement, Solver, TranspositionTable};

fn bounds_table() -> TranspositionTable {
    let bytes = TranspositionTable::minimum_bytes_for(Replacement::TwoBig, Format::Bounds);
    TranspositionTable::with_format(bytes, Replacement::TwoBig, Format::Bounds, 2).unwrap()
}

/// The exact score of the mover playing `column`, solved directly on a table of its own.
fn direct_score(
    table: &TranspositionTable,
    position: &Position,
    column: score4_board::Column,
) -> i32 {
    let cell = position.drop_cell(column).expect("legal");
    if position.wins_with(cell) {
        return 32 - position.count() as i32 / 2;
    }
    -Solver::new(table)
        .evaluate(&position.after(cell), Mode::Exact)
        .value
}

#[test]
fn analyze_agrees_with_solving_each_child_directly() {
    let table = bounds_table();
    let direct = bounds_table();
    let games: Vec<Game> = (42..=48)
        .flat_map(|stones| PositionGenerator::new(stones, 900 + stones as u64).take(5))
        .collect();
    for game in &games {
        let position = game.position();
        let analysis = analyze(position, &table, Duration::from_secs(60));
        let legal = score4_board::Column::all()
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
    let table = bounds_table();
    let judge_table = bounds_table();
    let mut judge = Solver::new(&judge_table);
    let engine = Engine::new(&table, Duration::from_secs(5));
    let mut won = 0;
    for (i, game) in (44..=48)
        .flat_map(|stones| PositionGenerator::new(stones, 4_000 + stones as u64).take(40))
        .enumerate()
    {
        if won == 50 {
            break;
        }
        let start = *game.position();
        if judge.evaluate(&start, Mode::Wdl).value != 1 {
            continue;
        }
        won += 1;
        // The opponent alternates between the engine's own choice and a pseudo-random move.
        let mut position = start;
        let mut ply = 0;
        loop {
            let engine_cell = position.drop_cell(engine.choose(&position).column).unwrap();
            if position.wins_with(engine_cell) {
                break; // the engine won
            }
            position = position.after(engine_cell);
            assert!(!position.is_full(), "{game}: the engine drew a won game");
            assert_eq!(
                judge.evaluate(&position, Mode::Wdl).value,
                -1,
                "{game}: the win slipped after {ply} plies"
            );
            let opponent_cell = if (i + ply) % 2 == 0 {
                position.drop_cell(engine.choose(&position).column).unwrap()
            } else {
                let legal: Vec<_> = position.playable().iter().collect();
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
    assert_eq!(won, 50, "50 won positions tried");
}

#[test]
fn the_heuristic_search_sees_every_short_forced_win() {
    let table = bounds_table();
    let mut solver = Solver::new(&table);
    let mut seen = 0;
    for game in
        (36..=50).flat_map(|stones| PositionGenerator::new(stones, 70 + stones as u64).take(40))
    {
        let position = game.position();
        let score = solver.evaluate(position, Mode::Exact).value;
        let mine = position.count() as i32 / 2;
        // A win with the mover's second or third stone from now: within 5 plies.
        if score < 30 - mine {
            continue;
        }
        seen += 1;
        let estimate =
            HeuristicSearch::run(position, None, Instant::now() + Duration::from_secs(2));
        assert_eq!(
            exact_behind(estimate.value),
            Some(score),
            "{game}: {estimate:?}"
        );
    }
    assert!(seen >= 20, "{seen} short wins");
}
