//! The static rules against the plain reference solver, on thousands of positions of 42–58
//! stones from the benchmark generator and one move beyond them: every position
//! `rules::follow_up_holds` settles is not a first-player win, and every position
//! `rules::zugzwang_on_odd_threat` or `rules::zugzwang_on_threat_combination` settles is one —
//! with enough of them settled only by the mirror and only by the counter-threat (for white, the
//! second threat), and only by a threat combination, to exercise those.

mod plain;

use plain::PlainSolver;
use score4_bench::PositionGenerator;
use score4_board::rules::{
    follow_up_gap, follow_up_gap_after, follow_up_holds, follow_up_holds_without_counter_threat,
    follow_up_holds_without_mirror, follow_up_holds_without_verticals, zugzwang_gap,
    zugzwang_gap_after, zugzwang_on_odd_threat, zugzwang_on_threat_combination,
    zugzwang_without_mirror, zugzwang_without_second_threat, zugzwang_without_verticals,
    ODD_LAYERS,
};
use score4_board::CellCoordinates;
use score4_board::{Colour, GameRecord, Position};

/// Reference value of `game` followed by `extra` (a column number, or none).
fn reference_first_player_wins(game: &GameRecord, extra: Option<u8>) -> bool {
    let mut columns: Vec<u8> = game.moves().iter().map(|c| c.number()).collect();
    columns.extend(extra);
    PlainSolver::new(&columns).first_player_wins()
}

/// Whether `position` (white to move) has columns of odd height, so that the rule needs pairs.
fn needs_pairs(position: &Position) -> bool {
    position.playable().0 & ODD_LAYERS != 0
}

/// The positions a rule for `mover` is tried on, from `game`: the position itself if `mover` is
/// to move, else the position after each move that does not win, with that move's column.
fn with_mover_to_move(game: &GameRecord, mover: Colour) -> Vec<(Position, Option<u8>)> {
    let position = game.position();
    if position.mover() == mover {
        return vec![(*position, None)];
    }
    position
        .playable()
        .iter()
        .filter(|&cell| !position.wins_with(cell))
        .map(|cell| (position.after(cell), Some(cell.column().number())))
        .collect()
}

#[test]
fn every_position_the_rule_settles_is_not_a_first_player_win() {
    let (mut settled, mut settled_with_pairs, mut tried) = (0, 0, 0);
    let (mut settled_by_mirror, mut settled_by_counter, mut settled_by_verticals) = (0, 0, 0);
    for stones in 42..=58u32 {
        for game in PositionGenerator::new(stones, 5_000 + stones as u64).take(600) {
            for (child, extra) in with_mover_to_move(&game, Colour::White) {
                tried += 1;
                // The gap the search orders black's moves by is 0 exactly when the rule holds.
                assert_eq!(
                    follow_up_gap(&child) == 0,
                    follow_up_holds(&child),
                    "{game} + {extra:?}"
                );
                if follow_up_holds(&child) {
                    settled += 1;
                    settled_with_pairs += needs_pairs(&child) as u32;
                    let without_verticals = follow_up_holds_without_verticals(&child);
                    settled_by_verticals += !without_verticals as u32;
                    let without_counter = follow_up_holds_without_counter_threat(&child);
                    settled_by_counter += (without_verticals && !without_counter) as u32;
                    settled_by_mirror +=
                        (without_counter && !follow_up_holds_without_mirror(&child)) as u32;
                    assert!(
                        !reference_first_player_wins(&game, extra),
                        "the rule settled {game} + {extra:?}, which the first player wins"
                    );
                }
            }
        }
    }
    eprintln!(
        "{settled} of {tried} positions settled, {settled_with_pairs} with pairs, \
         {settled_by_mirror} only with a mirror, {settled_by_counter} only with a counter-threat, \
         {settled_by_verticals} only with verticals"
    );
    assert!(settled >= 3_000, "only {settled} positions settled");
    assert!(
        settled_with_pairs >= 2_000,
        "only {settled_with_pairs} settled with pairs"
    );
    assert!(
        settled_by_mirror >= 100,
        "only {settled_by_mirror} settled with a mirror"
    );
    assert!(
        settled_by_counter >= 200,
        "only {settled_by_counter} settled with a counter-threat"
    );
    assert!(
        settled_by_verticals >= 150,
        "only {settled_by_verticals} settled with verticals"
    );
}

#[test]
fn every_position_the_zugzwang_rule_settles_is_a_first_player_win() {
    let (mut settled, mut settled_by_mirror, mut tried) = (0, 0, 0);
    let (mut settled_by_second, mut settled_by_verticals) = (0, 0);
    for stones in 43..=58u32 {
        for game in PositionGenerator::new(stones, 7_000 + stones as u64).take(800) {
            // The rule's contract: black has no opening (the generator's positions never give
            // the mover one; a white move may).
            let candidates = with_mover_to_move(&game, Colour::Black)
                .into_iter()
                .filter(|(child, _)| (child.threats(Colour::Black) & child.playable()).is_empty());
            for (child, extra) in candidates {
                tried += 1;
                // The gap the search orders white's moves by is 0 exactly when the rule holds.
                assert_eq!(
                    zugzwang_gap(&child) == 0,
                    zugzwang_on_odd_threat(&child),
                    "{game} + {extra:?}"
                );
                if zugzwang_on_odd_threat(&child) {
                    settled += 1;
                    let without_verticals = zugzwang_without_verticals(&child);
                    settled_by_verticals += !without_verticals as u32;
                    let without_second = zugzwang_without_second_threat(&child);
                    settled_by_second += (without_verticals && !without_second) as u32;
                    settled_by_mirror +=
                        (without_second && !zugzwang_without_mirror(&child)) as u32;
                    assert!(
                        reference_first_player_wins(&game, extra),
                        "the zugzwang rule settled {game} + {extra:?}, which the first player does not win"
                    );
                }
            }
        }
    }
    eprintln!(
        "{settled} of {tried} positions settled by zugzwang, {settled_by_mirror} only with a \
         mirror, {settled_by_second} only with a second threat, {settled_by_verticals} only with \
         verticals"
    );
    assert!(settled >= 2_500, "only {settled} positions settled");
    assert!(
        settled_by_mirror >= 100,
        "only {settled_by_mirror} settled with a mirror"
    );
    assert!(
        settled_by_second >= 20,
        "only {settled_by_second} settled with a second threat"
    );
    assert!(
        settled_by_verticals >= 50,
        "only {settled_by_verticals} settled with verticals"
    );
}

#[test]
fn every_position_a_threat_combination_settles_is_a_first_player_win() {
    let (mut settled, mut settled_only_by_it, mut tried) = (0, 0, 0);
    for stones in 41..=57u32 {
        for game in PositionGenerator::new(stones, 11_000 + stones as u64).take(2_000) {
            // The rule's contract, as the zugzwang's above: black has no opening.
            let candidates = with_mover_to_move(&game, Colour::Black)
                .into_iter()
                .filter(|(child, _)| (child.threats(Colour::Black) & child.playable()).is_empty());
            for (child, extra) in candidates {
                tried += 1;
                if zugzwang_on_threat_combination(&child) {
                    settled += 1;
                    settled_only_by_it += !zugzwang_on_odd_threat(&child) as u32;
                    assert!(
                        reference_first_player_wins(&game, extra),
                        "a threat combination settled {game} + {extra:?}, which the first player \
                         does not win"
                    );
                }
            }
        }
    }
    eprintln!(
        "{settled} of {tried} positions settled by a threat combination, {settled_only_by_it} \
         of them not by the zugzwang on an odd threat"
    );
    assert!(
        settled_only_by_it >= 150,
        "only {settled_only_by_it} settled by a threat combination alone"
    );
}

#[test]
fn the_gaps_after_a_move_read_without_playing_it_are_the_gaps_of_the_position_after_it() {
    let mut checked = 0;
    for stones in 20..=58u32 {
        for game in PositionGenerator::new(stones, 9_000 + stones as u64).take(200) {
            let position = game.position();
            for cell in position.playable() {
                if position.wins_with(cell) {
                    continue;
                }
                let child = position.after(cell);
                let (read, played) = match position.mover() {
                    Colour::Black => (follow_up_gap_after(position, cell), follow_up_gap(&child)),
                    Colour::White => (zugzwang_gap_after(position, cell), zugzwang_gap(&child)),
                };
                assert_eq!(read, played, "{game} + {}", cell.column().number());
                checked += 1;
            }
        }
    }
    assert!(checked >= 50_000, "only {checked} moves checked");
}
