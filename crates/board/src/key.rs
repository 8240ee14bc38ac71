//! The report's 80-bit compact encoding of a position, and its canonical form under symmetry.
//!
//! Per column, from the bottom: one bit per stone (1 white, 0 black), then a 1 marking the lowest
//! empty cell, then zeros. Stone bits sit at the cell's own bit (`16*z + c`); the marker of a full
//! column sits at bit `64 + c`. So the key is `white | lowest_empty` in bits 0..64 plus the
//! "column is full" bits in 64..80, and it is injective: the highest 1 of each column is its
//! marker and everything below it is a stone. The canonical key is the least of the keys of the
//! 8 symmetric images; it is the same for all 8 images of a position.

use crate::symmetry::Symmetry;

/// Compact key of the position with the given stones (see the module documentation).
///
/// ```
/// use score4_board::key::compact_key;
/// // Empty board: every marker on the bottom layer.
/// assert_eq!(compact_key(0, 0), 0xFFFF);
/// // White in column 0, black above it: markers of column 0 move up two layers.
/// assert_eq!(compact_key(1, 1 << 16), 0xFFFE | 1 | 1 << 32);
/// ```
#[inline]
pub const fn compact_key(white: u64, black: u64) -> u128 {
    let filled = white | black;
    let empty = !filled;
    let lowest_empty = empty & !(empty << 16);
    let full_columns = filled >> 48;
    ((full_columns as u128) << 64) | (white | lowest_empty) as u128
}

/// The stones `(white, black)` of a compact key; `None` if `key` is not a compact key.
pub fn decode_compact(key: u128) -> Option<(u64, u64)> {
    if key >> 80 != 0 {
        return None;
    }
    let (mut white, mut black) = (0u64, 0u64);
    for c in 0..16 {
        // Bits of column c, bottom first, with the full-column bit as a fifth layer.
        let bits: Vec<bool> = (0..5).map(|z| key >> (16 * z + c) & 1 != 0).collect();
        let marker = bits.iter().rposition(|&b| b)?;
        for (z, &bit) in bits.iter().enumerate().take(marker) {
            let cell = 1u64 << (16 * z + c);
            if bit {
                white |= cell;
            } else {
                black |= cell;
            }
        }
    }
    Some((white, black))
}

/// Bit of the image of cell `i` under symmetry `s`: `SYMMETRIC_CELL_BIT[s][i]`.
const SYMMETRIC_CELL_BIT: [[u64; 64]; 8] = {
    let mut table = [[0u64; 64]; 8];
    let mut s = 0;
    while s < 8 {
        let sym = match Symmetry::new(s as u8) {
            Some(sym) => sym,
            None => unreachable!(),
        };
        let mut i = 0;
        while i < 64 {
            table[s][i] = sym.apply_bits(1 << i);
            i += 1;
        }
        s += 1;
    }
    table
};

/// `KEY_DELTAS[colour][cell][s]`: the XOR that a stone of `colour` (0 white, 1 black) on `cell`
/// makes in the key of image `s`. A white stone leaves its cell's bit at 1 and sets the marker
/// above; a black stone clears its cell's bit and sets the marker above. The 8 deltas of one
/// move are adjacent (128 bytes), so a move reads two cache lines.
static KEY_DELTAS: [[[u128; 8]; 64]; 2] = {
    let mut table = [[[0u128; 8]; 64]; 2];
    let mut cell = 0;
    while cell < 64 {
        let mut s = 0;
        while s < 8 {
            let bit = SYMMETRIC_CELL_BIT[s][cell] as u128;
            table[0][cell][s] = bit << 16;
            table[1][cell][s] = bit | bit << 16;
            s += 1;
        }
        cell += 1;
    }
    table
};

/// The compact keys of all 8 symmetric images of a position, updated move by move.
///
/// A move changes each image's key by one XOR: a white stone leaves its cell's bit at 1 and sets
/// the marker above; a black stone clears its cell's bit and sets the marker above. Keeping the
/// eight keys costs 8 XORs a move; recomputing them costs about 200 bit operations a probe.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct SymmetricKeys([u128; 8]);

impl SymmetricKeys {
    /// The keys of the empty board.
    pub const EMPTY: SymmetricKeys = SymmetricKeys([0xFFFF; 8]);

    /// The keys of the position with the given stones.
    pub fn from_stones(white: u64, black: u64) -> SymmetricKeys {
        let mut keys = [0u128; 8];
        for (key, sym) in keys.iter_mut().zip(Symmetry::ALL) {
            *key = compact_key(sym.apply_bits(white), sym.apply_bits(black));
        }
        SymmetricKeys(keys)
    }

    /// Records a stone on `cell` (which must be the lowest empty cell of its column).
    #[inline(always)]
    pub fn play(&mut self, cell: u8, white: bool) {
        let deltas = &KEY_DELTAS[!white as usize][cell as usize];
        for (key, delta) in self.0.iter_mut().zip(deltas) {
            *key ^= delta;
        }
    }

    /// The key of image `sym`.
    pub fn image(&self, sym: Symmetry) -> u128 {
        self.0[sym.number() as usize]
    }

    /// The canonical key: the least key of the 8 images.
    #[inline(always)]
    pub fn canonical(&self) -> u128 {
        let k = &self.0;
        let a = k[0].min(k[1]).min(k[2].min(k[3]));
        let b = k[4].min(k[5]).min(k[6].min(k[7]));
        a.min(b)
    }

    /// The canonical key after a stone on `cell`, without changing `self`.
    #[inline(always)]
    pub fn canonical_after(&self, cell: u8, white: bool) -> u128 {
        let mut next = *self;
        next.play(cell, white);
        next.canonical()
    }
}
