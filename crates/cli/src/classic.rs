//! `score4 --game classic …`: the classic 7×6 game on the same search, in Pons's notation
//! (columns `1`–`7`) and score convention (a win with the winner's `k`-th stone scores
//! `22 - k`; `--mode exact` is Pons's "strong" solver, `--mode wdl` his "weak" one).
//!
//! `solve` reads positions like the 3-D `solve` (arguments, `--file`, standard input; `MOVES
//! [anything]` per line, so Pons's `MOVES SCORE` files work); `bench` runs Pons's six test sets
//! and prints his table. `solve --threads N` asks each question of the narrowing of the
//! parallel solver, with the same live progress as the 3-D game; `bench` is sequential.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use score4_classic::{ClassicError, ClassicGame};
use score4_solver::{Mode, SearchStats, Solver, TableConfig, TranspositionTable};

use crate::input::{finish_run, report_bad_entry, Source};
use crate::record::Record;
use crate::size::format_bytes;
use crate::solve::{parallel_answer, parallel_config};
use crate::{BenchArgs, SolveArgs, EXIT_BAD_INPUT};

/// Why a line is not a classic position to solve.
fn parse(text: &str) -> Result<ClassicGame, String> {
    let game: ClassicGame = text.parse().map_err(|e: ClassicError| e.to_string())?;
    if game.is_over() {
        return Err("the game is already over".to_owned());
    }
    Ok(game)
}

/// A table of `bytes` for `mode`, or the message and exit code.
fn table_for(
    command: &str,
    bytes: u64,
    replacement: score4_solver::Replacement,
    leaf_area: score4_solver::LeafArea,
    mode: Mode,
) -> Result<TranspositionTable, ExitCode> {
    let key_width = score4_classic::KEY_WIDTH;
    let format = mode.format();
    let config = TableConfig::new(bytes, key_width)
        .replacement(replacement)
        .format(format)
        .leaf_area(leaf_area);
    TranspositionTable::new(&config).map_err(|error| {
        eprintln!("score4 --game classic {command}: table: {error} (--mode {mode})");
        if error.is_bad_input() {
            ExitCode::from(EXIT_BAD_INPUT)
        } else {
            ExitCode::FAILURE
        }
    })
}

/// One JSON line per position.
#[derive(serde::Serialize)]
struct JsonSolved<'a> {
    game: &'static str,
    position: &'a str,
    mode: &'static str,
    value: i32,
    nodes: u64,
    seconds: f64,
}

/// `score4 --game classic solve`.
pub fn solve(args: SolveArgs) -> ExitCode {
    if args.each_move || args.clear_table || args.no_best_first {
        eprintln!(
            "score4 --game classic solve: --each-move, --clear-table and --no-best-first are \
             available for the 3-D game only"
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let mode = args.mode;
    let threads = args.threads.unwrap_or(1);
    let bytes = args
        .tt_size
        .or(args.memory)
        .unwrap_or(ClassicGame::TABLE_BYTES);
    let table = match table_for("solve", bytes, args.replacement, args.leaf_area, mode) {
        Ok(table) => table,
        Err(code) => return code,
    };
    let mut solver = Solver::new(&table);
    // The tree gets the parallel solver's default share: the classic game's table is small.
    let tree_bytes = score4_parallel::Config::default().dag_bytes;
    let parallel = (threads > 1).then(|| parallel_config(&args, threads, tree_bytes));
    let (mut solved, mut bad) = (0u64, 0u64);
    let mut total = SearchStats::default();
    let mut seconds = 0.0;
    let stdout = std::io::stdout();
    if !args.json {
        println!("{:<7} {:>14} {:>10}  position", "value", "nodes", "seconds");
    }
    let read = Source::choose(args.positions, args.file).for_each_parsed(parse, |entry| {
        let mut out = stdout.lock();
        let game = match entry.game {
            Ok(game) => game,
            Err(error) => {
                bad += 1;
                let command = "score4 --game classic solve";
                let (origin, text) = (&entry.origin, &entry.text);
                report_bad_entry(
                    &mut out,
                    command,
                    Some("classic"),
                    args.json,
                    origin,
                    text,
                    error,
                );
                return;
            }
        };
        let moves = game.to_string();
        let valuation = match &parallel {
            Some(config) => parallel_answer::<ClassicGame>(
                game.position(),
                &moves,
                &table,
                config,
                mode,
                args.progress,
            ),
            None => solver.evaluate(game.position(), mode).into(),
        };
        solved += 1;
        total += valuation.stats;
        seconds += valuation.seconds;
        if args.json {
            let json = JsonSolved {
                game: "classic",
                position: &moves,
                mode: mode.name(),
                value: valuation.value,
                nodes: valuation.stats.nodes,
                seconds: valuation.seconds,
            };
            let _ = writeln!(out, "{}", serde_json::to_string(&json).expect("json"));
        } else {
            let _ = writeln!(
                out,
                "{:<7} {:>14} {:>10.4}  {moves}",
                valuation.value, valuation.stats.nodes, valuation.seconds
            );
        }
    });
    let summary = format!(
        "{solved} solved, {bad} bad; classic 7x6, mode {mode}, {threads} thread(s); {} nodes in \
         {seconds:.3} s; table {} {}",
        total.nodes,
        format_bytes(table.bytes()),
        table.replacement()
    );
    finish_run(
        "score4 --game classic solve",
        &summary,
        args.json,
        read,
        bad,
    )
}

/// Pons's six test sets, in the order of his table, with his names.
pub const PONS_SETS: [(&str, &str); 6] = [
    ("Test_L3_R1", "End-Easy"),
    ("Test_L2_R1", "Middle-Easy"),
    ("Test_L2_R2", "Middle-Medium"),
    ("Test_L1_R1", "Begin-Easy"),
    ("Test_L1_R2", "Begin-Medium"),
    ("Test_L1_R3", "Begin-Hard"),
];

/// One row of the classic benchmark.
#[derive(serde::Serialize, Clone, Debug)]
pub struct ClassicRow {
    set: String,
    name: String,
    solver: &'static str,
    /// The first line of the set run (1-based; above 1 with --skip).
    first_line: usize,
    asked: usize,
    solved: usize,
    correct: usize,
    seconds: f64,
    nodes: u64,
}

impl ClassicRow {
    fn mean_ms(&self) -> f64 {
        1e3 * self.seconds / self.solved.max(1) as f64
    }
    fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.solved.max(1) as f64
    }
    fn kpos_per_s(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9) / 1e3
    }
}

/// Reads a Pons set: `MOVES SCORE` per line.
fn read_pons(path: &Path, skip: usize, limit: usize) -> Result<Vec<(ClassicGame, i32)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut set = Vec::new();
    for (i, line) in text.lines().enumerate().skip(skip).take(limit) {
        let mut words = line.split_whitespace();
        let (Some(moves), Some(score)) = (words.next(), words.next()) else {
            return Err(format!(
                "{} line {}: expected MOVES SCORE",
                path.display(),
                i + 1
            ));
        };
        let game = parse(moves).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
        let score = score
            .parse()
            .map_err(|e| format!("{} line {}: score {score:?}: {e}", path.display(), i + 1))?;
        set.push((game, score));
    }
    Ok(set)
}

/// `score4 --game classic bench`: each of Pons's sets (or `--set`), strong and weak, a fresh
/// table for each, the positions in order until done or out of `--time-limit`.
pub fn bench(args: BenchArgs) -> ExitCode {
    if args.no_best_first {
        eprintln!(
            "score4 --game classic bench: --no-best-first is available for the 3-D game only"
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let sets: Vec<(&str, &str)> = PONS_SETS
        .iter()
        .copied()
        .filter(|(file, _)| args.pons_set.as_deref().is_none_or(|only| only == *file))
        .collect();
    if sets.is_empty() {
        eprintln!(
            "score4 --game classic bench: --pons-set: unknown set {:?} (expected one of {})",
            args.pons_set.unwrap_or_default(),
            PONS_SETS.map(|(f, _)| f).join(", ")
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    println!(
        "{:<11} {:<14} {:<7} {:>9} {:>12} {:>14} {:>10} {:>11}",
        "set", "", "solver", "positions", "mean time", "mean pos", "K pos/s", "correct"
    );
    let mut rows = Vec::new();
    for (file, name) in sets {
        let set = match read_pons(&args.pons.join(file), args.skip, args.positions) {
            Ok(set) => set,
            Err(error) => {
                eprintln!("score4 --game classic bench: {error}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        };
        for (mode, solver_name) in [(Mode::Wdl, "weak"), (Mode::Exact, "strong")] {
            if args
                .solver
                .as_deref()
                .is_some_and(|only| only != solver_name)
            {
                continue;
            }
            let bytes = args.tt_size.unwrap_or(ClassicGame::TABLE_BYTES);
            let table = match table_for("bench", bytes, args.replacement, args.leaf_area, mode) {
                Ok(table) => table,
                Err(code) => return code,
            };
            let mut solver = Solver::new(&table);
            let deadline = Instant::now() + args.time_limit;
            let mut row = ClassicRow {
                set: file.to_owned(),
                name: name.to_owned(),
                solver: solver_name,
                first_line: args.skip + 1,
                asked: set.len(),
                solved: 0,
                correct: 0,
                seconds: 0.0,
                nodes: 0,
            };
            for (game, expected) in &set {
                let Ok(valuation) = solver.evaluate_within(game.position(), mode, Some(deadline))
                else {
                    break; // out of time: this position is not counted
                };
                let expected = if mode == Mode::Wdl {
                    expected.signum()
                } else {
                    *expected
                };
                row.solved += 1;
                row.correct += (valuation.value == expected) as usize;
                row.seconds += valuation.seconds;
                row.nodes += valuation.stats.nodes;
            }
            println!(
                "{:<11} {:<14} {:<7} {:>9} {:>9.3} ms {:>14.0} {:>10.0} {:>5}/{:<5}",
                row.set,
                row.name,
                row.solver,
                format!("{}/{}", row.solved, row.asked),
                row.mean_ms(),
                row.mean_nodes(),
                row.kpos_per_s(),
                row.correct,
                row.solved
            );
            rows.push(row);
        }
    }
    if let Some(out) = &args.out {
        let path = out.join("classic.json");
        let written = std::fs::create_dir_all(out).and_then(|()| {
            std::fs::write(&path, serde_json::to_string_pretty(&rows).expect("json"))
        });
        if let Err(error) = written {
            eprintln!(
                "score4 --game classic bench: cannot write {}: {error}",
                path.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let all_correct = rows.iter().all(|r| r.correct == r.solved);
    if !all_correct {
        eprintln!("score4 --game classic bench: some scores differ from Pons's");
        return ExitCode::FAILURE;
    }
    let _ = Duration::ZERO;
    ExitCode::SUCCESS
}
