//! `score4 solve` (either game): the value of each position in the chosen mode (first-wins,
//! wdl or exact), with nodes, time and table use. The work is the engine's; this file reads
//! positions, asks, and prints.

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use score4_engine::{
    available_memory, machine_memory, physical_cores, Colour, Engine, Evaluation, Event, Game,
    Interrupted, Memory, Mode, Outcome, Record, ScoreRange, SearchStats, Settings,
    TranspositionTable,
};

use crate::analyze::signed;
use crate::book::{open_book, Book};
use crate::engine_error::{explain_engine_error, note_page_size, Purpose};
use crate::input::{finish_run, report_bad_entry, Entry, Source};
use crate::progress::{Heartbeat, ProgressMode, Reporter};
use crate::signals::{signal_name, StopSignals};
use crate::{MemoryChoice, SolveArgs};
use score4_bench::report::count;
use score4_engine::format_bytes;

/// One JSON line per position (docs/RULES.md, "The JSON line").
#[derive(serde::Serialize)]
struct JsonSolved<'a> {
    game: &'static str,
    position: &'a str,
    mode: &'static str,
    /// `null` when the position was not solved ([`JsonSolved::stopped`] says why).
    value: Option<i32>,
    /// With `--each-move`: the move's column.
    #[serde(skip_serializing_if = "Option::is_none")]
    r#move: Option<String>,
    /// With `--each-move`: the player the value is for (the mover; in first-wins mode X).
    #[serde(skip_serializing_if = "Option::is_none")]
    value_for: Option<char>,
    /// When the position was not solved: why (`time limit`, `SIGINT`, `SIGTERM`).
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'static str>,
    /// When the position was not solved: what was proven of its score, from the side the
    /// value is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    lower: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    upper: Option<i32>,
    nodes: u64,
    seconds: f64,
    probes: u64,
    hits: u64,
    stores: u64,
    replacements: u64,
    /// Positions of the search answered by the book.
    #[serde(skip_serializing_if = "Option::is_none")]
    book_hits: Option<u64>,
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
    /// Answered from the `--book`, with no search.
    #[serde(skip_serializing_if = "is_false")]
    book: bool,
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
        (Mode::Exact, score) => signed(score),
    }
}

/// Why a run has the memory and threads it has, for its summary.
struct Choices {
    /// The memory or table and where it came from: `memory 1.0 GiB (the default, ...)`.
    memory: String,
    /// Where the thread count came from: `--threads` or the default and what it is.
    threads: &'static str,
}

/// The engine's settings for `args`, and why its memory and threads are what they are (for
/// the summary): `--tt-size` sets the table, `--memory` a budget for table and tree (`all`:
/// [`machine_memory`]); without either, the game's own table and one thread if it has one
/// ([`Record::SOLVE_TABLE_BYTES`]), else [`Record::DEFAULT_TABLE_BYTES`] for table and tree and
/// a worker per physical core.
fn settings<R: Record>(args: &SolveArgs) -> (Settings, Choices) {
    let (default_threads, threads_why) = match R::SOLVE_TABLE_BYTES {
        Some(_) => (1, "the game's default"),
        None => (physical_cores(), "one per physical core, the default"),
    };
    let threads = args.threads.unwrap_or(default_threads);
    let (memory, memory_why) = match (args.tt_size, args.memory, R::SOLVE_TABLE_BYTES) {
        (Some(bytes), _, _) => (Memory::Table(bytes), "--tt-size".to_owned()),
        (None, Some(MemoryChoice::Bytes(budget)), _) => {
            (Memory::Budget(budget), "--memory".to_owned())
        }
        (None, Some(MemoryChoice::All), _) => {
            let available = available_memory().map_or("unknown".to_owned(), format_bytes);
            let why = format!("--memory all: three quarters of the {available} available");
            (Memory::Budget(machine_memory()), why)
        }
        (None, None, Some(bytes)) => (
            Memory::Table(bytes),
            "the game's default, which stays in the processor's cache".to_owned(),
        ),
        (None, None, None) => {
            let why = format!(
                "the default, which starts in about a second; --memory all would take {}",
                format_bytes(machine_memory())
            );
            (Memory::Budget(R::DEFAULT_TABLE_BYTES), why)
        }
    };
    let memory_text = match memory {
        Memory::Table(bytes) => format!("table {} ({memory_why})", format_bytes(bytes)),
        Memory::Budget(bytes) => format!("memory {} ({memory_why})", format_bytes(bytes)),
    };
    let why = Choices {
        memory: memory_text,
        threads: match args.threads {
            Some(_) => "--threads",
            None => threads_why,
        },
    };
    let settings = Settings {
        mode: args.mode,
        threads,
        memory,
        replacement: args.replacement,
        leaf_area: args.leaf_area,
        best_first: !args.no_best_first,
        assumption: args.assume,
        first_cutoff: args.cutoff,
        progress_every: Reporter::interval(args.progress, args.progress_every),
        book: None,
        race_after: args.race_after.0,
    };
    (settings, why)
}

/// Running totals of a solve run, for its summary.
#[derive(Default)]
struct Totals {
    /// Rows printed (positions, or with `--each-move` moves).
    rows: u64,
    /// Input positions that could not be read.
    bad: u64,
    /// Input positions read well.
    positions: u64,
    /// Rows searched (not ended by their move).
    searched: u64,
    /// Rows by value: win (or first player wins), draw, loss (or no-win), not solved.
    wins: u64,
    draws: u64,
    losses: u64,
    unknown: u64,
    stats: SearchStats,
    searching: f64,
    tasks: u64,
    cancelled: u64,
    by_race: u64,
}

impl Totals {
    fn add(&mut self, mode: Mode, row: &RowValue) {
        self.rows += 1;
        match row {
            RowValue::Solved(evaluation) => {
                match (mode, evaluation.value.signum()) {
                    (_, 1) => self.wins += 1,
                    (Mode::FirstWins, _) | (_, -1) => self.losses += 1,
                    _ => self.draws += 1,
                }
                if let Some(counts) = evaluation.parallel {
                    self.tasks += counts.tasks;
                    self.cancelled += counts.cancelled;
                    self.by_race += counts.by_race;
                }
            }
            RowValue::Unknown { .. } => self.unknown += 1,
        }
        self.stats += row.stats();
        self.searching += row.seconds();
    }
}

/// Why a search was given up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// `--time-limit` ran out.
    TimeLimit,
    /// SIGINT or SIGTERM.
    Signal(i32),
}

impl Stop {
    fn name(self) -> &'static str {
        match self {
            Stop::TimeLimit => "time limit",
            Stop::Signal(signal) => signal_name(signal),
        }
    }
}

/// The value of a row: solved, or given up with what was proven.
enum RowValue {
    Solved(Evaluation),
    Unknown {
        interrupted: Interrupted,
        stop: Stop,
    },
}

impl RowValue {
    fn stats(&self) -> SearchStats {
        match self {
            RowValue::Solved(evaluation) => evaluation.stats,
            RowValue::Unknown { interrupted, .. } => interrupted.stats,
        }
    }

    fn seconds(&self) -> f64 {
        match self {
            RowValue::Solved(evaluation) => evaluation.seconds,
            RowValue::Unknown { interrupted, .. } => interrupted.seconds,
        }
    }

    /// The same value from the other player's side (win/draw/loss and exact scores; a
    /// first-wins value is always the first player's).
    fn for_other_player(self, mode: Mode) -> RowValue {
        if mode == Mode::FirstWins {
            return self;
        }
        match self {
            RowValue::Solved(evaluation) => RowValue::Solved(Evaluation {
                value: -evaluation.value,
                range: evaluation.range.negated(),
                ..evaluation
            }),
            RowValue::Unknown { interrupted, stop } => RowValue::Unknown {
                interrupted: Interrupted {
                    range: interrupted.range.negated(),
                    ..interrupted
                },
                stop,
            },
        }
    }
}

/// Solves every position of the input in order, one engine (one table) for the whole run.
pub fn run<R: Record>(args: SolveArgs) -> ExitCode {
    let started = Instant::now();
    let command = format!("{} solve", R::COMMAND);
    let (mut settings, choices) = settings::<R>(&args);
    let book =
        match open_book::<R::Position>(&command, &args.book, settings.mode == Mode::FirstWins) {
            Ok(book) => book,
            Err(code) => return code,
        };
    settings.book = book.as_ref().and_then(Book::for_search);
    let mode = settings.mode;
    let engine = match Engine::<R::Position>::new(settings.clone()) {
        Ok(engine) => engine,
        Err(error) => return explain_engine_error(&command, &error, &settings, Purpose::Solve),
    };
    note_page_size(&command, engine.table());
    let stop = engine.stop_handle();
    let signals = StopSignals::catch(&command, move || stop.stop());
    let threads = engine.settings().threads;
    let heartbeat = match threads {
        1 => {
            let handle = engine.stop_handle();
            Heartbeat::start(args.progress, args.progress_every, move || {
                handle.sequential_nodes()
            })
        }
        _ => None,
    };
    let game_name = <R::Position as Game>::NAME;
    let mut totals = Totals::default();
    let stdout = std::io::stdout();
    if !args.json {
        print_header(mode, threads, args.each_move);
    }
    let progress = (args.progress, args.progress_every);
    let (each_move, clear_table) = (args.each_move, args.clear_table);
    let source = Source::choose(args.positions, args.file);
    if source.is_interactive() {
        eprintln!(
            "{command}: reading positions from standard input, one per line (end with Ctrl-D); \
             positions can also be given as arguments or with --file"
        );
    }
    let time_limit = args.time_limit;
    let mut stopped_by = None;
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
                return ControlFlow::Continue(());
            }
        };
        totals.positions += 1;
        let mover = game.position().mover();
        if each_move && !args.json {
            let _ = writeln!(out, "# {game}: {} to move", mover.symbol());
        }
        for row in rows_for(game, each_move) {
            let mut booked = false;
            let (moves, value, ends_game) = match row {
                Row::Search(game) => {
                    if clear_table {
                        engine.clear_table();
                    }
                    let moves = game.to_string();
                    if let Some(heartbeat) = &heartbeat {
                        heartbeat.begin(&moves);
                    }
                    let deadline = time_limit.map(|limit| Instant::now() + limit);
                    let from_book = match &book {
                        Some(book) => book.answer(game.position(), mode).unwrap_or_else(|error| {
                            eprintln!("{command}: --book: {error} (the position is searched)");
                            None
                        }),
                        None => None,
                    };
                    booked = from_book.is_some();
                    let outcome = match from_book {
                        Some(evaluation) => Ok(evaluation),
                        None => evaluate(&engine, game.position(), &moves, progress, deadline),
                    };
                    if let Some(heartbeat) = &heartbeat {
                        heartbeat.end();
                    }
                    totals.searched += 1;
                    let value = match outcome {
                        Ok(evaluation) => RowValue::Solved(evaluation),
                        Err(interrupted) => {
                            let stop = match signals.received() {
                                Some(signal) => Stop::Signal(signal),
                                None => Stop::TimeLimit,
                            };
                            RowValue::Unknown { interrupted, stop }
                        }
                    };
                    (moves, value, false)
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
                    (game.to_string(), RowValue::Solved(evaluation), true)
                }
            };
            // With --each-move a row is valued for the player who made its move.
            let value = match each_move {
                true => value.for_other_player(mode),
                false => value,
            };
            totals.add(mode, &value);
            if let RowValue::Unknown {
                stop: Stop::Signal(signal),
                ..
            } = value
            {
                stopped_by = Some(signal);
            }
            let row = PrintedRow {
                game: game_name,
                mode,
                threads,
                moves: &moves,
                each_move: each_move.then_some(match mode {
                    Mode::FirstWins => Colour::White,
                    _ => mover,
                }),
                value: &value,
                ends_game,
                booked,
                book_read: book.is_some(),
            };
            row.print(&mut out, args.json);
            let _ = out.flush();
            if stopped_by.is_some() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    });
    drop(heartbeat);
    let summary = summary(&engine, &totals, &choices, each_move, clear_table, started);
    let code = finish_run(&command, &summary, args.json, read, totals.bad);
    match stopped_by.or(signals.received()) {
        Some(signal) => {
            eprintln!(
                "{command}: stopped by {}: the positions after the one being searched were not solved",
                signal_name(signal)
            );
            crate::signals::exit_code(signal)
        }
        None => code,
    }
}

/// The table's head line (and with `--each-move`, what its values mean).
fn print_header(mode: Mode, threads: usize, each_move: bool) {
    if each_move {
        match mode {
            Mode::FirstWins => println!(
                "# --each-move: a row per legal move; its value says whether X, the first \
                 player, wins after the move (whoever makes it)"
            ),
            _ => println!(
                "# --each-move: a row per legal move; its value is for the player who makes the \
                 move"
            ),
        }
    }
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

/// `position`'s value by the engine, given up at `deadline` or a stop, its progress shown live
/// as `progress` says.
fn evaluate<G: Game>(
    engine: &Engine<G>,
    position: &G,
    moves: &str,
    (progress, every): (ProgressMode, std::time::Duration),
    deadline: Option<Instant>,
) -> Result<Evaluation, Interrupted> {
    let mut reporter = None;
    engine.evaluate_within(position, deadline, |event| match event {
        Event::Question { .. } => {
            reporter = Some(Reporter::new(progress, every, moves, G::column_char))
        }
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
    })
}

/// `n` and `noun`, the noun plural unless `n` is one.
pub fn counted(n: u64, noun: &str) -> String {
    count(n as usize, noun, &format!("{noun}s"))
}

/// The summary line of a run.
fn summary<G: Game>(
    engine: &Engine<G>,
    totals: &Totals,
    choices: &Choices,
    each_move: bool,
    clear_table: bool,
    started: Instant,
) -> String {
    let mode = engine.mode();
    let threads = engine.settings().threads;
    let seconds = started.elapsed().as_secs_f64();
    let set_up = engine.set_up_time().as_secs_f64();
    let table = engine.table();
    let why_threads = choices.threads;
    let workers = if threads > 1 {
        format!(
            "{threads} threads ({why_threads}; parallel solver: {}, {} cancelled, {} settled by \
             the race, tree up to {})",
            counted(totals.tasks, "task"),
            totals.cancelled,
            totals.by_race,
            format_bytes(engine.tree_bytes())
        )
    } else {
        format!("1 thread ({why_threads}; sequential solver)")
    };
    let (wins, draws, losses) = (totals.wins, totals.draws, totals.losses);
    let side = if each_move {
        "for the player who moves"
    } else {
        "for the side to move"
    };
    let values = match mode {
        Mode::FirstWins => format!("{wins} win, {losses} no-win"),
        _ => format!("{wins} win, {draws} draw, {losses} loss {side}"),
    };
    let unknown = match totals.unknown {
        0 => String::new(),
        n => format!(", {n} unknown"),
    };
    let solved = totals.rows - totals.unknown;
    let (rows, searched_rows) = if each_move {
        let rows = format!(
            "{} of {}",
            counted(solved, "move"),
            counted(totals.positions, "position")
        );
        (rows, "searched move")
    } else {
        (solved.to_string(), "position")
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
        "{rows} solved{cleared} ({values}){unknown}, {} bad; {game}mode {mode}; {workers}; {}; {} \
         in {searching:.3} s of search ({:.2} M nodes/s, {:.0} per {searched_rows}), \
         {seconds:.3} s in all with the table's set-up ({set_up:.3} s); table {} {} ({} \
         of S = {} buckets, k = {}, {}, huge pages {}): {}, {:.1}% hits, {}, {}",
        totals.bad,
        choices.memory,
        counted(stats.nodes, "node"),
        stats.nodes as f64 / searching.max(1e-9) / 1e6,
        stats.nodes as f64 / totals.searched.max(1) as f64,
        format_bytes(table.bytes()),
        table.replacement(),
        counted(table.blocks(), "block"),
        table.block_buckets(),
        table.key_bits(),
        describe_leaf_area(table),
        if table.huge_pages() { "on" } else { "off" },
        counted(stats.table.probes, "probe"),
        100.0 * stats.table.hit_rate(),
        counted(stats.table.stores, "store"),
        counted(stats.table.replacements, "replacement"),
    ) + &book_text(engine.settings().book.as_deref(), stats)
}

/// The summary's words on the book the search read, if any.
fn book_text(book: Option<&score4_engine::Book>, stats: &SearchStats) -> String {
    match book {
        Some(book) => format!(
            "; book {} of up to {} stones: {} in the search, {}",
            counted(book.len() as u64, "position"),
            book.max_stones(),
            counted(stats.book_lookups, "lookup"),
            counted(stats.book_hits, "hit")
        ),
        None => String::new(),
    }
}

/// What was proven of an unsolved row's score, in the mode's words, from the side its value is
/// for.
fn proven_text(mode: Mode, range: ScoreRange) -> String {
    match mode {
        Mode::Exact => format!("score {}..{}", signed(range.lower), signed(range.upper)),
        _ if range.lower >= 0 => "at least a draw".to_owned(),
        _ if range.upper <= 0 => "at most a draw".to_owned(),
        _ => "nothing yet".to_owned(),
    }
}

/// One row of `score4 solve`, as printed.
struct PrintedRow<'a> {
    game: &'static str,
    mode: Mode,
    threads: usize,
    moves: &'a str,
    /// With `--each-move`: the player the value is for.
    each_move: Option<Colour>,
    value: &'a RowValue,
    ends_game: bool,
    /// Answered from the `--book`.
    booked: bool,
    /// Whether a `--book` was given (its hits are then reported).
    book_read: bool,
}

impl PrintedRow<'_> {
    /// A line of the table, or with `json` a JSON object.
    fn print(&self, out: &mut impl Write, json: bool) {
        let stats = self.value.stats();
        let seconds = self.value.seconds();
        let (value, parallel, unknown) = match self.value {
            RowValue::Solved(evaluation) => (Some(evaluation.value), evaluation.parallel, None),
            RowValue::Unknown { interrupted, stop } => (None, None, Some((interrupted, *stop))),
        };
        if json {
            let json = JsonSolved {
                game: self.game,
                position: self.moves,
                mode: self.mode.name(),
                value,
                r#move: self
                    .each_move
                    .and_then(|_| self.moves.chars().last())
                    .map(String::from),
                value_for: self.each_move.map(Colour::symbol),
                stopped: unknown.map(|(_, stop)| stop.name()),
                lower: unknown.map(|(interrupted, _)| interrupted.range.lower),
                upper: unknown.map(|(interrupted, _)| interrupted.range.upper),
                nodes: stats.nodes,
                seconds,
                probes: stats.table.probes,
                hits: stats.table.hits,
                stores: stats.table.stores,
                replacements: stats.table.replacements,
                book_hits: self.book_read.then_some(stats.book_hits),
                threads: self.threads,
                tasks: parallel.map(|p| p.tasks),
                cancelled: parallel.map(|p| p.cancelled),
                tree_nodes: parallel.map(|p| p.tree_nodes),
                cutoff: parallel.map(|p| p.cutoff),
                ends_game: self.ends_game,
                book: self.booked,
            };
            let line = serde_json::to_string(&json).expect("serialisable");
            let _ = writeln!(out, "{line}");
            return;
        }
        let value = value.map_or("unknown".to_owned(), |value| value_text(self.mode, value));
        let rate = stats.nodes as f64 / seconds.max(1e-9) / 1e6;
        let parallel = match parallel {
            Some(p) => format!(
                " {:>7} {:>9} {:>9} {:>6}",
                p.tasks, p.cancelled, p.tree_nodes, p.cutoff
            ),
            // No parallel search ran to the end: blanks keep the columns.
            None if self.threads > 1 => format!(" {:>7} {:>9} {:>9} {:>6}", "-", "-", "-", "-"),
            None => String::new(),
        };
        let note = match unknown {
            _ if self.ends_game => "  (the move ends the game)".to_owned(),
            _ if self.booked => "  (from the book)".to_owned(),
            Some((interrupted, stop)) => format!(
                "  (stopped by {}: proven {})",
                match stop {
                    Stop::TimeLimit => "the time limit",
                    Stop::Signal(signal) => signal_name(signal),
                },
                proven_text(self.mode, interrupted.range)
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "{value:<7} {:>14} {:>10.3} {:>9.2}{parallel}  {}{note}",
            stats.nodes, seconds, rate, self.moves
        );
    }
}

/// The table's near-leaf area in a few words, for the summary.
pub fn describe_leaf_area(table: &TranspositionTable) -> String {
    match table.leaf_min_stones() {
        Some(stones) => format!(
            "near-leaf area {} from {stones} stones, dead stones merged (S' = {})",
            format_bytes(table.leaf_bytes()),
            table.leaf_buckets(),
        ),
        None => "no near-leaf area".to_owned(),
    }
}
