//! perft: the number of move sequences of `n` plies from the empty board, against docs/RULES.md,
//! "Counts to test against".
//!
//! A game stops at the first four: a winning move is counted at its own ply but not expanded.
//! These counts exercise `playable`, `play`/`after` and the incremental threats behind `wins_with`
//! on millions of positions; a single wrong threat changes the win counts from ply 7 on.

use score4_board::{GameRecord, Position};

/// `(plies, move sequences, of which the last move wins)` from docs/RULES.md, "Counts to test
/// against".
const PERFT: [(u32, u64, u64); 8] = [
    (1, 16, 0),
    (2, 256, 0),
    (3, 4_096, 0),
    (4, 65_536, 0),
    (5, 1_048_560, 0),
    (6, 16_775_760, 0),
    (7, 268_358_160, 709_200),
    (8, 4_280_547_600, 8_651_424),
];

/// Move sequences of `depth` plies from `position` (in which nobody has four), and how many of
/// them end with a winning move. The last ply is counted in bulk: every playable cell is a
/// sequence, and the mover's openings are the winning ones.
fn perft(position: &Position, depth: u32) -> (u64, u64) {
    let playable = position.playable();
    if depth == 1 {
        let wins = playable & position.threats(position.mover());
        return (u64::from(playable.len()), u64::from(wins.len()));
    }
    let mut totals = (0, 0);
    for cell in playable {
        if position.wins_with(cell) {
            // The game ends here, before the last ply: the sequence is cut short.
            continue;
        }
        let (sequences, wins) = perft(&position.after(cell), depth - 1);
        totals.0 += sequences;
        totals.1 += wins;
    }
    totals
}

/// A slow perft through the public game record (`GameRecord::play` on clones, one column at a
/// time), sharing no code with [`perft`] but the board itself.
fn perft_by_game(game: &GameRecord, depth: u32) -> (u64, u64) {
    let mut totals = (0, 0);
    for column in score4_board::Column::all() {
        let mut child = game.clone();
        let Ok(outcome) = child.play(column) else {
            continue;
        };
        let won = matches!(outcome, score4_board::Outcome::Won(_));
        if depth == 1 {
            totals.0 += 1;
            totals.1 += u64::from(won);
        } else if !won {
            let (sequences, wins) = perft_by_game(&child, depth - 1);
            totals.0 += sequences;
            totals.1 += wins;
        }
    }
    totals
}

fn check_perft(plies: u32) {
    let &(_, sequences, wins) = PERFT
        .iter()
        .find(|&&(n, _, _)| n == plies)
        .expect("a known perft figure");
    assert_eq!(
        perft(&Position::EMPTY, plies),
        (sequences, wins),
        "perft({plies}): (move sequences, of which the last move wins)"
    );
}

/// Guards move generation and gravity: perft(1..=6) equal docs/RULES.md, "Counts to test against"
/// (no win is possible yet).
#[test]
fn perft_up_to_six_plies_matches_the_design_table() {
    for plies in 1..=6 {
        check_perft(plies);
    }
}

/// Guards the fast perft itself: it agrees with a naive count through `GameRecord::play` up to 4
/// plies.
#[test]
fn fast_perft_agrees_with_a_naive_count_through_game() {
    for plies in 1..=4 {
        assert_eq!(
            perft(&Position::EMPTY, plies),
            perft_by_game(&GameRecord::new(), plies),
            "perft({plies})"
        );
    }
}

/// Guards perft's win accounting where wins happen within 3 plies (the report's 9-stone position
/// and two others): won sequences are counted at their ply and not expanded, as by the slow count.
#[test]
fn fast_perft_agrees_with_naive_count_where_wins_happen() {
    for moves in ["0F C3 48 4B 7", "0102 03", "05AF 16B"] {
        let game: GameRecord = moves.parse().unwrap();
        for plies in 1..=3 {
            let fast = perft(game.position(), plies);
            let slow = perft_by_game(&game, plies);
            assert_eq!(fast, slow, "perft({plies}) after {moves}");
        }
        // Every one of these has a win within 3 plies, so the win counts are exercised.
        assert_ne!(perft(game.position(), 3).1, 0, "{moves}");
    }
}

/// Guards the incremental threats on 268 million sequences: perft(7), the first ply with wins.
/// Run with `cargo test -p score4-board -- --ignored` (about a second optimised).
#[test]
#[ignore = "268 million move sequences; run with --include-ignored in the optimised test profile"]
fn perft_seven_plies_matches_the_design_table() {
    check_perft(7);
}

/// Guards the same on 4.3 billion sequences: perft(8) (about 15 s optimised on one core).
#[test]
#[ignore = "4.3 billion move sequences; run with --include-ignored in the optimised test profile"]
fn perft_eight_plies_matches_the_design_table() {
    check_perft(8);
}
