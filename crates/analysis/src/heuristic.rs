//! A heuristic search for positions the solver cannot finish in time.
//!
//! Negamax with alpha-beta to a fixed depth, deepened one ply at a time until the deadline,
//! the solver's move ordering and its decisive situations at every node: a mover with an
//! opening wins, two opponent openings (or a forced block under an opponent threat) lose, moves
//! below an opponent threat are not tried. A game decided inside the horizon gets its exact
//! score shifted beyond every evaluation ([`decided`]), so the search never prefers a guess to
//! a win it sees, nor walks into a loss it sees.
//!
//! The evaluation is the board's ([`Game::evaluate`]).

use std::time::Instant;

use score4_game::{BitBoard, Cell, Game};

/// Proven results are `±(DECIDED + exact score)`; evaluations stay far inside `±DECIDED`.
pub const DECIDED: i32 = 1_000_000;

/// The heuristic value of a game decided with exact score `score` (for the side to move).
pub const fn decided(score: i32) -> i32 {
    if score > 0 {
        DECIDED + score
    } else if score < 0 {
        -DECIDED + score
    } else {
        0
    }
}

/// The exact score behind a heuristic value, if it is a proven result.
pub const fn exact_behind(value: i32) -> Option<i32> {
    if value > DECIDED {
        Some(value - DECIDED)
    } else if value < -DECIDED {
        Some(value + DECIDED)
    } else {
        None
    }
}

/// What the decisive situations say of a position: its value, or the moves worth trying.
enum Situation {
    Decided(i32),
    Moves(BitBoard),
}

/// The solver's decisive situations, as heuristic values.
fn situation<B: Game>(position: &B) -> Situation {
    let me = position.mover();
    let half = B::CELLS / 2;
    let stones = position.stone_count();
    let (mine, theirs) = (stones / 2, stones - stones / 2);
    let playable = position.playable();
    if !(position.threats(me) & playable).is_empty() {
        return Situation::Decided(decided(half - mine));
    }
    if playable.is_empty() {
        return Situation::Decided(0);
    }
    let lost = Situation::Decided(decided(-(half - theirs)));
    let their_threats = position.threats(me.other());
    let their_openings = their_threats & playable;
    let moves = if !their_openings.is_empty() {
        if their_openings.has_several() || !(B::above(their_openings) & their_threats).is_empty() {
            return lost;
        }
        their_openings
    } else {
        playable & !B::below(their_threats)
    };
    if moves.is_empty() {
        return lost;
    }
    Situation::Moves(moves)
}

/// The outcome of a heuristic search, moves named by columns `C`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Estimate<C> {
    /// The move it prefers.
    pub column: C,
    /// Its value for the side to move: an evaluation, or a proven result ([`exact_behind`]).
    pub value: i32,
    /// The depth (plies) of the last completed iteration.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The line it expects, starting with `column`.
    pub line: Vec<C>,
}

/// An iterative-deepening alpha-beta search with a deadline.
pub struct HeuristicSearch {
    deadline: Instant,
    nodes: u64,
    out_of_time: bool,
}

impl HeuristicSearch {
    /// Searches `position` among `allowed` columns (all legal ones if `None`) until `deadline`;
    /// at least one iteration (depth 1) is always completed.
    ///
    /// Contract: nobody has four in a line and the side to move has a legal move in `allowed`.
    pub fn run<B: Game>(
        position: &B,
        allowed: Option<&[B::Column]>,
        deadline: Instant,
    ) -> Estimate<B::Column> {
        let mut search = HeuristicSearch {
            deadline,
            nodes: 0,
            out_of_time: false,
        };
        let mut root: Vec<Cell> = B::columns()
            .filter(|c| allowed.is_none_or(|a| a.contains(c)))
            .filter_map(|c| position.drop_cell(c))
            .collect();
        assert!(!root.is_empty(), "a legal move to search");
        // Order once by the solver's ordering; later iterations put the best move first.
        let order = position.order(root.iter().copied().collect());
        root.sort_by_key(|cell| {
            order
                .as_slice()
                .iter()
                .position(|&c| c == cell.index())
                .unwrap_or(usize::MAX)
        });
        let mut best = Estimate {
            column: B::column(root[0]),
            value: -DECIDED * 2,
            depth: 0,
            nodes: 0,
            line: vec![B::column(root[0])],
        };
        let remaining = (B::CELLS - position.stone_count()) as u32;
        for depth in 1..=remaining {
            let mut alpha = -DECIDED * 2;
            let mut chosen = None;
            for &cell in &root {
                let value = if position.wins_with(cell) {
                    decided(position.score_of_winning_now())
                } else {
                    -search.negamax(&position.after(cell), depth - 1, -DECIDED * 2, -alpha)
                };
                if search.out_of_time && depth > 1 {
                    break;
                }
                if value > alpha || chosen.is_none() {
                    alpha = value.max(alpha);
                    chosen = Some((cell, value));
                }
            }
            if search.out_of_time && depth > 1 {
                break;
            }
            let (cell, value) = chosen.expect("at least one move");
            best = Estimate {
                column: B::column(cell),
                value,
                depth,
                nodes: search.nodes,
                line: search.line(position, cell, depth),
            };
            // The best move first in the next iteration.
            root.retain(|&c| c != cell);
            root.insert(0, cell);
            if exact_behind(value).is_some() || search.out_of_time {
                break; // proven, or out of time after the first iteration
            }
        }
        best.nodes = search.nodes;
        best
    }

    /// Negamax value of `position` for the side to move, searched `depth` plies deep in the
    /// window `(alpha, beta)` (fail-hard).
    fn negamax<B: Game>(&mut self, position: &B, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
        let moves = match situation(position) {
            Situation::Decided(value) => return value,
            Situation::Moves(moves) => moves,
        };
        if depth == 0 || self.out_of_time {
            return position.evaluate();
        }
        let order = position.order(moves);
        for &cell in order.as_slice() {
            let value = -self.negamax(
                &position.after(Cell::from_index(cell)),
                depth - 1,
                -beta,
                -alpha,
            );
            if value >= beta {
                return beta;
            }
            alpha = alpha.max(value);
        }
        alpha
    }

    /// The line the search expects after `first`: each ply's best reply by a shallow search
    /// (a cheap stand-in for a stored principal variation).
    fn line<B: Game>(&mut self, position: &B, first: Cell, depth: u32) -> Vec<B::Column> {
        let mut line = vec![B::column(first)];
        if position.wins_with(first) {
            return line;
        }
        let mut current = position.after(first);
        for ply in 1..depth.min(8) {
            let Situation::Moves(moves) = situation(&current) else {
                break;
            };
            let reply = moves
                .iter()
                .map(|cell| {
                    let value = if current.wins_with(cell) {
                        DECIDED * 2
                    } else {
                        -self.negamax(
                            &current.after(cell),
                            (depth - ply).min(2),
                            -DECIDED * 2,
                            DECIDED * 2,
                        )
                    };
                    (value, cell)
                })
                .max_by_key(|&(value, cell)| (value, std::cmp::Reverse(cell.index())))
                .map(|(_, cell)| cell)
                .expect("a move");
            line.push(B::column(reply));
            if current.wins_with(reply) {
                break;
            }
            current = current.after(reply);
        }
        line
    }
}
