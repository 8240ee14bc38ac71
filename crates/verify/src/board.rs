//! A plain board: 64 cells in an array, cell `i = 16·z + 4·y + x`, and the 76 lines found by
//! walking the 13 directions from every cell.

/// Who holds a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// The first player.
    X,
    /// The second player.
    O,
}

/// A position: what lies on each of the 64 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [Option<Stone>; 64],
}

/// The cell at `x`, `y`, `z`.
pub fn cell(x: usize, y: usize, z: usize) -> usize {
    16 * z + 4 * y + x
}

/// The 76 lines of four cells.
pub fn lines() -> Vec<[usize; 4]> {
    let mut lines = Vec::new();
    for dx in -1i32..=1 {
        for dy in -1i32..=1 {
            for dz in -1i32..=1 {
                // One of each pair of opposite directions: the first non-zero step positive.
                let first = [dx, dy, dz].into_iter().find(|&d| d != 0);
                if first != Some(1) {
                    continue;
                }
                for start in 0..64i32 {
                    let (x, y, z) = (start % 4, start / 4 % 4, start / 16);
                    let cells: Vec<(i32, i32, i32)> = (0..4)
                        .map(|k| (x + k * dx, y + k * dy, z + k * dz))
                        .collect();
                    if cells.iter().all(|&(x, y, z)| {
                        (0..4).contains(&x) && (0..4).contains(&y) && (0..4).contains(&z)
                    }) {
                        let mut line = [0; 4];
                        for (slot, &(x, y, z)) in line.iter_mut().zip(&cells) {
                            *slot = cell(x as usize, y as usize, z as usize);
                        }
                        lines.push(line);
                    }
                }
            }
        }
    }
    assert_eq!(lines.len(), 76, "a 4×4×4 board has 76 lines");
    lines
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { cells: [None; 64] };

    /// The board of two masks (bit `i` for cell `i`), or `None` if they overlap.
    pub fn from_masks(x: u64, o: u64) -> Option<Board> {
        if x & o != 0 {
            return None;
        }
        let mut board = Board::EMPTY;
        for i in 0..64 {
            if x >> i & 1 == 1 {
                board.cells[i] = Some(Stone::X);
            } else if o >> i & 1 == 1 {
                board.cells[i] = Some(Stone::O);
            }
        }
        Some(board)
    }

    /// The masks of X's and O's stones.
    pub fn masks(&self) -> (u64, u64) {
        let mut masks = (0u64, 0u64);
        for (i, cell) in self.cells.iter().enumerate() {
            match cell {
                Some(Stone::X) => masks.0 |= 1 << i,
                Some(Stone::O) => masks.1 |= 1 << i,
                None => {}
            }
        }
        masks
    }

    /// What lies on `cell`.
    pub fn at(&self, cell: usize) -> Option<Stone> {
        self.cells[cell]
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.cells.iter().filter(|cell| cell.is_some()).count()
    }

    /// Who moves: X when the number of stones is even.
    pub fn mover(&self) -> Stone {
        if self.stones().is_multiple_of(2) {
            Stone::X
        } else {
            Stone::O
        }
    }

    /// Stones in `column` (0..16).
    pub fn height(&self, column: usize) -> usize {
        (0..4)
            .filter(|&z| self.cells[16 * z + column].is_some())
            .count()
    }

    /// The lowest empty cell of `column`, if it is not full.
    pub fn drop_cell(&self, column: usize) -> Option<usize> {
        (0..4)
            .map(|z| 16 * z + column)
            .find(|&c| self.cells[c].is_none())
    }

    /// The board after the mover plays `column`, or `None` if it is full.
    pub fn after(&self, column: usize) -> Option<Board> {
        let cell = self.drop_cell(column)?;
        let mut next = *self;
        next.cells[cell] = Some(self.mover());
        Some(next)
    }

    /// Whether `stone` holds the four cells of some line.
    pub fn has_four(&self, stone: Stone, lines: &[[usize; 4]]) -> bool {
        lines
            .iter()
            .any(|line| line.iter().all(|&c| self.cells[c] == Some(stone)))
    }

    /// Whether every cell is taken.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_76_distinct_sets_of_four_cells_in_a_row() {
        let lines = lines();
        let mut sorted: Vec<[usize; 4]> = lines
            .iter()
            .map(|line| {
                let mut line = *line;
                line.sort();
                line
            })
            .collect();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 76);
        // Every cell of the corner column 0 lies on 7 lines; the centre cells on 7 too.
        let through = |c: usize| lines.iter().filter(|line| line.contains(&c)).count();
        assert_eq!(through(cell(0, 0, 0)), 7);
        assert_eq!(through(cell(1, 1, 1)), 7);
        assert_eq!(through(cell(1, 0, 0)), 4);
    }

    #[test]
    fn stones_drop_to_the_lowest_empty_cell() {
        let board = Board::EMPTY.after(5).unwrap().after(5).unwrap();
        assert_eq!(board.at(5), Some(Stone::X));
        assert_eq!(board.at(21), Some(Stone::O));
        assert_eq!(board.height(5), 2);
        assert_eq!(board.mover(), Stone::X);
    }
}
