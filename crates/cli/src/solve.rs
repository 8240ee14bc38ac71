//! `score4 solve`: the value of each position in the chosen mode (first-wins, wdl or exact),
//! with nodes, time and table use.

use std::io::Write;
use std::process::ExitCode;

use score4_board::{Colour, Column, Game, Outcome, Position};
use score4_parallel::Config;
use score4_solver::table::KEY_WIDTH_3D;
use score4_solver::{
    narrow, BestFirst, Mode, SearchStats, Solver, TableConfig, TranspositionTable, Valuation,
};

use crate::input::{finish_run, report_bad_entry, Entry, Source};
use crate::machine::{default_memory, physical_cores, split_memory};
use crate::progress::{ProgressMode, Reporter};
use crate::record::Record;
use crate::size::format_bytes;
use crate::{SolveArgs, EXIT_BAD_INPUT};

/// One JSON line per position (DESIGN §2).
#[derive(serde::Serialize)]
struct JsonSolved<'a> {
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

/// One position's answer, from either solver.
pub(crate) struct Answer {
    /// As [`score4_solver::Valuation::value`].
    pub value: i32,
    pub stats: SearchStats,
    pub seconds: f64,
    /// The parallel solver's tasks done and cancelled, tree nodes and final cutoff.
    pub parallel: Option<(u64, u64, usize, u32)>,
}

impl From<Valuation> for Answer {
    /// The sequential solver's answer.
    fn from(valuation: Valuation) -> Answer {
        Answer {
            value: valuation.value,
            stats: valuation.stats,
            seconds: valuation.seconds,
            parallel: None,
        }
    }
}

/// The sequential solver, or the parallel one with its configuration.
enum Engine<'t> {
    Sequential(Solver<'t>),
    Parallel(&'t TranspositionTable, Config),
}

impl Engine<'_> {
    fn solve(
        &mut self,
        position: &Position,
        moves: &str,
        mode: Mode,
        progress: ProgressMode,
    ) -> Answer {
        match self {
            Engine::Sequential(solver) => solver.evaluate(position, mode).into(),
            Engine::Parallel(table, config) => {
                parallel_answer::<Game>(position, moves, table, config, mode, progress)
            }
        }
    }
}

/// The parallel solver's configuration for `solve --threads N` (N > 1), with `tree_bytes` for
/// its tree; the threshold is set per question.
pub(crate) fn parallel_config(args: &SolveArgs, threads: usize, tree_bytes: u64) -> Config {
    Config {
        threads,
        dag_bytes: tree_bytes,
        threshold: 1,
        assumption: args.assume,
        first_cutoff: args.cutoff,
        progress_every: Reporter::interval(args.progress, args.progress_every),
        deadline: None,
    }
}

/// `position`'s value in `mode` by the parallel solver, for either game (`R` names its
/// columns in the progress display): one parallel solve per question of the narrowing (one
/// in first-wins mode), each shown live.
pub(crate) fn parallel_answer<R: Record>(
    position: &R::Board,
    moves: &str,
    table: &TranspositionTable,
    config: &Config,
    mode: Mode,
    progress: ProgressMode,
) -> Answer
where
    R::Board: Send,
{
    let mut stats = SearchStats::default();
    let (mut seconds, mut done, mut cancelled, mut tree, mut cutoff) = (0.0, 0, 0, 0, 0);
    let narrowed = narrow(position, mode, |threshold| {
        let config = Config {
            threshold,
            ..config.clone()
        };
        let mut reporter = Reporter::new(progress, moves, R::column_name);
        let solution = score4_parallel::solve(position, table, &config, |progress| {
            reporter.report(progress)
        })
        .expect("no deadline is set");
        reporter.finish();
        let progress = &solution.progress;
        stats += solution.stats;
        seconds += solution.seconds;
        done += progress.done;
        cancelled += progress.cancelled;
        tree = tree.max(progress.dag_nodes);
        cutoff = cutoff.max(progress.deepest);
        Some(solution.first_player_wins)
    });
    let (value, _) = narrowed.expect("every question is answered");
    Answer {
        value,
        stats,
        seconds,
        parallel: Some((done, cancelled, tree, cutoff)),
    }
}

/// What one row of `score4 solve` is about: a position to search, or (with `--each-move`) a
/// move that ended the game, whose value needs no search.
enum Row {
    /// A position where the game goes on.
    Search(Game),
    /// The game after a move that made four or filled the board.
    Ended(Game, Outcome),
}

/// The rows for one input position: the position itself, or with `each_move` the position after
/// each legal move, in column order (full columns have none).
fn rows_for(game: Game, each_move: bool) -> Vec<Row> {
    if !each_move {
        return vec![Row::Search(game)];
    }
    Column::all()
        .filter_map(|column| {
            let mut child = game.clone();
            match child.play(column) {
                Ok(Outcome::Ongoing) => Some(Row::Search(child)),
                Ok(outcome) => Some(Row::Ended(child, outcome)),
                Err(_) => None, // a full column: not a legal move
            }
        })
        .collect()
}

/// The value in `mode` (DESIGN §2) of a game that `outcome` has just ended with `stones` stones
/// on the board: the side to move has lost if anyone won, and the winner moved last, so it holds
/// `stones.div_ceil(2)` of them (its `k`-th stone won: a score of `33 - k` for it).
fn ended_value(mode: Mode, outcome: Outcome, stones: u32) -> i32 {
    match (mode, outcome) {
        (Mode::FirstWins, Outcome::Won(winner)) => (winner == Colour::White) as i32,
        (Mode::Wdl, Outcome::Won(_)) => -1,
        (Mode::Exact, Outcome::Won(_)) => -(33 - stones.div_ceil(2) as i32),
        (_, Outcome::Draw) => 0,
        (_, Outcome::Ongoing) => unreachable!("`rows_for` ends a row only for a finished game"),
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

/// Solves every position of the input in order, one table for the whole run.
pub fn run(args: SolveArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let threads = args.threads.unwrap_or_else(physical_cores);
    let (table_bytes, tree_bytes, option) = match args.tt_size {
        Some(bytes) => (bytes, bytes / 8, "--tt-size"),
        None => {
            let (table, tree) = split_memory(args.memory.unwrap_or_else(default_memory), threads);
            (table, tree, "--memory")
        }
    };
    let mode = args.mode;
    let config = TableConfig::new(table_bytes, KEY_WIDTH_3D)
        .replacement(args.replacement)
        .format(mode.format())
        .threads(threads)
        .leaf_area(args.leaf_area);
    let table = match TranspositionTable::new(&config) {
        Ok(table) => table,
        Err(error) if error.is_bad_input() => {
            let option = if error.concerns_leaf_area() {
                "--leaf-area"
            } else {
                option
            };
            eprintln!("score4 solve: {option}: {error} (--mode {mode})");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(error) => {
            eprintln!("score4 solve: {error}");
            return ExitCode::FAILURE;
        }
    };
    let set_up = started.elapsed().as_secs_f64();
    let mut engine = if threads == 1 {
        Engine::Sequential(
            Solver::new(&table)
                .with_best_first((!args.no_best_first).then_some(BestFirst::DEFAULT)),
        )
    } else {
        Engine::Parallel(&table, parallel_config(&args, threads, tree_bytes))
    };
    let (mut tasks, mut cancelled) = (0u64, 0u64);
    let mut searching = 0.0;
    let (mut solved, mut bad) = (0u64, 0u64);
    // Input positions read well (with --each-move, each gives a row per legal move), and the
    // rows searched (not ended by their move).
    let (mut positions, mut searched) = (0u64, 0u64);
    // Rows by value: win (or first player wins), draw, loss (or no-win).
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    let mut total = SearchStats::default();
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
    let progress_mode = args.progress;
    let (each_move, clear_table) = (args.each_move, args.clear_table);
    let source = Source::choose(args.positions, args.file);
    let read = source.for_each(|entry: Entry| {
        let mut out = stdout.lock();
        let game = match entry.game {
            Ok(game) => game,
            Err(error) => {
                bad += 1;
                let (origin, text) = (&entry.origin, &entry.text);
                report_bad_entry(
                    &mut out,
                    "score4 solve",
                    None,
                    args.json,
                    origin,
                    text,
                    error,
                );
                return;
            }
        };
        positions += 1;
        for row in rows_for(game, each_move) {
            let (moves, solution, ends_game) = match row {
                Row::Search(game) => {
                    if clear_table {
                        table.clear();
                    }
                    let moves = game.to_string();
                    let solution = engine.solve(game.position(), &moves, mode, progress_mode);
                    searched += 1;
                    (moves, solution, false)
                }
                Row::Ended(game, outcome) => {
                    let stones = game.position().count();
                    let solution = Answer {
                        value: ended_value(mode, outcome, stones),
                        stats: SearchStats::default(),
                        seconds: 0.0,
                        parallel: None,
                    };
                    (game.to_string(), solution, true)
                }
            };
            solved += 1;
            match (mode, solution.value.signum()) {
                (_, 1) => wins += 1,
                (Mode::FirstWins, _) | (_, -1) => losses += 1,
                _ => draws += 1,
            }
            total += solution.stats;
            searching += solution.seconds;
            if let Some((done, stopped, _, _)) = solution.parallel {
                tasks += done;
                cancelled += stopped;
            }
            print_row(
                &mut out, args.json, mode, threads, &moves, &solution, ends_game,
            );
            let _ = out.flush();
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let workers = if threads > 1 {
        format!(
            "{threads} threads (parallel solver: {tasks} tasks, {cancelled} cancelled, tree up \
             to {}); ",
            format_bytes(tree_bytes)
        )
    } else {
        "1 thread (sequential solver); ".to_owned()
    };
    let values = match mode {
        Mode::FirstWins => format!("{wins} win, {losses} no-win"),
        _ => format!("{wins} win, {draws} draw, {losses} loss for the side to move"),
    };
    let (rows, searched_rows) = if each_move {
        let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let rows = format!(
            "{} of {}",
            plural(solved, "move"),
            plural(positions, "position")
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
    let summary = format!(
        "{rows} solved{cleared} ({values}), {bad} bad; mode {mode}; {workers}{} nodes in \
         {searching:.3} s of search ({:.2} M nodes/s, {:.0} nodes per {searched_rows}), \
         {seconds:.3} s in all with the \
         table's set-up ({set_up:.3} s); table {} {} ({} blocks of S = {} buckets, k = {}, {}, huge pages {}): \
         {} probes, {:.1}% hits, {} stores, {} replacements",
        total.nodes,
        total.nodes as f64 / searching.max(1e-9) / 1e6,
        total.nodes as f64 / searched.max(1) as f64,
        format_bytes(table.bytes()),
        table.replacement(),
        table.blocks(),
        table.block_buckets(),
        table.key_bits(),
        describe_leaf_area(&table),
        if table.huge_pages() { "on" } else { "off" },
        total.table.probes,
        100.0 * total.table.hit_rate(),
        total.table.stores,
        total.table.replacements,
    );
    finish_run("score4 solve", &summary, args.json, read, bad)
}

/// Prints one row of `score4 solve`: a line of the table, or with `json` a JSON object.
fn print_row(
    out: &mut impl Write,
    json: bool,
    mode: Mode,
    threads: usize,
    moves: &str,
    solution: &Answer,
    ends_game: bool,
) {
    let stats = solution.stats;
    if json {
        let json = JsonSolved {
            position: moves,
            mode: mode.name(),
            value: solution.value,
            nodes: stats.nodes,
            seconds: solution.seconds,
            probes: stats.table.probes,
            hits: stats.table.hits,
            stores: stats.table.stores,
            replacements: stats.table.replacements,
            threads,
            tasks: solution.parallel.map(|p| p.0),
            cancelled: solution.parallel.map(|p| p.1),
            tree_nodes: solution.parallel.map(|p| p.2),
            cutoff: solution.parallel.map(|p| p.3),
            ends_game,
        };
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(&json).expect("serialisable")
        );
    } else {
        let value = value_text(mode, solution.value);
        let rate = stats.nodes as f64 / solution.seconds.max(1e-9) / 1e6;
        let parallel = match solution.parallel {
            Some((done, stopped, tree, cut)) => {
                format!(" {done:>7} {stopped:>9} {tree:>9} {cut:>6}")
            }
            // A move that ended the game ran no parallel search: blanks keep the columns.
            None if threads > 1 => format!(" {:>7} {:>9} {:>9} {:>6}", "-", "-", "-", "-"),
            None => String::new(),
        };
        let ended = if ends_game {
            "  (the move ends the game)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{value:<7} {:>14} {:>10.3} {:>9.2}{parallel}  {moves}{ended}",
            stats.nodes, solution.seconds, rate
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
