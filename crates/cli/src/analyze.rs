//! `score4 analyze MOVES`: every legal move's value, the best move and a principal variation,
//! as a table beside the board or as JSON.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use score4_engine::{
    physical_cores, Analysis, Colour, Engine, Game, Memory, Mode, Monitor, MoveValue, Record,
    Replacement, Settings,
};

use crate::book::{open_book, Book};
use crate::engine_error::{explain_engine_error, note_page_size, Purpose};
use crate::input::{parse_game, InputError};
use crate::show::heading;
use crate::signals::{exit_code, signal_name, StopSignals};
use crate::{AnalyzeArgs, BookArgs, EXIT_BAD_INPUT};

/// An engine with a table of bounds of `bytes` (default: the game's
/// [`Record::DEFAULT_TABLE_BYTES`]) for analysis and play, or the message and exit code for
/// the user.
pub fn analysis_engine<R: Record>(
    command: &str,
    bytes: Option<u64>,
    replacement: Replacement,
    book: &BookArgs,
) -> Result<Engine<R::Position>, ExitCode> {
    let command = format!("{} {command}", R::COMMAND);
    let bytes = bytes.unwrap_or(R::DEFAULT_TABLE_BYTES);
    let book = open_book::<R::Position>(&command, book, true)?;
    let settings = Settings {
        replacement,
        book: book.as_ref().and_then(Book::for_search),
        ..Settings::new(Mode::Exact, Memory::Table(bytes)).threads(physical_cores())
    };
    let engine = Engine::new(settings.clone())
        .map_err(|error| explain_engine_error(&command, &error, &settings, Purpose::Analysis))?;
    note_page_size(&command, engine.table());
    Ok(engine)
}

/// The game to analyse or play from, or the message and exit code for the user: it must be
/// read without error and still going on.
pub fn ongoing_game<R: Record>(command: &str, moves: &str) -> Result<R, ExitCode> {
    parse_game::<R>(moves).map_err(|error| {
        match error {
            InputError::Finished(finished) => eprintln!(
                "{} {command}: {moves:?}: nothing to play, the game is over ({finished})",
                R::COMMAND
            ),
            error => eprintln!("{} {command}: {moves:?}: {error}", R::COMMAND),
        }
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

/// A score with its sign, as scores are written: `+5`, `0`, `-12`.
pub fn signed(score: i32) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
}

/// How a move's value reads in the table, for the side to move (every value is): `win +5`,
/// `draw 0`, `loss -12` when the score is known; `win, proven +1..+19` when only win, draw or
/// loss is, with the scores still possible; `unknown, proven -20..+19, heuristic -168` when
/// not even that, with the heuristic search's value if it ran. That value is on the
/// heuristic's own scale, not a score ([`heuristic_legend`] says so under the table;
/// [`value_sentence`] says so in a sentence).
pub fn value_text(value: MoveValue) -> String {
    match value {
        MoveValue::Exact(s) if s > 0 => format!("win {}", signed(s)),
        MoveValue::Exact(0) => "draw 0".to_owned(),
        MoveValue::Exact(s) => format!("loss {s}"),
        MoveValue::Wdl(wdl, range) => {
            let word = ["loss", "draw", "win"][(wdl + 1) as usize];
            format!(
                "{word}, proven {}..{}",
                signed(range.lower),
                signed(range.upper)
            )
        }
        MoveValue::Unknown { range, estimate } => {
            let heuristic = estimate.map_or(String::new(), |e| format!(", heuristic {e:+}"));
            format!(
                "unknown, proven {}..{}{heuristic}",
                signed(range.lower),
                signed(range.upper)
            )
        }
    }
}

/// [`value_text`] for a sentence of its own, where no legend explains it: a heuristic value
/// says whose it is and that it is not a score (`heuristic +36 for X, not a score`).
pub fn value_sentence(value: MoveValue, mover: Colour) -> String {
    let text = value_text(value);
    match value {
        MoveValue::Unknown {
            estimate: Some(_), ..
        } => format!("{text} for {}, not a score", mover.symbol()),
        _ => text,
    }
}

/// The line under a table with heuristic values, for the side to move `X` or `O`.
pub fn heuristic_legend(mover: Colour) -> String {
    let side = mover.symbol();
    format!(
        "heuristic: the heuristic search's value for {side} (the side to move), higher is \
         better for {side}: not a score"
    )
}

/// One move in the JSON output.
#[derive(serde::Serialize)]
struct JsonMove {
    column: String,
    /// "exact", "wdl" or "unknown".
    kind: &'static str,
    /// The exact score, when known.
    score: Option<i32>,
    /// Win 1, draw 0, loss -1, when known.
    wdl: Option<i32>,
    /// The least score proven possible.
    lower: i32,
    /// The greatest score proven possible.
    upper: i32,
    /// Only for an unknown move the heuristic search valued: its value for the side to move,
    /// on the heuristic's scale, not a score (docs/ANALYSIS.md).
    estimate: Option<i32>,
    nodes: u64,
}

#[derive(serde::Serialize)]
struct JsonAnalysis<'a> {
    position: &'a str,
    mover: String,
    moves: Vec<JsonMove>,
    best: String,
    principal_variation: String,
    proven_variation: bool,
    seconds: f64,
    /// `SIGINT` or `SIGTERM` when a signal cut the analysis short.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<&'static str>,
}

fn json_move<C: std::fmt::Display>(m: &score4_engine::MoveAnalysis<C>) -> JsonMove {
    let range = m.value.range();
    let (kind, estimate) = match m.value {
        MoveValue::Exact(_) => ("exact", None),
        MoveValue::Wdl(..) => ("wdl", None),
        MoveValue::Unknown { estimate, .. } => ("unknown", estimate),
    };
    JsonMove {
        column: m.column.to_string(),
        kind,
        score: range.exact(),
        wdl: range.wdl(),
        lower: range.lower,
        upper: range.upper,
        estimate,
        nodes: m.nodes,
    }
}

/// The move string of `columns`.
pub fn line_text<C: std::fmt::Display>(columns: &[C]) -> String {
    columns.iter().map(|c| c.to_string()).collect()
}

/// The board with the table of moves beside it (every value for the side to move, as the
/// header says), a legend when a heuristic value shows, then the best move and the variation.
pub fn report<R: Record>(game: &R, analysis: &Analysis<<R::Position as Game>::Column>) -> String {
    let board = game.board_text();
    let board_lines: Vec<&str> = board.lines().collect();
    let width = board_lines
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    let mover = game.mover();
    let value_header = format!("value for {}", mover.symbol());
    let mut table = vec![format!(" {:<5} {value_header:<40} {:>10}", "move", "nodes")];
    for m in &analysis.moves {
        let marker = if m.column == analysis.best { "*" } else { " " };
        table.push(format!(
            "{}{:<5} {:<40} {:>10}",
            marker,
            m.column.to_string(),
            value_text(m.value),
            m.nodes
        ));
    }
    let mut out = String::new();
    for i in 0..board_lines.len().max(table.len()) {
        let left = board_lines.get(i).copied().unwrap_or("");
        let right = table.get(i).map(String::as_str).unwrap_or("");
        out.push_str(format!("{left:<width$}    {right}").trim_end());
        out.push('\n');
    }
    let best = analysis
        .moves
        .iter()
        .find(|m| m.column == analysis.best)
        .expect("the best move is a move");
    let estimated = analysis.moves.iter().any(|m| {
        matches!(
            m.value,
            MoveValue::Unknown {
                estimate: Some(_),
                ..
            }
        )
    });
    if estimated {
        out.push_str(&heuristic_legend(mover));
        out.push('\n');
    }
    out.push_str(&format!(
        "{mover} to move; best move {}: {}; {} line: {}\n",
        analysis.best,
        value_sentence(best.value, mover),
        if analysis.proven_variation {
            "proven"
        } else {
            "expected"
        },
        line_text(&analysis.principal_variation)
    ));
    out
}

/// Runs `score4 analyze`.
pub fn run<R: Record>(args: AnalyzeArgs) -> ExitCode {
    let game: R = match ongoing_game("analyze", &args.moves) {
        Ok(game) => game,
        Err(code) => return code,
    };
    // Ctrl-C or SIGTERM (caught from before the table is made) cuts the analysis short: what it found by then is printed, marked as
    // stopped, and the exit code is 130 or 143.
    let monitor = Arc::new(Monitor::default());
    let signals = {
        let monitor = Arc::clone(&monitor);
        StopSignals::catch("score4 analyze", move || monitor.stop())
    };
    let engine = match analysis_engine::<R>("analyze", args.tt_size, args.replacement, &args.book) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let start = Instant::now();
    let analysis = engine.analyze_watched(game.position(), args.time, &monitor);
    let seconds = start.elapsed().as_secs_f64();
    let stopped = signals.received();
    if args.json {
        let json = JsonAnalysis {
            position: &game.to_string(),
            mover: game.mover().symbol().to_string(),
            moves: analysis.moves.iter().map(json_move).collect(),
            best: analysis.best.to_string(),
            principal_variation: line_text(&analysis.principal_variation),
            proven_variation: analysis.proven_variation,
            seconds,
            stopped_by: stopped.map(signal_name),
        };
        println!("{}", serde_json::to_string(&json).expect("serialisable"));
    } else {
        println!("{}", heading(&game));
        print!("{}", report(&game, &analysis));
        println!(
            "analysed in {seconds:.2} s (budget {}){}",
            humantime::format_duration(round(args.time)),
            match stopped {
                Some(signal) => format!(", stopped by {}", signal_name(signal)),
                None => String::new(),
            }
        );
    }
    match stopped {
        Some(signal) => exit_code(signal),
        None => ExitCode::SUCCESS,
    }
}

/// `duration` to whole milliseconds, for printing.
fn round(duration: Duration) -> Duration {
    Duration::from_millis(duration.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use score4_board::{Column, GameRecord};
    use score4_engine::{MoveAnalysis, ScoreRange};

    const UNKNOWN: MoveValue = MoveValue::Unknown {
        range: ScoreRange {
            lower: -27,
            upper: 15,
        },
        estimate: Some(36),
    };

    #[test]
    fn values_read_flat_with_no_nested_parentheses() {
        assert_eq!(value_text(MoveValue::Exact(5)), "win +5");
        assert_eq!(value_text(MoveValue::Exact(0)), "draw 0");
        assert_eq!(value_text(MoveValue::Exact(-12)), "loss -12");
        let range = ScoreRange {
            lower: 1,
            upper: 19,
        };
        assert_eq!(value_text(MoveValue::Wdl(1, range)), "win, proven +1..+19");
        assert_eq!(
            value_text(UNKNOWN),
            "unknown, proven -27..+15, heuristic +36"
        );
        let unestimated = MoveValue::Unknown {
            range,
            estimate: None,
        };
        assert_eq!(value_text(unestimated), "unknown, proven +1..+19");
        // Alone, a heuristic value says whose it is and that it is no score.
        assert_eq!(
            value_sentence(UNKNOWN, Colour::Black),
            "unknown, proven -27..+15, heuristic +36 for O, not a score"
        );
        assert_eq!(
            value_sentence(unestimated, Colour::Black),
            value_text(unestimated)
        );
        assert_eq!(value_sentence(MoveValue::Exact(5), Colour::White), "win +5");
    }

    #[test]
    fn the_report_labels_heuristic_values_for_the_side_to_move() {
        let game: GameRecord = "0".parse().unwrap();
        let column = |c| Column::new(c).unwrap();
        let analysis = Analysis {
            moves: vec![
                MoveAnalysis {
                    column: column(9),
                    value: UNKNOWN,
                    nodes: 7,
                },
                MoveAnalysis {
                    column: column(10),
                    value: MoveValue::Exact(-20),
                    nodes: 3,
                },
            ],
            best: column(9),
            principal_variation: vec![column(9), column(1)],
            proven_variation: false,
        };
        let text = report(&game, &analysis);
        assert!(text.contains(" move  value for O "), "{text}");
        assert!(
            text.contains("*9     unknown, proven -27..+15, heuristic +36 "),
            "{text}"
        );
        assert!(
            text.contains("\nheuristic: the heuristic search's value for O (the side to move)"),
            "{text}"
        );
        assert!(
            text.contains(
                "O (second player) to move; best move 9: unknown, proven -27..+15, heuristic \
                 +36 for O, not a score; expected line: 91\n"
            ),
            "{text}"
        );
        assert!(!text.contains("(-27"), "{text}");
        // With no heuristic value in the table, no legend.
        let proven = Analysis {
            moves: vec![analysis.moves[1].clone()],
            best: column(10),
            ..analysis
        };
        assert!(!report(&game, &proven).contains("heuristic"));
    }
}
