//! The benchmark protocol of docs/RULES.md, "The benchmark protocol": for each difficulty (stones
//! already placed), a fresh table, the clock started before the table is set up, the positions of
//! the committed set solved in order until all are done or the time limit is reached.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use score4_board::{GameRecord, Outcome, Position};
use score4_engine::{
    Engine, EngineError, LeafArea, Memory, Mode, Replacement, SearchStats, Settings, StopHandle,
};
use serde::{Deserialize, Serialize};

/// What went wrong before or while benchmarking.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A benchmark set could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The set's file.
        path: PathBuf,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// A line of a benchmark set is not a position.
    #[error("{path}:{line}: {message}")]
    BadLine {
        /// The set's file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A set holds fewer positions than asked for.
    #[error(
        "{path}: {}, {asked} asked for",
        crate::report::count(*.available, "position", "positions")
    )]
    TooFew {
        /// The set's file.
        path: PathBuf,
        /// Positions in the file.
        available: usize,
        /// Positions asked for.
        asked: usize,
    },
    /// The engine (its transposition table) could not be made.
    #[error("transposition table: {0}")]
    Engine(#[from] EngineError),
}

/// The settings of a benchmark run, the same for every difficulty.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BenchConfig {
    /// Positions solved per difficulty (the first ones of each set).
    pub positions: usize,
    /// Time limit per difficulty, in seconds, table set-up included.
    pub time_limit_seconds: f64,
    /// Size of the transposition table in bytes.
    pub table_bytes: u64,
    /// Replacement scheme of the table (`twobig`, `new` or `big` in files).
    #[serde(serialize_with = "as_text", deserialize_with = "from_text")]
    pub replacement: Replacement,
    /// Worker threads.
    pub threads: usize,
    /// The table's near-leaf area (`auto`, `off` or bytes in files; runs recorded before it
    /// existed had none: `off`).
    #[serde(
        default = "no_leaf_area",
        serialize_with = "as_text",
        deserialize_with = "from_text"
    )]
    pub leaf_area: LeafArea,
    /// Whether the sequential solver hands positions it does not settle soon to the
    /// best-first driver (its default budgets; runs recorded before it
    /// existed had none: `false`).
    #[serde(default)]
    pub best_first: bool,
}

fn no_leaf_area() -> LeafArea {
    LeafArea::Off
}

fn as_text<S: serde::Serializer, T: std::fmt::Display>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

fn from_text<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr<Err = String>,
{
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// The outcome of one difficulty.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DifficultyResult {
    /// Stones already placed in every position of the set.
    pub difficulty: u32,
    /// Positions asked for.
    pub asked: usize,
    /// Positions solved inside the time limit.
    pub solved: usize,
    /// Of those, how many the first player wins.
    pub first_player_wins: usize,
    /// Seconds from the start of the table's set-up to the last solved position (or to the
    /// time limit, if it ran out).
    pub seconds: f64,
    /// Of those, the seconds the table's set-up took (allocating and touching its memory; on
    /// a virtual machine mostly the host backing fresh memory). Runs written before it was
    /// recorded read as 0.
    #[serde(default)]
    pub setup_seconds: f64,
    /// Nodes of the solved positions (the interrupted one is not counted).
    pub nodes: u64,
    /// Table probes of the solved positions.
    pub probes: u64,
    /// Table hits of the solved positions.
    pub hits: u64,
    /// Whether every position asked for was solved inside the limit.
    pub finished: bool,
    /// The solved positions, in the order solved (runs written before they were recorded
    /// have none).
    #[serde(default)]
    pub positions: Vec<PositionResult>,
    /// The moves of the position whose search the time limit stopped, if it ran out.
    #[serde(default)]
    pub stopped_at: Option<String>,
}

/// One solved position of a difficulty.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionResult {
    /// The moves that reach it, as the set writes them.
    pub moves: String,
    /// Whether the first player wins it.
    pub first_player_wins: bool,
    /// Nodes of its search.
    pub nodes: u64,
    /// Seconds of its search.
    pub seconds: f64,
}

impl DifficultyResult {
    /// Mean seconds per solved position (total seconds, set-up included, over solved ones).
    pub fn seconds_per_position(&self) -> f64 {
        self.seconds / self.solved.max(1) as f64
    }

    /// Mean nodes per solved position.
    pub fn nodes_per_position(&self) -> f64 {
        self.nodes as f64 / self.solved.max(1) as f64
    }

    /// Seconds of search: [`Self::seconds`] less the table's set-up.
    pub fn search_seconds(&self) -> f64 {
        (self.seconds - self.setup_seconds).max(0.0)
    }

    /// Nodes per second of search: the set-up counts in the protocol's time, but it visits no
    /// node, so a rate over the total would understate the search's speed (on a large table
    /// with few positions, by far).
    pub fn nodes_per_second(&self) -> f64 {
        rate(self.nodes, self.search_seconds())
    }

    /// Share of table probes that hit.
    pub fn hit_rate(&self) -> f64 {
        self.hits as f64 / self.probes.max(1) as f64
    }

    /// The `count` solved positions with the most nodes, heaviest first (equal ones in the
    /// order solved), each with its 0-based place in the set. A few positions hold most of
    /// a difficulty's nodes, so these are the ones a change to the search has to help.
    pub fn heaviest(&self, count: usize) -> Vec<(usize, &PositionResult)> {
        let mut ranked: Vec<(usize, &PositionResult)> = self.positions.iter().enumerate().collect();
        ranked.sort_by_key(|&(_, position)| std::cmp::Reverse(position.nodes));
        ranked.truncate(count);
        ranked
    }

    /// The share of the recorded positions' nodes held by the `count` heaviest (0 when
    /// nothing was recorded).
    pub fn heaviest_share(&self, count: usize) -> f64 {
        let all: u64 = self.positions.iter().map(|position| position.nodes).sum();
        let heaviest: u64 = self
            .heaviest(count)
            .iter()
            .map(|(_, position)| position.nodes)
            .sum();
        heaviest as f64 / all.max(1) as f64
    }
}

/// A whole run: its settings and one result per difficulty, in the order run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BenchRun {
    /// A name for the run, shown in charts that compare runs.
    pub label: String,
    /// The score4 version that ran it.
    pub version: String,
    /// The settings.
    pub config: BenchConfig,
    /// The difficulties, in the order run.
    pub difficulties: Vec<DifficultyResult>,
}

impl BenchRun {
    /// The frontier: the lowest difficulty finished inside the limit such that every higher
    /// difficulty of the run finished too; `None` if the highest one already ran out of time.
    pub fn frontier(&self) -> Option<u32> {
        let mut finished: Vec<&DifficultyResult> = self.difficulties.iter().collect();
        finished.sort_by_key(|result| std::cmp::Reverse(result.difficulty));
        finished
            .iter()
            .take_while(|result| result.finished)
            .last()
            .map(|result| result.difficulty)
    }
}

/// Progress inside one difficulty, reported after each solved position.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The difficulty being run.
    pub difficulty: u32,
    /// Positions solved so far.
    pub solved: usize,
    /// Positions asked for.
    pub asked: usize,
    /// Nodes so far.
    pub nodes: u64,
    /// Time since the difficulty's clock started.
    pub elapsed: Duration,
    /// Of `elapsed`, the time the table's set-up took.
    pub setup: Duration,
}

impl Progress {
    /// Nodes per second of search so far (the set-up excluded, as in
    /// [`DifficultyResult::nodes_per_second`]).
    pub fn nodes_per_second(&self) -> f64 {
        rate(
            self.nodes,
            self.elapsed.saturating_sub(self.setup).as_secs_f64(),
        )
    }
}

/// `nodes` over `seconds`, 0 when no time was measured (rather than an infinite rate).
fn rate(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

/// The path of the committed set of `difficulty` in `directory`: `dDD.txt`.
pub fn set_path(directory: &Path, difficulty: u32) -> PathBuf {
    directory.join(format!("d{difficulty:02}.txt"))
}

/// The first `count` positions of the set at `path` (`MOVES [anything]` per line; blank lines
/// and `#` comments skipped).
pub fn read_set(path: &Path, count: usize) -> Result<Vec<GameRecord>, BenchError> {
    let text = std::fs::read_to_string(path).map_err(|source| BenchError::Read {
        path: path.to_owned(),
        source,
    })?;
    let mut games = Vec::with_capacity(count);
    for (index, line) in text.lines().enumerate() {
        if games.len() == count {
            break;
        }
        let Some(moves) = line.split_whitespace().next() else {
            continue;
        };
        if moves.starts_with('#') {
            continue;
        }
        let game = GameRecord::from_str(moves).map_err(|error| BenchError::BadLine {
            path: path.to_owned(),
            line: index + 1,
            message: error.to_string(),
        })?;
        if game.outcome() != Outcome::Ongoing {
            return Err(BenchError::BadLine {
                path: path.to_owned(),
                line: index + 1,
                message: format!("nothing to solve: {}", game.outcome()),
            });
        }
        games.push(game);
    }
    if games.len() < count {
        return Err(BenchError::TooFew {
            path: path.to_owned(),
            available: games.len(),
            asked: count,
        });
    }
    Ok(games)
}

/// Runs one difficulty by the protocol: the clock starts, a fresh table is set up, and `games`
/// are solved in order until all are done or `config`'s time limit is reached. `progress` is
/// told after every solved position. The engine solves them: one thread runs the sequential
/// solver; more run the parallel solver on each position in turn, with a tree of up to an
/// eighth of the table's size (at least [`score4_engine::MIN_TREE_BYTES`]), and its nodes are
/// the sum over the workers. `on_engine` gets the engine's stop handle once it is made: a stop
/// ends the difficulty like its time limit, its seconds then those spent.
pub fn run_difficulty(
    difficulty: u32,
    games: &[GameRecord],
    config: &BenchConfig,
    on_engine: impl FnOnce(StopHandle),
    mut progress: impl FnMut(&Progress),
) -> Result<DifficultyResult, BenchError> {
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(config.time_limit_seconds);
    let settings = Settings {
        threads: config.threads,
        replacement: config.replacement,
        leaf_area: config.leaf_area,
        best_first: config.best_first,
        // Nobody watches: the protocol reports after each position instead.
        progress_every: Duration::from_secs(3600),
        ..Settings::new(Mode::FirstWins, Memory::Table(config.table_bytes))
    };
    let engine = Engine::<Position>::new(settings)?;
    on_engine(engine.stop_handle());
    let setup = start.elapsed();
    let setup_seconds = setup.as_secs_f64();
    let mut total = SearchStats::default();
    let (mut solved, mut wins) = (0, 0);
    let mut positions = Vec::with_capacity(games.len());
    let mut stopped_at = None;
    for game in games {
        let position_start = Instant::now();
        let answer = engine
            .evaluate_within(game.position(), Some(deadline), |_| {})
            .map(|evaluation| (evaluation.value == 1, evaluation.stats));
        let Ok((first_player_wins, stats)) = answer else {
            stopped_at = Some(game.to_string());
            break;
        };
        positions.push(PositionResult {
            moves: game.to_string(),
            first_player_wins,
            nodes: stats.nodes,
            seconds: position_start.elapsed().as_secs_f64(),
        });
        solved += 1;
        wins += first_player_wins as usize;
        total += stats;
        progress(&Progress {
            difficulty,
            solved,
            asked: games.len(),
            nodes: total.nodes,
            elapsed: start.elapsed(),
            setup,
        });
    }
    let finished = solved == games.len();
    // Stopped before the time limit (a signal): the time spent, not the limit.
    let seconds = if finished || Instant::now() < deadline {
        start.elapsed().as_secs_f64()
    } else {
        config.time_limit_seconds
    };
    Ok(DifficultyResult {
        difficulty,
        asked: games.len(),
        solved,
        first_player_wins: wins,
        seconds,
        setup_seconds,
        nodes: total.nodes,
        probes: total.table.probes,
        hits: total.table.hits,
        finished,
        positions,
        stopped_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(difficulty: u32, finished: bool) -> DifficultyResult {
        DifficultyResult {
            difficulty,
            asked: 10,
            solved: if finished { 10 } else { 3 },
            first_player_wins: 2,
            seconds: 1.0,
            setup_seconds: 0.25,
            nodes: 100,
            probes: 10,
            hits: 5,
            finished,
            positions: Vec::new(),
            stopped_at: None,
        }
    }

    fn run(results: Vec<DifficultyResult>) -> BenchRun {
        BenchRun {
            label: "test".into(),
            version: "0".into(),
            config: BenchConfig {
                positions: 10,
                time_limit_seconds: 1.0,
                table_bytes: 1 << 26,
                replacement: Replacement::TwoBig,
                threads: 1,
                leaf_area: score4_engine::LeafArea::Auto,
                best_first: true,
            },
            difficulties: results,
        }
    }

    #[test]
    fn the_frontier_is_the_lowest_difficulty_finished_with_all_above_it() {
        let sweep = run(vec![result(40, true), result(38, true), result(36, false)]);
        assert_eq!(sweep.frontier(), Some(38));
        // A lower difficulty that finished after a higher one failed does not count.
        let gap = run(vec![result(40, true), result(38, false), result(36, true)]);
        assert_eq!(gap.frontier(), Some(40));
        assert_eq!(run(vec![result(40, false)]).frontier(), None);
    }

    #[test]
    fn the_heaviest_positions_come_first_with_their_places_and_share() {
        let mut result = result(40, true);
        result.positions = [("00", 5), ("11", 80), ("22", 5), ("33", 10)]
            .iter()
            .map(|&(moves, nodes)| PositionResult {
                moves: moves.into(),
                first_player_wins: false,
                nodes,
                seconds: 0.0,
            })
            .collect();
        let heaviest: Vec<(usize, &str)> = result
            .heaviest(3)
            .iter()
            .map(|(place, position)| (*place, position.moves.as_str()))
            .collect();
        assert_eq!(heaviest, [(1, "11"), (3, "33"), (0, "00")]);
        assert!((result.heaviest_share(1) - 0.8).abs() < 1e-12);
        assert!((result.heaviest_share(10) - 1.0).abs() < 1e-12);
        assert_eq!(
            DifficultyResult {
                positions: Vec::new(),
                ..result
            }
            .heaviest_share(3),
            0.0
        );
    }

    #[test]
    fn rates_count_the_time_of_search_only() {
        let result = result(40, true); // 100 nodes in 1 s, 0.25 s of it set-up
        assert_eq!(result.search_seconds(), 0.75);
        assert!((result.nodes_per_second() - 100.0 / 0.75).abs() < 1e-9);
        let progress = Progress {
            difficulty: 40,
            solved: 1,
            asked: 10,
            nodes: 3_000,
            elapsed: Duration::from_millis(2_500),
            setup: Duration::from_millis(2_000),
        };
        assert_eq!(progress.nodes_per_second(), 6_000.0);
        // No time of search yet: no rate, rather than an infinite one.
        let starting = Progress {
            elapsed: progress.setup,
            ..progress
        };
        assert_eq!(starting.nodes_per_second(), 0.0);
    }

    #[test]
    fn a_set_with_a_bad_line_names_the_file_and_line() {
        let path = std::env::temp_dir().join(format!("score4-bench-{}.txt", std::process::id()));
        std::fs::write(&path, "# header\n0F\n\n00000\n").unwrap();
        let error = read_set(&path, 2).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(error.contains(":4: "), "{error}");
        assert!(error.contains("move 5"), "{error}");
    }

    #[test]
    fn a_set_too_short_says_how_many_positions_it_has() {
        let path = std::env::temp_dir().join(format!("score4-short-{}.txt", std::process::id()));
        std::fs::write(&path, "# header\n0F\n").unwrap();
        let error = read_set(&path, 2).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(error.ends_with(": 1 position, 2 asked for"), "{error}");
    }
}
