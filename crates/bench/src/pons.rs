//! Pascal Pons's six test sets of the classic game (`MOVES SCORE` per line, committed in
//! `bench/pons/`): the published scores the classic game is checked against, and his
//! benchmark — each set solved by the weak (win/draw/loss) and the strong (exact) solver, a
//! fresh table for each, until done or out of time.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use score4_classic::{ClassicPosition, ClassicRecord};
use score4_engine::{Engine, LeafArea, Memory, Mode, Outcome, Replacement, Settings};
use serde::Serialize;

use crate::BenchError;

/// Pons's six test sets, in the order of his table, with his names.
pub const PONS_SETS: [(&str, &str); 6] = [
    ("Test_L3_R1", "End-Easy"),
    ("Test_L2_R1", "Middle-Easy"),
    ("Test_L2_R2", "Middle-Medium"),
    ("Test_L1_R1", "Begin-Easy"),
    ("Test_L1_R2", "Begin-Medium"),
    ("Test_L1_R3", "Begin-Hard"),
];

/// The directory of the sets in the repository (`bench/pons`).
pub fn directory() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/pons")
}

/// The lines of set `name` (e.g. `Test_L2_R2`) as (moves, published score), in order.
///
/// Panics (naming the file and line) if the set cannot be read: for tests, whose data is
/// committed.
pub fn set(name: &str) -> Vec<(String, i32)> {
    let path = directory().join(name);
    read_set(&path, 0, usize::MAX)
        .unwrap_or_else(|error| panic!("{error}"))
        .into_iter()
        .map(|(game, score)| (game.to_string(), score))
        .collect()
}

/// Reads lines `skip + 1 ..= skip + limit` of a Pons set: a game still going on and its
/// published score per line, or the first bad line's file, number and fault.
pub fn read_set(
    path: &Path,
    skip: usize,
    limit: usize,
) -> Result<Vec<(ClassicRecord, i32)>, BenchError> {
    let text = std::fs::read_to_string(path).map_err(|source| BenchError::Read {
        path: path.to_owned(),
        source,
    })?;
    let bad_line = |line: usize, message: String| BenchError::BadLine {
        path: path.to_owned(),
        line,
        message,
    };
    let mut set = Vec::new();
    for (i, line) in text.lines().enumerate().skip(skip).take(limit) {
        let mut words = line.split_whitespace();
        let (Some(moves), Some(score)) = (words.next(), words.next()) else {
            return Err(bad_line(i + 1, "expected MOVES SCORE".to_owned()));
        };
        let game: ClassicRecord = moves
            .parse()
            .map_err(|error| bad_line(i + 1, format!("{error}")))?;
        if game.outcome() != Outcome::Ongoing {
            return Err(bad_line(i + 1, "the game is already over".to_owned()));
        }
        let score = score
            .parse()
            .map_err(|error| bad_line(i + 1, format!("score {score:?}: {error}")))?;
        set.push((game, score));
    }
    Ok(set)
}

/// Which of Pons's solvers a row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PonsSolver {
    /// Win/draw/loss (the engine's wdl mode).
    Weak,
    /// The exact score (exact mode).
    Strong,
}

impl PonsSolver {
    /// Pons's name of the solver.
    pub fn name(self) -> &'static str {
        match self {
            PonsSolver::Weak => "weak",
            PonsSolver::Strong => "strong",
        }
    }

    /// The engine's mode for it.
    pub fn mode(self) -> Mode {
        match self {
            PonsSolver::Weak => Mode::Wdl,
            PonsSolver::Strong => Mode::Exact,
        }
    }
}

/// The table of a classic benchmark run.
#[derive(Clone, Copy, Debug)]
pub struct PonsTable {
    /// Bytes of the table, fresh for each set and solver.
    pub bytes: u64,
    /// Its replacement scheme.
    pub replacement: Replacement,
    /// Its near-leaf area (none fits the classic game's keys but `off` and `auto`).
    pub leaf_area: LeafArea,
}

/// One row of the classic benchmark: one set by one solver.
#[derive(Serialize, Clone, Debug)]
pub struct PonsRow {
    /// The set's file name (`Test_L2_R2`).
    pub set: String,
    /// Pons's name of the set (`Middle-Medium`).
    pub name: String,
    /// `weak` or `strong`.
    pub solver: &'static str,
    /// The first line of the set run (1-based; above 1 with a skip).
    pub first_line: usize,
    /// Positions asked for.
    pub asked: usize,
    /// Positions solved within the time.
    pub solved: usize,
    /// Positions whose value is Pons's.
    pub correct: usize,
    /// Seconds of search.
    pub seconds: f64,
    /// Nodes searched.
    pub nodes: u64,
}

impl PonsRow {
    /// Mean milliseconds per position solved.
    pub fn mean_ms(&self) -> f64 {
        1e3 * self.seconds / self.solved.max(1) as f64
    }
    /// Mean nodes per position solved.
    pub fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.solved.max(1) as f64
    }
    /// Thousands of nodes per second.
    pub fn kpos_per_s(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9) / 1e3
    }
}

/// Solves `positions` (of the set `file`, Pons's `name`, from line `first_line`) with `solver`
/// on a fresh table, in order, until done or `time_limit` has passed; a position still open at
/// the limit is not counted.
pub fn run_set(
    (file, name): (&str, &str),
    first_line: usize,
    positions: &[(ClassicRecord, i32)],
    solver: PonsSolver,
    table: PonsTable,
    time_limit: Duration,
) -> Result<PonsRow, BenchError> {
    let settings = Settings {
        replacement: table.replacement,
        leaf_area: table.leaf_area,
        ..Settings::new(solver.mode(), Memory::Table(table.bytes))
    };
    let engine = Engine::<ClassicPosition>::new(settings)?;
    let deadline = Instant::now() + time_limit;
    let mut row = PonsRow {
        set: file.to_owned(),
        name: name.to_owned(),
        solver: solver.name(),
        first_line,
        asked: positions.len(),
        solved: 0,
        correct: 0,
        seconds: 0.0,
        nodes: 0,
    };
    for (game, published) in positions {
        let Ok(evaluation) = engine.evaluate_within(game.position(), Some(deadline), |_| {}) else {
            break;
        };
        let expected = match solver {
            PonsSolver::Weak => published.signum(),
            PonsSolver::Strong => *published,
        };
        row.solved += 1;
        row.correct += (evaluation.value == expected) as usize;
        row.seconds += evaluation.seconds;
        row.nodes += evaluation.stats.nodes;
    }
    Ok(row)
}
