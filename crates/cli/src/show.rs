//! `score4 show MOVES`, for either game: the position drawn, whose move, and each side's
//! openings and other threats in the game's own terms. [`threat_lines`] is shared with `play`'s
//! `show` command.

use std::process::ExitCode;

use score4_bench::report::count;
use score4_board::BitBoard;
use score4_engine::{Colour, Game, Outcome, Record};

use crate::EXIT_BAD_INPUT;

/// The cells of `set` as the game names them ([`Record::cell_text`]), or `none`.
fn cells_text<R: Record>(set: BitBoard) -> String {
    if set.is_empty() {
        return "none".into();
    }
    let named: Vec<String> = set.iter().map(R::cell_text).collect();
    named.join(", ")
}

/// One line per side, X first: its openings (threats it can play now: whoever is to move may
/// win there at once, the other must block there) and its other threats.
pub fn threat_lines<R: Record>(game: &R) -> String {
    let position = game.position();
    let mut lines = String::new();
    for colour in [Colour::White, Colour::Black] {
        let threats = position.threats(colour);
        let openings = threats & position.playable();
        lines.push_str(&format!(
            "{}: openings {}; other threats {}\n",
            colour.symbol(),
            cells_text::<R>(openings),
            cells_text::<R>(threats & !openings),
        ));
    }
    lines
}

/// The line above a drawing of `game`: its moves (or `empty board`) and its stones.
pub fn heading<R: Record>(game: &R) -> String {
    let stones = count(game.position().stone_count() as usize, "stone", "stones");
    if game.columns_played().is_empty() {
        format!("empty board  ({stones})")
    } else {
        format!("{game}  ({stones})")
    }
}

/// What `show` prints for `game`: its [`heading`], the board, then who is to move and the
/// threats, or how the game ended.
pub fn report<R: Record>(game: &R) -> String {
    let mut out = format!("{}\n", heading(game));
    out.push_str(&game.board_text());
    match game.outcome() {
        Outcome::Ongoing => {
            out.push_str(&format!("{} to move\n", game.mover()));
            out.push_str(&threat_lines(game));
        }
        finished => out.push_str(&format!("{finished}\n")),
    }
    out
}

/// Runs `score4 show MOVES` for the game of `R`.
pub fn run<R: Record>(moves: &str) -> ExitCode {
    match moves.parse::<R>() {
        Ok(game) => {
            print!("{}", report(&game));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{} show: {error}", R::COMMAND);
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
