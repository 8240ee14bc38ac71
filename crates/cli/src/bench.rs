//! `score4 bench`: the report's benchmark protocol on the committed sets, with a progress bar,
//! a table per difficulty, CSV / JSON / charts in `--out`; `score4 bench plot` to draw
//! several saved runs on one chart; and `score4 gen`, which makes such sets, for either game.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use score4_bench::protocol::{read_set, run_difficulty, set_path};
use score4_bench::report::count;
use score4_bench::{plot, report, BenchConfig, BenchError, BenchRun, PositionGenerator, Progress};
use score4_board::GameRecord;
use score4_engine::{LeafArea, Record, Setting, StopHandle, TableError, TranspositionTable};

use crate::signals::{exit_code, signal_name, StopSignals};
use crate::{BenchArgs, BenchCommand, EXIT_BAD_INPUT};
use score4_engine::format_bytes;

/// Runs `score4 bench` or `score4 bench plot`.
pub fn run(args: BenchArgs) -> ExitCode {
    match args.command {
        Some(BenchCommand::Plot { files, out }) => plot_files(&files, &out),
        None => run_protocol(args),
    }
}

/// The difficulties to run, in order.
fn difficulties(args: &BenchArgs) -> Vec<u32> {
    match (args.difficulty, args.from, args.to) {
        (Some(difficulty), _, _) => vec![difficulty],
        (None, Some(from), Some(to)) if from >= to => {
            (to..=from).rev().step_by(args.step as usize).collect()
        }
        (None, Some(from), Some(to)) => (from..=to).step_by(args.step as usize).collect(),
        _ => vec![28],
    }
}

/// `--sets`'s default, as main.rs declares it.
const SETS_DEFAULT: &str = "bench/positions";
/// The repository's sets, beside the sources this binary was built from.
const SETS_IN_REPOSITORY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/positions");
/// `--pons`'s default, as main.rs declares it.
pub const PONS_DEFAULT: &str = "bench/pons";
/// The repository's copy of Pons's sets, beside the sources this binary was built from.
pub const PONS_IN_REPOSITORY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/pons");

/// The directory `--OPTION` names: `given` if it is a directory; when `given` is the option's
/// `default` (a path relative to the current directory, which holds it only at the
/// repository's root) and is not one, `in_repository` canonicalised, if that is one. Otherwise
/// the message says which directories were tried and to pass `--OPTION`.
pub fn data_directory(
    given: &Path,
    default: &str,
    in_repository: &str,
    option: &str,
) -> Result<PathBuf, String> {
    if given.is_dir() {
        return Ok(given.to_owned());
    }
    if given != Path::new(default) {
        return Err(format!("--{option} {}: no such directory", given.display()));
    }
    if let Ok(found) = Path::new(in_repository).canonicalize() {
        if found.is_dir() {
            return Ok(found);
        }
    }
    let here = std::env::current_dir()
        .map(|dir| format!(" (from {})", dir.display()))
        .unwrap_or_default();
    Err(format!(
        "no such directory: tried {default}{here} and {in_repository} (the repository score4 \
         was built from); pass --{option} DIR"
    ))
}

fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("score4 bench: {message}");
    ExitCode::from(EXIT_BAD_INPUT)
}

fn run_protocol(args: BenchArgs) -> ExitCode {
    let minimum = TranspositionTable::minimum_bytes(args.replacement);
    let tt_size = args.tt_size.unwrap_or(1 << 30);
    if tt_size < minimum {
        let error = TableError::TooSmall {
            bytes: tt_size,
            minimum,
        };
        return bad_input(format!("--tt-size: {error}"));
    }
    let directory = match data_directory(&args.sets, SETS_DEFAULT, SETS_IN_REPOSITORY, "sets") {
        Ok(directory) => directory,
        Err(error) => return bad_input(error),
    };
    // Read every set first: a bad or missing file stops the run before any work is done.
    let mut sets: Vec<(u32, Vec<GameRecord>)> = Vec::new();
    for difficulty in difficulties(&args) {
        let path = set_path(&directory, difficulty);
        match read_set(&path, args.positions) {
            Ok(games) => sets.push((difficulty, games)),
            Err(error) => return bad_input(error),
        }
    }
    if let Some(out) = &args.out {
        if let Err(error) = std::fs::create_dir_all(out) {
            return bad_input(format!("--out {}: {error}", out.display()));
        }
    }
    let config = BenchConfig {
        positions: args.positions,
        time_limit_seconds: args.time_limit.as_secs_f64(),
        table_bytes: tt_size,
        replacement: args.replacement,
        threads: args.threads,
        leaf_area: args.leaf_area,
        best_first: !args.no_best_first,
    };
    let label = args.label.clone().unwrap_or_else(|| {
        format!(
            "score4 {} {} {}",
            env!("CARGO_PKG_VERSION"),
            config.replacement,
            format_bytes(config.table_bytes)
        )
    });
    let mut run = BenchRun {
        label,
        version: env!("CARGO_PKG_VERSION").to_owned(),
        config,
        difficulties: Vec::new(),
    };
    println!(
        "score4 bench: {} per difficulty, {} s each, table {} {} (near-leaf area {}), {}{}",
        count(run.config.positions, "position", "positions"),
        run.config.time_limit_seconds,
        format_bytes(run.config.table_bytes),
        run.config.replacement,
        leaf_area_words(run.config.leaf_area),
        count(run.config.threads, "thread", "threads"),
        if run.config.threads == 1 && !run.config.best_first {
            ", no best-first driver"
        } else {
            ""
        }
    );
    println!("{}", report::table_header());
    // Ctrl-C or SIGTERM stops the difficulty under way: its row (the positions solved by then)
    // and the files are written, then the run ends with 130 or 143.
    let running: Arc<Mutex<Option<StopHandle>>> = Arc::default();
    let signals = {
        let running = Arc::clone(&running);
        StopSignals::catch("score4 bench", move || {
            if let Some(stop) = running.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                stop.stop();
            }
        })
    };
    for (difficulty, games) in &sets {
        if signals.received().is_some() {
            break;
        }
        let bar = progress_bar(*difficulty, games.len(), args.time_limit);
        let on_engine = |stop: StopHandle| {
            let mut slot = running.lock().unwrap_or_else(|e| e.into_inner());
            // A signal that came while the table was being set up stops this engine too.
            if signals.received().is_some() {
                stop.stop();
            }
            *slot = Some(stop);
        };
        let result = run_difficulty(
            *difficulty,
            games,
            &run.config,
            on_engine,
            |progress: &Progress| {
                bar.set_position(progress.solved as u64);
                bar.set_message(format!(
                    "{:.2} M nodes/s",
                    progress.nodes_per_second() / 1e6
                ));
            },
        );
        bar.finish_and_clear();
        let result = match result {
            Ok(result) => result,
            Err(BenchError::Engine(error)) if error.is_bad_input() => {
                let option = match error.setting() {
                    Setting::LeafArea => "--leaf-area",
                    Setting::TableSize | Setting::MemoryBudget => "--tt-size",
                };
                return bad_input(format!("{option}: {error}"));
            }
            Err(error) => {
                eprintln!("score4 bench: {error}");
                return ExitCode::FAILURE;
            }
        };
        println!("{}", report::table_row(&result));
        let out_of_time = !result.finished;
        run.difficulties.push(result);
        // Save after every difficulty, so that an interrupted sweep keeps what it measured.
        if let Some(out) = &args.out {
            if let Err(error) = save(&run, out) {
                eprintln!("score4 bench: {error}");
                return ExitCode::FAILURE;
            }
        }
        if out_of_time && args.stop_at_frontier {
            break;
        }
    }
    if let Some(signal) = signals.received() {
        let last = run.difficulties.last();
        eprintln!(
            "score4 bench: stopped by {}{}; the rows above are as measured{}",
            signal_name(signal),
            last.filter(|result| !result.finished)
                .map(|result| format!(
                    " during difficulty {} ({} of {} solved)",
                    result.difficulty, result.solved, result.asked
                ))
                .unwrap_or_default(),
            match &args.out {
                Some(out) => format!(", saved in {}", out.display()),
                None => String::new(),
            }
        );
        return exit_code(signal);
    }
    println!("{}", report::frontier_line(&run));
    for result in &run.difficulties {
        if let Some(line) = report::heaviest_line(result) {
            println!("{line}");
        }
    }
    if let Some(out) = &args.out {
        match plot::draw_charts(std::slice::from_ref(&run), out) {
            Ok(files) => println!(
                "wrote {} and {}",
                out.join("bench.json").display(),
                files
                    .iter()
                    .map(|file| file.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Err(error) => {
                eprintln!("score4 bench: charts: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Writes `bench.json`, `bench.csv` and `positions.csv` into `out`.
fn save(run: &BenchRun, out: &Path) -> Result<(), String> {
    for (name, text) in [
        ("bench.json", report::to_json(run)),
        ("bench.csv", report::to_csv(run)),
        ("positions.csv", report::to_positions_csv(run)),
    ] {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|error| format!("{}: {error}", path.display()))?;
    }
    Ok(())
}

/// A bar for one difficulty: positions done, nodes per second and the time left in the limit.
/// Drawn on standard error, and not at all when that is not a terminal.
fn progress_bar(difficulty: u32, positions: usize, limit: Duration) -> ProgressBar {
    let time_left = move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
        let left = limit.saturating_sub(state.elapsed());
        let _ = write!(out, "{}s left", left.as_secs());
    };
    let noun = if positions == 1 {
        "position"
    } else {
        "positions"
    };
    let style = ProgressStyle::with_template(&format!(
        "d{{prefix}} [{{bar:32}}] {{pos}}/{{len}} {noun}, {{msg}}, {{elapsed}} elapsed, \
         {{time_left}}"
    ))
    .expect("a valid template")
    .with_key("time_left", time_left)
    .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(Some(positions as u64), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_prefix(difficulty.to_string())
        .with_message("starting");
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// `score4 bench plot`: one chart per metric with a line per saved run.
fn plot_files(files: &[PathBuf], out: &Path) -> ExitCode {
    let mut runs = Vec::new();
    for file in files {
        match report::read_json(file) {
            Ok(run) => runs.push(run),
            Err(error) => return bad_input(error),
        }
    }
    // Two runs with the same label are told apart by their file names.
    let labels: Vec<String> = runs.iter().map(|run| run.label.clone()).collect();
    for i in 0..runs.len() {
        if labels.iter().filter(|&label| *label == labels[i]).count() > 1 {
            let stem = files[i]
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_default();
            runs[i].label = format!("{} ({})", runs[i].label, stem);
        }
    }
    if let Err(error) = std::fs::create_dir_all(out) {
        return bad_input(format!("--out {}: {error}", out.display()));
    }
    match plot::draw_charts(&runs, out) {
        Ok(written) => {
            for file in written {
                println!("wrote {}", file.display());
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("score4 bench plot: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `--leaf-area` as the header says it.
fn leaf_area_words(leaf_area: LeafArea) -> String {
    match leaf_area {
        LeafArea::Bytes(bytes) => format_bytes(bytes),
        other => other.to_string(),
    }
}

/// Runs `score4 gen`: a header of two `#` lines recording the command, then `count` positions
/// of `stones` stones of the game of `R` by random reasonable play from `seed`, one per line.
pub fn generate<R: Record>(stones: u32, positions: usize, seed: u64) -> ExitCode {
    let most = PositionGenerator::<R>::MAX_STONES;
    if stones > most {
        eprintln!(
            "{} gen: --stones {stones}: a position to solve holds at most {} (one cell stays \
             empty)",
            R::COMMAND,
            count(most as usize, "stone", "stones")
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    println!(
        "# {} gen --stones {stones} --count {positions} --seed {seed}",
        R::COMMAND
    );
    println!(
        "# random reasonable play (docs/RULES.md), {}, seed {seed}",
        count(stones as usize, "stone", "stones")
    );
    for game in PositionGenerator::<R>::for_game(stones, seed).take(positions) {
        println!("{game}");
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_directory_falls_back_to_the_repository_s_copy() {
        let repository = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/positions");
        // The tests run in crates/cli, where the relative default does not exist.
        assert!(!Path::new(SETS_DEFAULT).exists());
        let found = data_directory(Path::new(SETS_DEFAULT), SETS_DEFAULT, repository, "sets");
        assert_eq!(found, Ok(Path::new(repository).canonicalize().unwrap()));
        let found = data_directory(
            Path::new(PONS_DEFAULT),
            PONS_DEFAULT,
            PONS_IN_REPOSITORY,
            "pons",
        );
        assert!(found.unwrap().join("Test_L3_R1").is_file());
    }

    #[test]
    fn a_missing_directory_is_named_with_what_to_pass() {
        let error = data_directory(
            Path::new("no/such/sets"),
            "no/such/sets",
            "/no/such/repository/sets",
            "sets",
        )
        .unwrap_err();
        assert!(error.contains("tried no/such/sets (from "), "{error}");
        assert!(error.contains(" and /no/such/repository/sets "), "{error}");
        assert!(error.ends_with("; pass --sets DIR"), "{error}");
        // A directory the user names is never replaced by another.
        let error = data_directory(
            Path::new("elsewhere"),
            SETS_DEFAULT,
            SETS_IN_REPOSITORY,
            "sets",
        )
        .unwrap_err();
        assert_eq!(error, "--sets elsewhere: no such directory");
    }
}
