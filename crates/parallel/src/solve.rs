//! Workers, the lock around the tree, cancellation, self-deepening and progress.
//!
//! One mutex guards the [`Dag`]; a worker holds it only to take a task or hand in a result,
//! never while searching. A worker that finds the queue dry while the root is still open
//! waits a moment ([`SPLIT_AGE`]) for the running tasks to bring new work; if the oldest of them
//! is still running then, it is split: its search is stopped and its children queued, so the
//! cutoff deepens by itself under the task that holds everyone up (the report stopped its run
//! by hand and restarted with a deeper cutoff everywhere). Everything the stopped search had
//! proven stays in the shared table, so its restart on the children is quick.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use score4_game::Cell;
use score4_solver::{BestFirst, Book, Game, Monitor, SearchStats, Solver, TranspositionTable};

use crate::dag::{Assumption, Dag, NodeId};

/// How long a task must have run before an idle worker splits it. Splitting much sooner
/// would stop tasks that were about to end anyway, and grow the tree for nothing; later
/// leaves a worker idle. 2 ms beat 10 ms by 4-9 % of search time on the first 100 positions of
/// d26, d28 and d30 with two workers (docs/PARALLEL.md); 0.5 ms was no better than 2 ms.
pub const SPLIT_AGE: Duration = Duration::from_millis(2);

/// How to run a parallel solve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads (at least one).
    pub threads: usize,
    /// Most bytes the tree may take.
    pub dag_bytes: u64,
    /// The question: is the first player's score at least this? 1 (the default) asks whether
    /// the first player wins, on any table; other thresholds (for win/draw/loss and exact
    /// scores, see [`score4_solver::narrow`]) need a table of bounds.
    pub threshold: i32,
    /// The value open tasks are assumed to have.
    pub assumption: Assumption,
    /// The cutoff depth to start with (stones beyond the root); it deepens by itself where
    /// tasks are split.
    pub first_cutoff: u32,
    /// How often the progress callback is called.
    pub progress_every: Duration,
    /// When to give up, if ever.
    pub deadline: Option<Instant>,
    /// A stop signal from another thread: the solve gives up, as at a deadline, within
    /// [`STOP_LATENCY`] of the monitor's flag being raised ([`Monitor::stop`]).
    pub stop: Option<Arc<Monitor>>,
    /// An opening book every worker reads ([`Solver::with_book`]).
    pub book: Option<Arc<Book>>,
    /// The race for a root the tree has not settled after a while (`None`: no race).
    pub race: Option<Race>,
}

/// The race against the tree of tasks ([`Config::race`]). The tree commits, under the
/// virtual value, to the ordering's first move at each chooser, where the sequential solver's
/// best-first driver probes every move of the root and settles the cheapest
/// (`score4_solver::best_first`): on a heavy win whose cheap winning move lies far down the
/// order, two workers on the tree lose to one thread with the driver (docs/PARALLEL.md,
/// "The race"). So once no task has ended with a value for `after` (since the solve began, or
/// since the last one did) — the tree is stuck on long searches down the lines its order chose —
/// the last worker leaves the tree and searches the root itself, by the sequential solver with
/// the driver, on the shared table (each side uses what the other has proven); whichever
/// settles the root first ends the solve. A tree that keeps settling tasks is never raced: on
/// such a position the race only took a worker from it (docs/PARALLEL.md). Only for the
/// first-wins question (threshold 1, a binary table): the driver answers nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    /// How long the tree may go without settling a task before the race begins (zero: a race
    /// from the start).
    pub after: Duration,
    /// The driver's settings ([`Solver::with_best_first`]).
    pub best_first: BestFirst,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            threads: 1,
            dag_bytes: 256 << 20,
            threshold: 1,
            assumption: Assumption::default(),
            first_cutoff: 2,
            progress_every: Duration::from_secs(1),
            deadline: None,
            stop: None,
            book: None,
            race: None,
        }
    }
}

/// How long a raised stop flag ([`Config::stop`]) may wait before the solve notices it.
pub const STOP_LATENCY: Duration = Duration::from_millis(50);

/// Where a move at the root stands, from the side of the player making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveStatus {
    /// Proven to reach the mover's goal (a win for the first player, a draw or better for
    /// the second).
    Proven,
    /// Proven not to.
    Refuted,
    /// Not known yet.
    Open,
}

/// One move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The column played, 0-based ([`Game::column_of`]).
    pub column: u32,
    /// The cell the stone lands on.
    pub cell: Cell,
    /// What is known of it.
    pub status: MoveStatus,
}

/// A snapshot of a parallel solve, for a progress display or a log.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Time since the solve started.
    pub elapsed: Duration,
    /// Every legal move at the root, in column order (empty if the root was settled before
    /// any move was looked at).
    pub root_moves: Vec<RootMove>,
    /// Needed tasks waiting in the queue.
    pub queued: usize,
    /// Speculative tasks waiting in the queue (younger brothers of a first move still open).
    pub speculative: usize,
    /// Tasks being solved.
    pub running: usize,
    /// Tasks solved.
    pub done: u64,
    /// Tasks stopped because they no longer mattered (or the cutoff moved below them).
    pub cancelled: u64,
    /// Nodes searched by the workers so far (published every few thousand nodes).
    pub nodes: u64,
    /// Share of the table's entries in use (estimated from a sample).
    pub table_fill: f64,
    /// Nodes in the tree.
    pub dag_nodes: usize,
    /// Approximate bytes of the tree.
    pub dag_bytes: u64,
    /// The cutoff depth where no task was split (stones beyond the root).
    pub cutoff: u32,
    /// The deepest node of the tree: the cutoff where tasks were split.
    pub deepest: u32,
    /// Tasks split because workers had run dry.
    pub splits: u64,
    /// Whether a worker races the tree on the root ([`Race`]).
    pub racing: bool,
}

/// A parallel solve given up at its deadline or by its stop flag: what it had done.
#[derive(Clone, Debug, PartialEq)]
pub struct Abandoned {
    /// Wall-clock seconds until it stopped.
    pub seconds: f64,
    /// What all workers counted until they stopped, plus the tree's nodes.
    pub stats: SearchStats,
    /// The last snapshot.
    pub progress: Progress,
}

/// The answer of a parallel solve.
#[derive(Clone, Debug, PartialEq)]
pub struct ParallelSolution {
    /// Whether the first player wins with best play (with a [`Config::threshold`] other than
    /// 1: whether the first player's score reaches it).
    pub first_player_wins: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// What all workers counted together, plus the tree's nodes and its own table look-ups.
    pub stats: SearchStats,
    /// The last snapshot.
    pub progress: Progress,
    /// Whether the racer settled the root, rather than the tree ([`Config::race`]).
    pub by_race: bool,
}

/// Everything behind the lock.
struct Shared<'t, G: Game> {
    dag: Dag<'t, G>,
    /// The task each worker is solving, and since when.
    running: Vec<Option<(NodeId, Instant)>>,
    done: u64,
    cancelled: u64,
    splits: u64,
    /// Set when the root is proven or the deadline passed: workers leave.
    finished: bool,
    /// Whether the race has begun: the last worker searches the root ([`Race`]).
    racing: bool,
    /// The root's value, if the racer settled it.
    raced: Option<bool>,
    /// When the last task ended with a value (at first, when the solve began).
    last_result: Instant,
}

/// The lock, the workers' wake-up call, and their monitors: one per worker's tasks, then, with
/// a race, one for the racer (so that every stop reaches it too).
struct Coordinator<'t, G: Game> {
    shared: Mutex<Shared<'t, G>>,
    changed: Condvar,
    monitors: Vec<Monitor>,
    /// The root and [`Config::race`].
    root: G,
    race: Option<Race>,
    table: &'t TranspositionTable,
    /// [`Config::threshold`].
    threshold: i32,
    /// [`Config::book`].
    book: Option<&'t Book>,
    started: Instant,
}

impl<'t, G: Game + Send> Coordinator<'t, G> {
    fn lock(&self) -> MutexGuard<'_, Shared<'t, G>> {
        self.shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// After the tree changed: walk it again, stop the searches that no longer matter, and
    /// end everything once the root is proven.
    fn refresh(&self, shared: &mut Shared<'t, G>) {
        if shared.dag.root_value().is_none() {
            shared.dag.walk();
        }
        if shared.dag.root_value().is_some() {
            shared.finished = true;
        }
        if shared.finished {
            self.monitors.iter().for_each(Monitor::stop);
        } else {
            let running: Vec<_> = shared.running.iter().map(|r| r.map(|(id, _)| id)).collect();
            for worker in shared.dag.unneeded_running(&running) {
                self.monitors[worker].stop();
            }
        }
        self.changed.notify_all();
    }

    /// The next task for `worker`; while the queue is dry, the oldest running task is split
    /// once it has run for [`SPLIT_AGE`]. `None`: wait (at most [`SPLIT_AGE`]) and ask again.
    fn next_task(&self, shared: &mut Shared<'t, G>, worker: usize) -> Option<(NodeId, G)> {
        loop {
            if let Some(task) = shared.dag.next_task(worker) {
                return Some(task);
            }
            let oldest = shared
                .running
                .iter()
                .flatten()
                .min_by_key(|(_, since)| *since);
            let &(id, since) = oldest?;
            if since.elapsed() < SPLIT_AGE || !shared.dag.split(id) {
                return None;
            }
            shared.splits += 1;
            self.refresh(shared);
        }
    }

    /// The worker that leaves the tree to race it ([`Race`]): the last.
    fn racer(&self) -> usize {
        self.monitors.len() - 2
    }

    fn work(&self, worker: usize) -> SearchStats {
        let monitor = &self.monitors[worker];
        let mut solver = Solver::new(self.table)
            .with_monitor(monitor)
            .with_book(self.book);
        let mut shared = self.lock();
        while !shared.finished {
            if shared.racing && worker == self.racer() {
                let race = self.race.expect("a race was configured");
                let racer_monitor = &self.monitors[worker + 1];
                // Resumed under the lock: a stop for everyone comes after it, or `finished`
                // was seen above.
                racer_monitor.resume();
                drop(shared);
                let mut racer = Solver::new(self.table)
                    .with_monitor(racer_monitor)
                    .with_best_first(Some(race.best_first))
                    .with_book(self.book);
                let value = racer.try_score_at_least(&self.root, self.threshold);
                racer.publish();
                shared = self.lock();
                if let Some(value) = value {
                    shared.raced = Some(value);
                    shared.finished = true;
                    self.refresh(&mut shared);
                }
                let mut stats = solver.stats();
                stats += racer.stats();
                return stats;
            }
            let Some((id, position)) = self.next_task(&mut shared, worker) else {
                shared = self
                    .changed
                    .wait_timeout(shared, SPLIT_AGE)
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .0;
                continue;
            };
            shared.running[worker] = Some((id, Instant::now()));
            monitor.resume();
            drop(shared);
            let value = solver.try_score_at_least(&position, self.threshold);
            solver.publish();
            shared = self.lock();
            shared.running[worker] = None;
            match value {
                Some(_) => {
                    shared.done += 1;
                    shared.last_result = Instant::now();
                }
                None => shared.cancelled += 1,
            }
            shared.dag.finish_task(id, value);
            self.refresh(&mut shared);
        }
        solver.stats()
    }

    fn progress(&self, shared: &Shared<'t, G>) -> Progress {
        let dag = &shared.dag;
        let mover_goal = dag.node(0).position.white_to_move();
        let (queued, speculative) = dag.queued();
        let root_moves = dag
            .root_moves()
            .into_iter()
            .map(|(cell, child)| RootMove {
                column: G::column_of(cell),
                cell,
                status: match child.map(|id| dag.node(id).value) {
                    None => MoveStatus::Refuted,
                    Some(None) => MoveStatus::Open,
                    Some(Some(v)) if v == mover_goal => MoveStatus::Proven,
                    Some(Some(_)) => MoveStatus::Refuted,
                },
            })
            .collect();
        Progress {
            elapsed: self.started.elapsed(),
            root_moves,
            queued,
            speculative,
            running: shared.running.iter().flatten().count(),
            done: shared.done,
            cancelled: shared.cancelled,
            nodes: self.monitors.iter().map(Monitor::nodes).sum(),
            table_fill: self.table.fill_estimate(4096),
            dag_nodes: dag.len(),
            dag_bytes: dag.bytes(),
            cutoff: dag.cutoff(),
            deepest: dag.deepest(),
            splits: shared.splits,
            racing: shared.racing,
        }
    }
}

/// Solves `position` with `config.threads` workers over the shared `table`, calling
/// `on_progress` every `config.progress_every` from the calling thread, and once more at the
/// end. `Err` with what was done if the deadline passed or the stop flag was raised first (the
/// table then holds only proven values).
///
/// The value is the sequential solver's, whatever the number of threads: every value in the
/// tree is proven (see [`crate::dag`]).
///
/// Contract: nobody has four in a line in `position`; `config.threads ≥ 1`.
pub fn solve<G: Game + Send>(
    position: &G,
    table: &TranspositionTable,
    config: &Config,
    mut on_progress: impl FnMut(&Progress),
) -> Result<ParallelSolution, Box<Abandoned>> {
    assert!(config.threads >= 1, "at least one worker");
    let started = Instant::now();
    let race = config.race.filter(|_| config.threshold == 1);
    let mut dag = Dag::new(
        position,
        table,
        config.threshold,
        config.assumption,
        config.first_cutoff,
        config.dag_bytes,
    );
    dag.walk();
    let coordinator = Coordinator {
        shared: Mutex::new(Shared {
            finished: dag.root_value().is_some(),
            dag,
            running: vec![None; config.threads],
            done: 0,
            cancelled: 0,
            splits: 0,
            // A race from the start is under way before any worker takes a task.
            racing: race.is_some_and(|race| race.after.is_zero()),
            raced: None,
            last_result: started,
        }),
        changed: Condvar::new(),
        monitors: (0..config.threads + usize::from(race.is_some()))
            .map(|_| Monitor::default())
            .collect(),
        root: *position,
        race,
        table,
        threshold: config.threshold,
        book: config.book.as_deref(),
        started,
    };
    let mut abandoned = false;
    let worker_stats: Vec<SearchStats> = std::thread::scope(|scope| {
        let coordinator = &coordinator;
        let workers: Vec<_> = (0..config.threads)
            .map(|worker| scope.spawn(move || coordinator.work(worker)))
            .collect();
        let mut next_report = started + config.progress_every;
        let mut shared = coordinator.lock();
        while !shared.finished {
            // Workers leave only once the search is finished: one that has left now panicked.
            // The others are stopped, and joining it below passes the panic on (rather than
            // waiting for ever for a root value it will not bring).
            if workers.iter().any(|worker| worker.is_finished()) {
                abandoned = true;
                shared.finished = true;
                coordinator.monitors.iter().for_each(Monitor::stop);
                coordinator.changed.notify_all();
                break;
            }
            let now = Instant::now();
            let stopped = config.stop.as_ref().is_some_and(|stop| stop.is_stopped());
            if stopped || config.deadline.is_some_and(|deadline| now >= deadline) {
                abandoned = true;
                shared.finished = true;
                coordinator.monitors.iter().for_each(Monitor::stop);
                coordinator.changed.notify_all();
                break;
            }
            if let Some(race) = race.filter(|_| !shared.racing) {
                if now >= shared.last_result + race.after {
                    // The racer's task, if any, is stopped and goes back to the tree.
                    shared.racing = true;
                    coordinator.monitors[coordinator.racer()].stop();
                    coordinator.changed.notify_all();
                    continue;
                }
            }
            if now >= next_report {
                let progress = coordinator.progress(&shared);
                drop(shared);
                on_progress(&progress);
                next_report = Instant::now() + config.progress_every;
                shared = coordinator.lock();
                continue;
            }
            let mut wake = config
                .deadline
                .map_or(next_report, |deadline| deadline.min(next_report));
            if config.stop.is_some() {
                wake = wake.min(now + STOP_LATENCY);
            }
            if let Some(race) = race.filter(|_| !shared.racing) {
                wake = wake.min(shared.last_result + race.after);
            }
            shared = coordinator
                .changed
                .wait_timeout(shared, wake.saturating_duration_since(now))
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
        drop(shared);
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a worker panicked"))
            .collect()
    });
    let shared = coordinator.lock();
    let mut stats = SearchStats::default();
    for worker in worker_stats {
        stats += worker;
    }
    // The tree's nodes are positions visited too (the sequential search would count them).
    stats.nodes += shared.dag.len() as u64;
    stats.table += shared.dag.table_stats();
    let progress = coordinator.progress(&shared);
    let by_race = shared.dag.root_value().is_none() && shared.raced.is_some();
    let value = shared.dag.root_value().or(shared.raced);
    drop(shared);
    on_progress(&progress);
    let seconds = started.elapsed().as_secs_f64();
    if abandoned {
        return Err(Box::new(Abandoned {
            seconds,
            stats,
            progress,
        }));
    }
    Ok(ParallelSolution {
        first_player_wins: value.expect("the root is proven when the workers finish"),
        seconds,
        stats,
        progress,
        by_race,
    })
}
