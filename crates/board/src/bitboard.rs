//! The 3-D layout of a [`BitBoard`]: bit `i` for cell `i = 16*z + 4*y + x`, so the bottom layer
//! is bits 0..16 and "the cell above `i`" is `i + 16`. [`Layers`] adds what that layout means
//! (moving a set a layer up or down, drawing it); `BitBoard` itself is the games' shared type.

use core::fmt;

use crate::geometry::LAYER_BITS;
use score4_game::BitBoard;

/// The bottom layer (`z = 0`).
pub const BOTTOM: BitBoard = BitBoard(LAYER_BITS);

/// What a [`BitBoard`] means on the 4×4×4 board.
///
/// [`Layers::drawn`] draws the four layers side by side, bottom layer on the left:
///
/// ```
/// use score4_board::{BitBoard, Cell, CellCoordinates, Layers};
/// let set = BitBoard::from(Cell::new(0, 0, 0)) | BitBoard::from(Cell::new(3, 3, 1));
/// assert_eq!(set.drawn().to_string(), "\
/// z=0      z=1      z=2      z=3
/// x . . .  . . . .  . . . .  . . . .
/// . . . .  . . . .  . . . .  . . . .
/// . . . .  . . . .  . . . .  . . . .
/// . . . .  . . . x  . . . .  . . . .
/// ");
/// assert_eq!(set.up(), BitBoard::from(Cell::new(0, 0, 1)) | BitBoard::from(Cell::new(3, 3, 2)));
/// ```
pub trait Layers: Copy {
    /// Every cell moved one layer up; cells of the top layer leave the board.
    fn up(self) -> BitBoard;
    /// Every cell moved one layer down; cells of the bottom layer leave the board.
    fn down(self) -> BitBoard;
    /// The set drawn as the four layers side by side (`Display`).
    fn drawn(self) -> Drawn;
}

impl Layers for BitBoard {
    #[inline(always)]
    fn up(self) -> BitBoard {
        BitBoard(self.0 << 16)
    }

    #[inline(always)]
    fn down(self) -> BitBoard {
        BitBoard(self.0 >> 16)
    }

    fn drawn(self) -> Drawn {
        Drawn(self)
    }
}

/// A [`BitBoard`] drawn as the four layers of the board ([`Layers::drawn`]).
#[derive(Clone, Copy)]
pub struct Drawn(pub BitBoard);

impl fmt::Display for Drawn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let picture = crate::render::draw_layers(|cell| if self.0.has(cell) { 'x' } else { '.' });
        f.write_str(&picture)
    }
}

impl fmt::Debug for Drawn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::CELLS;

    #[test]
    fn every_cell_of_the_board_is_a_bit() {
        assert_eq!(CELLS.iter().copied().collect::<BitBoard>(), BitBoard::FULL);
        assert_eq!(BOTTOM.up().up().up().down().down().down(), BOTTOM);
    }
}
