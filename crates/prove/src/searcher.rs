//! [`JobSearcher`]: what searches a proof run's jobs for one of its workers — the sequential
//! solver in this process ([`LocalSearcher`]), or, in a cluster run, a worker process reached
//! by messages. The tree of jobs, the store and the commits do not know which.

use std::time::{Duration, Instant};

use score4_game::Game;
use score4_solver::{BestFirst, Monitor, Solver, TranspositionTable};

/// One job for a worker: a position of the tree and the question asked of it.
pub struct JobRequest<'a, G> {
    /// The position.
    pub position: &'a G,
    /// The moves that reach it from the empty board (a remote worker rebuilds it from them).
    pub moves: &'a str,
    /// `None`: the first-wins question on a binary table; `Some(t)`: whether the first
    /// player's score reaches `t`, on a table of bounds.
    pub threshold: Option<i32>,
    /// The longest the job may be searched.
    pub checkpoint: Duration,
}

/// What a worker found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobAnswer {
    /// Whether the first player's score reaches the threshold; `None` if the search stopped
    /// first (its checkpoint passed, or the monitor was stopped).
    pub reaches: Option<bool>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Searches jobs for one worker of a proof run.
pub trait JobSearcher<G: Game> {
    /// Searches `request` for at most its checkpoint, giving up as soon as `monitor` is
    /// stopped (the tree no longer needs the job, or an idle worker wants it split).
    fn search(&mut self, request: &JobRequest<'_, G>, monitor: &Monitor) -> JobAnswer;
}

/// The sequential solver, with the best-first driver, on a table shared by the process's
/// workers.
pub struct LocalSearcher<'t> {
    table: &'t TranspositionTable,
}

impl<'t> LocalSearcher<'t> {
    /// A searcher on `table`.
    pub fn new(table: &'t TranspositionTable) -> LocalSearcher<'t> {
        LocalSearcher { table }
    }
}

impl<G: Game> JobSearcher<G> for LocalSearcher<'_> {
    fn search(&mut self, request: &JobRequest<'_, G>, monitor: &Monitor) -> JobAnswer {
        // A solver per job costs a few words: it only borrows the table and the monitor.
        let mut solver = Solver::new(self.table)
            .with_monitor(monitor)
            .with_best_first(Some(BestFirst::DEFAULT));
        let deadline = Instant::now() + request.checkpoint;
        let reaches = match request.threshold {
            None => solver
                .solve_within(request.position, deadline)
                .map(|solution| solution.first_player_wins),
            Some(threshold) => solver.score_at_least_within(request.position, threshold, deadline),
        };
        JobAnswer {
            reaches,
            nodes: solver.stats().nodes,
        }
    }
}
