//! The forced lines the enhanced transposition cutoff reads (`ordering::forced_line`): after a
//! move that leaves the opponent a single block, each line is walked again here stone by stone
//! with an independent reading of the bitboards (each player in turn faces exactly one
//! opening it must block), on thousands of positions of 20–58 stones; the key it reaches, or
//! who wins on the way, must match. On positions of 44 stones or more the plain reference
//! solver confirms that the move and the end of its line have the same value, or that the
//! player named wins.

mod plain;
mod walk;

use plain::PlainSolver;
use score4_bench::PositionGenerator;
use score4_board::ordering::{forced_line, opening_after, FORCED_LINE_MAX_REPLIES};
use score4_board::CellCoordinates;
use score4_board::Layers;
use score4_board::{Cell, Colour, Position};
use score4_game::{ForcedLine, Opening};
use score4_solver::{examine, Examined};
use walk::positions_from;

/// What the line after `cell` looks like when walked one stone at a time: the position where
/// it stops (the first where the player to move has a choice, or the last the function looks
/// at), or `Err(colour)` when `colour` is left with two openings against it (or one below
/// another), the columns played.
fn walk_line(position: &Position, cell: Cell) -> (Result<Position, Colour>, Vec<u8>) {
    let mut line = position.after(cell);
    let mut columns = vec![cell.column().number()];
    // Blocks after the mover's move: the opponent's first, then up to the limit of replies.
    for _ in 0..=FORCED_LINE_MAX_REPLIES {
        let to_move = line.mover();
        let playable = line.playable();
        assert!(
            (line.threats(to_move) & playable).is_empty(),
            "the player to block has an opening"
        );
        let openings = line.threats(to_move.other()) & playable;
        if openings.is_empty() {
            return (Ok(line), columns);
        }
        let below_another = !(openings.up() & line.threats(to_move.other())).is_empty();
        if openings.has_several() || below_another {
            return (Err(to_move), columns);
        }
        let block = openings.iter().next().expect("one opening");
        columns.push(block.column().number());
        line.play(block);
    }
    // The limit: one more opening may be pending, so the stopping point is the last position.
    (Ok(line), columns)
}

#[test]
fn forced_lines_reach_what_a_stone_by_stone_walk_reaches() {
    let (mut blocks, mut longer, mut lost, mut won, mut by_reference) = (0, 0, 0, 0, 0);
    for stones in (20..=58u32).step_by(2) {
        for game in PositionGenerator::new(stones, 41_000 + stones as u64).take(200) {
            for (position, columns) in positions_from(&game) {
                let Examined::Moves(moves) = examine(&position) else {
                    continue;
                };
                if !moves.has_several() {
                    continue;
                }
                let group = position.transposing_symmetries();
                for cell in moves {
                    let Opening::Block(block) = opening_after(&position, cell) else {
                        continue;
                    };
                    blocks += 1;
                    let found = forced_line(&position, cell, block, group);
                    let (walked, line) = walk_line(&position, cell);
                    let context = format!("{columns:?} + {line:?}");
                    let mover = position.mover();
                    match (found, walked) {
                        (ForcedLine::Reaches(key), Ok(end)) => {
                            assert_eq!(key, end.table_key_within(group), "{context}");
                            longer += (line.len() > 2) as u32;
                        }
                        (ForcedLine::MoverLoses, Err(loser)) => {
                            assert_eq!(loser, mover, "{context}");
                            lost += 1;
                        }
                        (ForcedLine::MoverWins, Err(loser)) => {
                            assert_eq!(loser, mover.other(), "{context}");
                            won += 1;
                        }
                        (found, walked) => panic!("{context}: {found:?} against {walked:?}"),
                    }
                    if position.count() >= 44 {
                        let mut after_move = columns.clone();
                        after_move.push(cell.column().number());
                        let move_value = PlainSolver::new(&after_move).first_player_wins();
                        let expected = match found {
                            ForcedLine::Reaches(_) => {
                                let mut to_end = columns.clone();
                                to_end.extend(&line);
                                PlainSolver::new(&to_end).first_player_wins()
                            }
                            ForcedLine::MoverLoses => mover == Colour::Black,
                            ForcedLine::MoverWins => mover == Colour::White,
                        };
                        assert_eq!(move_value, expected, "{context}: by the reference");
                        by_reference += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "{blocks} blocks: {longer} lines past the first block, {lost} lost, {won} won; \
         {by_reference} checked by the reference"
    );
    // The test means something only if every kind of line was met often.
    assert!(blocks > 20_000, "{blocks} blocks");
    assert!(longer > 1_000, "{longer} longer lines");
    assert!(lost > 500, "{lost} lost");
    assert!(won > 100, "{won} won");
    assert!(by_reference > 2_000, "{by_reference} by reference");
}
