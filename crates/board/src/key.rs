//! The report's 80-bit compact encoding of a position, its canonical form under symmetry, the
//! table key: another 80-bit encoding of the same information, laid out for the transposition
//! table's memory, and from [`WIDE_KEY_MIN_STONES`] stones on the 128-bit wide key
//! ([`wide_key`]), which merges the positions that differ only in the colours of dead stones.
//!
//! **Compact key.** Per column, from the bottom: one bit per stone (1 white, 0 black), then a 1
//! marking the lowest empty cell, then zeros. Stone bits sit at the cell's own bit (`16*z + c`);
//! the marker of a full column sits at bit `64 + c`. So the key is `white | lowest_empty` in bits
//! 0..64 plus the "column is full" bits in 64..80, and it is injective: the highest 1 of each
//! column is its marker and everything below it is a stone. The canonical key is the least of
//! the keys of the 8 symmetric images; it is the same for all 8 images of a position.
//!
//! **Table key** ([`table_key`]). The same idea seen from the player to move, with the bottom
//! layer's stones moved into the top 16 bits, the *page*:
//!
//! ```text
//! bits 64..80  page = (mover's stones on layer 0) XOR hash16(mover's stones on layers 1–3)
//! bits  0..64  per column, layers 1, 2, 3 and a fifth "full" layer, 16 bits a layer:
//!              the mover's stones, then a 1 marking the lowest empty cell above layer 0
//!              (at bit 48 + c when the column is full), then zeros; an empty column is 0000
//! ```
//!
//! The page depends on the mover's stones alone. The children of a node add a stone of the
//! node's mover, who is the children's opponent: **all children of a node share one page**, and
//! the transposition table keeps a page's positions in one block of memory, so that the
//! enhanced transposition cutoff reads a node's children from one block instead of sixteen
//! places in a gigabyte (every probe of a large table costs an address translation on this
//! hardware). The key stays injective ([`decode_table_key`]): the low 64 bits give each
//! column's height (its highest 1; an empty column has none) and the mover's stones above
//! layer 0, hence the hash; the page then gives the mover's bottom stones; the side to move
//! follows from the number of stones.
//!
//! A search keys its table by the least table key over a subgroup of the symmetries
//! ([`least_image_table_key`]): only the symmetries that can make two positions of its tree
//! images of each other (`Position::transposing_symmetries`), for most positions none.

use crate::geometry::LAYER_BITS;
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
    least_over(group, |sym| {
        compact_key(sym.apply_bits(white), sym.apply_bits(black))
    })
}

/// The least of `key` over the members of `group`.
#[inline(always)]
fn least_over(group: SymmetryGroup, key: impl Fn(Symmetry) -> u128) -> u128 {
    group.iter().map(key).fold(u128::MAX, u128::min)
}

/// The cells of layer 0 (the bottom).
const LAYER_0: u64 = LAYER_BITS;

/// The cells of layer 3, the top.
const LAYER_3: u64 = LAYER_BITS << 48;

/// 16 bits of the mover's stones above layer 0 (48 bits, shifted down to bits 0..48), mixed
/// by one multiplication: the page of positions that differ there differs too, most of the
/// time.
#[inline(always)]
const fn page_hash(upper: u64) -> u64 {
    upper.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48
}

/// The table key of the position where the player to move holds `mover` and the cells of
/// `occupied` are filled (see the module documentation): the page in bits 64..80, the columns
/// above layer 0 in bits 0..64.
///
/// Contract: `occupied` obeys gravity and holds `mover`.
///
/// ```
/// use score4_board::key::{decode_table_key, table_key};
/// // White (to move on the empty board) holds nothing: page 0, every column 0000.
/// assert_eq!(table_key(0, 0), 0);
/// // After white's stone in column 0 black is to move and holds nothing: page 0, and column 0's
/// // marker on layer 1 (bit 0 of the low word).
/// assert_eq!(table_key(0, 1), 1);
/// assert_eq!(decode_table_key(1), Some((1, 0)));
/// // Black's answers in column 0 or 5 share the page: white (to move) holds cell 0 in both.
/// assert_eq!(table_key(1, 1 | 1 << 16) >> 64, 1);
/// assert_eq!(table_key(1, 1 | 1 << 5) >> 64, 1);
/// ```
#[inline(always)]
pub const fn table_key(mover: u64, occupied: u64) -> u128 {
    let page = (mover & LAYER_0) ^ page_hash(mover >> 16);
    let lowest_empty_above_bottom = !occupied & (occupied << 16);
    let columns = ((mover | lowest_empty_above_bottom) >> 16) | (occupied & LAYER_3);
    ((page as u128) << 64) | columns as u128
}

/// The number of stones of the position whose table key is `key`, read off the columns' markers
/// alone (the page is not needed): a column's highest 1 sits one layer above its top stone, so
/// a column holds at least `h + 1` stones exactly when it has a 1 on layer `h + 1` or higher.
/// For any 80-bit value it is some number in `0..=64` (the transposition table uses it to pick
/// a position's area, which needs no more than a function of the key).
///
/// ```
/// use score4_board::key::{table_key_stones, TABLE_KEY_FULL_BOARD};
/// use score4_board::symmetry::SymmetryGroup;
/// use score4_board::GameRecord;
/// let game: GameRecord = "0FC3484B7".parse().unwrap();
/// let key = game.position().table_key_within(SymmetryGroup::TRIVIAL);
/// assert_eq!(table_key_stones(key), 9);
/// assert_eq!(table_key_stones(0), 0);
/// assert_eq!(table_key_stones(TABLE_KEY_FULL_BOARD), 64);
/// ```
#[inline(always)]
pub const fn table_key_stones(key: u128) -> u32 {
    let columns = key as u64;
    let at_least_4 = (columns >> 48) & LAYER_BITS;
    let at_least_3 = (columns >> 32) & LAYER_BITS | at_least_4;
    let at_least_2 = (columns >> 16) & LAYER_BITS | at_least_3;
    let at_least_1 = columns & LAYER_BITS | at_least_2;
    at_least_1.count_ones()
        + at_least_2.count_ones()
        + at_least_3.count_ones()
        + at_least_4.count_ones()
}

/// The low bits of the table key of a full board: every column's marker on the "full" layer.
pub const TABLE_KEY_FULL_BOARD: u128 = (LAYER_BITS as u128) << 48;

/// The stones `(white, black)` of a table key; `None` if `key` is no table key.
pub fn decode_table_key(key: u128) -> Option<(u64, u64)> {
    if key >> 80 != 0 {
        return None;
    }
    let columns = key as u64;
    let (mut occupied, mut upper) = (0u64, 0u64);
    for c in 0..16 {
        // Column c's four bits: layers 1, 2, 3 and "full".
        let bits: Vec<bool> = (0..4).map(|z| columns >> (16 * z + c) & 1 != 0).collect();
        let Some(marker) = bits.iter().rposition(|&b| b) else {
            continue; // an empty column
        };
        // The marker sits on layer marker + 1 (layer 4: full), so the column holds marker + 1
        // stones: layer 0 and the layers 1..=marker below the marker.
        for z in 0..=marker {
            occupied |= 1 << (16 * z + c);
        }
        for (z, &bit) in bits.iter().enumerate().take(marker) {
            if bit {
                upper |= 1 << (16 * (z + 1) + c);
            }
        }
    }
    let bottom = ((key >> 64) as u64 ^ page_hash(upper >> 16)) & LAYER_0;
    if bottom & !occupied != 0 {
        return None;
    }
    let mover = upper | bottom;
    let other = occupied & !mover;
    Some(if occupied.count_ones().is_multiple_of(2) {
        (mover, other)
    } else {
        (other, mover)
    })
}

/// The least table key over the images of the position with these stones under `group`:
/// the same for any two positions that are images of each other under `group`, and the table
/// key of one image of the position, so a table keyed this way never mixes positions of
/// different values. With the trivial group it is the position's own table key.
#[inline(always)]
pub fn least_image_table_key(white: u64, black: u64, group: SymmetryGroup) -> u128 {
    let occupied = white | black;
    let mover = if occupied.count_ones().is_multiple_of(2) {
        white
    } else {
        black
    };
    if group.is_trivial() {
        return table_key(mover, occupied);
    }
    least_over(group, |sym| {
        table_key(sym.apply_bits(mover), sym.apply_bits(occupied))
    })
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

/// Positions of at least this many stones are keyed by [`wide_key`], their dead stones merged;
/// fewer stones, by [`table_key`]. A function of the stone count alone, so that every position of
/// a class of dead-stone recolourings (which share their stone count) is keyed the same way. It
/// matches the transposition table's near-leaf area, where wide keys live: by 44 stones about
/// half the stones are dead (docs/PERFORMANCE.md, "Positions that differ only in dead stones").
pub const WIDE_KEY_MIN_STONES: u32 = 44;

/// The wide key of a position with these stones, of which `dead` are dead (see
/// [`crate::Position::dead_stones`]): the cells of white or dead stones in bits 64..128, those of
/// black or dead stones in bits 0..64. An empty cell is `(0, 0)`, white `(1, 0)`, black `(0, 1)`,
/// dead `(1, 1)`, so the key gives back the live stones of each player and the dead cells, and two
/// positions have one wide key exactly when they differ only in the colours of their dead stones
/// — positions of one value, since no line through a dead stone can be completed by anybody.
///
/// A wide key is told from a [`table_key`] by its bits 80..128, never all zero for a position of
/// 33 stones or more ([`is_wide_key`]): there at least 17 stones lie above layer 0, more than
/// black's ⌊n/2⌋, so one of them is white or dead.
///
/// ```
/// use score4_board::key::{is_wide_key, wide_key};
/// // Cell 0 white, cell 1 black, cell 2 dead.
/// let key = wide_key(1 | 4, 2 | 0, 4);
/// assert_eq!(key >> 64, 0b101);
/// assert_eq!(key as u64, 0b110);
/// assert!(!is_wide_key(key)); // three stones: not a wide key's position
/// // The dead stone's colour does not matter.
/// assert_eq!(wide_key(1, 2 | 4, 4), key);
/// ```
#[inline(always)]
pub const fn wide_key(white: u64, black: u64, dead: u64) -> u128 {
    ((white | dead) as u128) << 64 | (black | dead) as u128
}

/// Whether `key` is a [`wide_key`] of a position of 33 stones or more rather than a
/// [`table_key`] (below `2^80`).
#[inline(always)]
pub const fn is_wide_key(key: u128) -> bool {
    key >> 80 != 0
}

/// The least [`wide_key`] over the images of the position under `group` (the dead stones of an
/// image are the images of the dead stones: a symmetry maps lines onto lines).
#[inline(always)]
pub fn least_image_wide_key(white: u64, black: u64, dead: u64, group: SymmetryGroup) -> u128 {
    if group.is_trivial() {
        return wide_key(white, black, dead);
    }
    least_over(group, |sym| {
        wide_key(
            sym.apply_bits(white),
            sym.apply_bits(black),
            sym.apply_bits(dead),
        )
    })
}
