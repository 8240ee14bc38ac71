//! `score4 show MOVES`: the position drawn, whose move, threats and openings.

use score4_board::CellCoordinates;
use std::process::ExitCode;

use score4_board::{BitBoard, Colour, GameRecord, Outcome};

use crate::EXIT_BAD_INPUT;

fn cells(set: BitBoard) -> String {
    if set.is_empty() {
        return "none".into();
    }
    let named: Vec<String> = set
        .iter()
        .map(|cell| format!("column {} layer {}", cell.column(), cell.z() + 1))
        .collect();
    named.join(", ")
}

/// Prints the position reached by `moves`.
pub fn run(moves: &str) -> ExitCode {
    let game: GameRecord = match moves.parse() {
        Ok(game) => game,
        Err(error) => {
            eprintln!("score4 show: {error}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let position = game.position();
    println!("{game}  ({} stones)", position.count());
    print!("{position}");
    match game.outcome() {
        Outcome::Ongoing => {
            println!("{} to move", position.mover());
            for colour in [Colour::White, Colour::Black] {
                println!(
                    "{}: openings {}; other threats {}",
                    colour.symbol(),
                    cells(position.openings(colour)),
                    cells(position.threats(colour) & !position.openings(colour)),
                );
            }
        }
        finished => println!("{finished}"),
    }
    ExitCode::SUCCESS
}
