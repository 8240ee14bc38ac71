//! [`ClassicPosition`]: the stones, the threats kept move by move, the keys and the text
//! drawing of a position of the classic game.

use std::fmt;

use score4_game::{BitBoard, Cell, Colour};

use crate::geometry::{BOARD, BOTTOM, CELLS, HEIGHT, STRIDE, WIDTH};

/// A position of the classic game: the stones of each player, and the threats they make
/// (kept by [`ClassicPosition::play`], so that the search reads them at every node instead of
/// computing them twice). Copy it to make a move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ClassicPosition {
    /// Stones of the first and of the second player.
    stones: [u64; 2],
    /// The empty cells that would complete four for the first and for the second player: a
    /// function of `stones`, so equality and hashing are those of the stones.
    threats: [u64; 2],
}

/// The cells (stones or not) that would complete four in a line with the stones `p` (Pons's
/// shifts: vertical, horizontal and both diagonals).
const fn line_completions(p: u64) -> u64 {
    // Vertical: three below.
    let mut r = (p << 1) & (p << 2) & (p << 3);
    // Horizontal (shift STRIDE) and the two diagonals (STRIDE - 1 and STRIDE + 1).
    let shifts = [STRIDE, STRIDE - 1, STRIDE + 1];
    let mut i = 0;
    while i < 3 {
        let s = shifts[i];
        let pair = (p << s) & (p << (2 * s));
        r |= pair & (p << (3 * s));
        r |= pair & (p >> s);
        let pair = (p >> s) & (p >> (2 * s));
        r |= pair & (p << s);
        r |= pair & (p >> (3 * s));
        i += 1;
    }
    r & BOARD
}

impl ClassicPosition {
    /// The empty board, the first player to move.
    pub const EMPTY: ClassicPosition = ClassicPosition {
        stones: [0; 2],
        threats: [0; 2],
    };

    /// All stones.
    pub const fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// Stones on the board.
    pub const fn count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// Whether white, the first player, is to move.
    pub const fn white_to_move(&self) -> bool {
        self.count().is_multiple_of(2)
    }

    /// The player to move.
    pub const fn mover(&self) -> Colour {
        if self.white_to_move() {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The stones of `colour`.
    pub const fn stones(&self, colour: Colour) -> BitBoard {
        BitBoard(self.stones[colour.index()])
    }

    /// The lowest empty cell of every column that is not full.
    pub const fn playable(&self) -> BitBoard {
        BitBoard((self.occupied() + BOTTOM) & BOARD)
    }

    /// The cells of `column` (0-based).
    pub const fn column_cells(column: u32) -> BitBoard {
        BitBoard(((1 << HEIGHT) - 1) << (column * STRIDE))
    }

    /// The lowest empty cell of `column` (0-based), if any.
    pub const fn drop_cell(&self, column: u32) -> Option<Cell> {
        let cells = self.playable().0 & Self::column_cells(column).0;
        if cells == 0 {
            None
        } else {
            Some(Cell::from_index(cells.trailing_zeros() as u8))
        }
    }

    /// The empty cells that would complete four in a line for `colour`.
    #[inline(always)]
    pub const fn threats(&self, colour: Colour) -> BitBoard {
        BitBoard(self.threats[colour.index()])
    }

    /// The mover's threats after playing `cell` (what [`Self::play`] computes, for
    /// [`Self::play_with_threats`]).
    #[inline(always)]
    pub const fn threats_after(&self, cell: Cell) -> BitBoard {
        let bit = 1u64 << cell.index();
        let mine = self.stones[!self.white_to_move() as usize] | bit;
        BitBoard(line_completions(mine) & !(self.occupied() | bit))
    }

    /// The cells directly above those of `cells` (on the board).
    pub const fn above(cells: BitBoard) -> BitBoard {
        BitBoard((cells.0 << 1) & BOARD)
    }

    /// The cells directly below those of `cells` (on the board).
    pub const fn below(cells: BitBoard) -> BitBoard {
        BitBoard((cells.0 >> 1) & BOARD)
    }

    /// Whether the mover makes four by playing `cell`.
    pub const fn wins_with(&self, cell: Cell) -> bool {
        self.threats(self.mover()).0 & (1 << cell.index()) != 0
    }

    /// [`Self::threats_after`] for up to eight moves at once, each given as its cell's bit (0:
    /// no move, its result meaningless). Eight lanes of the same arithmetic, for the compiler
    /// to run side by side in vector registers.
    #[inline(always)]
    pub fn threats_after_each(&self, moves: &[u64; 8]) -> [u64; 8] {
        let mine = self.stones[!self.white_to_move() as usize];
        let occupied = self.occupied();
        let mut threats = [0; 8];
        for (threat, &bit) in threats.iter_mut().zip(moves) {
            *threat = line_completions(mine | bit) & !(occupied | bit);
        }
        threats
    }

    /// Plays the mover's stone on `cell` (which must be playable).
    #[inline(always)]
    pub fn play(&mut self, cell: Cell) {
        self.play_with_threats(cell, self.threats_after(cell));
    }

    /// [`Self::play`], given the mover's threats after the move ([`Self::threats_after`]).
    #[inline(always)]
    pub fn play_with_threats(&mut self, cell: Cell, threats_after: BitBoard) {
        debug_assert!(
            self.playable().0 & (1 << cell.index()) != 0,
            "a playable cell"
        );
        debug_assert_eq!(threats_after, self.threats_after(cell));
        let mover = !self.white_to_move() as usize;
        let bit = 1u64 << cell.index();
        self.stones[mover] |= bit;
        self.threats[mover] = threats_after.0;
        // A stone on the opponent's threat blocks it.
        self.threats[1 - mover] &= !bit;
    }

    /// The position after the mover plays `cell`.
    #[inline(always)]
    pub fn after(&self, cell: Cell) -> ClassicPosition {
        let mut next = *self;
        next.play(cell);
        next
    }

    /// Whether the board is full.
    pub const fn is_full(&self) -> bool {
        self.count() == CELLS
    }

    /// Whether `colour` has four in a line.
    pub fn has_four(&self, colour: Colour) -> bool {
        let p = self.stones[colour.index()];
        [1, STRIDE, STRIDE - 1, STRIDE + 1].iter().any(|&s| {
            let m = p & (p >> s);
            m & (m >> (2 * s)) != 0
        })
    }

    /// The unique 49-bit key: per column, the first player's stones plus a 1 just above the
    /// top stone (Pons's `position + mask + bottom`, with the first player's stones).
    pub const fn key(&self) -> u64 {
        self.stones[0] + self.occupied() + BOTTOM
    }

    /// [`Self::key`] of the position after the mover plays `cell`.
    #[inline(always)]
    pub const fn key_after(&self, cell: Cell) -> u64 {
        let bit = 1u64 << cell.index();
        let first = self.stones[0] | if self.white_to_move() { bit } else { 0 };
        first + (self.occupied() | bit) + BOTTOM
    }

    /// The key of the mirror image (columns reversed). The search's table does not use it (see
    /// docs/CLASSIC.md: it saved 0.1 % of the nodes for 8 % more instructions).
    pub const fn mirrored_key(&self) -> u64 {
        let key = self.key();
        let mut mirrored = 0;
        let mut c = 0;
        while c < WIDTH {
            let group = (key >> (c * STRIDE)) & ((1 << STRIDE) - 1);
            mirrored |= group << ((WIDTH - 1 - c) * STRIDE);
            c += 1;
        }
        mirrored
    }

    /// The column (0-based) of `cell`.
    pub const fn column_of(cell: Cell) -> u32 {
        cell.index() as u32 / STRIDE
    }
}

impl fmt::Display for ClassicPosition {
    /// Six rows, the top row first, then the column numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..HEIGHT).rev() {
            let line: Vec<&str> = (0..WIDTH)
                .map(|c| {
                    let bit = 1u64 << (c * STRIDE + row);
                    if self.stones[0] & bit != 0 {
                        "X"
                    } else if self.stones[1] & bit != 0 {
                        "O"
                    } else {
                        "·"
                    }
                })
                .collect();
            writeln!(f, "{}", line.join(" "))?;
        }
        writeln!(f, "1 2 3 4 5 6 7")
    }
}

impl fmt::Debug for ClassicPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{LINES, ODD_ROWS};
    use crate::ClassicRecord;

    /// Four in a line by brute force over the cells, for the shifts to be checked against.
    fn threats_by_hand(position: &ClassicPosition, colour: Colour) -> u64 {
        let own = position.stones(colour).0;
        let mut threats = 0;
        for c in 0..WIDTH as i32 {
            for r in 0..HEIGHT as i32 {
                let bit = 1u64 << (c as u32 * STRIDE + r as u32);
                if position.occupied() & bit != 0 {
                    continue;
                }
                let has = |c: i32, r: i32| {
                    (0..WIDTH as i32).contains(&c)
                        && (0..HEIGHT as i32).contains(&r)
                        && own & (1 << (c as u32 * STRIDE + r as u32)) != 0
                };
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    for start in -3..=0 {
                        let complete = (0..4).all(|k| {
                            let (cc, rr) = (c + (start + k) * dc, r + (start + k) * dr);
                            (cc, rr) == (c, r) || has(cc, rr)
                        });
                        if complete {
                            threats |= bit;
                        }
                    }
                }
            }
        }
        threats
    }

    #[test]
    fn threats_keys_and_mirrors_match_brute_force_along_random_games_and_moves() {
        let mut seed = 12345u64;
        for _ in 0..2000 {
            let mut game = ClassicRecord::default();
            loop {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let position = *game.position();
                for colour in [Colour::White, Colour::Black] {
                    assert_eq!(
                        position.threats(colour).0,
                        threats_by_hand(&position, colour)
                    );
                }
                // The mirror image's key is the key of the mirrored stones.
                let mut mirror = ClassicRecord::default();
                for &c in game.moves() {
                    mirror.play(WIDTH - 1 - c).unwrap();
                }
                assert_eq!(mirror.position().key(), position.mirrored_key());
                if game.is_over() {
                    break;
                }
                let legal: Vec<u32> = (0..WIDTH)
                    .filter(|&c| position.drop_cell(c).is_some())
                    .collect();
                // What the search reads without playing: the key and the mover's threats
                // after each move.
                for &c in &legal {
                    let cell = position.drop_cell(c).unwrap();
                    let next = position.after(cell);
                    assert_eq!(position.key_after(cell), next.key());
                    let mover = position.mover();
                    assert_eq!(
                        position.threats_after(cell).0,
                        threats_by_hand(&next, mover)
                    );
                }
                game.play(legal[(seed >> 33) as usize % legal.len()])
                    .unwrap();
            }
        }
    }

    #[test]
    fn the_lines_are_the_fours_of_the_brute_force() {
        // Each line is four in a line, and every four is one of the lines.
        for &line in &LINES {
            let position = ClassicPosition {
                stones: [line, 0],
                threats: [0; 2],
            };
            assert!(
                position.has_four(Colour::White) && line.count_ones() == 4 && line & !BOARD == 0
            );
        }
        let unique: std::collections::HashSet<u64> = LINES.iter().copied().collect();
        assert_eq!(unique.len(), 69);
        assert_eq!(ODD_ROWS.count_ones(), 21);
    }
}
