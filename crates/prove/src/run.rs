//! [`prove`]: workers search the tree's jobs on one shared table while the calling thread
//! commits what they settle to the store, once per `commit_every`.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use score4_game::Game;
use score4_solver::{BestFirst, Monitor, Solver, TableConfig, TableError, TranspositionTable};
use score4_store::{Run, Store, StoreError};

use crate::tree::{State, Tree};

/// How long a job must have run before an idle worker has it split: long enough that easy
/// jobs end by themselves, short against a checkpoint.
const SPLIT_FOR_IDLE_AFTER: Duration = Duration::from_millis(200);

/// How a proof runs.
#[derive(Clone, Debug)]
pub struct ProveConfig {
    /// Worker threads, each with its own sequential search on the shared table.
    pub threads: usize,
    /// The transposition table's size (TWOBIG, first-wins entries).
    pub table_bytes: u64,
    /// The longest a job is searched before it is split into its children: the most work a
    /// kill can lose per worker.
    pub checkpoint: Duration,
    /// How often settled positions are committed to the store.
    pub commit_every: Duration,
    /// How often `on_progress` is called.
    pub progress_every: Duration,
    /// What the run records of itself in the store (root, mode, host, threads, memory,
    /// version); its `id`, times, nodes and outcome are filled in.
    pub run: Run,
}

/// Where a proof stands, for progress reports.
#[derive(Clone, Debug)]
pub struct ProveProgress {
    /// Since this run started.
    pub elapsed: Duration,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Nodes of the tree, and open ones among them.
    pub tree_nodes: usize,
    pub open: usize,
    /// Jobs being searched.
    pub running: usize,
    /// Positions committed to the store by this run.
    pub committed: u64,
    /// The root's moves (column characters) and what is known of each: `Some(true)` the first
    /// player wins after it, `Some(false)` not, `None` open. Empty until the root is split.
    pub root_moves: Vec<(char, Option<bool>)>,
}

/// How a proof run ended.
#[derive(Clone, Debug)]
pub struct ProveReport {
    /// Whether the first player wins the root; `None` if the run was stopped first.
    pub first_player_wins: Option<bool>,
    /// Nodes searched and seconds taken by this run.
    pub nodes: u64,
    pub seconds: f64,
    /// Positions committed to the store by this run.
    pub committed: u64,
    /// The run's id in the store.
    pub run_id: i64,
}

/// Why a proof run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The store failed (what was committed before stays).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The table could not be made.
    #[error("the transposition table: {0}")]
    Table(#[from] TableError),
}

/// What the workers and the committer share.
struct Shared<G> {
    tree: Tree<G>,
    /// Nodes searched by this run.
    nodes: u64,
    /// Jobs being searched.
    running: usize,
    /// Set when the workers must end: the root settled, a stop, or a failed commit.
    finished: bool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Proves whether the first player wins `root` (reached by `moves`), resuming from what
/// `store` holds and writing every position settled or split to it. Raising `stop` ends the
/// run cleanly (a last commit; the jobs under way are lost, at most `checkpoint` of work
/// each). Fails if the table cannot be made or the store fails; what was committed stays.
///
/// Contract: nobody has four in a line in `root`.
pub fn prove<G: Game>(
    root: &G,
    moves: &str,
    store: &mut Store,
    config: &ProveConfig,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&ProveProgress),
) -> Result<ProveReport, ProveError> {
    let started = Instant::now();
    let table = TranspositionTable::new(
        &TableConfig::new(config.table_bytes, G::KEY_WIDTH).threads(config.threads.max(1)),
    )?;
    let table = &table;
    let known = store
        .load()?
        .into_iter()
        .map(|(key, (bounds, _))| (key, bounds))
        .collect();
    let run_id = store.begin_run(&config.run)?;
    let shared = Mutex::new(Shared {
        tree: Tree::new(*root, moves.to_owned(), known),
        nodes: 0,
        running: 0,
        finished: false,
    });
    let wake = Condvar::new();
    let threads = config.threads.max(1);
    let monitors: Vec<Monitor> = (0..threads).map(|_| Monitor::default()).collect();
    let mut committed = 0u64;
    let outcome = std::thread::scope(|scope| {
        for worker in 0..threads {
            let (shared, wake, monitors) = (&shared, &wake, &monitors);
            scope.spawn(move || work(worker, shared, wake, monitors, table, config.checkpoint));
        }
        let mut last_progress = Instant::now();
        let result = loop {
            let (records, nodes, done) = {
                let mut state = lock(&shared);
                let done = state.tree.value().is_some() || stop.load(Relaxed);
                if done {
                    state.finished = true;
                }
                (std::mem::take(&mut state.tree.pending), state.nodes, done)
            };
            if done {
                for monitor in &monitors {
                    monitor.stop();
                }
                wake.notify_all();
            }
            let written = store
                .write(&records)
                .and_then(|_| store.update_run(run_id, nodes, "running"));
            if let Err(error) = written {
                lock(&shared).finished = true;
                for monitor in &monitors {
                    monitor.stop();
                }
                wake.notify_all();
                break Err(error);
            }
            committed += records.len() as u64;
            if last_progress.elapsed() >= config.progress_every {
                last_progress = Instant::now();
                on_progress(&progress_of(&lock(&shared), started, committed));
            }
            if done {
                break Ok(());
            }
            wait_for_commit(&shared, &wake, config.commit_every, stop);
        };
        result
    });
    // The workers have ended: what they settled while stopping goes in a last commit.
    let mut state = lock(&shared);
    let records = std::mem::take(&mut state.tree.pending);
    let value = state.tree.value();
    let nodes = state.nodes;
    drop(state);
    let ending = match (&outcome, value) {
        (Err(_), _) => "failed",
        (Ok(()), Some(_)) => "proven",
        (Ok(()), None) => "stopped",
    };
    outcome?;
    store.write(&records)?;
    committed += records.len() as u64;
    store.update_run(run_id, nodes, ending)?;
    Ok(ProveReport {
        first_player_wins: value,
        nodes,
        seconds: started.elapsed().as_secs_f64(),
        committed,
        run_id,
    })
}

/// Sleeps until the next commit is due, waking early when the root is settled or `stop` is
/// raised.
fn wait_for_commit<G: Game>(
    shared: &Mutex<Shared<G>>,
    wake: &Condvar,
    every: Duration,
    stop: &AtomicBool,
) {
    let until = Instant::now() + every;
    let mut state = lock(shared);
    // Short waits, so that a stop raised by a signal handler's thread is seen soon.
    while Instant::now() < until && state.tree.value().is_none() && !stop.load(Relaxed) {
        let left = until.saturating_duration_since(Instant::now());
        let (guard, _) = wake
            .wait_timeout(state, left.min(Duration::from_millis(50)))
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state = guard;
    }
}

fn progress_of<G: Game>(state: &Shared<G>, started: Instant, committed: u64) -> ProveProgress {
    let (tree_nodes, open) = state.tree.counts();
    ProveProgress {
        elapsed: started.elapsed(),
        nodes: state.nodes,
        tree_nodes,
        open,
        running: state.running,
        committed,
        root_moves: state
            .tree
            .root_moves()
            .into_iter()
            .map(|(column, node)| match node {
                State::Settled(wins) => (column, Some(wins)),
                _ => (column, None),
            })
            .collect(),
    }
}

/// A worker: takes the next job, searches it for at most `checkpoint`, and settles or splits
/// it, until the run is finished.
fn work<G: Game>(
    worker: usize,
    shared: &Mutex<Shared<G>>,
    wake: &Condvar,
    monitors: &[Monitor],
    table: &TranspositionTable,
    checkpoint: Duration,
) {
    let monitor = &monitors[worker];
    let mut solver = Solver::new(table)
        .with_monitor(monitor)
        .with_best_first(Some(BestFirst::DEFAULT));
    let mut cancel = Vec::new();
    loop {
        let (id, position) = {
            let mut state = lock(shared);
            loop {
                if state.finished {
                    return;
                }
                let job = state.tree.pick(&mut cancel);
                for &other in &cancel {
                    monitors[other].stop();
                }
                cancel.clear();
                if let Some(id) = job {
                    // Under the lock, so that a cancellation of this job is never lost.
                    monitor.resume();
                    state.tree.node_mut(id).worker = Some((worker, Instant::now()));
                    state.running += 1;
                    break (id, state.tree.node(id).position);
                }
                if state.tree.value().is_some() {
                    wake.notify_all();
                }
                // Nothing to do: have the job searched longest split, so that its children
                // keep this worker busy (a proof starts as one job).
                if let Some(busy) = state.tree.request_split(SPLIT_FOR_IDLE_AFTER) {
                    monitors[busy].stop();
                }
                let (guard, _) = wake
                    .wait_timeout(state, SPLIT_FOR_IDLE_AFTER / 4)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                state = guard;
            }
        };
        let before = solver.stats().nodes;
        let started = Instant::now();
        let solution = solver.solve_within(&position, started + checkpoint);
        let seconds = started.elapsed().as_secs_f64();
        let nodes = solver.stats().nodes - before;
        let mut state = lock(shared);
        let split_requested = std::mem::take(&mut state.tree.node_mut(id).split_requested);
        state.tree.node_mut(id).worker = None;
        state.running -= 1;
        state.nodes += nodes;
        let timed_out = started.elapsed() >= checkpoint && !monitor.is_stopped();
        let timed_out = timed_out || split_requested;
        if state.tree.is_needed(id) && !state.finished {
            match solution {
                Some(solution) => state.tree.settle_searched(
                    id,
                    solution.first_player_wins,
                    nodes,
                    seconds,
                    &mut cancel,
                ),
                None if timed_out => state.tree.split(id, nodes, seconds, &mut cancel),
                // Stopped for a job elsewhere that settled this one's fate: nothing to keep.
                None => {}
            }
        } else if let Some(solution) = solution {
            // Settled after it stopped mattering here: its value still goes to the store.
            if !matches!(state.tree.node(id).state, State::Settled(_)) {
                state.tree.settle_searched(
                    id,
                    solution.first_player_wins,
                    nodes,
                    seconds,
                    &mut cancel,
                );
            }
        }
        for &other in &cancel {
            monitors[other].stop();
        }
        cancel.clear();
        wake.notify_all();
    }
}
