//! `score4 play`: a game in the terminal — a human against the engine, the engine against
//! itself, or two humans — read from standard input line by line, so a script of moves can be
//! piped in.
//!
//! On a human's turn a line is a move (one column digit), `undo` (back to this player's
//! previous turn), `hint` (the engine's choice for this player, with its value), `show` (the
//! board and each side's openings and threats, as `score4 show` lists them), or `quit`; the end of the input quits too. A bad line is reported with its number
//! and the game goes on; the exit code is then 2 at the end. The game record is printed last,
//! in the notation that `solve` and `analyze` read.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use score4_bench::report::count;
use score4_engine::{Choice, Colour, Game, Outcome, Record};

use crate::analyze::{analysis_engine, line_text, ongoing_game, value_sentence};
use crate::show::threat_lines;
use crate::signals::{signal_name, StopSignals};
use crate::{Humans, PlayArgs, EXIT_BAD_INPUT};

/// Whether `colour` is played by a human.
fn is_human(humans: Humans, colour: Colour) -> bool {
    match humans {
        Humans::X => colour == Colour::White,
        Humans::O => colour == Colour::Black,
        Humans::Both => true,
        Humans::None => false,
    }
}

/// How the analysis values the move the engine chose for `mover`.
fn chosen_value<C: Eq>(choice: &Choice<C>, mover: Colour) -> String {
    choice
        .analysis
        .moves
        .iter()
        .find(|m| m.column == choice.column)
        .map(|m| value_sentence(m.value, mover))
        .unwrap_or_default()
}

/// The game after `moves`, which were legal when played.
fn replay<R: Record>(moves: &[<R::Position as Game>::Column]) -> R {
    let mut game = R::default();
    for &column in moves {
        game.play_column(column)
            .expect("moves played before are legal");
    }
    game
}

/// Runs `score4 play`.
pub fn run<R: Record>(args: PlayArgs) -> ExitCode {
    let program = R::COMMAND;
    let start = args.start.as_deref().unwrap_or("");
    let mut game: R = match ongoing_game("play", start) {
        Ok(game) => game,
        Err(code) => return code,
    };
    // Ctrl-C or SIGTERM, while score4 thinks or a person types: the game so far is printed as
    // at the end, and the exit code is 130 or 143.
    let so_far = Arc::new(Mutex::new(game.clone()));
    let _signals = {
        let so_far = Arc::clone(&so_far);
        StopSignals::catch_with_signal("score4 play", move |signal| {
            let game = so_far.lock().unwrap_or_else(|e| e.into_inner());
            println!(
                "\nresult: stopped by {}, {} to move",
                signal_name(signal),
                game.mover().symbol()
            );
            println!("record: {game}");
            let _ = std::io::stdout().flush();
            std::process::exit(128 + signal);
        })
    };
    let engine = match analysis_engine::<R>("play", args.tt_size, args.replacement, &args.book) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let player = engine.player(args.time);
    let first_own_move = game.columns_played().len();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().enumerate();
    let mut bad = 0u32;
    print!("{}", game.board_text());
    'game: while game.outcome() == Outcome::Ongoing {
        *so_far.lock().unwrap_or_else(|e| e.into_inner()) = game.clone();
        let mover = game.mover();
        if !is_human(args.human, mover) {
            let choice = player.choose(game.position());
            let value = chosen_value(&choice, mover);
            game.play_column(choice.column)
                .expect("the engine plays legal moves");
            println!(
                "score4 ({}) plays {} — {value}",
                mover.symbol(),
                choice.column
            );
            print!("{}", game.board_text());
            continue;
        }
        println!(
            "{} to move: a column ({}), undo, hint, show or quit",
            mover.symbol(),
            R::COLUMN_CHARACTERS
        );
        let (number, line) = match lines.next() {
            None => break 'game, // end of input: stop here
            Some((i, Ok(line))) => (i + 1, line),
            Some((i, Err(error))) => {
                eprintln!("{program} play: input line {}: {error}", i + 1);
                bad += 1;
                break 'game;
            }
        };
        let command = line.trim();
        match command.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "q" | "exit" => break 'game,
            "show" => print!("{}{}", game.board_text(), threat_lines(&game)),
            "hint" => {
                let choice = player.choose(game.position());
                let value = chosen_value(&choice, mover);
                println!(
                    "hint: {} — {value}; line {}",
                    choice.column,
                    line_text(&choice.analysis.principal_variation)
                );
            }
            "undo" => {
                // Back to this player's previous turn: at least one move, then through the
                // other side's moves, never before the starting position.
                let mut moves = game.columns_played();
                let mut undone = 0;
                while moves.len() > first_own_move
                    && (undone == 0 || !is_human(args.human, replay::<R>(&moves).mover()))
                {
                    moves.pop();
                    undone += 1;
                }
                if undone == 0 {
                    eprintln!("{program} play: input line {number}: nothing to undo");
                    bad += 1;
                } else {
                    game = replay(&moves);
                    println!("undone: {}", count(undone, "move", "moves"));
                    print!("{}", game.board_text());
                }
            }
            _ => {
                let mut chars = command.chars();
                let column = match (chars.next().and_then(R::column_from_char), chars.next()) {
                    (Some(column), None) => column,
                    _ => {
                        eprintln!(
                            "{program} play: input line {number}: {command:?} is neither a \
                             column ({}) nor undo, hint, show or quit",
                            R::COLUMN_CHARACTERS
                        );
                        bad += 1;
                        continue;
                    }
                };
                match game.play_column(column) {
                    Ok(_) => print!("{}", game.board_text()),
                    Err(error) => {
                        eprintln!("{program} play: input line {number}: {error}");
                        bad += 1;
                    }
                }
            }
        }
    }
    match game.outcome() {
        Outcome::Ongoing => println!("result: unfinished, {} to move", game.mover().symbol()),
        outcome => println!("result: {outcome}"),
    }
    println!("record: {game}");
    if bad > 0 {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}
