//! Every legal move's value, the best move and a principal variation, within a time budget.
//!
//! The budget is spent in three parts:
//! 1. **solving** (70 %): each move's child is solved for its exact score by the sequential
//!    solver, the moves in turn, each with an equal share of what is left (time a quick move
//!    leaves over goes to the later ones). An interrupted solve still says what it proved:
//!    often win/draw/loss (the first questions of the narrowing), at least a range;
//! 2. **estimating** (the rest, shared by the moves still unknown): a heuristic search of each;
//! 3. **the principal variation** from the best move, while exact scores keep coming quickly
//!    (at most 20 plies; it reuses the table, so it costs little after step 1); when the best
//!    move is decided but not exact, a heuristic line, given what is left, or a twentieth of
//!    the budget when every move is decided (a position a book answers returns at once).
//!
//! The table must hold bounds ([`score4_solver::Format::Bounds`]); it is shared by all steps
//! and by later analyses, so analysing the next position of a game starts warm.

use std::time::{Duration, Instant};

use score4_game::Cell;
use score4_solver::{Book, Mode, Monitor, ScoreRange, Solver, TranspositionTable};

use crate::heuristic::{exact_behind, HeuristicSearch};
use score4_game::Game;

/// What is known of one move, from the side of the player making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveValue {
    /// Its exact score (docs/RULES.md, "Values").
    Exact(i32),
    /// Win (`1`), draw (`0`) or loss (`-1`); the exact score lies in `range`.
    Wdl(i32, ScoreRange),
    /// Not decided: the score lies in `range`; `estimate` is the heuristic search's value
    /// (see [`crate::heuristic`]) when it had time to run.
    Unknown {
        /// What the solver proved.
        range: ScoreRange,
        /// The heuristic value, if estimated.
        estimate: Option<i32>,
    },
}

impl MoveValue {
    /// The range of scores the move may still have.
    pub fn range(self) -> ScoreRange {
        match self {
            MoveValue::Exact(score) => ScoreRange {
                lower: score,
                upper: score,
            },
            MoveValue::Wdl(_, range) | MoveValue::Unknown { range, .. } => range,
        }
    }

    /// What the move is sure to get: its exact score, or the least of its range.
    fn guaranteed(self) -> i32 {
        self.range().lower
    }

    /// The heuristic estimate, or a proven result scaled like one.
    fn estimate(self) -> i32 {
        match self {
            MoveValue::Unknown {
                estimate: Some(e), ..
            } => e,
            _ => crate::heuristic::decided(self.guaranteed()),
        }
    }

    /// A range known well enough to be called exact or win/draw/loss.
    fn from_range(range: ScoreRange) -> MoveValue {
        match (range.exact(), range.wdl()) {
            (Some(score), _) => MoveValue::Exact(score),
            (None, Some(wdl)) => MoveValue::Wdl(wdl, range),
            (None, None) => MoveValue::Unknown {
                range,
                estimate: None,
            },
        }
    }
}

/// One legal move (in column `C`) and what the analysis found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis<C> {
    /// The column played.
    pub column: C,
    /// Its value, from the side of the player making it.
    pub value: MoveValue,
    /// Solver nodes spent on it.
    pub nodes: u64,
}

/// The analysis of a position, moves named by columns `C`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<C> {
    /// Every legal move, in column order.
    pub moves: Vec<MoveAnalysis<C>>,
    /// The best move: the most it is sure to get, then the best estimate.
    pub best: C,
    /// The principal variation from `best`: each move keeps the exact score (as long as
    /// exact scores were found), else the heuristic search's expected line.
    pub principal_variation: Vec<C>,
    /// Whether the principal variation is proven (exact scores all along).
    pub proven_variation: bool,
}

/// Analyses every legal move of `position` within about `budget` (see the module
/// documentation), with `table` (a table of bounds) and its solver, which reads `book` if
/// there is one ([`Solver::with_book`]).
///
/// Contract: nobody has four in a line in `position` and it is not full; `table` has the
/// bounds format.
pub fn analyze<B: Game>(
    position: &B,
    table: &TranspositionTable,
    book: Option<&Book>,
    budget: Duration,
) -> Analysis<B::Column> {
    analyze_watched(position, table, book, budget, None)
}

/// [`analyze`], cut short when `monitor`'s stop flag is raised (within a few thousand nodes):
/// for a caller whose client went away. What it returns after a stop is whatever was found by
/// then, still only proven values as values; the table holds only proven bounds either way.
pub fn analyze_watched<B: Game>(
    position: &B,
    table: &TranspositionTable,
    book: Option<&Book>,
    budget: Duration,
    monitor: Option<&Monitor>,
) -> Analysis<B::Column> {
    let start = Instant::now();
    let end = start + budget;
    let solving_end = start + budget.mul_f64(0.7);
    let stopped = || monitor.is_some_and(Monitor::is_stopped);
    let mut solver = Solver::new(table).with_book(book);
    if let Some(monitor) = monitor {
        solver = solver.with_monitor(monitor);
    }
    let legal: Vec<(B::Column, Cell)> = B::columns()
        .filter_map(|column| position.drop_cell(column).map(|cell| (column, cell)))
        .collect();
    assert!(!legal.is_empty(), "a position with a legal move");

    // 1. Solving.
    let mut moves = Vec::with_capacity(legal.len());
    for (i, &(column, cell)) in legal.iter().enumerate() {
        let now = Instant::now();
        let share = solving_end.saturating_duration_since(now) / (legal.len() - i) as u32;
        let before = solver.stats().nodes;
        let value = value_of_move(&mut solver, position, cell, now + share);
        moves.push(MoveAnalysis {
            column,
            value,
            nodes: solver.stats().nodes - before,
        });
    }

    // 2. Estimating the undecided moves.
    let unknown: Vec<usize> = (0..moves.len())
        .filter(|&i| matches!(moves[i].value, MoveValue::Unknown { .. }))
        .collect();
    for (k, &i) in unknown.iter().enumerate() {
        if stopped() {
            break;
        }
        let now = Instant::now();
        let share = end.saturating_duration_since(now) / (unknown.len() - k) as u32;
        let cell = legal[i].1;
        let child = position.after(cell);
        let estimate = HeuristicSearch::run(&child, None, now + share);
        let MoveValue::Unknown { range, .. } = moves[i].value else {
            unreachable!("only unknown moves are estimated");
        };
        // The child's value is the opponent's; a proven result there is proven here too.
        let value = -estimate.value;
        moves[i].value = match exact_behind(value) {
            Some(score) if range.lower <= score && score <= range.upper => MoveValue::Exact(score),
            _ => MoveValue::Unknown {
                range,
                estimate: Some(value),
            },
        };
    }

    let best = moves
        .iter()
        .max_by_key(|m| {
            (
                m.value.guaranteed(),
                m.value.estimate(),
                std::cmp::Reverse(m.column),
            )
        })
        .expect("a legal move");
    let best_column = best.column;
    let best_cell = legal.iter().find(|(c, _)| *c == best_column).unwrap().1;

    // 3. The principal variation.
    let (principal_variation, proven_variation) = match best.value {
        MoveValue::Exact(score) => proven_line(
            &mut solver,
            position,
            best_cell,
            score,
            end.max(Instant::now() + budget / 10),
        ),
        _ => {
            let after = position.after(best_cell);
            let mut line = vec![best_column];
            if !after.is_full() && !stopped() {
                // With every move decided (from the table or a book), the line is only a
                // guess beyond its first move: a twentieth of the budget, not the rest of it.
                let decided = moves
                    .iter()
                    .all(|m| !matches!(m.value, MoveValue::Unknown { .. }));
                let end = if decided {
                    end.min(Instant::now() + budget / 20)
                } else {
                    end
                };
                let deadline = end.max(Instant::now() + Duration::from_millis(10));
                line.extend(HeuristicSearch::run(&after, None, deadline).line);
            }
            (line, false)
        }
    };
    Analysis {
        moves,
        best: best_column,
        principal_variation,
        proven_variation,
    }
}

/// The value of the mover playing `cell`, solved until `deadline`.
fn value_of_move<B: Game>(
    solver: &mut Solver<'_>,
    position: &B,
    cell: Cell,
    deadline: Instant,
) -> MoveValue {
    if position.wins_with(cell) {
        return MoveValue::Exact(position.score_of_winning_now());
    }
    let child = position.after(cell);
    let range = match solver.evaluate_within(&child, Mode::Exact, Some(deadline)) {
        Ok(valuation) => valuation.range,
        Err(range) => range,
    };
    MoveValue::from_range(range.negated())
}

/// The line from `first` (exact score `score` for the mover) in which every move keeps the
/// exact score, as far as the solver finds scores before `deadline`; whether it reached the
/// end of the game or 20 plies.
fn proven_line<B: Game>(
    solver: &mut Solver<'_>,
    position: &B,
    first: Cell,
    score: i32,
    deadline: Instant,
) -> (Vec<B::Column>, bool) {
    let mut line = vec![B::column(first)];
    if position.wins_with(first) {
        return (line, true);
    }
    let mut current = position.after(first);
    let mut expected = -score; // for the side to move at `current`
    while line.len() < 20 && !current.is_full() {
        let mut next = None;
        for column in B::columns() {
            let Some(cell) = current.drop_cell(column) else {
                continue;
            };
            match value_of_move(solver, &current, cell, deadline) {
                MoveValue::Exact(s) if s == expected => {
                    next = Some(cell);
                    break;
                }
                MoveValue::Exact(_) | MoveValue::Wdl(..) => {}
                MoveValue::Unknown { .. } => return (line, false),
            }
        }
        let Some(cell) = next else {
            return (line, false); // out of time (a keeping move always exists)
        };
        line.push(B::column(cell));
        if current.wins_with(cell) {
            return (line, true);
        }
        current = current.after(cell);
        expected = -expected;
    }
    (line, true)
}
