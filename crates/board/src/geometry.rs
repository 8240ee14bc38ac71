//! Cells, columns and the 76 lines of four, all computed at compile time.

use core::fmt;

/// Bits of one layer (16 cells).
pub(crate) const LAYER_BITS: u64 = 0xFFFF;

pub use score4_game::Cell;

/// What a [`Cell`] (a bit index) means on the 4×4×4 board: `index = 16*z + 4*y + x`, with `z`
/// the layer (0 at the bottom) and `(x, y)` the column.
///
/// ```
/// use score4_board::{Cell, CellCoordinates, Column};
/// let cell = Cell::new(1, 2, 3);
/// assert_eq!(cell.index(), 16 * 3 + 4 * 2 + 1);
/// assert_eq!((cell.x(), cell.y(), cell.z()), (1, 2, 3));
/// assert_eq!(cell.column(), Column::new(9).unwrap());
/// ```
pub trait CellCoordinates: Copy {
    /// The cell at column `(x, y)` and layer `z`, each in `0..4`.
    ///
    /// # Panics
    /// If a coordinate is 4 or more.
    fn new(x: u8, y: u8, z: u8) -> Self;
    /// Coordinate `x` (`0..4`).
    fn x(self) -> u8;
    /// Coordinate `y` (`0..4`).
    fn y(self) -> u8;
    /// Layer `z` (`0..4`, 0 at the bottom).
    fn z(self) -> u8;
    /// The column the cell stands in.
    fn column(self) -> Column;
}

impl CellCoordinates for Cell {
    fn new(x: u8, y: u8, z: u8) -> Cell {
        assert!(x < 4 && y < 4 && z < 4, "cell coordinate out of range");
        Cell::from_index(16 * z + 4 * y + x)
    }
    #[inline(always)]
    fn x(self) -> u8 {
        self.index() & 3
    }
    #[inline(always)]
    fn y(self) -> u8 {
        self.index() >> 2 & 3
    }
    #[inline(always)]
    fn z(self) -> u8 {
        self.index() >> 4
    }
    #[inline(always)]
    fn column(self) -> Column {
        Column(self.index() & 15)
    }
}

/// All 64 cells in index order.
pub const CELLS: [Cell; 64] = {
    let mut cells = [Cell::from_index(0); 64];
    let mut i = 0;
    while i < 64 {
        cells[i] = Cell::from_index(i as u8);
        i += 1;
    }
    cells
};

/// One of the 16 columns, `c = 4*y + x`, written as one hex digit `0-9A-F`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Column(u8);

impl Column {
    /// The column with number `c` (`0..16`), or `None`.
    pub const fn new(c: u8) -> Option<Column> {
        if c < 16 {
            Some(Column(c))
        } else {
            None
        }
    }

    /// The column written as the hex digit `ch` (either case), or `None`.
    pub const fn from_char(ch: char) -> Option<Column> {
        match ch {
            '0'..='9' => Some(Column(ch as u8 - b'0')),
            'A'..='F' => Some(Column(ch as u8 - b'A' + 10)),
            'a'..='f' => Some(Column(ch as u8 - b'a' + 10)),
            _ => None,
        }
    }

    /// The column's number `4*y + x`.
    #[inline(always)]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The upper-case hex digit naming the column.
    pub const fn to_char(self) -> char {
        b"0123456789ABCDEF"[self.0 as usize] as char
    }

    /// The four cells of the column, as a bit set.
    #[inline(always)]
    pub const fn cells(self) -> crate::BitBoard {
        crate::BitBoard(0x0001_0001_0001_0001 << self.0)
    }

    /// All 16 columns in order.
    pub fn all() -> impl Iterator<Item = Column> {
        (0..16).map(Column)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Number of lines of four.
pub const LINE_COUNT: usize = 76;

/// The 13 directions of a line, each with its sign chosen once.
const DIRECTIONS: [(i8, i8, i8); 13] = [
    (1, 0, 0),
    (0, 1, 0),
    (0, 0, 1),
    (1, 1, 0),
    (1, -1, 0),
    (1, 0, 1),
    (1, 0, -1),
    (0, 1, 1),
    (0, 1, -1),
    (1, 1, 1),
    (1, 1, -1),
    (1, -1, 1),
    (1, -1, -1),
];

const fn on(v: i8) -> bool {
    0 <= v && v < 4
}

/// The 76 lines of four as cell sets: 48 along the axes, 24 diagonals inside planes, 4 space
/// diagonals. On a board of side 4 a line spans the board, so it is found from its first cell:
/// the cell whose step backwards leaves the board while three steps forwards stay on it.
pub const LINES: [u64; LINE_COUNT] = {
    let mut lines = [0u64; LINE_COUNT];
    let mut count = 0;
    let mut d = 0;
    while d < DIRECTIONS.len() {
        let (dx, dy, dz) = DIRECTIONS[d];
        let mut i = 0;
        while i < 64 {
            let (x, y, z) = ((i & 3) as i8, (i >> 2 & 3) as i8, (i >> 4) as i8);
            let starts = !(on(x - dx) && on(y - dy) && on(z - dz));
            let fits = on(x + 3 * dx) && on(y + 3 * dy) && on(z + 3 * dz);
            if starts && fits {
                let mut mask = 0u64;
                let mut k = 0;
                while k < 4 {
                    let (cx, cy, cz) = (x + k * dx, y + k * dy, z + k * dz);
                    mask |= 1 << (16 * cz + 4 * cy + cx);
                    k += 1;
                }
                lines[count] = mask;
                count += 1;
            }
            i += 1;
        }
        d += 1;
    }
    assert!(count == LINE_COUNT);
    lines
};

/// Most lines through one cell: 7 for the 8 corners and the 8 inner cells, 4 for the others.
pub const MAX_LINES_PER_CELL: usize = 7;

/// For each cell, the masks of the lines through it, padded with empty masks to 7.
/// An empty mask never looks like a line, so loops may run over all 7 without a count.
pub const LINES_THROUGH: [[u64; MAX_LINES_PER_CELL]; 64] = {
    let mut table = [[0u64; MAX_LINES_PER_CELL]; 64];
    let mut cell = 0;
    while cell < 64 {
        let mut n = 0;
        let mut l = 0;
        while l < LINE_COUNT {
            if LINES[l] >> cell & 1 != 0 {
                table[cell][n] = LINES[l];
                n += 1;
            }
            l += 1;
        }
        cell += 1;
    }
    table
};

/// For each cell, the set of lines through it, bit `l` standing for `LINES[l]`.
pub const LINE_SET_THROUGH: [u128; 64] = {
    let mut table = [0u128; 64];
    let mut cell = 0;
    while cell < 64 {
        let mut l = 0;
        while l < LINE_COUNT {
            if LINES[l] >> cell & 1 != 0 {
                table[cell] |= 1 << l;
            }
            l += 1;
        }
        cell += 1;
    }
    table
};

/// Cells per chunk of [`lines_through_any`]'s tables.
const CHUNK_BITS: usize = 8;
/// Chunks of a board.
const CHUNKS: usize = 64 / CHUNK_BITS;

/// For each chunk of `CHUNK_BITS` cells and each subset of it, the set of lines through any
/// cell of the subset (bit `l` standing for `LINES[l]`).
static LINE_SET_THROUGH_CHUNK: [[u128; 1 << CHUNK_BITS]; CHUNKS] = {
    let mut table = [[0u128; 1 << CHUNK_BITS]; CHUNKS];
    let mut chunk = 0;
    while chunk < CHUNKS {
        let mut subset: usize = 1;
        while subset < 1 << CHUNK_BITS {
            let low = subset.trailing_zeros() as usize;
            table[chunk][subset] =
                table[chunk][subset & (subset - 1)] | LINE_SET_THROUGH[chunk * CHUNK_BITS + low];
            subset += 1;
        }
        chunk += 1;
    }
    table
};

/// The set of lines through any cell of `cells` (bit `l` standing for `LINES[l]`): one table
/// read per chunk of 8 cells, instead of a loop over the cells or over the 76 lines.
#[inline(always)]
pub fn lines_through_any(cells: u64) -> u128 {
    union_over_chunks(cells, [0, 1, 2, 3, 4, 5, 6, 7])
}

/// [`lines_through_any`] for cells of layers 1 and 3 only (counting from 0): half the reads.
///
/// Contract: `cells` has no cell on layers 0 and 2.
#[inline(always)]
pub fn lines_through_any_on_odd_layers(cells: u64) -> u128 {
    debug_assert_eq!(cells & 0x0000_FFFF_0000_FFFF, 0, "a cell on layer 0 or 2");
    // Layer 1 is cells 16–31, layer 3 cells 48–63.
    const _: () = assert!(
        CHUNK_BITS == 8,
        "the chunks of layers 1 and 3 are 2, 3, 6 and 7"
    );
    union_over_chunks(cells, [2, 3, 6, 7])
}

/// The lines through any cell of `cells` that lies in one of `chunks`.
#[inline(always)]
fn union_over_chunks<const N: usize>(cells: u64, chunks: [usize; N]) -> u128 {
    let mut set = 0;
    for chunk in chunks {
        let subset = (cells >> (chunk * CHUNK_BITS)) as usize & ((1 << CHUNK_BITS) - 1);
        set |= LINE_SET_THROUGH_CHUNK[chunk][subset];
    }
    set
}

/// The lines of a line set (bit `l` standing for `LINES[l]`), as their cells, in the order of
/// their numbers. Walks the set's two 64-bit halves one after the other: cheaper than the
/// 128-bit bit scan and clear that a loop over the whole set would make at each step.
#[inline(always)]
pub fn lines_in(set: u128) -> LinesIn {
    LinesIn {
        low: set as u64,
        high: (set >> 64) as u64,
    }
}

/// The iterator of [`lines_in`].
#[derive(Clone, Copy, Debug)]
pub struct LinesIn {
    low: u64,
    high: u64,
}

impl Iterator for LinesIn {
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        if self.low != 0 {
            let l = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            Some(LINES[l])
        } else if self.high != 0 {
            let l = self.high.trailing_zeros() as usize;
            self.high &= self.high - 1;
            Some(LINES[64 + l])
        } else {
            None
        }
    }
}

/// The set of all 76 lines, bit `l` standing for `LINES[l]`.
pub const ALL_LINES: u128 = (1 << LINE_COUNT) - 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_76_distinct_sets_of_four() {
        let mut seen = std::collections::HashSet::new();
        for line in LINES {
            assert_eq!(line.count_ones(), 4);
            assert!(seen.insert(line));
        }
        assert_eq!(seen.len(), 76);
    }

    #[test]
    fn line_families_have_the_textbook_sizes() {
        // Cells on 7 lines: the 8 corners and the 8 inner cells; every other cell is on 4.
        let mut on_seven = 0;
        for cell in 0..64 {
            let n = LINES_THROUGH[cell].iter().filter(|&&m| m != 0).count();
            assert_eq!(n as u32, LINE_SET_THROUGH[cell].count_ones());
            assert!(n == 4 || n == 7, "cell {cell} is on {n} lines");
            on_seven += (n == 7) as u32;
        }
        assert_eq!(on_seven, 16);
        // 4 lines per 16 cells... each line has 4 cells: sum of incidences = 76 * 4.
        let incidences: u32 = LINE_SET_THROUGH.iter().map(|s| s.count_ones()).sum();
        assert_eq!(incidences, 76 * 4);
    }

    #[test]
    fn columns_parse_and_print_as_hex_digits() {
        for c in 0..16u8 {
            let col = Column::new(c).unwrap();
            assert_eq!(Column::from_char(col.to_char()), Some(col));
            assert_eq!(
                Column::from_char(col.to_char().to_ascii_lowercase()),
                Some(col)
            );
        }
        assert_eq!(Column::from_char('G'), None);
        assert_eq!(Column::new(16), None);
    }

    #[test]
    fn the_lines_through_any_of_some_cells_are_the_union_of_the_lines_through_each() {
        let union = |cells: u64| {
            (0..64)
                .filter(|&cell| cells >> cell & 1 != 0)
                .fold(0u128, |set, cell| set | LINE_SET_THROUGH[cell])
        };
        let mut cells = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            // xorshift: sets of every density, and each single cell below
            cells ^= cells << 13;
            cells ^= cells >> 7;
            cells ^= cells << 17;
            let sparse = cells & (cells >> 3) & (cells >> 5);
            assert_eq!(lines_through_any(cells), union(cells));
            assert_eq!(lines_through_any(sparse), union(sparse));
        }
        for (cell, &lines) in LINE_SET_THROUGH.iter().enumerate() {
            assert_eq!(lines_through_any(1 << cell), lines);
        }
        for cells in [0x5A5A_A5A5_5A5A_A5A5u64, !0, 0x8001_0000_0001_0000] {
            let odd = cells & 0xFFFF_0000_FFFF_0000;
            assert_eq!(lines_through_any_on_odd_layers(odd), union(odd));
        }
        assert_eq!(lines_through_any(0), 0);
        assert_eq!(lines_through_any(!0), ALL_LINES);
    }

    #[test]
    fn lines_in_yields_the_lines_of_a_set_in_order_across_both_halves() {
        let plain = |set: u128| -> Vec<u64> {
            (0..LINE_COUNT)
                .filter(|&l| set >> l & 1 != 0)
                .map(|l| LINES[l])
                .collect()
        };
        let mut bits = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1_000 {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            let set = ((bits as u128) << 64 | bits.rotate_left(29) as u128) & ALL_LINES;
            assert_eq!(lines_in(set).collect::<Vec<_>>(), plain(set));
        }
        assert_eq!(lines_in(ALL_LINES).count(), LINE_COUNT);
        assert_eq!(lines_in(1 << 75).collect::<Vec<_>>(), [LINES[75]]);
        assert_eq!(lines_in(0).next(), None);
    }
}
