//! `score4 analyze MOVES`: every legal move's value, the best move and a principal variation,
//! as a table beside the board or as JSON.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use score4_engine::{
    physical_cores, Analysis, Engine, Game, Memory, Mode, MoveValue, Record, Replacement, Settings,
};

use crate::input::{parse_game, InputError};
use crate::{AnalyzeArgs, EXIT_BAD_INPUT};

/// An engine with a table of bounds of `bytes` (default: the game's
/// [`Record::DEFAULT_TABLE_BYTES`]) for analysis and play, or the message and exit code for
/// the user.
pub fn analysis_engine<R: Record>(
    command: &str,
    bytes: Option<u64>,
    replacement: Replacement,
) -> Result<Engine<R::Position>, ExitCode> {
    let bytes = bytes.unwrap_or(R::DEFAULT_TABLE_BYTES);
    let settings = Settings {
        replacement,
        ..Settings::new(Mode::Exact, Memory::Table(bytes)).threads(physical_cores())
    };
    Engine::new(settings).map_err(|error| {
        eprintln!("{} {command}: --tt-size: {error}", R::COMMAND);
        if error.is_bad_input() {
            ExitCode::from(EXIT_BAD_INPUT)
        } else {
            ExitCode::FAILURE
        }
    })
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

/// How a move's value reads in the table.
pub fn value_text(value: MoveValue) -> String {
    let signed = |s: i32| {
        if s > 0 {
            format!("+{s}")
        } else {
            s.to_string()
        }
    };
    match value {
        MoveValue::Exact(s) if s > 0 => format!("win {}", signed(s)),
        MoveValue::Exact(0) => "draw 0".to_owned(),
        MoveValue::Exact(s) => format!("loss {s}"),
        MoveValue::Wdl(wdl, range) => {
            let word = ["loss", "draw", "win"][(wdl + 1) as usize];
            format!("{word} ({}..{})", signed(range.lower), signed(range.upper))
        }
        MoveValue::Unknown { range, estimate } => {
            let estimate = estimate.map_or(String::new(), |e| format!(", estimate {e:+}"));
            format!(
                "unknown ({}..{}{estimate})",
                signed(range.lower),
                signed(range.upper)
            )
        }
    }
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
    lower: i32,
    upper: i32,
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

/// The board with the table of moves beside it, then the best move and the variation.
pub fn report<R: Record>(game: &R, analysis: &Analysis<<R::Position as Game>::Column>) -> String {
    let board = game.board_text();
    let board_lines: Vec<&str> = board.lines().collect();
    let width = board_lines
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    let mut table = vec![format!(" {:<5} {:<32} {:>10}", "move", "value", "nodes")];
    for m in &analysis.moves {
        let marker = if m.column == analysis.best { "*" } else { " " };
        table.push(format!(
            "{}{:<5} {:<32} {:>10}",
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
    out.push_str(&format!(
        "{} to move; best move {} ({}); {} line: {}\n",
        game.mover(),
        analysis.best,
        value_text(best.value),
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
    let engine = match analysis_engine::<R>("analyze", args.tt_size, args.replacement) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let start = Instant::now();
    let analysis = engine.analyze(game.position(), args.time);
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        let json = JsonAnalysis {
            position: &game.to_string(),
            mover: game.mover().symbol().to_string(),
            moves: analysis.moves.iter().map(json_move).collect(),
            best: analysis.best.to_string(),
            principal_variation: line_text(&analysis.principal_variation),
            proven_variation: analysis.proven_variation,
            seconds,
        };
        println!("{}", serde_json::to_string(&json).expect("serialisable"));
    } else {
        println!("{game}  ({} stones)", game.position().stone_count());
        print!("{}", report(&game, &analysis));
        println!(
            "analysed in {seconds:.2} s (budget {})",
            humantime::format_duration(round(args.time))
        );
    }
    ExitCode::SUCCESS
}

/// `duration` to whole milliseconds, for printing.
fn round(duration: Duration) -> Duration {
    Duration::from_millis(duration.as_millis() as u64)
}
