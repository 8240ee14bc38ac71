//! Progress of a long search: a live line on a terminal (indicatif), a plain line now and then
//! for log files, or one JSON object per report for scripts. All go to standard error; results
//! keep standard output.
//!
//! The parallel solver reports its own progress ([`Reporter`]); the sequential one only
//! publishes its node count, which a [`Heartbeat`] thread reads.

use std::io::IsTerminal;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use score4_engine::{MoveStatus, Progress};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressMode {
    /// A live line when standard error is a terminal, plain lines otherwise.
    Auto,
    /// A live line (drawn only on a terminal).
    Bar,
    /// A plain line of text per report.
    Plain,
    /// One JSON object per report on standard error.
    Json,
    /// Nothing.
    None,
}

/// One progress report as JSON.
#[derive(serde::Serialize)]
struct JsonProgress<'a> {
    position: &'a str,
    elapsed: f64,
    /// Column character → "proven" / "refuted" / "open", from the mover's side.
    moves: std::collections::BTreeMap<String, &'static str>,
    queued: usize,
    speculative: usize,
    running: usize,
    done: u64,
    cancelled: u64,
    nodes: u64,
    nodes_per_second: f64,
    table_fill: f64,
    tree_nodes: usize,
    tree_bytes: u64,
    cutoff: u32,
    deepest: u32,
    splits: u64,
    racing: bool,
}

/// Shows the progress of one position's solve.
pub struct Reporter {
    mode: ProgressMode,
    /// The time between two plain or JSON reports.
    every: Duration,
    bar: Option<ProgressBar>,
    position: String,
    /// The game's name of a column (0-based): `0`–`F` in 3-D, `1`–`7` in the classic game.
    column_name: fn(u32) -> char,
    last: Option<(Duration, u64)>,
}

/// `+` proven, `-` refuted, `?` open, after each column's name.
pub fn root_moves_text(progress: &Progress, column_name: fn(u32) -> char) -> String {
    let mut text = String::new();
    for root_move in &progress.root_moves {
        text.push(column_name(root_move.column));
        text.push(match root_move.status {
            MoveStatus::Proven => '+',
            MoveStatus::Refuted => '-',
            MoveStatus::Open => '?',
        });
        text.push(' ');
    }
    text.pop();
    text
}

fn status_word(status: MoveStatus) -> &'static str {
    match status {
        MoveStatus::Proven => "proven",
        MoveStatus::Refuted => "refuted",
        MoveStatus::Open => "open",
    }
}

impl ProgressMode {
    /// The mode `Auto` stands for here: the live line on a terminal, else plain lines.
    pub fn resolved(self) -> ProgressMode {
        match self {
            ProgressMode::Auto if std::io::stderr().is_terminal() => ProgressMode::Bar,
            ProgressMode::Auto => ProgressMode::Plain,
            mode => mode,
        }
    }
}

/// A duration as a person reads it: `42 s`, `3 min 05 s`, `2 h 07 min`.
pub fn elapsed_text(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs();
    match seconds {
        0..=59 => format!("{:.1} s", elapsed.as_secs_f64()),
        60..=3599 => format!("{} min {:02} s", seconds / 60, seconds % 60),
        _ => format!("{} h {:02} min", seconds / 3600, seconds / 60 % 60),
    }
}

impl Reporter {
    /// A reporter for the solve of `position`, naming columns by `column_name`.
    pub fn new(
        mode: ProgressMode,
        every: Duration,
        position: &str,
        column_name: fn(u32) -> char,
    ) -> Reporter {
        let mode = mode.resolved();
        let bar = (mode == ProgressMode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .expect("a valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Reporter {
            mode,
            every,
            bar,
            position: position.to_owned(),
            column_name,
            last: None,
        }
    }

    /// How often the solver should report for this mode.
    pub fn interval(mode: ProgressMode, every: Duration) -> Duration {
        match mode.resolved() {
            ProgressMode::Bar => Duration::from_millis(250).min(every),
            _ => every,
        }
    }

    /// Nodes per second since the previous report.
    fn rate(&mut self, progress: &Progress) -> f64 {
        let (since, before) = self.last.unwrap_or_default();
        self.last = Some((progress.elapsed, progress.nodes));
        let seconds = (progress.elapsed - since).as_secs_f64();
        progress.nodes.saturating_sub(before) as f64 / seconds.max(1e-9)
    }

    /// Shows one report.
    pub fn report(&mut self, progress: &Progress) {
        let rate = self.rate(progress);
        let racing = if progress.racing { ", racing" } else { "" };
        match self.mode {
            ProgressMode::None => {}
            // A position solved within the first interval needs no sign of life in a log.
            ProgressMode::Plain if progress.elapsed < self.every => {}
            ProgressMode::Plain => eprintln!(
                "progress: {}: {}, {:.1} M nodes ({:.2} M nodes/s), moves {}, tasks {} running, \
                 {} queued, {} done{}, table {:.1}% full",
                self.position,
                elapsed_text(progress.elapsed),
                progress.nodes as f64 / 1e6,
                rate / 1e6,
                root_moves_text(progress, self.column_name),
                progress.running,
                progress.queued,
                progress.done,
                racing,
                100.0 * progress.table_fill,
            ),
            ProgressMode::Auto | ProgressMode::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!(
                        "moves {} | tasks {} queued (+{} speculative), {} running, {} done, \
                         {} cancelled{} | {:.2} M nodes/s | table {:.1}% | tree {} nodes, \
                         cutoff {}-{}",
                        root_moves_text(progress, self.column_name),
                        progress.queued,
                        progress.speculative,
                        progress.running,
                        progress.done,
                        progress.cancelled,
                        racing,
                        rate / 1e6,
                        100.0 * progress.table_fill,
                        progress.dag_nodes,
                        progress.cutoff,
                        progress.deepest,
                    ));
                }
            }
            ProgressMode::Json => {
                let json = JsonProgress {
                    position: &self.position,
                    elapsed: progress.elapsed.as_secs_f64(),
                    moves: progress
                        .root_moves
                        .iter()
                        .map(|m| {
                            (
                                (self.column_name)(m.column).to_string(),
                                status_word(m.status),
                            )
                        })
                        .collect(),
                    queued: progress.queued,
                    speculative: progress.speculative,
                    running: progress.running,
                    done: progress.done,
                    cancelled: progress.cancelled,
                    nodes: progress.nodes,
                    nodes_per_second: rate,
                    table_fill: progress.table_fill,
                    tree_nodes: progress.dag_nodes,
                    tree_bytes: progress.dag_bytes,
                    cutoff: progress.cutoff,
                    deepest: progress.deepest,
                    splits: progress.splits,
                    racing: progress.racing,
                };
                eprintln!("{}", serde_json::to_string(&json).expect("serialisable"));
            }
        }
    }

    /// Removes the live line.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What a [`Heartbeat`] watches: the position being searched, and since when.
#[derive(Default)]
struct Watched {
    searching: Option<(String, Instant)>,
    /// The live line of the search, if drawn: cleared by [`Heartbeat::end`] itself, before the
    /// caller prints the position's row.
    bar: Option<ProgressBar>,
    finished: bool,
}

/// A thread that shows a sign of life of the sequential solver, which reports nothing itself:
/// every so often while a position is being searched, its moves, the time so far and the nodes
/// the solver last published. Positions solved within the first interval show nothing.
pub struct Heartbeat {
    shared: Arc<(Mutex<Watched>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// One heartbeat as JSON (`--progress json` with one thread).
#[derive(serde::Serialize)]
struct JsonHeartbeat<'a> {
    position: &'a str,
    elapsed: f64,
    nodes: u64,
    nodes_per_second: f64,
}

impl Heartbeat {
    /// Starts the thread, showing progress as `mode` says every `every`, reading the node count
    /// from `nodes`. `None` for [`ProgressMode::None`].
    pub fn start(
        mode: ProgressMode,
        every: Duration,
        nodes: impl Fn() -> u64 + Send + 'static,
    ) -> Option<Heartbeat> {
        let mode = mode.resolved();
        if mode == ProgressMode::None {
            return None;
        }
        let interval = Reporter::interval(mode, every);
        // A live line would flicker for positions solved at once: it waits a second.
        let first = match mode {
            ProgressMode::Bar => Duration::from_secs(1),
            _ => interval,
        };
        let shared = Arc::new((Mutex::new(Watched::default()), Condvar::new()));
        let watched = Arc::clone(&shared);
        let thread = std::thread::spawn(move || beat(&watched, mode, first, interval, nodes));
        Some(Heartbeat {
            shared,
            thread: Some(thread),
        })
    }

    /// A search of `position` (its moves) starts now.
    pub fn begin(&self, position: &str) {
        self.update(|watched| watched.searching = Some((position.to_owned(), Instant::now())));
    }

    /// The search begun last has ended (its live line is gone when this returns).
    pub fn end(&self) {
        self.update(|watched| {
            watched.searching = None;
            if let Some(bar) = watched.bar.take() {
                bar.finish_and_clear();
            }
        });
    }

    fn update(&self, change: impl FnOnce(&mut Watched)) {
        let (lock, wake) = &*self.shared;
        change(&mut lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        wake.notify_one();
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        self.update(|watched| watched.finished = true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The heartbeat thread: waits for a search, then shows it every `interval` after `first`,
/// until it ends; clears a live line when it does.
fn beat(
    shared: &(Mutex<Watched>, Condvar),
    mode: ProgressMode,
    first: Duration,
    interval: Duration,
    nodes: impl Fn() -> u64,
) {
    let (lock, wake) = shared;
    let mut watched = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // The search last shown, so that a new one starts its own schedule.
    let mut shown: Option<Instant> = None;
    let mut next_report = Instant::now();
    loop {
        if watched.finished {
            break;
        }
        let Some((position, started)) = watched.searching.clone() else {
            shown = None;
            watched = wake
                .wait(watched)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            continue;
        };
        if shown != Some(started) {
            shown = Some(started);
            next_report = started + first;
        }
        let now = Instant::now();
        if now < next_report {
            let (guard, _) = wake
                .wait_timeout(watched, next_report - now)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            watched = guard;
            continue;
        }
        next_report = now + interval;
        let elapsed = now - started;
        let nodes = nodes();
        let rate = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
        match mode {
            ProgressMode::Bar => {
                let bar = watched.bar.get_or_insert_with(|| {
                    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                    bar.set_style(
                        ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"),
                    );
                    bar
                });
                bar.set_message(format!(
                    "[{}] {position}: {:.1} M nodes ({:.2} M nodes/s)",
                    elapsed_text(elapsed),
                    nodes as f64 / 1e6,
                    rate / 1e6
                ));
                bar.tick();
            }
            ProgressMode::Json => {
                let json = JsonHeartbeat {
                    position: &position,
                    elapsed: elapsed.as_secs_f64(),
                    nodes,
                    nodes_per_second: rate,
                };
                eprintln!("{}", serde_json::to_string(&json).expect("serialisable"));
            }
            _ => eprintln!(
                "progress: {position}: {}, {:.1} M nodes ({:.2} M nodes/s)",
                elapsed_text(elapsed),
                nodes as f64 / 1e6,
                rate / 1e6
            ),
        }
    }
    if let Some(bar) = watched.bar.take() {
        bar.finish_and_clear();
    }
}
