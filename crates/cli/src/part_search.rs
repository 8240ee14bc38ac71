//! `score4 verify --search-parts`: the `part` leaves that no certificate of the set proves are
//! solved by score4's own search, and accepted when it finds the claim (docs/CERTIFICATE.md,
//! "Leaves searched instead of certified"). This is how a proof too large to write whole is
//! published: a top certificate that both checkers check, and leaves that anyone re-solves.
//! What rests on the search is said in every report: such a leaf is not a certificate.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use score4_board::{Colour, GameRecord, Position};
use score4_engine::{Engine, Memory, Mode, Settings};
use score4_verify::{Claim, Obligation};

use crate::engine_error::{explain_engine_error, Purpose};
use crate::signals::{signal_name, StopSignals};

/// How the leaves are searched: threads, each searching one leaf at a time, and the memory of
/// the table they share (as a proof run's jobs share theirs).
#[derive(Clone, Copy, Debug)]
pub struct SearchSettings {
    /// Worker threads.
    pub threads: usize,
    /// Bytes of the shared table.
    pub memory: u64,
    /// The longest one leaf is searched before it is given up.
    pub part_time: Option<std::time::Duration>,
}

/// One leaf to search: the file that needs it, its claim, its moves from the empty board and
/// its position as the certificate states it.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// Index of the file (in the order given) that first needs it.
    pub file: usize,
    /// The claim the file makes of it.
    pub claim: Claim,
    /// The obligation: node, moves from the file's root, X's and O's stones.
    pub part: Obligation,
    /// The file's root moves from the empty board (`-` for the empty board).
    pub root: String,
}

impl Leaf {
    /// Its moves from the empty board.
    pub fn moves(&self) -> String {
        match self.root.as_str() {
            "-" => self.part.moves.clone(),
            root => format!("{root}{}", self.part.moves),
        }
    }
}

/// What the search of one leaf found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The search proves the claim.
    Agrees {
        /// Nodes searched.
        nodes: u64,
    },
    /// The search proves the opposite of the claim: the set is not accepted.
    Disagrees {
        /// Nodes searched.
        nodes: u64,
    },
    /// The search was given up at the time limit: nothing is known.
    GivenUp {
        /// Nodes searched.
        nodes: u64,
    },
    /// The leaf's moves do not reach the position the certificate states (cannot happen for
    /// a file the checker accepted alone; checked all the same, as nothing is taken on trust).
    NotReached(String),
}

/// Why the searches ended before every leaf was searched.
#[derive(Debug)]
pub enum Stopped {
    /// The engine could not be made; the exit code, after the reason was printed.
    Engine(std::process::ExitCode),
    /// A signal stopped the search; its number.
    Signal(i32),
}

/// Searches the leaves on one engine, `search.threads` at a time, each by the sequential
/// solver on the shared table (leaves are independent: a proof run's jobs are searched the same
/// way, and on the report's position the parallel solver took several times the nodes of the
/// sequential one on a single leaf, docs/CERTIFICATE.md). Calls `on_found` with each result as
/// it comes (leaf, what was found, seconds).
pub fn search_leaves(
    leaves: &[Leaf],
    search: SearchSettings,
    mut on_found: impl FnMut(&Leaf, &Found, f64),
) -> Result<(), Stopped> {
    let command = "score4 verify --search-parts";
    let settings = Settings::new(Mode::FirstWins, Memory::Table(search.memory)).threads(1);
    let engine = match Engine::<Position>::new(settings.clone()) {
        Ok(engine) => engine,
        Err(error) => {
            return Err(Stopped::Engine(explain_engine_error(
                command,
                &error,
                &settings,
                Purpose::Solve,
            )))
        }
    };
    let stop = engine.stop_handle();
    // One stop reaches every leaf searched at the time: the engine keeps it raised until the
    // last of them has ended.
    let signals = StopSignals::catch(command, move || stop.stop());
    let next = AtomicUsize::new(0);
    // Each leaf's result, or `None` when a signal stopped its search.
    let (found_tx, found_rx) = std::sync::mpsc::channel::<(usize, Option<(Found, f64)>)>();
    let workers = search.threads.clamp(1, leaves.len().max(1));
    let stopped = std::thread::scope(|scope| {
        for _ in 0..workers {
            let found_tx = found_tx.clone();
            let (engine, next, signals) = (&engine, &next, &signals);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(leaf) = leaves.get(index) else {
                    break;
                };
                if signals.received().is_some() {
                    break;
                }
                let found = search_one(engine, leaf, search.part_time);
                let stopped = found.is_none();
                if found_tx.send((index, found)).is_err() || stopped {
                    break;
                }
            });
        }
        drop(found_tx);
        let mut stopped = None;
        for (index, found) in found_rx {
            match found {
                Some((found, seconds)) => on_found(&leaves[index], &found, seconds),
                None => {
                    stopped.get_or_insert(index);
                }
            }
        }
        stopped
    });
    match (stopped, signals.received()) {
        (None, None) => Ok(()),
        (at, signal) => {
            let signal = signal.unwrap_or(signal_hook::consts::SIGINT);
            let during = at.map_or(String::new(), |index| {
                format!(" while searching {}", leaves[index].moves())
            });
            eprintln!("{command}: stopped by {}{during}", signal_name(signal));
            Err(Stopped::Signal(signal))
        }
    }
}

/// Searches one leaf by the sequential solver, given up after `part_time`: what was found and
/// the seconds it took, `None` if a signal stopped it.
fn search_one(
    engine: &Engine<Position>,
    leaf: &Leaf,
    part_time: Option<std::time::Duration>,
) -> Option<(Found, f64)> {
    let started = Instant::now();
    let position = match reach(leaf) {
        Ok(position) => position,
        Err(reason) => return Some((Found::NotReached(reason), 0.0)),
    };
    let deadline = part_time.map(|time| started + time);
    match engine.evaluate_within(&position, deadline, |_| {}) {
        Ok(evaluation) => {
            let nodes = evaluation.stats.nodes;
            let found = if (evaluation.value == 1) == (leaf.claim == Claim::Win) {
                Found::Agrees { nodes }
            } else {
                Found::Disagrees { nodes }
            };
            Some((found, started.elapsed().as_secs_f64()))
        }
        Err(interrupted) if deadline.is_some_and(|deadline| Instant::now() >= deadline) => {
            let nodes = interrupted.stats.nodes;
            Some((Found::GivenUp { nodes }, interrupted.seconds))
        }
        Err(_) => None,
    }
}

/// The position of `leaf`, played from the empty board, if it is the one the certificate
/// states.
fn reach(leaf: &Leaf) -> Result<Position, String> {
    let moves = leaf.moves();
    let game: GameRecord = moves
        .parse()
        .map_err(|error| format!("its moves {moves} are not a game: {error}"))?;
    let position = *game.position();
    let stones = (
        position.stones(Colour::White).0,
        position.stones(Colour::Black).0,
    );
    if stones == (leaf.part.x, leaf.part.o) {
        Ok(position)
    } else {
        Err(format!(
            "its moves {moves} reach {:016x} {:016x}, not the position the certificate states",
            stones.0, stones.1
        ))
    }
}
