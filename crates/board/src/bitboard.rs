//! [`BitBoard`]: a set of cells as one 64-bit word, bit `i` for cell `i = 16*z + 4*y + x`.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::geometry::{Cell, LAYER_BITS};

/// A set of cells of the 4×4×4 board.
///
/// Bit `i` stands for cell `i = 16*z + 4*y + x` (layer `z = 0` at the bottom), so the bottom
/// layer is bits 0..16 and "the cell above `i`" is `i + 16`: [`BitBoard::up`] moves every cell
/// one layer up (cells of the top layer fall off).
///
/// `Debug` draws the four layers side by side, bottom layer on the left:
///
/// ```
/// use score4_board::{BitBoard, Cell};
/// let set = BitBoard::from(Cell::new(0, 0, 0)) | BitBoard::from(Cell::new(3, 3, 1));
/// assert_eq!(format!("{set:?}"), "\
/// z=0      z=1      z=2      z=3
/// x . . .  . . . .  . . . .  . . . .
/// . . . .  . . . .  . . . .  . . . .
/// . . . .  . . . .  . . . .  . . . .
/// . . . .  . . . x  . . . .  . . . .
/// ");
/// assert_eq!(set.up(), BitBoard::from(Cell::new(0, 0, 1)) | BitBoard::from(Cell::new(3, 3, 2)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct BitBoard(pub u64);

impl BitBoard {
    /// No cell.
    pub const EMPTY: BitBoard = BitBoard(0);
    /// All 64 cells.
    pub const FULL: BitBoard = BitBoard(!0);
    /// The bottom layer (`z = 0`).
    pub const BOTTOM: BitBoard = BitBoard(LAYER_BITS);

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

    /// Every cell moved one layer up; cells of the top layer leave the board.
    #[inline(always)]
    pub const fn up(self) -> BitBoard {
        BitBoard(self.0 << 16)
    }

    /// Every cell moved one layer down; cells of the bottom layer leave the board.
    #[inline(always)]
    pub const fn down(self) -> BitBoard {
        BitBoard(self.0 >> 16)
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

impl fmt::Debug for BitBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let picture = crate::render::draw_layers(|cell| if self.has(cell) { 'x' } else { '.' });
        f.write_str(&picture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::CELLS;

    #[test]
    fn iteration_visits_each_cell_once_in_order() {
        let set = BitBoard(0x8000_0000_0001_0010);
        let cells: Vec<u8> = set.iter().map(Cell::index).collect();
        assert_eq!(cells, vec![4, 16, 63]);
        assert_eq!(set.iter().len(), 3);
        assert_eq!(CELLS.iter().copied().collect::<BitBoard>(), BitBoard::FULL);
    }
}
