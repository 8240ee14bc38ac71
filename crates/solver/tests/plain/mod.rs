//! A deliberately plain reference solver, sharing nothing with the fast one but the input.
//!
//! Its own board (a cell array, column heights, and one bit set per player as the table key), its
//! own list of lines (by coordinates), full negamax with alpha-beta over win/draw/loss, an
//! exact-key `HashMap` of bounds. Values are win/draw/loss ([`PlainSolver::new`]) or exact scores
//! ([`PlainSolver::exact`]: a win with the winner's `k`-th stone scores `33 - k`). No symmetry, no
//! decisive-situation rules, no move ordering beyond column order. It is slow and obviously right,
//! and the fast solver must agree with it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-and-fold hasher for the two-word keys: the table is exact (it compares whole keys),
/// so the hash only has to be quick.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The 76 lines, found by walking each of the 13 directions from every cell.
fn lines() -> Vec<[usize; 4]> {
    let inside = |v: i32| (0..4).contains(&v);
    let mut lines = Vec::new();
    for dx in -1i32..=1 {
        for dy in -1i32..=1 {
            for dz in -1i32..=1 {
                if (dx, dy, dz) <= (0, 0, 0) {
                    continue; // each direction once
                }
                for x in 0..4i32 {
                    for y in 0..4i32 {
                        for z in 0..4i32 {
                            let (ex, ey, ez) = (x + 3 * dx, y + 3 * dy, z + 3 * dz);
                            if inside(ex) && inside(ey) && inside(ez) {
                                let cell = |k: i32| {
                                    (16 * (z + k * dz) + 4 * (y + k * dy) + x + k * dx) as usize
                                };
                                lines.push([cell(0), cell(1), cell(2), cell(3)]);
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(lines.len(), 76);
    lines
}

/// The reference solver: win (1), draw (0) or loss (-1) for the side to move.
pub struct PlainSolver {
    lines_through: Vec<Vec<[usize; 4]>>,
    cells: [u8; 64], // 0 empty, 1 first player, 2 second player
    /// The same stones as one bit set per player: the exact key of the table.
    sets: [u64; 2],
    heights: [usize; 16],
    stones: usize,
    table: HashMap<[u64; 2], (i8, i8), BuildHasherDefault<WordHasher>>,
    /// Whether values are exact scores (else win 1, draw 0, loss -1).
    exact: bool,
    /// The largest value: 1, or 32 for exact scores (no win scores more).
    top: i8,
    /// Positions visited.
    pub nodes: u64,
}

impl PlainSolver {
    /// A solver for the position reached by `moves` (columns `0..16`), which must be legal and
    /// not finished.
    pub fn new(moves: &[u8]) -> PlainSolver {
        Self::with_values(moves, false)
    }

    /// [`Self::new`], with exact scores for values.
    #[allow(dead_code)] // not every test binary asks for scores
    pub fn exact(moves: &[u8]) -> PlainSolver {
        Self::with_values(moves, true)
    }

    /// A solver for the position with these stones (bit `16*z + 4*y + x`), which must obey
    /// gravity and the stone counts and hold no four: for positions no move sequence is at hand
    /// for (the stones are placed, not played).
    #[allow(dead_code)] // not every test binary builds positions from stones
    pub fn from_stones(white: u64, black: u64, exact: bool) -> PlainSolver {
        let mut solver = Self::with_values(&[], exact);
        for (colour, set) in [(1u8, white), (2, black)] {
            for cell in (0..64).filter(|&cell| set >> cell & 1 != 0) {
                solver.cells[cell] = colour;
                solver.sets[colour as usize - 1] |= 1 << cell;
                solver.heights[cell % 16] += 1;
                solver.stones += 1;
            }
        }
        for column in 0..16 {
            let height = solver.heights[column];
            assert!(
                (0..height).all(|z| solver.cells[16 * z + column] != 0),
                "stones float in column {column}"
            );
        }
        let (w, b) = (white.count_ones(), black.count_ones());
        assert!(
            white & black == 0 && (w == b || w == b + 1),
            "not a position"
        );
        solver
    }

    fn with_values(moves: &[u8], exact: bool) -> PlainSolver {
        let all = lines();
        let lines_through = (0..64)
            .map(|cell| all.iter().filter(|l| l.contains(&cell)).copied().collect())
            .collect();
        let mut solver = PlainSolver {
            lines_through,
            cells: [0; 64],
            sets: [0; 2],
            heights: [0; 16],
            stones: 0,
            table: HashMap::default(),
            exact,
            top: if exact { 32 } else { 1 },
            nodes: 0,
        };
        for &column in moves {
            assert!(
                !solver.play_wins(column as usize),
                "the reference is given a finished game"
            );
        }
        solver
    }

    /// Plays in `column`; returns whether the move makes four.
    fn play_wins(&mut self, column: usize) -> bool {
        let cell = 16 * self.heights[column] + column;
        let colour = 1 + (self.stones % 2) as u8;
        self.cells[cell] = colour;
        self.sets[colour as usize - 1] |= 1 << cell;
        self.heights[column] += 1;
        self.stones += 1;
        self.lines_through[cell]
            .iter()
            .any(|line| line.iter().all(|&c| self.cells[c] == colour))
    }

    fn undo(&mut self, column: usize) {
        self.heights[column] -= 1;
        self.stones -= 1;
        let cell = 16 * self.heights[column] + column;
        self.sets[self.cells[cell] as usize - 1] &= !(1 << cell);
        self.cells[cell] = 0;
    }

    /// Value for the side to move, searched in the window `(alpha, beta)` (fail-soft).
    fn negamax(&mut self, alpha: i8, beta: i8) -> i8 {
        self.nodes += 1;
        if self.stones == 64 {
            return 0;
        }
        let (lower, upper) = self
            .table
            .get(&self.sets)
            .copied()
            .unwrap_or((-self.top, self.top));
        if lower == upper || lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        let mut best = -self.top;
        let mut window_low = alpha;
        for column in 0..16 {
            if self.heights[column] == 4 {
                continue;
            }
            let value = if self.play_wins(column) {
                // The winner's stone count is half the stones, rounded up.
                if self.exact {
                    33 - self.stones.div_ceil(2) as i8
                } else {
                    1
                }
            } else {
                -self.negamax(-beta, -window_low)
            };
            self.undo(column);
            best = best.max(value);
            window_low = window_low.max(value);
            if window_low >= beta {
                break;
            }
        }
        let bounds = if best <= alpha {
            (lower, upper.min(best)) // every move failed low: an upper bound
        } else if best >= beta {
            (lower.max(best), upper) // a cut-off: a lower bound
        } else {
            (best, best)
        };
        self.table.insert(self.sets, bounds);
        best
    }

    /// Whether the first player wins: a null-window search around the value that decides it
    /// (above 0 with the first player to move, below 0 with the second).
    pub fn first_player_wins(&mut self) -> bool {
        // (The same windows work for exact scores: a win scores at least 1.)
        if self.stones.is_multiple_of(2) {
            self.negamax(0, 1) >= 1
        } else {
            self.negamax(-1, 0) <= -1
        }
    }

    /// The value for the side to move: win/draw/loss (1/0/-1), or the exact score for a solver
    /// made by [`Self::exact`]. One full-window search.
    #[allow(dead_code)] // not every test binary asks for values
    pub fn value(&mut self) -> i8 {
        self.negamax(-self.top - 1, self.top + 1)
    }
}
