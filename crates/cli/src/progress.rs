//! Live progress of a parallel solve: a line on the terminal (indicatif), or one JSON object
//! per report for scripts and log files. Both go to standard error; results keep standard
//! output.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use score4_engine::{MoveStatus, Progress};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressMode {
    /// A live line when standard error is a terminal, nothing otherwise.
    Auto,
    /// A live line (drawn only on a terminal).
    Bar,
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
}

/// Shows the progress of one position's solve.
pub struct Reporter {
    mode: ProgressMode,
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

impl Reporter {
    /// A reporter for the solve of `position`, naming columns by `column_name`.
    pub fn new(mode: ProgressMode, position: &str, column_name: fn(u32) -> char) -> Reporter {
        let bar = matches!(mode, ProgressMode::Auto | ProgressMode::Bar).then(|| {
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
            bar,
            position: position.to_owned(),
            column_name,
            last: None,
        }
    }

    /// How often the solver should report for this mode.
    pub fn interval(mode: ProgressMode, every: Duration) -> Duration {
        match mode {
            ProgressMode::Auto | ProgressMode::Bar => Duration::from_millis(250).min(every),
            ProgressMode::Json | ProgressMode::None => every,
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
        match self.mode {
            ProgressMode::None => {}
            ProgressMode::Auto | ProgressMode::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!(
                        "moves {} | tasks {} queued (+{} speculative), {} running, {} done, \
                         {} cancelled | {:.2} M nodes/s | table {:.1}% | tree {} nodes, cutoff \
                         {}-{}",
                        root_moves_text(progress, self.column_name),
                        progress.queued,
                        progress.speculative,
                        progress.running,
                        progress.done,
                        progress.cancelled,
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
