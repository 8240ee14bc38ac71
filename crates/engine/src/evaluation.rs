//! What an evaluation reports as it goes ([`Event`]) and at its end ([`Evaluation`],
//! [`Interrupted`]).

use score4_parallel::Progress;
use score4_solver::{Mode, ScoreRange, SearchStats};

/// A position's value, and what finding it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The question answered.
    pub mode: Mode,
    /// `1`/`0` (the first player wins / does not) in first-wins mode, `1`/`0`/`-1` in wdl mode,
    /// the score in exact mode; wdl and exact from the side to move.
    pub value: i32,
    /// Everything learned of the score, from the side to move (one score in exact mode).
    pub range: ScoreRange,
    /// Nodes and table use, all questions together.
    pub stats: SearchStats,
    /// Wall-clock seconds of the search (the table's set-up not included).
    pub seconds: f64,
    /// With several threads, the parallel solver's counts.
    pub parallel: Option<ParallelCounts>,
}

/// The parallel solver's work on one position, all questions together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParallelCounts {
    /// Tasks solved.
    pub tasks: u64,
    /// Tasks cancelled because they no longer mattered.
    pub cancelled: u64,
    /// The largest tree (nodes) of any question.
    pub tree_nodes: usize,
    /// The deepest cutoff any question reached (stones beyond the root).
    pub cutoff: u32,
    /// Questions whose root the racer settled rather than the tree
    /// ([`score4_parallel::Race`]).
    pub by_race: u64,
}

impl ParallelCounts {
    /// Adds the last report of one question's solve.
    pub(crate) fn add(&mut self, progress: &Progress, by_race: bool) {
        self.by_race += u64::from(by_race);
        self.tasks += progress.done;
        self.cancelled += progress.cancelled;
        self.tree_nodes = self.tree_nodes.max(progress.dag_nodes);
        self.cutoff = self.cutoff.max(progress.deepest);
    }
}

/// An evaluation that stopped (its stop handle, or its deadline) before it found the value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interrupted {
    /// What was proven of the score, from the side to move.
    pub range: ScoreRange,
    /// What the search counted until it stopped.
    pub stats: SearchStats,
    /// Seconds until it stopped.
    pub seconds: f64,
}

/// What an evaluation tells as it goes. Only the parallel solver reports: each question of the
/// narrowing (one in first-wins mode) starts, reports its progress every
/// `Settings::progress_every`, and ends.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A question starts: is the first player's score at least `threshold`?
    Question {
        /// The threshold (1: does the first player win?).
        threshold: i32,
    },
    /// A snapshot of the running question's solve.
    Progress(&'a Progress),
    /// The question has ended (answered, or stopped).
    QuestionDone,
}
