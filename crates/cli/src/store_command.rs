//! `score4 store status | export | merge`: what a store holds, its positions as lines, and
//! stores of several machines combined.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use score4_board::GameRecord;
use score4_classic::ClassicRecord;
use score4_engine::{Game, Record};
use score4_prove::{first_player_wins, store_key};
use score4_store::{Bounds, Store, StoreError};

use crate::progress::elapsed_text;
use crate::prove::store_error_code;
use crate::StoreCommand;

/// Runs a `score4 store` command.
pub fn run(command: StoreCommand) -> ExitCode {
    let outcome = match command {
        StoreCommand::Status { file, json, depth } => status(&file, json, depth),
        StoreCommand::Export { file } => export(&file),
        StoreCommand::Merge {
            destination,
            sources,
        } => merge(&destination, &sources),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("score4 store: {error}");
            store_error_code(&error)
        }
    }
}

/// A root's state as `status` shows it.
#[derive(serde::Serialize)]
struct RootStatus {
    position: String,
    /// 1 the first player wins, 0 not, null open.
    value: Option<u8>,
    nodes: u64,
    moves: Vec<MoveStatus>,
}

#[derive(serde::Serialize)]
struct MoveStatus {
    column: String,
    /// `proven` (the first player wins after it), `refuted` (not), `open`, `ends the game`.
    status: &'static str,
    nodes: u64,
    /// With `--depth` 2 or more, for a move with more than one node recorded under it: the
    /// replies with more than one node under them, in column order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    replies: Vec<MoveStatus>,
    /// The replies not listed in `replies`, by status (empty when none is left out).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    others: BTreeMap<&'static str, u32>,
}

/// The roots' and their moves' states, for a store of the game `R`, each root's tree `depth`
/// moves deep.
fn roots<R: Record>(
    store: &Store,
    roots: &[String],
    depth: u32,
) -> Result<Vec<RootStatus>, StoreError> {
    let mut statuses = Vec::new();
    for root in roots {
        let Ok(game) = root.parse::<R>() else {
            continue;
        };
        let value = value_of(store, game.position())?;
        statuses.push(RootStatus {
            position: root.clone(),
            value: value.map(u8::from),
            nodes: store.nodes_under(root)?,
            moves: moves_of(store, &game, depth)?,
        });
    }
    Ok(statuses)
}

/// Whether the store proves that the first player wins at `position`, if it decides it.
fn value_of<P: Game>(store: &Store, position: &P) -> Result<Option<bool>, StoreError> {
    Ok(store
        .get(store_key(position))?
        .and_then(|record| first_player_wins(record.bounds, position.white_to_move())))
}

/// Every legal move of `game` with its state and the nodes recorded under it; while `depth`
/// allows, a move with more than one node under it also lists its replies that have.
fn moves_of<R: Record>(store: &Store, game: &R, depth: u32) -> Result<Vec<MoveStatus>, StoreError> {
    let mut moves = Vec::new();
    for column in <R::Position as Game>::columns() {
        let mut child = game.clone();
        if child.play_column(column).is_err() {
            continue;
        }
        let status = match child.outcome() {
            score4_engine::Outcome::Ongoing => match value_of(store, child.position())? {
                Some(true) => "proven",
                Some(false) => "refuted",
                None => "open",
            },
            _ => "ends the game",
        };
        let nodes = store.nodes_under(&child.to_string())?;
        let (mut replies, mut others) = (Vec::new(), BTreeMap::new());
        if depth > 1 && nodes > 1 {
            for reply in moves_of(store, &child, depth - 1)? {
                if reply.nodes > 1 {
                    replies.push(reply);
                } else {
                    *others.entry(reply.status).or_insert(0) += 1;
                }
            }
        }
        moves.push(MoveStatus {
            column: column.to_string(),
            status,
            nodes,
            replies,
            others,
        });
    }
    Ok(moves)
}

/// What `store status` reports, read from the store at `file`: its summary, each root's
/// moves, the runs and the recent rate. Also what `score4 serve --store` sends as
/// `/api/proof` (docs/API.md).
#[derive(serde::Serialize)]
pub struct StatusReport {
    store: String,
    game: String,
    positions: u64,
    settled: u64,
    nodes: u64,
    seconds: f64,
    roots: Vec<RootStatus>,
    runs: Vec<RunStatus>,
    /// The last run's nodes over its time.
    recent_nodes_per_second: f64,
}

#[derive(serde::Serialize)]
struct RunStatus {
    id: i64,
    root: String,
    mode: String,
    started: f64,
    stopped: f64,
    host: String,
    threads: i64,
    memory: i64,
    version: String,
    nodes: u64,
    outcome: String,
}

/// Reads the status of the store at `file`.
pub fn status_report(file: &Path, depth: u32) -> Result<StatusReport, StoreError> {
    let store = Store::open_for_reading(file)?;
    let game = store.game()?;
    let summary = store.summary()?;
    let runs = store.runs()?;
    let mut root_moves: Vec<String> = Vec::new();
    for run in &runs {
        if !root_moves.contains(&run.root) {
            root_moves.push(run.root.clone());
        }
    }
    let roots = match game.as_str() {
        "classic" => roots::<ClassicRecord>(&store, &root_moves, depth)?,
        _ => roots::<GameRecord>(&store, &root_moves, depth)?,
    };
    let recent_nodes_per_second = runs.last().map_or(0.0, |run| {
        run.nodes as f64 / (run.stopped - run.started).max(1e-9)
    });
    Ok(StatusReport {
        store: file.display().to_string(),
        game,
        positions: summary.positions,
        settled: summary.settled,
        nodes: summary.nodes,
        seconds: summary.seconds,
        roots,
        runs: runs
            .into_iter()
            .map(|run| RunStatus {
                id: run.id,
                root: run.root,
                mode: run.mode,
                started: run.started,
                stopped: run.stopped,
                host: run.host,
                threads: run.threads,
                memory: run.memory,
                version: run.version,
                nodes: run.nodes,
                outcome: run.outcome,
            })
            .collect(),
        recent_nodes_per_second,
    })
}

fn status(file: &Path, json: bool, depth: u32) -> Result<(), StoreError> {
    let report = status_report(file, depth)?;
    if json {
        match serde_json::to_string(&report) {
            Ok(text) => println!("{text}"),
            Err(error) => eprintln!("score4 store: cannot write the status as JSON: {error}"),
        }
        return Ok(());
    }
    let StatusReport {
        game,
        positions,
        settled,
        nodes,
        seconds,
        roots: statuses,
        runs,
        recent_nodes_per_second: rate,
        ..
    } = report;
    println!(
        "{}: a store of the {game} game: {} positions ({} settled), {} nodes in {} of search",
        file.display(),
        positions,
        settled,
        nodes,
        elapsed_text(std::time::Duration::from_secs_f64(seconds.max(0.0)))
    );
    for root in &statuses {
        let value = match root.value {
            Some(1) => "the first player wins",
            Some(_) => "the first player does not win",
            None => "open",
        };
        println!("root {}: {value}", root.position);
        for row in &root.moves {
            println!(
                "  move {:>2}: {:<14} {:>16} nodes",
                row.column, row.status, row.nodes
            );
            print_replies(row, &row.column, 2);
        }
    }
    println!("runs:");
    for run in &runs {
        println!(
            "  #{} {} on {}: {}, {} bytes, {} in {}, {} ({})",
            run.id,
            run.root,
            run.host,
            crate::solve::counted(run.threads.max(0) as u64, "thread"),
            run.memory,
            crate::solve::counted(run.nodes, "node"),
            elapsed_text(std::time::Duration::from_secs_f64(
                (run.stopped - run.started).max(0.0)
            )),
            run.outcome,
            run.version
        );
    }
    println!("recent rate: {:.2} M nodes/s", rate / 1e6);
    Ok(())
}

/// The replies listed under `row` (`store status --depth`), one line each, with the moves from
/// the root (`path`) and indented by `level`, then the count of the others by status.
fn print_replies(row: &MoveStatus, path: &str, level: usize) {
    let indent = "  ".repeat(level);
    for reply in &row.replies {
        let path = format!("{path}{}", reply.column);
        println!(
            "{indent}{path}: {:<14} {:>16} nodes",
            reply.status, reply.nodes
        );
        print_replies(reply, &path, level + 1);
    }
    if !row.others.is_empty() {
        let counts: Vec<String> = row
            .others
            .iter()
            .map(|(status, count)| format!("{count} {status}"))
            .collect();
        let which = if row.replies.is_empty() {
            "its replies"
        } else {
            "the other replies"
        };
        println!(
            "{indent}{path}, {which}: {} (at most one node each)",
            counts.join(", ")
        );
    }
}

/// The value column of `export`: the exact score when known, else the bounds.
fn value_text(bounds: Bounds) -> String {
    if bounds.lower == bounds.upper {
        format!("{:+}", bounds.lower)
    } else {
        bounds.to_string()
    }
}

fn export(file: &Path) -> Result<(), StoreError> {
    let store = Store::open_for_reading(file)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(
        out,
        "# score4 store export {}: MOVES and what is proven of the score for the side to move \
         (an exact score, or LOWER..UPPER with ? for no bound)",
        file.display()
    );
    store.for_each(|record| {
        if !record.bounds.is_unknown() {
            let _ = writeln!(out, "{} {}", record.moves, value_text(record.bounds));
        }
    })
}

fn merge(destination: &Path, sources: &[PathBuf]) -> Result<(), StoreError> {
    let opened: Vec<Store> = sources
        .iter()
        .map(|source| Store::open_for_reading(source))
        .collect::<Result<_, _>>()?;
    let game = match opened.first() {
        Some(first) => first.game()?,
        None => return Ok(()),
    };
    let mut store = Store::open_for_writing(destination, &game)?;
    for source in &opened {
        let added = store.merge_from(source)?;
        eprintln!(
            "score4 store merge: {} positions from {}",
            added,
            source.path().display()
        );
    }
    Ok(())
}
