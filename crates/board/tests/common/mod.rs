//! Helpers shared by the integration tests of `score4-board`: a seeded random number generator,
//! random legal games, and the breadth-first enumeration of the positions reached after `n` plies.
//!
//! Each test file uses only some of them.
#![allow(dead_code)]

use std::collections::HashSet;

use score4_board::{Cell, Colour, Position};

/// Marsaglia's xorshift64*: small, seeded and reproducible; good enough to pick moves.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (any value, zero included).
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() >> 32) * n) >> 32
    }

    /// A cell of `set` (which must not be empty), uniformly.
    pub fn pick(&mut self, set: score4_board::BitBoard) -> Cell {
        let n = self.below(u64::from(set.len())) as usize;
        set.iter().nth(n).expect("the set is not empty")
    }
}

/// Whether `stones` hold four in a line, by scanning all 76 lines.
pub fn has_four(stones: u64) -> bool {
    score4_board::geometry::LINES
        .iter()
        .any(|&line| line & !stones == 0)
}

/// A random legal game of at most `max_plies` moves from the empty board, stopping early at the
/// first four or at a full board: the cells played, in order.
pub fn random_game(rng: &mut XorShift, max_plies: u32) -> Vec<Cell> {
    let mut position = Position::EMPTY;
    let mut cells = Vec::new();
    while cells.len() < max_plies as usize && !position.is_full() {
        let cell = rng.pick(position.playable());
        let wins = position.wins_with(cell);
        position.play(cell);
        cells.push(cell);
        if wins {
            break;
        }
    }
    cells
}

/// Searches for a game that fills the board without a four, by seeded random greedy play with
/// restarts: both players only play cells that do not complete a line of theirs, preferring the
/// move that leaves the fewest threats on the board (ties broken at random). Gives up after
/// `attempts` games; `None` then.
pub fn find_drawn_game(seed: u64, attempts: u32) -> Option<Vec<Cell>> {
    let mut rng = XorShift::new(seed);
    for _ in 0..attempts {
        let mut position = Position::EMPTY;
        let mut cells = Vec::with_capacity(64);
        while !position.is_full() {
            let safe = position.playable() & !position.threats(position.mover());
            let threats_after = |cell: Cell| {
                let next = position.after(cell);
                (next.threats(Colour::White) | next.threats(Colour::Black)).len()
            };
            let Some(fewest) = safe.iter().map(threats_after).min() else {
                break;
            };
            let best: score4_board::BitBoard = safe
                .iter()
                .filter(|&cell| threats_after(cell) == fewest)
                .collect();
            let cell = rng.pick(best);
            position.play(cell);
            cells.push(cell);
        }
        if position.is_full() {
            return Some(cells);
        }
    }
    None
}

/// The positions reached after `n` plies, for every `n` up to some depth.
pub struct Layers {
    /// `distinct[n]`: the distinct `(white, black)` stone pairs after `n` plies, reached by games
    /// in which no move before the `n`-th made four. Sorted, for reproducible iteration.
    pub distinct: Vec<Vec<(u64, u64)>>,
    /// `won[n]`: how many of `distinct[n]` hold a four (made by the `n`-th move).
    pub won: Vec<usize>,
    /// `canonical[n]`: the number of distinct [`Position::canonical_key`]s in `distinct[n]`.
    pub canonical: Vec<usize>,
}

/// Enumerates, breadth first, the positions after `0..=depth` plies (see [`Layers`]).
/// A position in which the last move made four is counted but not expanded.
pub fn layers(depth: usize) -> Layers {
    let mut distinct = vec![vec![(0u64, 0u64)]];
    let mut won = vec![0];
    let mut canonical = vec![1];
    let mut frontier = vec![Position::EMPTY];
    for ply in 1..=depth {
        let mut seen: HashSet<(u64, u64)> = HashSet::new();
        let mut keys: HashSet<u128> = HashSet::new();
        let mut next = Vec::new();
        let mut wins = 0;
        for position in &frontier {
            for cell in position.playable() {
                let child = position.after(cell);
                let stones = (child.stones(Colour::White).0, child.stones(Colour::Black).0);
                if !seen.insert(stones) {
                    continue;
                }
                keys.insert(child.canonical_key());
                if position.wins_with(cell) {
                    wins += 1;
                } else if ply < depth {
                    next.push(child);
                }
            }
        }
        let mut layer: Vec<(u64, u64)> = seen.into_iter().collect();
        layer.sort_unstable();
        distinct.push(layer);
        won.push(wins);
        canonical.push(keys.len());
        frontier = next;
    }
    Layers {
        distinct,
        won,
        canonical,
    }
}

/// docs/RULES.md, "Counts to test against": `(plies, distinct positions, of them won, up to the 8
/// symmetries)`.
pub const DISTINCT_POSITIONS: [(usize, usize, usize, usize); 8] = [
    (1, 16, 0, 3),
    (2, 256, 0, 36),
    (3, 2_416, 0, 321),
    (4, 22_576, 0, 2_925),
    (5, 153_200, 0, 19_421),
    (6, 1_063_520, 0, 133_834),
    (7, 5_869_840, 19_040, 736_407),
    (8, 33_089_960, 86_864, 4_144_520),
];
