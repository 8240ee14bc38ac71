//! The report's 80-bit compact encoding of a position, and its canonical form under symmetry.
//!
//! Per column, from the bottom: one bit per stone (1 white, 0 black), then a 1 marking the lowest
//! empty cell, then zeros. Stone bits sit at the cell's own bit (`16*z + c`); the marker of a full
//! column sits at bit `64 + c`. So the key is `white | lowest_empty` in bits 0..64 plus the
//! "column is full" bits in 64..80, and it is injective: the highest 1 of each column is its
//! marker and everything below it is a stone. The canonical key is the least of the keys of the
//! 8 symmetric images; it is the same for all 8 images of a position. A search keys its table
//! by the least key over a subgroup ([`least_image_key`]): only the symmetries that can make two
//! positions of its tree images of each other (`Position::transposing_symmetries`), for most
//! positions none.

use crate::symmetry::{Symmetry, SymmetryGroup};

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

/// The least compact key over the images of the position with these stones under `group`:
/// the same for any two positions that are images of each other under `group`, and, like every
/// compact key, the key of one image of the position, so a table keyed this way never mixes
/// positions of different values. With the trivial group it is the position's own compact key
/// (a few operations); with all 8 symmetries, the canonical key.
///
/// ```
/// use score4_board::key::{compact_key, least_image_key};
/// use score4_board::symmetry::SymmetryGroup;
/// use score4_board::Symmetry;
/// // A white stone in column 0 and its mirror image in column 3.
/// let (left, right) = (1u64, 1u64 << 3);
/// let mirror = SymmetryGroup::generated_by([Symmetry::new(1).unwrap()]);
/// assert_eq!(least_image_key(left, 0, mirror), least_image_key(right, 0, mirror));
/// assert_ne!(least_image_key(left, 0, SymmetryGroup::TRIVIAL),
///            least_image_key(right, 0, SymmetryGroup::TRIVIAL));
/// assert_eq!(least_image_key(right, 0, SymmetryGroup::TRIVIAL), compact_key(right, 0));
/// ```
#[inline(always)]
pub fn least_image_key(white: u64, black: u64, group: SymmetryGroup) -> u128 {
    if group.is_trivial() {
        return compact_key(white, black);
    }
    group
        .iter()
        .map(|sym| compact_key(sym.apply_bits(white), sym.apply_bits(black)))
        .fold(u128::MAX, u128::min)
}

/// The compact keys of all 8 symmetric images of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct SymmetricKeys([u128; 8]);

impl SymmetricKeys {
    /// The keys of the position with the given stones.
    pub fn from_stones(white: u64, black: u64) -> SymmetricKeys {
        let mut keys = [0u128; 8];
        for (key, sym) in keys.iter_mut().zip(Symmetry::ALL) {
            *key = compact_key(sym.apply_bits(white), sym.apply_bits(black));
        }
        SymmetricKeys(keys)
    }

    /// The key of image `sym`.
    pub fn image(&self, sym: Symmetry) -> u128 {
        self.0[sym.number() as usize]
    }
}
