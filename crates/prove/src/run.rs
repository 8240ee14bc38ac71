//! [`prove`]: workers search the tree's jobs on one shared table while the calling thread
//! commits what they settle to the store, once per `commit_every`.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use score4_game::Game;
use score4_solver::{Mode, Monitor, TableConfig, TableError, TranspositionTable};
use score4_store::{Run, Store, StoreError};

use crate::searcher::{JobAnswer, JobRequest, JobSearcher, LocalSearcher};
use crate::tree::{JobOrder, State, Tree};

/// How long a job must have run before an idle worker has it split: long enough that easy
/// jobs end by themselves, short against a checkpoint.
const SPLIT_FOR_IDLE_AFTER: Duration = Duration::from_millis(200);

/// How a proof runs.
#[derive(Clone, Debug)]
pub struct ProveConfig {
    /// The question: [`Mode::FirstWins`] or [`Mode::Wdl`].
    pub mode: Mode,
    /// Worker threads, each with its own sequential search on the shared table.
    pub threads: usize,
    /// The transposition table's size (TWOBIG; a table of bounds in wdl mode).
    pub table_bytes: u64,
    /// The longest a job is searched before it is split into its children: the most work a
    /// kill can lose per worker.
    pub checkpoint: Duration,
    /// Which open job a worker takes next.
    pub job_order: JobOrder,
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
    /// Moves of split nodes that reached a position already in this question's graph of jobs
    /// (another order of moves, or a mirror image): linked to its node, not added again.
    pub transposed: usize,
    /// The root's moves (column characters) and what is known of each: `Some(true)` the first
    /// player wins after it, `Some(false)` not, `None` open. Empty until the root is split.
    pub root_moves: Vec<(char, Option<bool>)>,
}

/// How a proof run ended.
#[derive(Clone, Debug)]
pub struct ProveReport {
    /// The root's value in the mode: first-wins 1 (the first player wins) or 0; wdl 1, 0 or -1
    /// for the side to move. `None` if the run was stopped first.
    pub value: Option<i32>,
    /// Nodes searched and seconds taken by this run.
    pub nodes: u64,
    pub seconds: f64,
    /// Positions committed to the store by this run.
    pub committed: u64,
    /// Seconds spent writing to the store (the committing thread's, beside the workers'):
    /// what the store costs the run.
    pub commit_seconds: f64,
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

/// Proves `root` (reached by `moves`) in `config.mode` — whether the first player wins, or
/// win, draw or loss — resuming from what `store` holds and writing every position settled or
/// split to it. Raising `stop` ends the run cleanly (a last commit; the jobs under way are
/// lost, at most `checkpoint` of work each). Fails if the table cannot be made or the store
/// fails; what was committed stays.
///
/// Contract: nobody has four in a line in `root`; the mode is first-wins or wdl.
pub fn prove<G: Game>(
    root: &G,
    moves: &str,
    store: &mut Store,
    config: &ProveConfig,
    stop: &AtomicBool,
    on_progress: impl FnMut(&ProveProgress),
) -> Result<ProveReport, ProveError> {
    let table = TranspositionTable::new(
        &TableConfig::new(config.table_bytes, G::KEY_WIDTH)
            .format(config.mode.format())
            .threads(config.threads.max(1)),
    )?;
    let workers = config.threads.max(1);
    prove_with(
        root,
        moves,
        store,
        config,
        stop,
        on_progress,
        workers,
        |_| LocalSearcher::new(&table),
    )
}

/// [`prove`] with the jobs searched by `workers` workers, worker `w` by
/// `searcher(w)` (made on the worker's thread): the sequential solver in this process, or
/// another process reached by messages (a cluster run). `config.threads` and
/// `config.table_bytes` are only recorded.
#[allow(clippy::too_many_arguments)]
pub fn prove_with<G: Game, S: JobSearcher<G>>(
    root: &G,
    moves: &str,
    store: &mut Store,
    config: &ProveConfig,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&ProveProgress),
    workers: usize,
    searcher: impl Fn(usize) -> S + Sync,
) -> Result<ProveReport, ProveError> {
    assert_ne!(config.mode, Mode::Exact, "prove answers first-wins and wdl");
    let started = Instant::now();
    let run_id = store.begin_run(&config.run)?;
    let mut run = RunState {
        store,
        workers: workers.max(1),
        searcher: &searcher,
        config,
        stop,
        run_id,
        started,
        nodes: 0,
        committed: 0,
        commit_seconds: 0.0,
    };
    // First-wins asks whether the first player's score reaches 1 (a win); win/draw/loss asks
    // that, and if not, whether it reaches 0 (a draw).
    let outcome = run
        .question(root, moves, 1, &mut on_progress)
        .and_then(|wins| match (config.mode, wins) {
            (Mode::Wdl, Some(false)) => Ok(run
                .question(root, moves, 0, &mut on_progress)?
                .map(|draws| if draws { 0 } else { -1 })),
            (_, wins) => Ok(wins.map(i32::from)),
        });
    let ending = match &outcome {
        Err(_) => "failed",
        Ok(Some(_)) => "proven",
        Ok(None) => "stopped",
    };
    let first_player_value = outcome?;
    run.store.update_run(run_id, run.nodes, ending)?;
    // A wdl value is the side to move's: the negative of the first player's when black moves.
    let value = match (config.mode, root.white_to_move()) {
        (Mode::Wdl, false) => first_player_value.map(|value| -value),
        _ => first_player_value,
    };
    Ok(ProveReport {
        value,
        nodes: run.nodes,
        seconds: started.elapsed().as_secs_f64(),
        committed: run.committed,
        commit_seconds: run.commit_seconds,
        run_id,
    })
}

/// What the questions of one run share.
struct RunState<'a, F> {
    store: &'a mut Store,
    /// How many workers search jobs, and what makes each one's searcher.
    workers: usize,
    searcher: &'a F,
    config: &'a ProveConfig,
    stop: &'a AtomicBool,
    run_id: i64,
    started: Instant,
    /// Nodes searched and positions committed by the run so far.
    nodes: u64,
    committed: u64,
    /// Seconds spent in the store's writes.
    commit_seconds: f64,
}

impl<F> RunState<'_, F> {
    /// Whether the first player's score in `root` reaches `threshold`, by a tree of jobs over
    /// what the store holds; `None` if the run was stopped first.
    fn question<G: Game, S: JobSearcher<G>>(
        &mut self,
        root: &G,
        moves: &str,
        threshold: i32,
        on_progress: &mut impl FnMut(&ProveProgress),
    ) -> Result<Option<bool>, StoreError>
    where
        F: Fn(usize) -> S + Sync,
    {
        let known = self
            .store
            .load()?
            .into_iter()
            .map(|(key, (bounds, _))| (key, bounds))
            .collect();
        let shared = Mutex::new(Shared {
            tree: Tree::new(
                *root,
                moves.to_owned(),
                known,
                threshold,
                self.config.job_order,
            ),
            nodes: 0,
            running: 0,
            finished: false,
        });
        let wake = Condvar::new();
        let threads = self.workers;
        let monitors: Vec<Monitor> = (0..threads).map(|_| Monitor::default()).collect();
        let job = Job {
            checkpoint: self.config.checkpoint,
            // The first-wins question on a binary table is the solver's own, best-first
            // driver included; other thresholds ask for a bound.
            threshold: (self.config.mode != Mode::FirstWins).then_some(threshold),
        };
        let nodes_before = self.nodes;
        let outcome = std::thread::scope(|scope| {
            for worker in 0..threads {
                let (shared, wake, monitors, job) = (&shared, &wake, &monitors, &job);
                let searcher = self.searcher;
                scope.spawn(move || {
                    let mut searcher = searcher(worker);
                    work(worker, shared, wake, monitors, job, &mut searcher)
                });
            }
            let mut last_progress = Instant::now();
            loop {
                let (records, nodes, done) = {
                    let mut state = lock(&shared);
                    let done = state.tree.value().is_some() || self.stop.load(Relaxed);
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
                self.nodes = nodes_before + nodes;
                let writing = Instant::now();
                let written = self
                    .store
                    .write(&records)
                    .and_then(|_| self.store.update_run(self.run_id, self.nodes, "running"));
                self.commit_seconds += writing.elapsed().as_secs_f64();
                if let Err(error) = written {
                    lock(&shared).finished = true;
                    for monitor in &monitors {
                        monitor.stop();
                    }
                    wake.notify_all();
                    break Err(error);
                }
                self.committed += records.len() as u64;
                if last_progress.elapsed() >= self.config.progress_every {
                    last_progress = Instant::now();
                    let state = lock(&shared);
                    let mut progress = progress_of(&state, self.started, self.committed);
                    progress.nodes += nodes_before;
                    drop(state);
                    on_progress(&progress);
                }
                if done {
                    break Ok(());
                }
                wait_for_commit(&shared, &wake, self.config.commit_every, self.stop);
            }
        });
        // The workers have ended: what they settled while stopping goes in a last commit.
        let mut state = lock(&shared);
        let records = std::mem::take(&mut state.tree.pending);
        let value = state.tree.value();
        self.nodes = nodes_before + state.nodes;
        drop(state);
        outcome?;
        self.store.write(&records)?;
        self.committed += records.len() as u64;
        Ok(value)
    }
}

/// What a worker's job is.
struct Job {
    /// The longest a job is searched before it is split.
    checkpoint: Duration,
    /// `None`: the first-wins question on a binary table; `Some(t)`: whether the first
    /// player's score reaches `t`, on a table of bounds.
    threshold: Option<i32>,
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
        transposed: state.tree.transposed(),
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

/// A worker: takes the next job, searches it for at most the checkpoint, and settles or
/// splits it, until the run is finished.
fn work<G: Game>(
    worker: usize,
    shared: &Mutex<Shared<G>>,
    wake: &Condvar,
    monitors: &[Monitor],
    job: &Job,
    searcher: &mut impl JobSearcher<G>,
) {
    let checkpoint = job.checkpoint;
    let monitor = &monitors[worker];
    let mut cancel = Vec::new();
    loop {
        let (id, position, moves) = {
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
                    let node = state.tree.node(id);
                    break (id, node.position, node.moves.clone());
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
        let started = Instant::now();
        let request = JobRequest {
            position: &position,
            moves: &moves,
            threshold: job.threshold,
            checkpoint,
        };
        let JobAnswer {
            reaches: solution,
            nodes,
        } = searcher.search(&request, monitor);
        let seconds = started.elapsed().as_secs_f64();
        let mut state = lock(shared);
        let split_requested = std::mem::take(&mut state.tree.node_mut(id).split_requested);
        state.tree.node_mut(id).worker = None;
        state.running -= 1;
        state.nodes += nodes;
        let timed_out = started.elapsed() >= checkpoint && !monitor.is_stopped();
        let timed_out = timed_out || split_requested;
        if state.tree.is_needed(id) && !state.finished {
            match solution {
                Some(reaches) => {
                    state
                        .tree
                        .settle_searched(id, reaches, nodes, seconds, &mut cancel)
                }
                None if timed_out => state.tree.split(id, nodes, seconds, &mut cancel),
                // Stopped for a job elsewhere that settled this one's fate: nothing to keep.
                None => {}
            }
        } else if let Some(reaches) = solution {
            // Settled after it stopped mattering here: its value still goes to the store.
            if !matches!(state.tree.node(id).state, State::Settled(_)) {
                state
                    .tree
                    .settle_searched(id, reaches, nodes, seconds, &mut cancel);
            }
        }
        for &other in &cancel {
            monitors[other].stop();
        }
        cancel.clear();
        wake.notify_all();
    }
}
