//! `score4 prove MOVES --store FILE`: a proof run that survives crashes. Everything settled is
//! committed to the store about once a second; the same command resumes after Ctrl-C, a kill
//! or a reboot, and its last line gives the totals over every run.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use score4_engine::{machine_memory, physical_cores, Game, Mode, Record};
use score4_prove::{prove, JobOrder, ProveConfig, ProveError, ProveProgress};
use score4_store::{Run, Store, StoreError};

use crate::input::parse_game;
use crate::progress::{elapsed_text, ProgressMode};
use crate::signals::{exit_code, signal_name, StopSignals};
use crate::solve::counted;
use crate::{MemoryChoice, ProveArgs, EXIT_BAD_INPUT};
use score4_engine::format_bytes;

/// The exit code for a store error: bad input for a file that is not a usable store, 1 for a
/// failure of the machine (a full disk, a read-only file).
pub fn store_error_code(error: &StoreError) -> ExitCode {
    match error {
        StoreError::NotAStore { .. }
        | StoreError::OtherVersion { .. }
        | StoreError::OtherGame { .. }
        | StoreError::Busy { .. } => ExitCode::from(EXIT_BAD_INPUT),
        _ => ExitCode::FAILURE,
    }
}

/// score4's version and the commit it was built from.
pub fn version() -> String {
    format!(
        "{} ({})",
        env!("CARGO_PKG_VERSION"),
        option_env!("SCORE4_COMMIT").unwrap_or("commit unknown")
    )
}

/// This machine's name, as the kernel knows it.
fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_owned())
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// The final report as JSON.
#[derive(serde::Serialize)]
struct JsonProof<'a> {
    game: &'static str,
    position: &'a str,
    store: String,
    mode: &'static str,
    /// first-wins: 1 the first player wins, 0 not; wdl: 1, 0 or -1 for the side to move; null
    /// if stopped first.
    value: Option<i32>,
    nodes: u64,
    seconds: f64,
    committed: u64,
    /// Seconds spent writing to the store.
    commit_seconds: f64,
    runs: usize,
    nodes_all_runs: u64,
    seconds_all_runs: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'static str>,
}

/// Runs `score4 prove`.
pub fn run<R: Record>(args: ProveArgs) -> ExitCode {
    let command = format!("{} prove", R::COMMAND);
    let game: R = match parse_game(&args.moves) {
        Ok(game) => game,
        Err(error) => {
            eprintln!("{command}: {:?}: {error}", args.moves);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    // Signals are caught before anything slow (joining an MPI run waits for every rank's
    // table): a stop that comes early still ends the run cleanly, once it has begun. On a
    // worker rank of a cluster run the flag is never read: a launcher forwards a signal to
    // every rank, and rank 0 ends the run for all.
    let stop = Arc::new(AtomicBool::new(false));
    let raised = Arc::clone(&stop);
    let signals = StopSignals::catch(&command, move || raised.store(true, Relaxed));
    // Under an MPI launcher (the `mpi` feature): rank 0 goes on as below with the other ranks
    // as its workers; every other rank serves jobs until rank 0 ends the run.
    #[cfg(feature = "mpi")]
    let cluster = match crate::cluster::join::<R>(&command, &args) {
        crate::cluster::Role::Alone => None,
        crate::cluster::Role::Manager(run) => Some(run),
        crate::cluster::Role::Done(code) => return code,
    };
    let game_name = <R::Position as Game>::NAME;
    let mut store = match Store::open_for_writing(&args.store, game_name) {
        Ok(store) => store,
        Err(error) => {
            eprintln!("{command}: {error}");
            return store_error_code(&error);
        }
    };
    let threads = args.threads.unwrap_or_else(physical_cores);
    #[cfg(feature = "mpi")]
    let (threads, host) = match &cluster {
        Some(run) => (
            run.manager.workers(),
            format!(
                "{} and {}",
                host(),
                counted(run.cluster.size() as u64 - 1, "worker rank")
            ),
        ),
        None => (threads, host()),
    };
    #[cfg(not(feature = "mpi"))]
    let host = host();
    let memory = match args.memory {
        Some(MemoryChoice::Bytes(bytes)) => bytes,
        Some(MemoryChoice::All) => machine_memory(),
        None => R::DEFAULT_TABLE_BYTES,
    };
    let moves = game.to_string();
    let config = ProveConfig {
        mode: args.mode,
        threads,
        table_bytes: memory,
        checkpoint: args.checkpoint,
        job_order: match args.jobs {
            crate::JobsArg::Moves => JobOrder::Moves,
            crate::JobsArg::ProofNumbers => JobOrder::ProofNumbers,
        },
        commit_every: std::time::Duration::from_secs(1),
        progress_every: args.progress_every,
        run: Run {
            id: 0,
            root: moves.clone(),
            mode: args.mode.name().to_owned(),
            started: 0.0,
            stopped: 0.0,
            host,
            threads: threads as i64,
            memory: memory as i64,
            version: version(),
            nodes: 0,
            outcome: String::new(),
        },
    };
    let stopped_after = Arc::new(AtomicBool::new(false));
    if let Some(limit) = args.stop_after {
        if limit <= args.checkpoint {
            eprintln!(
                "{command}: warning: --stop-after {} is not longer than --checkpoint {}: a job \
                 still running at the stop is lost, and a run of one long job keeps nothing",
                humantime::format_duration(limit),
                humantime::format_duration(args.checkpoint)
            );
        }
        let (stop, stopped_after) = (Arc::clone(&stop), Arc::clone(&stopped_after));
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            stopped_after.store(true, Relaxed);
            stop.store(true, Relaxed);
        });
    }
    let progress = args.progress.resolved();
    let on_progress = |snapshot: &ProveProgress| show_progress(progress, &moves, snapshot);
    // A cluster run's rank 0 searches its jobs on the other ranks; any other run here.
    #[cfg_attr(not(feature = "mpi"), allow(unused_labels))]
    let report = 'proof: {
        #[cfg(feature = "mpi")]
        if let Some(run) = &cluster {
            let workers = run.manager.workers();
            break 'proof score4_prove::prove_with(
                game.position(),
                &moves,
                &mut store,
                &config,
                &stop,
                on_progress,
                workers,
                |worker| run.manager.searcher(worker),
            );
        }
        prove(
            game.position(),
            &moves,
            &mut store,
            &config,
            &stop,
            on_progress,
        )
    };
    let report = match report {
        Ok(report) => report,
        Err(ProveError::Store(error)) => {
            eprintln!("{command}: {error} (what was committed before is kept)");
            return store_error_code(&error);
        }
        Err(ProveError::Table(error)) => {
            eprintln!("{command}: --memory {}: {error}", format_bytes(memory));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let runs = store.runs().unwrap_or_default();
    let nodes_all: u64 = runs.iter().map(|run| run.nodes).sum();
    let seconds_all: f64 = runs.iter().map(|run| run.stopped - run.started).sum();
    let stopped = signals.received().map(signal_name).or_else(|| {
        (report.value.is_none() && stopped_after.load(Relaxed)).then_some("stop-after")
    });
    if args.json {
        let json = JsonProof {
            game: game_name,
            position: &moves,
            store: args.store.display().to_string(),
            mode: args.mode.name(),
            value: report.value,
            nodes: report.nodes,
            seconds: report.seconds,
            committed: report.committed,
            commit_seconds: report.commit_seconds,
            runs: runs.len(),
            nodes_all_runs: nodes_all,
            seconds_all_runs: seconds_all,
            stopped,
        };
        println!("{}", serde_json::to_string(&json).expect("serialisable"));
    } else {
        let mover = game.position().mover().symbol();
        let value = match (args.mode, report.value) {
            (_, None) => format!(
                "not proven yet (stopped by {})",
                stopped.unwrap_or("a stop")
            ),
            (Mode::FirstWins, Some(1)) => "the first player (X) wins".to_owned(),
            (Mode::FirstWins, Some(_)) => "the first player (X) does not win".to_owned(),
            (_, Some(1)) => format!("{mover}, to move, wins"),
            (_, Some(0)) => "a draw".to_owned(),
            (_, Some(_)) => format!("{mover}, to move, loses"),
        };
        println!(
            "{moves}: {value}; this run {} in {:.1} s, {} committed; over {} {} in {} ({})",
            counted(report.nodes, "node"),
            report.seconds,
            counted(report.committed, "position"),
            counted(runs.len() as u64, "run"),
            counted(nodes_all, "node"),
            elapsed_text(std::time::Duration::from_secs_f64(seconds_all.max(0.0))),
            args.store.display()
        );
    }
    match signals.received() {
        Some(signal) if report.value.is_none() => exit_code(signal),
        _ => ExitCode::SUCCESS,
    }
}

/// One progress report on standard error.
fn show_progress(mode: ProgressMode, moves: &str, progress: &ProveProgress) {
    let root_moves: String = progress
        .root_moves
        .iter()
        .map(|(column, value)| {
            let status = match value {
                Some(true) => '+',
                Some(false) => '-',
                None => '?',
            };
            format!("{column}{status}")
        })
        .collect::<Vec<_>>()
        .join(" ");
    match mode {
        ProgressMode::None => {}
        ProgressMode::Json => eprintln!(
            "{}",
            serde_json::json!({
                "position": moves,
                "elapsed": progress.elapsed.as_secs_f64(),
                "nodes": progress.nodes,
                "tree_nodes": progress.tree_nodes,
                "open": progress.open,
                "running": progress.running,
                "committed": progress.committed,
                "transposed": progress.transposed,
                "moves": root_moves,
            })
        ),
        _ => eprintln!(
            "progress: {moves}: {}, {:.1} M nodes, tree {} nodes ({} open, {} running, {} \
             transposed), {} committed, moves {}",
            elapsed_text(progress.elapsed),
            progress.nodes as f64 / 1e6,
            progress.tree_nodes,
            progress.open,
            progress.running,
            progress.transposed,
            progress.committed,
            if root_moves.is_empty() {
                "not split yet"
            } else {
                &root_moves
            }
        ),
    }
}
