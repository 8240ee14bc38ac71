//! What a store holds: [`Record`]s of positions with their [`Bounds`], and [`Run`]s.

use std::fmt;

/// What is proven of a position's exact score for the side to move: it lies in
/// `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
}

impl Bounds {
    /// Bounds that say nothing: a position worked on and then split.
    pub const UNKNOWN: Bounds = Bounds {
        lower: i32::MIN / 2,
        upper: i32::MAX / 2,
    };

    /// What both bounds prove, or `None` if they contradict each other.
    pub fn meet(self, other: Bounds) -> Option<Bounds> {
        let met = Bounds {
            lower: self.lower.max(other.lower),
            upper: self.upper.min(other.upper),
        };
        (met.lower <= met.upper).then_some(met)
    }

    /// Whether the bounds prove anything at all.
    pub fn is_unknown(self) -> bool {
        self == Bounds::UNKNOWN
    }
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |bound: i32, unbounded: bool| {
            if unbounded {
                "?".to_owned()
            } else {
                format!("{bound:+}")
            }
        };
        write!(
            f,
            "{}..{}",
            side(self.lower, self.lower <= Bounds::UNKNOWN.lower),
            side(self.upper, self.upper >= Bounds::UNKNOWN.upper)
        )
    }
}

/// One position as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The table key (at most 80 bits are used).
    pub key: u128,
    /// Stones on the board.
    pub stones: u32,
    /// One move string that reaches the position.
    pub moves: String,
    /// What is proven of its score, for the side to move.
    pub bounds: Bounds,
    /// Nodes searched on it (its own searches, not its children's).
    pub nodes: u64,
    /// Seconds of those searches.
    pub seconds: f64,
}

/// One start or resumption of a proof run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Its number in the store.
    pub id: i64,
    /// The move string of the position proven.
    pub root: String,
    /// The question: `first-wins` or `wdl`.
    pub mode: String,
    /// When it started and last wrote (seconds since the Unix epoch).
    pub started: f64,
    pub stopped: f64,
    /// The machine's name.
    pub host: String,
    /// Worker threads and memory (bytes).
    pub threads: i64,
    pub memory: i64,
    /// score4's version and commit.
    pub version: String,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// How it ended: `running` (or killed), `proven`, `stopped`, `failed`.
    pub outcome: String,
}

/// Counts over a whole store.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Rows, and of them the ones that decide something.
    pub positions: u64,
    pub settled: u64,
    /// Nodes and seconds recorded on all rows.
    pub nodes: u64,
    pub seconds: f64,
}
