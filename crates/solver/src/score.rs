//! Win/draw/loss and exact scores, asked of the threshold search ([`Solver::score_at_least`])
//! one question at a time, like Pons's null-window searches.
//!
//! An exact score (docs/RULES.md, "Values") is `33 - k` (in the classic game `22 - k`) for a win
//! with the winner's `k`-th stone, 0 for a draw, and the negative of the opponent's win score for a
//! loss. Each question "is the first player's score at least `t`?" narrows the range of scores
//! still possible, by the bound the search proved (often beyond `t`). For win/draw/loss: first `t =
//! 1` (the report's question), then `t = 0` if that did not settle it. For the exact score: after
//! Pons, the middle of what is left moved towards the end farther from 0 (see `exact_threshold`).
//! The table holds a bound per position, so every question reuses what the earlier ones proved.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use crate::search::{SearchStats, Solver};
use crate::table::Format;
use score4_game::Game;

/// What a solve finds out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The report's question: does the first player win? (`1` yes, `0` no).
    FirstWins,
    /// Win (`1`), draw (`0`) or loss (`-1`) for the side to move.
    Wdl,
    /// The exact score for the side to move.
    Exact,
}

impl Mode {
    /// The name used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::FirstWins => "first-wins",
            Mode::Wdl => "wdl",
            Mode::Exact => "exact",
        }
    }

    /// The table format the mode needs.
    pub const fn format(self) -> Format {
        match self {
            Mode::FirstWins => Format::Binary,
            Mode::Wdl | Mode::Exact => Format::Bounds,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s.to_ascii_lowercase().as_str() {
            "first-wins" => Ok(Mode::FirstWins),
            "wdl" => Ok(Mode::Wdl),
            "exact" => Ok(Mode::Exact),
            _ => Err(format!(
                "unknown mode {s:?} (expected first-wins, wdl or exact)"
            )),
        }
    }
}

/// What is known of a position's exact score, from the side to move: it lies in
/// `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRange {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
}

impl ScoreRange {
    /// Every score the side to move of `position` could still get: from a loss to the
    /// opponent's next stone up to a win with its own next stone.
    pub fn possible<G: Game>(position: &G) -> ScoreRange {
        let stones = position.stone_count();
        let (mine, theirs) = (stones / 2, stones - stones / 2);
        let half = G::CELLS / 2;
        ScoreRange {
            lower: -(half - theirs),
            upper: half - mine,
        }
    }

    /// The exact score, once known.
    pub fn exact(self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// Win (`1`), draw (`0`) or loss (`-1`), once known.
    pub fn wdl(self) -> Option<i32> {
        if self.lower >= 1 {
            Some(1)
        } else if self.upper <= -1 {
            Some(-1)
        } else if self.lower == 0 && self.upper == 0 {
            Some(0)
        } else {
            None
        }
    }

    /// The same range seen from the other player.
    pub fn negated(self) -> ScoreRange {
        ScoreRange {
            lower: -self.upper,
            upper: -self.lower,
        }
    }

    /// The value of `mode` (as [`Valuation::value`]) for a position whose side to move is
    /// white, the first player (`white_to_move`), or black, once this range decides it.
    pub fn value(self, mode: Mode, white_to_move: bool) -> Option<i32> {
        match mode {
            Mode::FirstWins => {
                let white = if white_to_move { self } else { self.negated() };
                if white.lower >= 1 {
                    Some(1)
                } else if white.upper <= 0 {
                    Some(0)
                } else {
                    None
                }
            }
            Mode::Wdl => self.wdl(),
            Mode::Exact => self.exact(),
        }
    }
}

impl fmt::Display for ScoreRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exact() {
            Some(score) => write!(f, "{score}"),
            None => write!(f, "{}..={}", self.lower, self.upper),
        }
    }
}

/// The answer for one position in one mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valuation {
    /// The question answered.
    pub mode: Mode,
    /// `1`/`0` (first player wins / does not) in first-wins mode, `1`/`0`/`-1` in wdl mode, the
    /// score in exact mode; wdl and exact from the side to move.
    pub value: i32,
    /// Everything learned of the score (from the side to move): wider than one score except in
    /// exact mode.
    pub range: ScoreRange,
    /// What the searches counted, all questions together.
    pub stats: SearchStats,
    /// Wall-clock seconds of the searches.
    pub seconds: f64,
}

/// Narrows the score of `position` until `mode`'s value is known, by asking
/// `ask(t)` — "is the first player's score at least `t`?" — at the thresholds of the module
/// documentation. `ask` may give up (`None`): then `Err` with the range proven so far (from
/// the side to move). Otherwise the value (as [`Valuation::value`]) and the range.
///
/// Any search that answers the question soundly will do: the sequential solver
/// ([`Solver::evaluate_within`]) or the parallel one.
pub fn narrow<G: Game>(
    position: &G,
    mode: Mode,
    mut ask: impl FnMut(i32) -> Option<bool>,
) -> Result<(i32, ScoreRange), ScoreRange> {
    narrow_by_bounds(position, mode, |threshold| {
        ask(threshold).map(|yes| if yes { threshold } else { threshold - 1 })
    })
}

/// [`narrow`], with questions answered by a bound on the first player's score (as
/// [`Solver::score_bound`]): a lower bound at or above the threshold (yes), an upper bound
/// below it (no). A bound beyond the threshold narrows the range further.
pub fn narrow_by_bounds<G: Game>(
    position: &G,
    mode: Mode,
    mut ask: impl FnMut(i32) -> Option<i32>,
) -> Result<(i32, ScoreRange), ScoreRange> {
    let mover = position.white_to_move();
    let from_white = |range: ScoreRange| {
        if mover {
            range
        } else {
            range.negated()
        }
    };
    // The first player's range, narrowed question by question.
    let mut range = from_white(ScoreRange::possible(position));
    loop {
        if let Some(value) = from_white(range).value(mode, mover) {
            return Ok((value, from_white(range)));
        }
        let threshold = if mode == Mode::Exact {
            exact_threshold(range)
        } else if range.lower < 1 && range.upper >= 1 {
            1
        } else {
            0
        };
        // A proven bound lies in the proven range; the clamp only keeps a release build from
        // looping should that ever fail (the debug builds of the tests would stop here).
        let answer = ask(threshold);
        debug_assert!(answer.is_none_or(|b| range.lower <= b && b <= range.upper));
        match answer {
            Some(bound) if bound >= threshold => range.lower = bound.min(range.upper),
            Some(bound) => range.upper = bound.max(range.lower),
            None => return Err(from_white(range)),
        }
    }
}

/// The next question of an exact solve for a range `lower..=upper` of the first player's
/// score: after Pons, the middle of the range moved towards the end farther from 0 (a question
/// about a fast win is shallow, and cheap), asked as "at least middle + 1?". Pons moves it to
/// half that end; three fifths was better on the benchmark sets (docs/PERFORMANCE.md: −40 %
/// nodes on Begin-Easy, −17 % on the 3-D examples, +2 % on Middle-Medium).
fn exact_threshold(range: ScoreRange) -> i32 {
    let (lower, upper) = (range.lower, range.upper);
    let mut middle = lower + (upper - lower) / 2;
    let (low_end, high_end) = (lower * 3 / 5, upper * 3 / 5);
    if middle <= 0 && low_end < middle {
        middle = low_end;
    } else if middle >= 0 && high_end > middle {
        middle = high_end;
    }
    debug_assert!(lower <= middle && middle < upper);
    middle + 1
}

impl Solver<'_> {
    /// Solves `position` in `mode`.
    ///
    /// Contract: nobody has four in a line in `position`; the table's format is
    /// [`Mode::format`] of `mode` (a bounds table also answers first-wins).
    pub fn evaluate<G: Game>(&mut self, position: &G, mode: Mode) -> Valuation {
        self.evaluate_within(position, mode, None)
            .expect("no deadline, no monitor stop")
    }

    /// [`Self::evaluate`], unless the deadline passes (or the monitor's stop flag is raised)
    /// first: then `Err` with what was proven of the score before that. The table holds only
    /// proven bounds either way.
    pub fn evaluate_within<G: Game>(
        &mut self,
        position: &G,
        mode: Mode,
        deadline: Option<Instant>,
    ) -> Result<Valuation, ScoreRange> {
        let start = Instant::now();
        let before = self.stats();
        self.set_deadline(deadline);
        let outcome = narrow_by_bounds(position, mode, |threshold| {
            self.try_score_bound(position, threshold)
        });
        self.set_deadline(None);
        let (value, range) = outcome?;
        Ok(Valuation {
            mode,
            value,
            range,
            stats: self.stats().since(&before),
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// [`Self::try_score_at_least`] with the bound the search proved (see
    /// [`Solver::score_bound`]); on a binary table, 1 for yes and 0 for no.
    pub fn try_score_bound<G: Game>(&mut self, position: &G, threshold: i32) -> Option<i32> {
        match self.table_format() {
            Format::Binary => {
                self.try_score_at_least(position, threshold)
                    .map(|yes| if yes { 1 } else { 0 })
            }
            Format::Bounds => self.attempt(|solver| solver.score_bound(position, threshold)),
        }
    }

    /// Whether the first player's score is at least `threshold`, on whichever table this is
    /// (a binary table answers only threshold 1), unless the deadline passes or the monitor's
    /// stop flag is raised first: then `None`, and the table holds only proven values.
    ///
    /// Contract: nobody has four in a line in `position`.
    pub fn try_score_at_least<G: Game>(&mut self, position: &G, threshold: i32) -> Option<bool> {
        match self.table_format() {
            Format::Binary => {
                assert_eq!(
                    threshold, 1,
                    "a binary table answers only the first-wins question; wdl and exact \
                     scores need a table of Format::Bounds"
                );
                self.attempt(|solver| solver.first_player_wins(position))
            }
            Format::Bounds => self.attempt(|solver| solver.score_at_least(position, threshold)),
        }
    }
}
