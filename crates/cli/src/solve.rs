//! `score4 solve` (either game): the value of each position in the chosen mode (first-wins,
//! wdl or exact), with nodes, time and table use. The work is the engine's; this file reads
//! positions, asks, and prints.

use std::io::Write;
use std::process::ExitCode;

use score4_engine::{
    default_memory, physical_cores, Colour, Engine, Evaluation, Event, Game, Memory, Mode, Outcome,
    Record, ScoreRange, SearchStats, Setting, Settings, TranspositionTable,
};

use crate::input::{finish_run, report_bad_entry, Entry, Source};
use crate::progress::{ProgressMode, Reporter};
use crate::size::format_bytes;
use crate::{SolveArgs, EXIT_BAD_INPUT};

/// One JSON line per position (docs/RULES.md, "The JSON line").
#[derive(serde::Serialize)]
struct JsonSolved<'a> {
    game: &'static str,
    position: &'a str,
    mode: &'static str,
    value: i32,
    nodes: u64,
    seconds: f64,
    probes: u64,
    hits: u64,
    stores: u64,
    replacements: u64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    tasks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cancelled: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tree_nodes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cutoff: Option<u32>,
    /// With `--each-move`: the move ended the game, so there was nothing to search.
    #[serde(skip_serializing_if = "is_false")]
    ends_game: bool,
}

/// For serde: leave a flag out of the JSON line unless it is set.
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// What one row of `score4 solve` is about: a position to search, or (with `--each-move`) a
/// move that ended the game, whose value needs no search.
enum Row<R> {
    /// A position where the game goes on.
    Search(R),
    /// The game after a move that made four or filled the board, and the exact score of the
    /// side to move then.
    Ended(R, Outcome, i32),
}

/// The rows for one input position: the position itself, or with `each_move` the position after
/// each legal move, in column order (full columns have none).
fn rows_for<R: Record>(game: R, each_move: bool) -> Vec<Row<R>> {
    if !each_move {
        return vec![Row::Search(game)];
    }
    <R::Position as Game>::columns()
        .filter_map(|column| {
            let mut child = game.clone();
            child.play_column(column).ok()?; // a full column: not a legal move
            Some(match child.outcome() {
                Outcome::Ongoing => Row::Search(child),
                // The mover of `game` won with its next stone: the side to move loses by that.
                outcome @ Outcome::Won(_) => {
                    let score = -game.position().score_of_winning_now();
                    Row::Ended(child, outcome, score)
                }
                Outcome::Draw => Row::Ended(child, Outcome::Draw, 0),
            })
        })
        .collect()
}

/// The value in `mode` of a game that `outcome` has just ended, in which the side to move
/// scores `score` (the negative of the winner's score, or 0 for a draw).
fn ended_value(mode: Mode, outcome: Outcome, score: i32) -> i32 {
    match (mode, outcome) {
        (Mode::FirstWins, Outcome::Won(winner)) => (winner == Colour::White) as i32,
        (Mode::FirstWins, _) => 0, // a draw: the first player does not win
        (Mode::Wdl, _) => score.signum(),
        (Mode::Exact, _) => score,
    }
}

/// How a value reads in the table of `score4 solve`.
fn value_text(mode: Mode, value: i32) -> String {
    match (mode, value) {
        (Mode::FirstWins, 1) => "win".to_owned(),
        (Mode::FirstWins, _) => "no-win".to_owned(),
        (Mode::Wdl, 1) => "win".to_owned(),
        (Mode::Wdl, 0) => "draw".to_owned(),
        (Mode::Wdl, _) => "loss".to_owned(),
        (Mode::Exact, score) if score > 0 => format!("+{score}"),
        (Mode::Exact, score) => score.to_string(),
    }
}

/// The engine's settings for `args`: `--tt-size` sets the table, `--memory` a budget for table
/// and tree; without either, the game's own table size and one thread if it has one
/// ([`Record::SOLVE_TABLE_BYTES`]), else three quarters of the available memory and one worker
/// per physical core.
fn settings<R: Record>(args: &SolveArgs) -> Settings {
    let default_threads = match R::SOLVE_TABLE_BYTES {
        Some(_) => 1,
        None => physical_cores(),
    };
    let threads = args.threads.unwrap_or(default_threads);
    let memory = match (args.tt_size, args.memory, R::SOLVE_TABLE_BYTES) {
        (Some(bytes), _, _) => Memory::Table(bytes),
        (None, Some(budget), _) => Memory::Budget(budget),
        (None, None, Some(bytes)) => Memory::Table(bytes),
        (None, None, None) => Memory::Budget(default_memory()),
    };
    Settings {
        mode: args.mode,
        threads,
        memory,
        replacement: args.replacement,
        leaf_area: args.leaf_area,
        best_first: !args.no_best_first,
        assumption: args.assume,
        first_cutoff: args.cutoff,
        progress_every: Reporter::interval(args.progress, args.progress_every),
    }
}

/// The option of `args` that a setting came from, for messages.
fn option_of(setting: Setting) -> &'static str {
    match setting {
        Setting::MemoryBudget => "--memory",
        Setting::TableSize => "--tt-size",
        Setting::LeafArea => "--leaf-area",
    }
}

/// Running totals of a solve run, for its summary.
#[derive(Default)]
struct Totals {
    /// Rows printed (positions, or with `--each-move` moves).
    solved: u64,
    /// Input positions that could not be read.
    bad: u64,
    /// Input positions read well.
    positions: u64,
    /// Rows searched (not ended by their move).
    searched: u64,
    /// Rows by value: win (or first player wins), draw, loss (or no-win).
    wins: u64,
    draws: u64,
    losses: u64,
    stats: SearchStats,
    searching: f64,
    tasks: u64,
    cancelled: u64,
}

impl Totals {
    fn add(&mut self, mode: Mode, evaluation: &Evaluation) {
        self.solved += 1;
        match (mode, evaluation.value.signum()) {
            (_, 1) => self.wins += 1,
            (Mode::FirstWins, _) | (_, -1) => self.losses += 1,
            _ => self.draws += 1,
        }
        self.stats += evaluation.stats;
        self.searching += evaluation.seconds;
        if let Some(counts) = evaluation.parallel {
            self.tasks += counts.tasks;
            self.cancelled += counts.cancelled;
        }
    }
}

/// Solves every position of the input in order, one engine (one table) for the whole run.
pub fn run<R: Record>(args: SolveArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let command = format!("{} solve", R::COMMAND);
    let settings = settings::<R>(&args);
    let mode = settings.mode;
    let engine = match Engine::<R::Position>::new(settings) {
        Ok(engine) => engine,
        Err(error) if error.is_bad_input() => {
            let option = option_of(error.setting());
            eprintln!("{command}: {option}: {error} (--mode {mode})");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(error) => {
            eprintln!("{command}: {error} (--mode {mode})");
            return ExitCode::FAILURE;
        }
    };
    let threads = engine.settings().threads;
    let game_name = <R::Position as Game>::NAME;
    let mut totals = Totals::default();
    let stdout = std::io::stdout();
    if !args.json {
        let parallel = if threads > 1 {
            format!(
                " {:>7} {:>9} {:>9} {:>6}",
                "tasks", "cancelled", "tree", "cutoff"
            )
        } else {
            String::new()
        };
        println!(
            "{:<7} {:>14} {:>10} {:>9}{parallel}  position",
            "value", "nodes", "seconds", "Mnodes/s"
        );
    }
    let (progress_mode, each_move, clear_table) = (args.progress, args.each_move, args.clear_table);
    let source = Source::choose(args.positions, args.file);
    let read = source.for_each::<R>(|entry: Entry<R>| {
        let mut out = stdout.lock();
        let game = match entry.game {
            Ok(game) => game,
            Err(error) => {
                totals.bad += 1;
                report_bad_entry(
                    &mut out,
                    &command,
                    game_name,
                    args.json,
                    &entry.origin,
                    &entry.text,
                    error,
                );
                return;
            }
        };
        totals.positions += 1;
        for row in rows_for(game, each_move) {
            let (moves, evaluation, ends_game) = match row {
                Row::Search(game) => {
                    if clear_table {
                        engine.clear_table();
                    }
                    let moves = game.to_string();
                    let evaluation = evaluate(&engine, game.position(), &moves, progress_mode);
                    totals.searched += 1;
                    (moves, evaluation, false)
                }
                Row::Ended(game, outcome, score) => {
                    let evaluation = Evaluation {
                        mode,
                        value: ended_value(mode, outcome, score),
                        range: ScoreRange {
                            lower: score,
                            upper: score,
                        },
                        stats: SearchStats::default(),
                        seconds: 0.0,
                        parallel: None,
                    };
                    (game.to_string(), evaluation, true)
                }
            };
            totals.add(mode, &evaluation);
            let row = PrintedRow {
                game: game_name,
                mode,
                threads,
                moves: &moves,
                evaluation: &evaluation,
                ends_game,
            };
            row.print(&mut out, args.json);
            let _ = out.flush();
        }
    });
    let summary = summary(&engine, &totals, each_move, clear_table, started);
    finish_run(&command, &summary, args.json, read, totals.bad)
}

/// `position`'s value by the engine, its progress shown live as `progress` says.
fn evaluate<G: Game>(
    engine: &Engine<G>,
    position: &G,
    moves: &str,
    progress: ProgressMode,
) -> Evaluation {
    let mut reporter = None;
    let evaluation = engine.evaluate(position, |event| match event {
        Event::Question { .. } => reporter = Some(Reporter::new(progress, moves, G::column_char)),
        Event::Progress(snapshot) => {
            if let Some(reporter) = &mut reporter {
                reporter.report(snapshot);
            }
        }
        Event::QuestionDone => {
            if let Some(reporter) = reporter.take() {
                reporter.finish();
            }
        }
    });
    evaluation.expect("nothing stops a solve")
}

/// The summary line of a run.
fn summary<G: Game>(
    engine: &Engine<G>,
    totals: &Totals,
    each_move: bool,
    clear_table: bool,
    started: std::time::Instant,
) -> String {
    let mode = engine.mode();
    let threads = engine.settings().threads;
    let seconds = started.elapsed().as_secs_f64();
    let set_up = engine.set_up_time().as_secs_f64();
    let table = engine.table();
    let workers = if threads > 1 {
        format!(
            "{threads} threads (parallel solver: {} tasks, {} cancelled, tree up to {}); ",
            totals.tasks,
            totals.cancelled,
            format_bytes(engine.tree_bytes())
        )
    } else {
        "1 thread (sequential solver); ".to_owned()
    };
    let (wins, draws, losses) = (totals.wins, totals.draws, totals.losses);
    let values = match mode {
        Mode::FirstWins => format!("{wins} win, {losses} no-win"),
        _ => format!("{wins} win, {draws} draw, {losses} loss for the side to move"),
    };
    let (rows, searched_rows) = if each_move {
        let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let rows = format!(
            "{} of {}",
            plural(totals.solved, "move"),
            plural(totals.positions, "position")
        );
        (rows, "searched move")
    } else {
        (totals.solved.to_string(), "position")
    };
    let cleared = if clear_table {
        ", each searched on an empty table"
    } else {
        ""
    };
    let game = match G::NAME {
        "3d" => String::new(),
        name => format!("game {name}; "),
    };
    let stats = &totals.stats;
    let searching = totals.searching;
    format!(
        "{rows} solved{cleared} ({values}), {} bad; {game}mode {mode}; {workers}{} nodes in \
         {searching:.3} s of search ({:.2} M nodes/s, {:.0} nodes per {searched_rows}), \
         {seconds:.3} s in all with the table's set-up ({set_up:.3} s); table {} {} ({} blocks \
         of S = {} buckets, k = {}, {}, huge pages {}): {} probes, {:.1}% hits, {} stores, {} \
         replacements",
        totals.bad,
        stats.nodes,
        stats.nodes as f64 / searching.max(1e-9) / 1e6,
        stats.nodes as f64 / totals.searched.max(1) as f64,
        format_bytes(table.bytes()),
        table.replacement(),
        table.blocks(),
        table.block_buckets(),
        table.key_bits(),
        describe_leaf_area(table),
        if table.huge_pages() { "on" } else { "off" },
        stats.table.probes,
        100.0 * stats.table.hit_rate(),
        stats.table.stores,
        stats.table.replacements,
    )
}

/// One row of `score4 solve`, as printed.
struct PrintedRow<'a> {
    game: &'static str,
    mode: Mode,
    threads: usize,
    moves: &'a str,
    evaluation: &'a Evaluation,
    ends_game: bool,
}

impl PrintedRow<'_> {
    /// A line of the table, or with `json` a JSON object.
    fn print(&self, out: &mut impl Write, json: bool) {
        let (evaluation, stats) = (self.evaluation, self.evaluation.stats);
        let parallel = evaluation.parallel;
        if json {
            let json = JsonSolved {
                game: self.game,
                position: self.moves,
                mode: self.mode.name(),
                value: evaluation.value,
                nodes: stats.nodes,
                seconds: evaluation.seconds,
                probes: stats.table.probes,
                hits: stats.table.hits,
                stores: stats.table.stores,
                replacements: stats.table.replacements,
                threads: self.threads,
                tasks: parallel.map(|p| p.tasks),
                cancelled: parallel.map(|p| p.cancelled),
                tree_nodes: parallel.map(|p| p.tree_nodes),
                cutoff: parallel.map(|p| p.cutoff),
                ends_game: self.ends_game,
            };
            let line = serde_json::to_string(&json).expect("serialisable");
            let _ = writeln!(out, "{line}");
            return;
        }
        let value = value_text(self.mode, evaluation.value);
        let rate = stats.nodes as f64 / evaluation.seconds.max(1e-9) / 1e6;
        let parallel = match parallel {
            Some(p) => format!(
                " {:>7} {:>9} {:>9} {:>6}",
                p.tasks, p.cancelled, p.tree_nodes, p.cutoff
            ),
            // A move that ended the game ran no parallel search: blanks keep the columns.
            None if self.threads > 1 => format!(" {:>7} {:>9} {:>9} {:>6}", "-", "-", "-", "-"),
            None => String::new(),
        };
        let ended = if self.ends_game {
            "  (the move ends the game)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{value:<7} {:>14} {:>10.3} {:>9.2}{parallel}  {}{ended}",
            stats.nodes, evaluation.seconds, rate, self.moves
        );
    }
}

/// The table's near-leaf area in a few words, for the summary.
pub fn describe_leaf_area(table: &TranspositionTable) -> String {
    match table.leaf_min_stones() {
        Some(stones) => format!(
            "near-leaf area {} from {stones} stones (S' = {}, k' = {})",
            format_bytes(table.leaf_bytes()),
            table.leaf_buckets(),
            table.leaf_key_bits()
        ),
        None => "no near-leaf area".to_owned(),
    }
}
