//! [`BitBoard`]: a set of cells as one 64-bit word; [`Cell`]: one cell as its bit index.
//!
//! Which cell a bit stands for is each game's choice: Connect Four 3D numbers its 64 cells
//! `16*z + 4*y + x` (layer `z` at the bottom first), the classic 7×6 game `7*column + row`. The
//! operations here do not depend on the layout; a game adds its own (layers, drawings) beside
//! its board.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// One cell of a board: a bit index `0..64` of a [`BitBoard`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell with bit index `index` (`0..64`).
    ///
    /// # Panics
    /// If `index >= 64` (in debug builds only).
    #[inline(always)]
    pub const fn from_index(index: u8) -> Cell {
        debug_assert!(index < 64);
        Cell(index)
    }

    /// The cell's bit index.
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }
}

/// A set of cells: bit `i` stands for the cell of index `i`.
///
/// ```
/// use score4_game::{BitBoard, Cell};
/// let set = BitBoard::from(Cell::from_index(3)) | BitBoard::from(Cell::from_index(40));
/// assert_eq!(set.len(), 2);
/// assert_eq!(set.first(), Some(Cell::from_index(3)));
/// assert_eq!(set.iter().map(Cell::index).collect::<Vec<_>>(), [3, 40]);
/// assert_eq!(format!("{set:?}"), "BitBoard(0x0000010000000008)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct BitBoard(pub u64);

impl BitBoard {
    /// No cell.
    pub const EMPTY: BitBoard = BitBoard(0);
    /// All 64 cells.
    pub const FULL: BitBoard = BitBoard(!0);

    /// The set holding only `cell`.
    #[inline(always)]
    pub const fn from_cell(cell: Cell) -> BitBoard {
        BitBoard(1 << cell.index())
    }

    /// Whether `cell` is in the set.
    #[inline(always)]
    pub const fn has(self, cell: Cell) -> bool {
        self.0 >> cell.index() & 1 != 0
    }

    /// Number of cells in the set.
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds two or more cells.
    #[inline(always)]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest cell of the set (by index), if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// The cells of the set in increasing index order.
    #[inline(always)]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl From<Cell> for BitBoard {
    #[inline(always)]
    fn from(cell: Cell) -> BitBoard {
        BitBoard::from_cell(cell)
    }
}

impl IntoIterator for BitBoard {
    type Item = Cell;
    type IntoIter = BitIter;
    #[inline(always)]
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

impl FromIterator<Cell> for BitBoard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> BitBoard {
        iter.into_iter()
            .fold(BitBoard::EMPTY, |set, cell| set | cell.into())
    }
}

/// Iterator over the cells of a [`BitBoard`], lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter(u64);

impl Iterator for BitIter {
    type Item = Cell;
    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell::from_index(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for BitBoard {
            type Output = BitBoard;
            #[inline(always)]
            fn $fn(self, rhs: BitBoard) -> BitBoard {
                BitBoard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for BitBoard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: BitBoard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for BitBoard {
    type Output = BitBoard;
    #[inline(always)]
    fn not(self) -> BitBoard {
        BitBoard(!self.0)
    }
}

/// The word in hex: the layout is the game's, so a drawing is the game's too (the 3-D board
/// draws a set as four layers side by side).
impl fmt::Debug for BitBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BitBoard({:#018x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_visits_each_cell_once_in_order() {
        let set = BitBoard(0x8000_0000_0001_0010);
        let cells: Vec<u8> = set.iter().map(Cell::index).collect();
        assert_eq!(cells, vec![4, 16, 63]);
        assert_eq!(set.iter().len(), 3);
        let all = (0..64).map(Cell::from_index).collect::<BitBoard>();
        assert_eq!(all, BitBoard::FULL);
    }
}
