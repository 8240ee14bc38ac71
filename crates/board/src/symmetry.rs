//! The 8 symmetries of the board: the symmetries of the square acting on `(x, y)` in every layer
//! (gravity fixes `z`). The report's `flipLR`, `flipUD` and `flipDI` generate them.

use crate::geometry::{Cell, Column};
use crate::BitBoard;

/// Mirror `x ↦ 3 - x` in every layer (the report's `flipLR`).
#[inline(always)]
pub const fn flip_lr(b: u64) -> u64 {
    ((b & 0x8888_8888_8888_8888) >> 3)
        | ((b & 0x4444_4444_4444_4444) >> 1)
        | ((b & 0x2222_2222_2222_2222) << 1)
        | ((b & 0x1111_1111_1111_1111) << 3)
}

/// Mirror `y ↦ 3 - y` in every layer (the report's `flipUD`).
#[inline(always)]
pub const fn flip_ud(b: u64) -> u64 {
    ((b & 0xF000_F000_F000_F000) >> 12)
        | ((b & 0x0F00_0F00_0F00_0F00) >> 4)
        | ((b & 0x00F0_00F0_00F0_00F0) << 4)
        | ((b & 0x000F_000F_000F_000F) << 12)
}

/// Mirror in the anti-diagonal, `(x, y) ↦ (3 - y, 3 - x)`, in every layer (the report's `flipDI`).
#[inline(always)]
pub const fn flip_di(b: u64) -> u64 {
    ((b & 0x8000_8000_8000_8000) >> 15)
        | ((b & 0x4800_4800_4800_4800) >> 10)
        | ((b & 0x2480_2480_2480_2480) >> 5)
        | (b & 0x1248_1248_1248_1248)
        | ((b & 0x0124_0124_0124_0124) << 5)
        | ((b & 0x0012_0012_0012_0012) << 10)
        | ((b & 0x0001_0001_0001_0001) << 15)
}

/// One of the 8 symmetries: `flip_lr` if bit 0, then `flip_ud` if bit 1, then `flip_di` if bit 2.
/// `Symmetry(0)` is the identity.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Symmetry(u8);

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// All 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The symmetry numbered `n` (`0..8`), as in [`Symmetry::ALL`].
    pub const fn new(n: u8) -> Option<Symmetry> {
        if n < 8 {
            Some(Symmetry(n))
        } else {
            None
        }
    }

    /// Its number in `0..8`.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The image of a raw 64-bit cell set.
    #[inline(always)]
    pub const fn apply_bits(self, mut b: u64) -> u64 {
        if self.0 & 1 != 0 {
            b = flip_lr(b);
        }
        if self.0 & 2 != 0 {
            b = flip_ud(b);
        }
        if self.0 & 4 != 0 {
            b = flip_di(b);
        }
        b
    }

    /// The image of a cell set.
    #[inline(always)]
    pub const fn apply(self, b: BitBoard) -> BitBoard {
        BitBoard(self.apply_bits(b.0))
    }

    /// The image of a cell.
    pub const fn cell(self, cell: Cell) -> Cell {
        Cell::from_index(self.apply_bits(1 << cell.index()).trailing_zeros() as u8)
    }

    /// The image of a column.
    pub const fn column(self, column: Column) -> Column {
        match Column::new(self.apply_bits(1 << column.number()).trailing_zeros() as u8) {
            Some(c) => c,
            None => unreachable!(),
        }
    }

    /// The symmetry `self` followed by `then`.
    pub fn then(self, then: Symmetry) -> Symmetry {
        let probe = then.apply_bits(self.apply_bits(PROBE));
        Symmetry::ALL
            .into_iter()
            .find(|s| s.apply_bits(PROBE) == probe)
            .expect("the symmetries form a group")
    }

    /// The symmetry that undoes `self`.
    pub fn inverse(self) -> Symmetry {
        Symmetry::ALL
            .into_iter()
            .find(|s| self.then(*s) == Symmetry::IDENTITY)
            .expect("the symmetries form a group")
    }
}

/// A subgroup of the 8 symmetries (a set closed under composition, holding the identity), as a
/// mask: bit `n` for [`Symmetry::new`]`(n)`. The table keys of a search fold together exactly
/// the positions that are images of each other under the group ([`crate::key::least_image_key`]).
///
/// ```
/// use score4_board::symmetry::SymmetryGroup;
/// use score4_board::Symmetry;
/// let mirror_in_x = Symmetry::new(1).unwrap();
/// let mirror_in_y = Symmetry::new(2).unwrap();
/// assert_eq!(SymmetryGroup::generated_by([]), SymmetryGroup::TRIVIAL);
/// // A mirror is its own inverse: with the identity it is a group of two.
/// assert_eq!(SymmetryGroup::generated_by([mirror_in_x]).order(), 2);
/// // Both mirrors generate the half-turn too.
/// let group = SymmetryGroup::generated_by([mirror_in_x, mirror_in_y]);
/// assert_eq!(group.order(), 4);
/// assert!(group.contains(mirror_in_x.then(mirror_in_y)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SymmetryGroup(u8);

impl SymmetryGroup {
    /// The identity alone: every position keyed as it stands.
    pub const TRIVIAL: SymmetryGroup = SymmetryGroup(1);
    /// All 8 symmetries: the canonical key.
    pub const ALL: SymmetryGroup = SymmetryGroup(0xFF);

    /// The least group holding `generators`.
    pub fn generated_by(generators: impl IntoIterator<Item = Symmetry>) -> SymmetryGroup {
        let mut members = SymmetryGroup::TRIVIAL.0;
        for generator in generators {
            members |= 1 << generator.number();
        }
        // Close under composition (at most three rounds in a group of 8).
        loop {
            let mut closed = members;
            for a in Symmetry::ALL
                .into_iter()
                .filter(|a| members >> a.0 & 1 != 0)
            {
                for b in Symmetry::ALL
                    .into_iter()
                    .filter(|b| members >> b.0 & 1 != 0)
                {
                    closed |= 1 << a.then(b).0;
                }
            }
            if closed == members {
                return SymmetryGroup(members);
            }
            members = closed;
        }
    }

    /// Whether `sym` is in the group.
    #[inline(always)]
    pub const fn contains(self, sym: Symmetry) -> bool {
        self.0 >> sym.0 & 1 != 0
    }

    /// Whether the group is the identity alone.
    #[inline(always)]
    pub const fn is_trivial(self) -> bool {
        self.0 == SymmetryGroup::TRIVIAL.0
    }

    /// How many symmetries it holds (its order: 1, 2, 4 or 8).
    pub const fn order(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Its members, the identity first.
    #[inline(always)]
    pub fn iter(self) -> impl Iterator<Item = Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(move |&sym| self.contains(sym))
    }
}

/// Cells 0 and 1 of the bottom layer: no symmetry but the identity maps this pair onto itself,
/// so its images tell apart all 8 symmetries.
const PROBE: u64 = 0b11;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{CellCoordinates, LINES, LINE_COUNT};

    /// The symmetry by coordinates, independent of the bit tricks above.
    fn by_coordinates(s: Symmetry, cell: Cell) -> Cell {
        let (mut x, mut y) = (cell.x(), cell.y());
        if s.0 & 1 != 0 {
            x = 3 - x;
        }
        if s.0 & 2 != 0 {
            y = 3 - y;
        }
        if s.0 & 4 != 0 {
            (x, y) = (3 - y, 3 - x);
        }
        Cell::new(x, y, cell.z())
    }

    #[test]
    fn bit_tricks_agree_with_coordinates() {
        for s in Symmetry::ALL {
            for i in 0..64 {
                let cell = Cell::from_index(i);
                assert_eq!(s.cell(cell), by_coordinates(s, cell), "{s:?} on cell {i}");
            }
        }
    }

    #[test]
    fn the_eight_maps_are_distinct_and_map_lines_onto_lines() {
        let images: std::collections::HashSet<u64> =
            Symmetry::ALL.iter().map(|s| s.apply_bits(PROBE)).collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            let mut mapped: Vec<u64> = LINES.iter().map(|&l| s.apply_bits(l)).collect();
            let mut lines = LINES.to_vec();
            mapped.sort_unstable();
            lines.sort_unstable();
            assert_eq!(mapped, lines, "{s:?} must permute the {LINE_COUNT} lines");
        }
    }

    #[test]
    fn symmetries_form_a_group() {
        // Closure, identity and inverses; associativity holds for maps.
        for a in Symmetry::ALL {
            assert_eq!(a.then(Symmetry::IDENTITY), a);
            assert_eq!(Symmetry::IDENTITY.then(a), a);
            assert_eq!(a.then(a.inverse()), Symmetry::IDENTITY);
            for b in Symmetry::ALL {
                let composed = a.then(b);
                for i in 0..64 {
                    let cell = Cell::from_index(i);
                    assert_eq!(composed.cell(cell), b.cell(a.cell(cell)));
                }
            }
        }
        // The three flips are involutions and generate all eight.
        for f in [flip_lr, flip_ud, flip_di] {
            assert_eq!(f(f(0x0123_4567_89AB_CDEF)), 0x0123_4567_89AB_CDEF);
        }
    }

    #[test]
    fn gravity_is_kept_columns_map_to_columns() {
        for s in Symmetry::ALL {
            for c in Column::all() {
                assert_eq!(s.apply(c.cells()), s.column(c).cells());
            }
        }
    }
}
