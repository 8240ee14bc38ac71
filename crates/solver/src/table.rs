//! The transposition table: exact hits by the Chinese remainder theorem, with
//! the positions of one page kept together in memory.
//!
//! # Layout
//!
//! ```text
//! key = page · 2^64 + low          (80-bit keys: 2^16 pages; keys below 2^64: one page)
//! block p ──────────────────────────────────────────────────────────────────────────┐
//! │ bucket p·S + (low mod S)    (S prime; the page's S buckets lie side by side)     │
//! │ ┌──────────── entry 0 ────────────┬──────────── entry 1 ────────────┐            │
//! │ │ low mod 2^k │ work (5) │ value  │ low mod 2^k │ work (5) │ value  │  TWOBIG    │
//! │ └─────────────────────────────────┴─────────────────────────────────┘  (16 B)    │
//! └──────────────────────────────────────────────────────────────────────────────────┘
//!   entry bits: 63..6 key, 5..1 work, 0 value       (Format::Binary; NEW, BIG: one entry)
//!               63..9 key, 8..7 work, 6..0 bound    (Format::Bounds)
//! ```
//!
//! - The 3-D game's key is the table key of `score4_board::key`: the least over the images of
//!   the position under the search's group of symmetries (the identity alone for most
//!   positions; `Game::transposing_symmetries`). Its top 16 bits, the *page*, depend only on
//!   the stones of the player to move, so **all children of a node share a page**. The table
//!   gives each page its own block of `S` buckets, so the enhanced transposition cutoff reads a
//!   node's children from one block (16 KiB in a 1 GiB table) instead of sixteen places spread
//!   over the whole table: on this hardware every read of a large table far from the last ones
//!   costs an address translation (docs/PERFORMANCE.md, "The table and the cutoff").
//! - Within its block a key sits in bucket `low mod S`, and an entry stores `low mod 2^k` with `S ·
//!   2^k ≥ 2^64`. The bucket gives the page (which block) and `low mod S`; since `S` is odd, `(low
//!   mod S, low mod 2^k)` determines `low mod (S · 2^k) = low`: **a hit is always the same
//!   position** (up to symmetry), never a look-alike. Keys of at most 64 bits (the classic game's
//!   49) have one page: the table is then one block of `S` buckets, the plain layout of
//!   docs/RULES.md.
//! - `work` is `1 + ⌊log2(nodes of the subtree)⌋`, capped at 31; an entry of all zeros is empty
//!   (a stored entry has work ≥ 1).
//! - [`Format::Binary`] (the report's question): `value` is 1 when the first player wins.
//! - [`Format::Bounds`] (win/draw/loss and exact scores): one bound on the first player's score `v`
//!   (docs/RULES.md, "Values"), a lower bound (`v ≥ b`) or an upper bound (`v ≤ b`), coded as `1 +
//!   2·(b + 31) + lower` for `b` in `-31..=31` — every score of a position with at least two stones
//!   lies there, and a bound outside says nothing, so it is not stored. Its work is coarser: 1 for
//!   a subtree below 32 nodes, 2 below 4096, else 3. Three more payload bits mean three fewer key
//!   bits, so the smallest table is 8 times larger: 260.5 MiB (NEW, BIG) or 521 MiB (TWOBIG).
//! - Each entry is read and written with one relaxed atomic 64-bit access, so threads can share
//!   the table: an entry read is always an entry some thread wrote whole. Races can only lose an
//!   entry or keep a worse one, never make a wrong hit.
//! - **The near-leaf area** ([`LeafArea`]): every table of the 3-D game's keys keeps the
//!   positions of [`LEAF_MIN_STONES`] stones or more apart, after the blocks. The game keys them
//!   by *wide keys* (`score4_board::key::wide_key`, 128 bits, told from the others by their bits
//!   80..128): the positions that differ only in the colours of their dead stones share one. The
//!   area's `S'` buckets (`S'` a power of two, at least `2^9`) are one cache line each:
//!
//! ```text
//!   word 0        sequence number (odd while a thread writes the bucket)
//!   words 1, 2    entry 0: the key's low 64 bits │ its high word from bit 9 up, payload (9 bits)
//!   words 3, 4    entry 1      (entry 0 keeps the biggest subtree, as TWOBIG's first place;
//!   words 5, 6    entry 2       entries 1 and 2 the newest others)
//!   word 7        unused
//! ```
//!
//!   A key sits in bucket `(mix XOR high) mod S'`, `mix` a multiplicative hash of the bits the
//!   entry keeps; those and the bucket give back the high word's low 9 bits, hence the whole
//!   key: **a hit is exact** here too. An entry
//!   takes two words, so readers check the bucket's sequence number before and after (a
//!   *seqlock*): a read that overlapped a write is a miss, never half of one entry and half of
//!   another; a writer that finds the bucket taken drops its entry. The payload has the layout of
//!   the main area's (binary or bounds) in its low bits.

//! In the binary format 58 bits are left for `low mod 2^k`, so `S > 2^6`: the smallest table
//! has 2^16 blocks of 67 buckets, about 34 MiB (NEW, BIG) or 67 MiB (TWOBIG).
//!
//! The classic 7×6 game's keys have 49 bits ([`TableConfig::key_width`]): any
//! table with 2^10 buckets or more stays exact in both formats (`k = 49 - ⌊log2 S⌋`).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::fence;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

use score4_board::key::is_wide_key;

use crate::memory::{format_bytes, format_minimum, AtomicBlock};

/// How a store chooses what to keep (Breuker, Uiterwijk & van den Herik 1994).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Replacement {
    /// Buckets of two entries: the bigger subtree of the old first entry and the new one takes
    /// the first place, the other the second (always overwritten). The report's choice.
    TwoBig,
    /// One entry per bucket, always overwritten.
    New,
    /// One entry per bucket, overwritten only by a subtree at least as big.
    Big,
}

impl Replacement {
    /// Every scheme, the report's first.
    pub const ALL: [Replacement; 3] = [Replacement::TwoBig, Replacement::New, Replacement::Big];

    /// Entries per bucket.
    pub const fn entries_per_bucket(self) -> usize {
        match self {
            Replacement::TwoBig => 2,
            Replacement::New | Replacement::Big => 1,
        }
    }

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Replacement::TwoBig => "twobig",
            Replacement::New => "new",
            Replacement::Big => "big",
        }
    }
}

impl fmt::Display for Replacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Replacement {
    type Err = String;
    fn from_str(s: &str) -> Result<Replacement, String> {
        match s.to_ascii_lowercase().as_str() {
            "twobig" => Ok(Replacement::TwoBig),
            "new" => Ok(Replacement::New),
            "big" => Ok(Replacement::Big),
            _ => Err(format!(
                "unknown replacement scheme {s:?} (expected twobig, new or big)"
            )),
        }
    }
}

/// What an entry holds besides its key bits (see the module documentation for the layouts).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Format {
    /// One bit: whether the first player wins (the report's binary question).
    Binary,
    /// One bound on the first player's score, for win/draw/loss and exact scores.
    Bounds,
}

impl Format {
    /// Bits of an entry below its key bits.
    const fn payload_bits(self) -> u32 {
        match self {
            Format::Binary => 6,
            Format::Bounds => 9,
        }
    }

    /// The bits of an entry that hold its work (compared by the replacement schemes).
    const fn work_mask(self) -> u64 {
        match self {
            Format::Binary => 0b11_1110,
            Format::Bounds => 0b1_1000_0000,
        }
    }

    /// A bound `S` must exceed for keys of `key_width` bits: `S · 2^k ≥ 2^low_width` with
    /// `k = 64 - payload bits` and `low_width` the key bits below the page, and the table never
    /// below [`MIN_BUCKETS`] in all.
    const fn min_block_buckets(self, key_width: u32) -> u64 {
        let room = 64 - self.payload_bits();
        let low_width = low_bits(key_width);
        let floor = MIN_BUCKETS >> page_bits(key_width);
        if low_width > room && (1 << (low_width - room)) > floor {
            1 << (low_width - room)
        } else {
            floor
        }
    }
}

/// The fewest buckets of any table (keys short enough to need no more).
const MIN_BUCKETS: u64 = 1 << 10;

/// Bits of a key above its low 64 (the page): the table has `2^page_bits` blocks.
const fn page_bits(key_width: u32) -> u32 {
    key_width.saturating_sub(64)
}

/// Bits of a key below its page, the part the buckets and entries of a block tell apart.
const fn low_bits(key_width: u32) -> u32 {
    key_width - page_bits(key_width)
}

/// The width of the 3-D game's compact keys.
pub const KEY_WIDTH_3D: u32 = 80;

/// The area of the positions near the leaves: the 3-D game's positions of at least
/// [`LEAF_MIN_STONES`] stones, which it keys by wide keys, their dead stones merged.
///
/// Most probes and stores are of positions a few stones from the end, whose subtrees are
/// small. There about half the stones are dead, and the wide keys that merge positions
/// differing only in them need the area's two-word entries: a table of the 3-D game's keys
/// must have the area. Kept to 64 MiB, its probes would mostly hit the caches and the address
/// translation; but as it holds the merged keys, the largest trees gain more from its room
/// than they lose to its misses, so by default it takes half the table
/// (docs/PERFORMANCE.md, "The table and the cutoff"). Its layout and why it is exact: the
/// module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafArea {
    /// No such area: only for tables of keys narrower than the 3-D game's (refused for 3-D
    /// keys, [`TableError::LeafAreaNeeded`]).
    Off,
    /// For 3-D keys: half of the table ([`LEAF_AREA_AUTO_PARTS`]), less where the main area
    /// would fall below its smallest exact size (at least
    /// [`TranspositionTable::minimum_leaf_bytes`]); for narrower keys none.
    Auto,
    /// An area of at most this many bytes (at least the smallest exact one), out of the
    /// table's size.
    Bytes(u64),
}

impl fmt::Display for LeafArea {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeafArea::Off => f.write_str("off"),
            LeafArea::Auto => f.write_str("auto"),
            LeafArea::Bytes(bytes) => write!(f, "{bytes}"),
        }
    }
}

impl FromStr for LeafArea {
    type Err = String;
    /// `auto`, `off` or a number of bytes (the command line also takes sizes such as `64MiB`).
    fn from_str(s: &str) -> Result<LeafArea, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(LeafArea::Auto),
            "off" => Ok(LeafArea::Off),
            text => text.parse().map(LeafArea::Bytes).map_err(|_| {
                format!("unknown near-leaf area {s:?} (expected auto, off or a size in bytes)")
            }),
        }
    }
}

/// Positions with at least this many stones live in the near-leaf area ([`LeafArea`]): the
/// 3-D game keys them by wide keys from there on (`score4_board::key::WIDE_KEY_MIN_STONES`).
/// Chosen on the first 120 of d24 and the first 300 of d28 (docs/PERFORMANCE.md, "The table
/// and the cutoff").
pub const LEAF_MIN_STONES: u32 = score4_board::key::WIDE_KEY_MIN_STONES;

/// [`LeafArea::Auto`] gives the near-leaf area one part in this many of a table of the 3-D
/// game's keys (half of it; less where the main area would fall below its smallest exact
/// size). Chosen on all of d24, whose largest trees need the area's entries most: a 1 GiB
/// table with 64, 256 and 512 MiB of area took 1,841,756,206, 1,726,253,262 and 1,703,406,623
/// nodes (docs/PERFORMANCE.md, "The table and the cutoff").
pub const LEAF_AREA_AUTO_PARTS: u64 = 2;

/// Bytes of a bucket of the near-leaf area: one cache line.
const LEAF_BUCKET_BYTES: u64 = 64;

/// Entries of a bucket of the near-leaf area.
const LEAF_ENTRIES: usize = 3;

/// Bits of a near-leaf entry's second word below its key bits: the payload, in the layout of
/// the main area's entries (of either format).
const LEAF_PAYLOAD_BITS: u32 = 9;

/// `S'`, a power of two, must reach this for the bucket to give back the high word's low bits,
/// which the entry's payload takes.
const LEAF_MIN_BUCKETS: u64 = 1 << LEAF_PAYLOAD_BITS;

/// A bound on the first player's score, as held by a [`Format::Bounds`] entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at least this.
    Lower(i32),
    /// The score is at most this.
    Upper(i32),
}

impl Bound {
    /// Largest bound magnitude an entry holds.
    const LIMIT: i32 = 31;

    /// The 7-bit code of the module documentation, `None` for a bound that says nothing.
    fn code(self) -> Option<u64> {
        let (b, lower) = match self {
            Bound::Lower(b) => (b, 1),
            Bound::Upper(b) => (b, 0),
        };
        (-Self::LIMIT..=Self::LIMIT)
            .contains(&b)
            .then(|| 1 + 2 * (b + Self::LIMIT) as u64 + lower)
    }

    fn from_code(code: u64) -> Bound {
        let b = ((code - 1) / 2) as i32 - Self::LIMIT;
        if code & 1 == 0 {
            Bound::Lower(b)
        } else {
            Bound::Upper(b)
        }
    }

    /// What the bound says of "is the score at least `threshold`?", if anything.
    #[inline(always)]
    pub fn answers(self, threshold: i32) -> Option<bool> {
        match self {
            Bound::Lower(b) if b >= threshold => Some(true),
            Bound::Upper(b) if b < threshold => Some(false),
            _ => None,
        }
    }
}

/// Why a table cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// Fewer bytes than the smallest table with exact one-word entries.
    TooSmall {
        /// Bytes asked for.
        bytes: u64,
        /// Smallest size for this replacement scheme.
        minimum: u64,
    },
    /// A near-leaf area ([`LeafArea::Bytes`]) below its smallest exact size, or leaving the
    /// main area below its own.
    LeafAreaTooSmall {
        /// Bytes asked for in all.
        bytes: u64,
        /// Bytes asked for the near-leaf area.
        leaf_bytes: u64,
        /// Smallest near-leaf area.
        leaf_minimum: u64,
        /// Smallest main area.
        main_minimum: u64,
    },
    /// A near-leaf area asked for a table of keys narrower than the 3-D game's: the area holds
    /// the 3-D game's wide keys.
    LeafAreaNeedsBoardKeys {
        /// The table's key width.
        key_width: u32,
    },
    /// A table of the 3-D game's keys without a near-leaf area ([`LeafArea::Off`]): the
    /// positions of [`LEAF_MIN_STONES`] stones or more, keyed by wide keys, would have nowhere
    /// to go.
    LeafAreaNeeded,
    /// The operating system refused the memory.
    OutOfMemory {
        /// Bytes asked for.
        bytes: u64,
    },
    /// More than this process may ever have (the machine's memory, its control group's limit or
    /// its address-space limit): refused before anything is allocated, rather than let the
    /// kernel's out-of-memory killer end the run later.
    OverCeiling {
        /// Bytes asked for.
        bytes: u64,
        /// The limit and what sets it.
        ceiling: crate::memory::MemoryCeiling,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::TooSmall { bytes, minimum } => write!(
                f,
                "a table of {} is too small: its entries, in this format and replacement scheme, \
                 need at least {} to keep every key exact",
                format_bytes(*bytes),
                format_minimum(*minimum)
            ),
            TableError::LeafAreaTooSmall {
                bytes,
                leaf_bytes,
                leaf_minimum,
                main_minimum,
            } => write!(
                f,
                "a near-leaf area of {} in a table of {} does not fit: the area needs at least {} \
                 and must leave the main area at least {}",
                format_bytes(*leaf_bytes),
                format_bytes(*bytes),
                format_minimum(*leaf_minimum),
                format_minimum(*main_minimum)
            ),
            TableError::LeafAreaNeedsBoardKeys { key_width } => write!(
                f,
                "a near-leaf area needs the 3-D game's 80-bit table keys, not {key_width}-bit keys"
            ),
            TableError::LeafAreaNeeded => write!(
                f,
                "a table of the 3-D game cannot be without its near-leaf area: positions of \
                 {LEAF_MIN_STONES} stones or more, keyed with their dead stones merged, live there \
                 alone"
            ),
            TableError::OverCeiling { bytes, ceiling } => write!(
                f,
                "a table of {} is more than {} allows ({}); at most about {} could be used",
                format_bytes(*bytes),
                ceiling.source,
                format_bytes(ceiling.bytes),
                format_bytes(ceiling.usable)
            ),
            TableError::OutOfMemory { bytes } => {
                write!(
                    f,
                    "the system refused {} of memory for the table",
                    format_bytes(*bytes)
                )
            }
        }
    }
}

impl TableError {
    /// Whether the size asked for is at fault (a bad option), rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, TableError::OutOfMemory { .. })
    }

    /// Whether the near-leaf area asked for is at fault (rather than the table's size).
    pub fn concerns_leaf_area(&self) -> bool {
        matches!(
            self,
            TableError::LeafAreaTooSmall { .. }
                | TableError::LeafAreaNeedsBoardKeys { .. }
                | TableError::LeafAreaNeeded
        )
    }
}

impl std::error::Error for TableError {}

/// Counters of table use, kept by each searcher and added up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Look-ups.
    pub probes: u64,
    /// Look-ups that found the position (in the bounds format: with a bound that answers the
    /// question asked).
    pub hits: u64,
    /// Entries written.
    pub stores: u64,
    /// Stores that overwrote another position (NEW/TWOBIG) or were refused because the old
    /// subtree was bigger (BIG): a position lost either way.
    pub replacements: u64,
}

impl TableStats {
    /// Hits per probe, 0 when there was no probe.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

impl std::ops::Sub for TableStats {
    type Output = TableStats;
    fn sub(self, earlier: TableStats) -> TableStats {
        TableStats {
            probes: self.probes - earlier.probes,
            hits: self.hits - earlier.hits,
            stores: self.stores - earlier.stores,
            replacements: self.replacements - earlier.replacements,
        }
    }
}

impl std::ops::AddAssign for TableStats {
    fn add_assign(&mut self, other: TableStats) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.stores += other.stores;
        self.replacements += other.replacements;
    }
}

/// What a [`TranspositionTable`] is made of: its size, its replacement scheme, what its
/// entries hold, the threads that touch its pages, the width of its keys and its near-leaf
/// area. [`TableConfig::new`] takes the two a caller must know (the memory it gives and the
/// game's key width) and sets the others to the defaults below; the setters change one each.
///
/// ```
/// use score4_solver::table::KEY_WIDTH_3D;
/// use score4_solver::{Format, LeafArea, Replacement, TableConfig, TranspositionTable};
///
/// // The smallest table of 3-D keys, with the defaults.
/// let bytes = TranspositionTable::minimum_bytes(Replacement::TwoBig);
/// let config = TableConfig::new(bytes, KEY_WIDTH_3D);
/// assert_eq!(config.replacement, Replacement::TwoBig);
/// assert_eq!((config.format, config.threads), (Format::Binary, 1));
/// assert_eq!(config.leaf_area, LeafArea::Auto);
/// let table = TranspositionTable::new(&config).unwrap();
/// assert!(table.bytes() <= bytes);
/// // Every table of 3-D keys keeps positions of 44 stones or more in a near-leaf area.
/// assert_eq!(table.leaf_min_stones(), Some(44));
///
/// // A table of bounds for the classic game's 49-bit keys: even 1 MiB is exact.
/// let classic = TableConfig::new(1 << 20, 49).format(Format::Bounds);
/// let table = TranspositionTable::new(&classic.replacement(Replacement::New)).unwrap();
/// assert_eq!(table.blocks(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableConfig {
    /// The most bytes the table may take, its near-leaf area's included. No default: the
    /// caller decides how much memory the table gets.
    pub bytes: u64,
    /// Default [`Replacement::TwoBig`]: the report's scheme, the command line's default, and
    /// the one that searched fewest nodes of the three where they were compared
    /// (docs/PERFORMANCE.md, "The table and the cutoff").
    pub replacement: Replacement,
    /// Default [`Format::Binary`]: the report's question, "does the first player win?", which
    /// leaves the most key bits per entry and so the smallest exact table. Win/draw/loss and
    /// exact scores need [`Format::Bounds`].
    pub format: Format,
    /// Threads that touch the table's pages when it is made, so that the kernel's page
    /// clearing (seconds per GiB on a busy machine) is paid then, in parallel, and not by the
    /// first searches. Default 1: the calling thread alone; a caller with cores to spare (the
    /// command line: its thread count) passes them.
    pub threads: usize,
    /// Bits of the keys the table takes (at most 80). No default: the 3-D game's keys have
    /// [`KEY_WIDTH_3D`] bits, the classic game's 49; shorter keys leave more key bits per
    /// bucket, so smaller tables stay exact.
    pub key_width: u32,
    /// Default [`LeafArea::Auto`]: for 3-D keys half of the table ([`LEAF_AREA_AUTO_PARTS`];
    /// the area holds the 3-D game's wide keys, so every such table needs one); none for
    /// narrower keys.
    pub leaf_area: LeafArea,
}

impl TableConfig {
    /// A table of at most `bytes` bytes for keys of `key_width` bits, with the defaults of the
    /// fields' documentation.
    pub const fn new(bytes: u64, key_width: u32) -> TableConfig {
        TableConfig {
            bytes,
            replacement: Replacement::TwoBig,
            format: Format::Binary,
            threads: 1,
            key_width,
            leaf_area: LeafArea::Auto,
        }
    }

    /// This configuration with the replacement scheme `replacement`.
    pub const fn replacement(self, replacement: Replacement) -> TableConfig {
        TableConfig {
            replacement,
            ..self
        }
    }

    /// This configuration with entries of `format`.
    pub const fn format(self, format: Format) -> TableConfig {
        TableConfig { format, ..self }
    }

    /// This configuration with the pages touched by `threads` threads.
    pub const fn threads(self, threads: usize) -> TableConfig {
        TableConfig { threads, ..self }
    }

    /// This configuration with the near-leaf area `leaf_area`.
    pub const fn leaf_area(self, leaf_area: LeafArea) -> TableConfig {
        TableConfig { leaf_area, ..self }
    }
}

/// A transposition table for the binary question "does the first player win?"
/// ([`Format::Binary`]) or for bounds on the first player's score ([`Format::Bounds`]).
pub struct TranspositionTable {
    entries: AtomicBlock,
    /// `S`: the number of buckets of each page's block, a prime.
    block_buckets: u64,
    /// Number of blocks, one per page: `2^(key_width - 64)`, or 1 for keys of 64 bits or less.
    blocks: u64,
    /// `⌊2^64 / S⌋`, to reduce modulo `S` by multiplication (Barrett) instead of division.
    reciprocal: u64,
    /// `k`: key bits stored per entry.
    key_bits: u32,
    /// Bits of the keys the table takes (`S · 2^k ≥ 2^key_width`).
    key_width: u32,
    replacement: Replacement,
    format: Format,
    /// [`Format::payload_bits`], where the key bits of an entry start.
    payload_bits: u32,
    /// The payload bits of an entry (below the key bits).
    payload_mask: u64,
    /// The near-leaf area ([`LeafArea`]): where its buckets start among the words (the end of
    /// the words without the area) and how many there are (`S'`, a power of two, 0 without the
    /// area).
    leaf_first: usize,
    leaf_buckets: u64,
    /// `64 - log2 S'`: the shift that leaves the top bits of [`leaf_mix`].
    leaf_shift: u32,
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("blocks", &self.blocks)
            .field("block_buckets", &self.block_buckets)
            .field("key_bits", &self.key_bits)
            .field("key_width", &self.key_width)
            .field("replacement", &self.replacement)
            .field("format", &self.format)
            .field("huge_pages", &self.huge_pages())
            .finish()
    }
}

/// Whether `n` is prime, by trial division (table sizes are below 2^40, so at most 2^20 steps).
fn is_prime(n: u64) -> bool {
    if n < 4 {
        return n >= 2;
    }
    if n.is_multiple_of(2) || n.is_multiple_of(3) {
        return false;
    }
    let mut d = 5;
    while d * d <= n {
        if n.is_multiple_of(d) || n.is_multiple_of(d + 2) {
            return false;
        }
        d += 6;
    }
    true
}

/// The least prime above `n`.
fn prime_above(n: u64) -> u64 {
    (n + 1..).find(|&s| is_prime(s)).expect("primes never end")
}

/// The shape of a table that [`TranspositionTable::new`] would make for a configuration.
struct Layout {
    /// `S`: buckets per block, a prime.
    block_buckets: u64,
    /// Blocks, one per page of keys.
    blocks: u64,
    /// Key bits an entry of the main area keeps.
    key_bits: u32,
    /// Words of the main area.
    main_words: usize,
    /// `S'`: buckets of the near-leaf area (0: none).
    leaf_buckets: u64,
    /// Words in all.
    words: usize,
}

impl TranspositionTable {
    /// The smallest table, in bytes, for `replacement` (binary format).
    pub fn minimum_bytes(replacement: Replacement) -> u64 {
        Self::minimum_bytes_for(replacement, Format::Binary)
    }

    /// The smallest table, in bytes, for `replacement` and `format` (80-bit keys).
    pub fn minimum_bytes_for(replacement: Replacement, format: Format) -> u64 {
        Self::minimum_bytes_for_keys(replacement, format, KEY_WIDTH_3D)
    }

    /// The smallest table, in bytes, for `replacement`, `format` and keys of `key_width` bits:
    /// its main area's least and, for the 3-D game's keys, the least near-leaf area.
    pub fn minimum_bytes_for_keys(replacement: Replacement, format: Format, key_width: u32) -> u64 {
        let leaf = if key_width == KEY_WIDTH_3D {
            Self::minimum_leaf_bytes(replacement, format)
        } else {
            0
        };
        Self::minimum_main_bytes(replacement, format, key_width) + leaf
    }

    /// The smallest main area, in bytes, for `replacement`, `format` and keys of `key_width`
    /// bits.
    fn minimum_main_bytes(replacement: Replacement, format: Format, key_width: u32) -> u64 {
        let s = prime_above(format.min_block_buckets(key_width));
        (s << page_bits(key_width)) * 8 * replacement.entries_per_bucket() as u64
    }

    /// A table as `config` describes it (see [`TableConfig`]): at most `config.bytes` bytes,
    /// the near-leaf area's included; `S` is the largest prime with one block of `S` buckets
    /// per page fitting beside the near-leaf area. Its pages are touched at once by
    /// `config.threads` threads.
    pub fn new(config: &TableConfig) -> Result<TranspositionTable, TableError> {
        let Layout {
            block_buckets,
            blocks,
            key_bits,
            main_words,
            leaf_buckets,
            words,
        } = Self::layout(config)?;
        let TableConfig {
            bytes,
            replacement,
            format,
            threads,
            key_width,
            ..
        } = *config;
        if let Some(ceiling) = crate::memory::memory_ceiling() {
            if bytes > ceiling.bytes {
                return Err(TableError::OverCeiling { bytes, ceiling });
            }
        }
        let entries = AtomicBlock::zeroed(words).ok_or(TableError::OutOfMemory { bytes })?;
        entries.touch(threads);
        let reciprocal = ((1u128 << 64) / block_buckets as u128) as u64;
        Ok(TranspositionTable {
            entries,
            block_buckets,
            blocks,
            reciprocal,
            key_bits,
            key_width,
            replacement,
            format,
            payload_bits: format.payload_bits(),
            payload_mask: (1 << format.payload_bits()) - 1,
            leaf_first: main_words,
            leaf_buckets,
            leaf_shift: 64 - leaf_buckets.trailing_zeros().min(63),
        })
    }

    /// Whether [`Self::new`] would accept `config`, without taking its memory: `Err` with
    /// the reason it would refuse (every error but [`TableError::OutOfMemory`]).
    pub fn check(config: &TableConfig) -> Result<(), TableError> {
        Self::layout(config).map(|_| ())
    }

    /// Where a table of `config` puts its entries: `S`, its key bits and its near-leaf area.
    fn layout(config: &TableConfig) -> Result<Layout, TableError> {
        let TableConfig {
            bytes,
            replacement,
            format,
            threads: _,
            key_width,
            leaf_area: leaf,
        } = *config;
        assert!(key_width <= KEY_WIDTH_3D, "keys have at most 80 bits");
        let bucket_bytes = 8 * replacement.entries_per_bucket() as u64;
        let leaf_minimum = Self::minimum_leaf_bytes(replacement, format);
        let main_minimum = Self::minimum_main_bytes(replacement, format, key_width);
        let board_keys = key_width == KEY_WIDTH_3D;
        let leaf_bytes = match leaf {
            LeafArea::Off if board_keys => return Err(TableError::LeafAreaNeeded),
            LeafArea::Off => 0,
            LeafArea::Auto if board_keys => {
                let wanted = bytes / LEAF_AREA_AUTO_PARTS;
                let leaf_bytes = wanted
                    .min(bytes.saturating_sub(main_minimum))
                    .max(leaf_minimum);
                if bytes < leaf_bytes.saturating_add(main_minimum) {
                    return Err(TableError::TooSmall {
                        bytes,
                        minimum: main_minimum + leaf_minimum,
                    });
                }
                leaf_bytes
            }
            LeafArea::Auto => 0,
            LeafArea::Bytes(leaf_bytes) => {
                if !board_keys {
                    return Err(TableError::LeafAreaNeedsBoardKeys { key_width });
                }
                if leaf_bytes < leaf_minimum || bytes < leaf_bytes.saturating_add(main_minimum) {
                    return Err(TableError::LeafAreaTooSmall {
                        bytes,
                        leaf_bytes,
                        leaf_minimum,
                        main_minimum,
                    });
                }
                leaf_bytes
            }
        };
        let min_block_buckets = format.min_block_buckets(key_width);
        let blocks = 1u64 << page_bits(key_width);
        let mut block_buckets = (bytes - leaf_bytes) / bucket_bytes / blocks;
        while block_buckets > min_block_buckets && !is_prime(block_buckets) {
            block_buckets -= 1;
        }
        if block_buckets <= min_block_buckets {
            return Err(TableError::TooSmall {
                bytes,
                minimum: main_minimum,
            });
        }
        // S is an odd prime, not a power of two, so S · 2^(w - ⌊log2 S⌋) > 2^w for the w low
        // key bits.
        let key_bits = low_bits(key_width).saturating_sub(63 - block_buckets.leading_zeros());
        debug_assert!(key_bits + format.payload_bits() <= 64);
        let main_words = (blocks * block_buckets) as usize * replacement.entries_per_bucket();
        // The near-leaf area: S' buckets of a cache line, S' a power of two, S' ≥ 2^9, at most
        // 2^40 (a size beyond is only ever checked, never allocated: it leaves the table
        // smaller than asked, which a size allows).
        let leaf_buckets = match leaf_bytes.min(LEAF_BUCKET_BYTES << 40) / LEAF_BUCKET_BYTES {
            0 => 0,
            fitting => 1 << (63 - fitting.leading_zeros()),
        };
        debug_assert!(leaf_buckets == 0 || leaf_buckets >= LEAF_MIN_BUCKETS);
        // The area's buckets must each be one cache line: the main area ends on one.
        assert!(leaf_buckets == 0 || main_words.is_multiple_of(8));
        let words = main_words + (leaf_buckets * LEAF_BUCKET_BYTES / 8) as usize;
        Ok(Layout {
            block_buckets,
            blocks,
            key_bits,
            main_words,
            leaf_buckets,
            words,
        })
    }

    /// A binary-format table of at most `bytes` bytes for the 3-D game's keys, with
    /// `replacement` and otherwise [`TableConfig::new`]'s defaults: the plain table most tests
    /// and benchmarks want.
    pub fn of_size(bytes: u64, replacement: Replacement) -> Result<TranspositionTable, TableError> {
        Self::new(&TableConfig::new(bytes, KEY_WIDTH_3D).replacement(replacement))
    }

    /// The smallest near-leaf area, in bytes: `2^9` buckets of 64 bytes, so that the bucket
    /// gives back the 9 high key bits an entry has no room for. The same for every
    /// `replacement` and `format` (the area has its own scheme and room for either payload).
    pub fn minimum_leaf_bytes(replacement: Replacement, format: Format) -> u64 {
        let _ = (replacement, format);
        LEAF_MIN_BUCKETS * LEAF_BUCKET_BYTES
    }

    /// The near-leaf area's size in bytes (0 without one).
    pub fn leaf_bytes(&self) -> u64 {
        self.leaf_buckets * LEAF_BUCKET_BYTES
    }

    /// `S'`, the near-leaf area's buckets (a power of two; 0 without the area).
    pub fn leaf_buckets(&self) -> u64 {
        self.leaf_buckets
    }

    /// The fewest stones of a position kept in the near-leaf area, if the table has one.
    pub fn leaf_min_stones(&self) -> Option<u32> {
        (self.leaf_buckets > 0).then_some(LEAF_MIN_STONES)
    }

    /// The number of buckets of the main area: [`Self::blocks`] blocks of
    /// [`Self::block_buckets`] (the near-leaf area's follow them: [`Self::leaf_buckets`]).
    pub fn buckets(&self) -> u64 {
        self.blocks * self.block_buckets
    }

    /// `S`, the number of buckets of each page's block (a prime).
    pub fn block_buckets(&self) -> u64 {
        self.block_buckets
    }

    /// The number of blocks, one per page of the keys (`2^16` for 80-bit keys, 1 for keys of at
    /// most 64 bits).
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// `k`, the key bits stored per entry (`S · 2^k ≥ 2^64`, or `2^key_width` for narrower
    /// keys).
    pub fn key_bits(&self) -> u32 {
        self.key_bits
    }

    /// The bits of the keys the table takes: hits are exact for keys below `2^key_width`.
    pub fn key_width(&self) -> u32 {
        self.key_width
    }

    /// The replacement scheme.
    pub fn replacement(&self) -> Replacement {
        self.replacement
    }

    /// What the entries hold.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Bytes of entries.
    pub fn bytes(&self) -> u64 {
        self.entries.words().len() as u64 * 8
    }

    /// Whether the operating system took the advice to back the table with huge pages.
    pub fn huge_pages(&self) -> bool {
        self.entries.huge_pages()
    }

    /// Empties the table.
    pub fn clear(&self) {
        for word in self.entries.words() {
            word.store(0, Relaxed);
        }
    }

    /// Number of entries in use, counted over the whole table (slow: for reports and tests).
    pub fn occupied(&self) -> u64 {
        let (main, leaf) = self.entries.words().split_at(self.leaf_first);
        let main = main.iter().filter(|w| w.load(Relaxed) != 0).count();
        // A near-leaf entry is in use when its second word is (a stored payload is never 0).
        let leaf = leaf
            .chunks_exact(8)
            .flat_map(|bucket| (0..LEAF_ENTRIES).map(move |i| &bucket[2 + 2 * i]))
            .filter(|w| w.load(Relaxed) != 0)
            .count();
        (main + leaf) as u64
    }

    /// The share of the main area's entries in use, estimated from `samples` entries spread
    /// evenly over it (cheap enough for a progress display; [`Self::occupied`] counts them all).
    pub fn fill_estimate(&self, samples: usize) -> f64 {
        let words = &self.entries.words()[..self.leaf_first];
        let step = (words.len() / samples.max(1)).max(1);
        let (used, seen) = words
            .iter()
            .step_by(step)
            .fold((0u64, 0u64), |(used, seen), w| {
                (used + (w.load(Relaxed) != 0) as u64, seen + 1)
            });
        used as f64 / seen.max(1) as f64
    }

    /// Where `key` lives: its bucket (in its page's block, or in the near-leaf area for a
    /// wide key) and the key bits its entry holds.
    ///
    /// Contract: `key` is below `2^key_width`, or a wide key (`score4_board::key::is_wide_key`)
    /// in a table with a near-leaf area (every table of 3-D keys has one).
    #[inline(always)]
    pub fn slot(&self, key: u128) -> Slot {
        if is_wide_key(key) {
            return self.leaf_slot(key);
        }
        debug_assert!(
            key >> self.key_width == 0,
            "a key wider than the table takes"
        );
        let (page, low) = ((key >> 64) as u64, key as u64);
        let bucket = page * self.block_buckets + self.reduce(low);
        let stored = low & ((1u64 << self.key_bits) - 1);
        Slot {
            first: bucket as usize * self.replacement.entries_per_bucket(),
            tag: stored << self.payload_bits,
            low: 0,
        }
    }

    /// [`Self::slot`] of a wide key, in the near-leaf area: bucket `(mix XOR high) mod S'` with
    /// `mix` a multiplicative hash of `low` and `high / 2^9` ([`leaf_mix`]) and `S' ≥ 2^9` a
    /// power of two; the entry keeps `low` and `high / 2^9`. Those and the bucket give back
    /// `high mod 2^9` (as `(bucket XOR mix) mod 2^9`), hence the whole key: a hit is exact.
    #[inline(always)]
    fn leaf_slot(&self, key: u128) -> Slot {
        debug_assert!(
            self.leaf_buckets > 0,
            "a wide key in a table without a near-leaf area"
        );
        let (high, low) = ((key >> 64) as u64, key as u64);
        let bucket = (leaf_mix(high, low) >> self.leaf_shift ^ high) & (self.leaf_buckets - 1);
        Slot {
            first: self.leaf_first + (bucket * LEAF_BUCKET_BYTES / 8) as usize,
            tag: high & !LEAF_PAYLOAD_MASK,
            low,
        }
    }

    /// Whether `slot` lies in the near-leaf area.
    #[inline(always)]
    fn in_leaf_area(&self, slot: Slot) -> bool {
        slot.first >= self.leaf_first
    }

    /// [`Self::slot`] of a key below `2^64` (the classic game's: page 0), the same slot in a
    /// table without a near-leaf area (tables of narrower keys never have one); in the main
    /// area always.
    #[inline(always)]
    pub fn narrow_slot(&self, key: u64) -> Slot {
        debug_assert!(self.key_width >= 64 || key >> self.key_width == 0);
        let stored = key & ((1u64 << self.key_bits) - 1);
        Slot {
            first: self.reduce(key) as usize * self.replacement.entries_per_bucket(),
            tag: stored << self.payload_bits,
            low: 0,
        }
    }

    /// `x mod S` ([`barrett_reduce`]).
    #[inline(always)]
    fn reduce(&self, x: u64) -> u64 {
        barrett_reduce(x, self.block_buckets, self.reciprocal)
    }

    /// Asks the processor to bring `slot`'s bucket into cache ahead of [`Self::probe`].
    #[inline(always)]
    pub fn prefetch(&self, slot: Slot) {
        #[cfg(target_arch = "x86_64")]
        {
            let address = self.entries.words().as_ptr().wrapping_add(slot.first);
            // SAFETY: prefetching is a hint; it never faults, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    address as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// The entry of the position at `slot`, if present: a word whose low bits are its payload.
    #[inline(always)]
    fn find(&self, slot: Slot) -> Option<u64> {
        if self.in_leaf_area(slot) {
            return self.find_in_leaf_area(slot);
        }
        let words = self.entries.words();
        (0..self.replacement.entries_per_bucket())
            .map(|i| words[slot.first + i].load(Relaxed))
            .find(|&entry| entry != 0 && entry & !self.payload_mask == slot.tag)
    }

    /// [`Self::find`] in the near-leaf area: the entry's second word, if the bucket holds the
    /// key and no thread wrote the bucket during the read (then a miss, whatever was read).
    #[inline(always)]
    fn find_in_leaf_area(&self, slot: Slot) -> Option<u64> {
        let bucket = &self.entries.words()[slot.first..slot.first + 8];
        let sequence = bucket[0].load(Acquire);
        let found = (0..LEAF_ENTRIES)
            .map(|i| {
                (
                    bucket[1 + 2 * i].load(Relaxed),
                    bucket[2 + 2 * i].load(Relaxed),
                )
            })
            .find(|&(low, entry)| {
                entry != 0 && low == slot.low && entry & !LEAF_PAYLOAD_MASK == slot.tag
            });
        // The entry's loads before the second read of the sequence number.
        fence(Acquire);
        if sequence & 1 != 0 || bucket[0].load(Relaxed) != sequence {
            return None;
        }
        found.map(|(_, entry)| entry)
    }

    /// The stored value of the position at `slot` (`true`: the first player wins), if present.
    ///
    /// Contract: the table's format is [`Format::Binary`].
    #[inline(always)]
    pub fn probe(&self, slot: Slot, stats: &mut TableStats) -> Option<bool> {
        debug_assert_eq!(self.format, Format::Binary);
        stats.probes += 1;
        let entry = self.find(slot)?;
        stats.hits += 1;
        Some(entry & 1 != 0)
    }

    /// The stored bound on the first player's score of the position at `slot`, if present.
    ///
    /// Contract: the table's format is [`Format::Bounds`].
    #[inline(always)]
    pub fn probe_bound(&self, slot: Slot) -> Option<Bound> {
        debug_assert_eq!(self.format, Format::Bounds);
        let entry = self.find(slot)?;
        Some(Bound::from_code(entry & 0x7F))
    }

    /// Whether the first player's score of the position at `slot` is at least `threshold`, if
    /// the stored bound says so either way.
    ///
    /// Contract: the table's format is [`Format::Bounds`].
    #[inline(always)]
    pub fn probe_at_least(
        &self,
        slot: Slot,
        threshold: i32,
        stats: &mut TableStats,
    ) -> Option<bool> {
        self.probe_bound_at_least(slot, threshold, stats)
            .map(|bound| bound >= threshold)
    }

    /// The stored bound of the position at `slot` if it answers "is the first player's score
    /// at least `threshold`?": a lower bound at or above `threshold` (yes), or an upper bound
    /// below it (no).
    ///
    /// Contract: the table's format is [`Format::Bounds`].
    #[inline(always)]
    pub fn probe_bound_at_least(
        &self,
        slot: Slot,
        threshold: i32,
        stats: &mut TableStats,
    ) -> Option<i32> {
        stats.probes += 1;
        let bound = match self.probe_bound(slot)? {
            Bound::Lower(b) if b >= threshold => b,
            Bound::Upper(b) if b < threshold => b,
            _ => return None,
        };
        stats.hits += 1;
        Some(bound)
    }

    /// Records the value of the position at `slot`, whose subtree took `nodes` nodes.
    ///
    /// Contract: the table's format is [`Format::Binary`].
    #[inline(always)]
    pub fn store(&self, slot: Slot, first_player_wins: bool, nodes: u64, stats: &mut TableStats) {
        debug_assert_eq!(self.format, Format::Binary);
        let work = (64 - nodes.leading_zeros()).min(31) as u64; // 1 + ⌊log2 nodes⌋ for nodes ≥ 1
        self.store_entry(
            slot,
            slot.tag | work.max(1) << 1 | first_player_wins as u64,
            stats,
        );
    }

    /// Records a bound on the first player's score of the position at `slot`, whose subtree
    /// took `nodes` nodes. A bound that says nothing (outside `-31..=31`) is not stored.
    ///
    /// Contract: the table's format is [`Format::Bounds`].
    #[inline(always)]
    pub fn store_bound(&self, slot: Slot, bound: Bound, nodes: u64, stats: &mut TableStats) {
        debug_assert_eq!(self.format, Format::Bounds);
        let Some(code) = bound.code() else {
            return;
        };
        let work = 1 + (nodes >= 32) as u64 + (nodes >= 4096) as u64;
        self.store_entry(slot, slot.tag | work << 7 | code, stats);
    }

    /// Writes `entry` (of the position at `slot`) by the replacement scheme.
    #[inline(always)]
    fn store_entry(&self, slot: Slot, entry: u64, stats: &mut TableStats) {
        stats.stores += 1;
        if self.in_leaf_area(slot) {
            self.store_in_leaf_area(slot, entry, stats);
            return;
        }
        let words = self.entries.words();
        let first = &words[slot.first];
        let old = first.load(Relaxed);
        let work_mask = self.format.work_mask();
        let work_of = |e: u64| e & work_mask;
        let differs = |e: u64| e != 0 && e & !self.payload_mask != slot.tag;
        match self.replacement {
            Replacement::New => {
                stats.replacements += differs(old) as u64;
                first.store(entry, Relaxed);
            }
            Replacement::Big => {
                if work_of(entry) >= work_of(old) || !differs(old) {
                    stats.replacements += differs(old) as u64;
                    first.store(entry, Relaxed);
                } else {
                    stats.replacements += 1;
                }
            }
            Replacement::TwoBig => {
                let second = &words[slot.first + 1];
                if !differs(old) || work_of(entry) >= work_of(old) {
                    // The new entry takes the first place; a different old one moves down.
                    first.store(entry, Relaxed);
                    if differs(old) {
                        let displaced = second.load(Relaxed);
                        stats.replacements += (displaced != 0 && displaced != old) as u64;
                        second.store(old, Relaxed);
                    }
                } else {
                    let displaced = second.load(Relaxed);
                    stats.replacements += differs(displaced) as u64;
                    second.store(entry, Relaxed);
                }
            }
        }
    }
}

/// The low bits of a near-leaf entry's second word: its payload.
const LEAF_PAYLOAD_MASK: u64 = (1 << LEAF_PAYLOAD_BITS) - 1;

/// The hash of a wide key that spreads the keys over the near-leaf buckets, of its low word and
/// of the high word's bits from 9 up (which its entry keeps, so that the bucket gives back the
/// high word's low bits): its top bits, which every bit of both reaches, are the ones taken
/// (`>> (64 - log2 S')`).
#[inline(always)]
const fn leaf_mix(high: u64, low: u64) -> u64 {
    let kept = (high >> LEAF_PAYLOAD_BITS).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (low ^ kept).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl TranspositionTable {
    /// [`Self::store_entry`] in the near-leaf area, whose three entries are kept as TWOBIG keeps
    /// two: the position's own entry is overwritten where it is; otherwise the new entry takes
    /// the first place if its work is at least the first's (which moves to the second), else the
    /// second, and the second moves to the third, whose entry is lost. The bucket's sequence
    /// number is made odd for the writes and even again after; a bucket another thread is
    /// writing is left alone and the entry dropped (a table may always lose an entry).
    #[inline(always)]
    fn store_in_leaf_area(&self, slot: Slot, entry: u64, stats: &mut TableStats) {
        let bucket = &self.entries.words()[slot.first..slot.first + 8];
        let sequence = bucket[0].load(Relaxed);
        if sequence & 1 != 0
            || bucket[0]
                .compare_exchange(sequence, sequence + 1, Acquire, Relaxed)
                .is_err()
        {
            stats.replacements += 1;
            return;
        }
        let read = |i: usize| {
            (
                bucket[1 + 2 * i].load(Relaxed),
                bucket[2 + 2 * i].load(Relaxed),
            )
        };
        let write = |i: usize, (low, word): (u64, u64)| {
            bucket[1 + 2 * i].store(low, Relaxed);
            bucket[2 + 2 * i].store(word, Relaxed);
        };
        let new = (slot.low, entry);
        let same = |(low, word): (u64, u64)| {
            word != 0 && low == slot.low && word & !LEAF_PAYLOAD_MASK == slot.tag
        };
        let work_of = |(_, word): (u64, u64)| word & self.format.work_mask();
        let entries = [read(0), read(1), read(2)];
        if let Some(i) = entries.iter().position(|&e| same(e)) {
            write(i, new);
        } else {
            stats.replacements += (entries[2].1 != 0) as u64;
            write(2, entries[1]);
            if work_of(new) >= work_of(entries[0]) {
                write(1, entries[0]);
                write(0, new);
            } else {
                write(1, new);
            }
        }
        bucket[0].store(sequence + 2, Release);
    }
}

/// `x mod s` by Barrett reduction, given `reciprocal = ⌊2^64 / s⌋`: the estimate
/// `⌊x · reciprocal / 2^64⌋` lies in `(x/s - 1, x/s]`, so it is `⌊x/s⌋` or one less and one
/// subtraction corrects it.
#[inline(always)]
fn barrett_reduce(x: u64, s: u64, reciprocal: u64) -> u64 {
    let estimate = ((x as u128 * reciprocal as u128) >> 64) as u64;
    let r = x - estimate * s;
    if r >= s {
        r - s
    } else {
        r
    }
}

/// Where a key lives in a [`TranspositionTable`]: its first entry and its tag (stored key bits,
/// shifted into place). Computed once per node, used by prefetch, probe and store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    first: usize,
    tag: u64,
    /// A wide key's low 64 bits, which a near-leaf entry keeps in its first word (0 elsewhere).
    low: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(replacement: Replacement) -> TranspositionTable {
        let bytes = TranspositionTable::minimum_bytes(replacement);
        TranspositionTable::of_size(bytes, replacement).unwrap()
    }

    #[test]
    fn the_crt_bound_holds_and_sizes_are_prime() {
        for replacement in [Replacement::TwoBig, Replacement::New, Replacement::Big] {
            for bytes in [
                TranspositionTable::minimum_bytes(replacement),
                100 << 20,
                1 << 30,
            ] {
                let t = TranspositionTable::of_size(bytes, replacement).unwrap();
                assert!(is_prime(t.block_buckets()));
                assert_eq!(t.blocks(), 1 << 16, "one block per page of an 80-bit key");
                assert!(t.bytes() <= bytes);
                // S · 2^k ≥ 2^64 for the low key bits, and the tag fits beside the payload.
                assert!((t.block_buckets() as u128) << t.key_bits() >= 1u128 << 64);
                assert!(t.key_bits() + Format::Binary.payload_bits() <= 64);
            }
        }
        let too_small = TranspositionTable::minimum_bytes(Replacement::TwoBig) - 16;
        assert!(matches!(
            TranspositionTable::of_size(too_small, Replacement::TwoBig),
            Err(TableError::TooSmall { .. })
        ));
    }

    #[test]
    fn slot_matches_plain_128_bit_arithmetic() {
        for bytes in [
            TranspositionTable::minimum_bytes(Replacement::New),
            1 << 30,
            4 << 30,
        ] {
            let t = TranspositionTable::of_size(bytes, Replacement::New).unwrap();
            let mut key: u128 = 0x1234_5678_9ABC_DEF0_1357;
            let edges = [
                0,
                1,
                (1 << 64) - 1,
                1 << 64,
                (1 << 80) - 1,
                t.buckets() as u128 - 1,
            ];
            let random = (0..100_000).map(|_| {
                key = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (key >> 29)) & ((1 << 80) - 1);
                key
            });
            for key in edges.into_iter().chain(random) {
                check_slot(&t, key);
            }
        }
    }

    fn check_slot(t: &TranspositionTable, key: u128) {
        let slot = t.slot(key);
        let per_bucket = t.replacement().entries_per_bucket();
        // The near-leaf area starts where the main area's buckets end, and ends the words.
        let main_words = t.buckets() as usize * per_bucket;
        let leaf_words = t.leaf_buckets() as usize * 8;
        assert_eq!(t.entries.words().len(), main_words + leaf_words);
        if is_wide_key(key) {
            // The near-leaf area: the bucket of the mix, its low word and its high word's bits
            // from 9 up stored.
            let (high, low) = ((key >> 64) as u64, key as u64);
            let mix = leaf_mix(high, low) >> (64 - t.leaf_buckets().trailing_zeros());
            let bucket = ((mix ^ high) % t.leaf_buckets()) as usize;
            assert_eq!(slot.first, main_words + bucket * 8);
            assert_eq!(slot.low, low);
            assert_eq!(slot.tag, high >> LEAF_PAYLOAD_BITS << LEAF_PAYLOAD_BITS);
            return;
        }
        let (page, low) = (key >> 64, key as u64 as u128);
        let s = t.block_buckets() as u128;
        // The page's block, and the low bits' bucket in it, within the main area.
        assert_eq!(
            slot.first as u128,
            (page * s + low % s) * per_bucket as u128
        );
        assert!(slot.first + per_bucket <= main_words);
        assert_eq!(
            slot.tag >> t.format().payload_bits(),
            (low & ((1 << t.key_bits()) - 1)) as u64
        );
    }

    #[test]
    fn colliding_keys_never_hit_each_other() {
        // Keys in one bucket (one page, low bits equal mod S) and keys with equal stored bits
        // (equal mod 2^k) in other buckets, and (when `j << k` reaches the page) in other
        // blocks: each probe must find its own value or nothing.
        for replacement in [Replacement::TwoBig, Replacement::New, Replacement::Big] {
            let t = small(replacement);
            let s = t.block_buckets() as u128;
            let k = t.key_bits();
            let base: u128 = 0xABCD_0123_4567_89AB_CDEF & ((1 << 80) - 1);
            let same_bucket: Vec<u128> =
                (1..40).map(|j| (base + j * s) & ((1 << 80) - 1)).collect();
            let same_tag: Vec<u128> = (1..40)
                .map(|j| (base + (j << k)) & ((1 << 80) - 1))
                .collect();
            let mut stats = TableStats::default();
            for (i, &key) in same_bucket.iter().chain(&same_tag).enumerate() {
                t.store(t.slot(key), i % 3 == 0, 1 << (i % 20), &mut stats);
            }
            for (i, &key) in same_bucket.iter().chain(&same_tag).enumerate() {
                if let Some(value) = t.probe(t.slot(key), &mut stats) {
                    assert_eq!(value, i % 3 == 0, "{replacement}: key {key:#x}");
                }
            }
            // An unseen key in a busy bucket is never a hit.
            let stranger = (base + 1000 * s) & ((1 << 80) - 1);
            assert_eq!(t.probe(t.slot(stranger), &mut stats), None);
        }
    }

    /// The smallest main area beside the smallest near-leaf area.
    fn small_with_leaf_area(replacement: Replacement) -> TranspositionTable {
        with_leaf_area_of(replacement, 1)
    }

    /// The smallest main area beside a near-leaf area `times` the smallest (fewer key bits).
    fn with_leaf_area_of(replacement: Replacement, times: u64) -> TranspositionTable {
        let leaf = times * TranspositionTable::minimum_leaf_bytes(replacement, Format::Binary);
        let main = TranspositionTable::minimum_main_bytes(replacement, Format::Binary, 80);
        let bytes = main + leaf;
        let leaf_area = LeafArea::Bytes(leaf);
        let config = TableConfig::new(bytes, KEY_WIDTH_3D)
            .replacement(replacement)
            .leaf_area(leaf_area);
        let t = TranspositionTable::new(&config).unwrap();
        assert!(t.bytes() <= bytes);
        t
    }

    /// A wide key: high word `high` (given bits above its low 16), low word `low`.
    fn wide(high: u64, low: u64) -> u128 {
        assert!(high >> 16 != 0);
        (high as u128) << 64 | low as u128
    }

    /// The keys a near-leaf slot can stand for: the slot's low word, and high words of the
    /// stored bits and any low 9 bits, whose slot is this one.
    fn keys_of_leaf_slot(t: &TranspositionTable, slot: Slot) -> Vec<u128> {
        (0..1u64 << LEAF_PAYLOAD_BITS)
            .map(|j| ((slot.tag | j) as u128) << 64 | slot.low as u128)
            .filter(|&key| t.slot(key) == slot)
            .collect()
    }

    /// A wide key with high word `upper · 2^9 + j` and low word `low`, `j` chosen to put it in
    /// `bucket` of a near-leaf area of the smallest size (`2^9` buckets).
    fn key_in_bucket(t: &TranspositionTable, upper: u64, low: u64, bucket: u64) -> u128 {
        assert_eq!(t.leaf_buckets(), LEAF_MIN_BUCKETS);
        let high = upper << LEAF_PAYLOAD_BITS;
        let mix = leaf_mix(high, low) >> (64 - LEAF_PAYLOAD_BITS);
        let key = wide(high | ((mix ^ bucket) % LEAF_MIN_BUCKETS), low);
        let main_words = t.buckets() as usize * t.replacement().entries_per_bucket();
        assert_eq!(t.slot(key).first, main_words + bucket as usize * 8);
        key
    }

    #[test]
    fn a_near_leaf_slot_stands_for_one_wide_key_alone() {
        let tables = [Replacement::TwoBig, Replacement::New, Replacement::Big]
            .into_iter()
            .flat_map(|replacement| [1, 3].map(|times| (replacement, times)));
        for (replacement, times) in tables {
            let t = with_leaf_area_of(replacement, times);
            let s = t.leaf_buckets();
            assert!(s.is_power_of_two() && s >= LEAF_MIN_BUCKETS);
            let mut key: u128 = 0x3141_5926_5358_9793_2384_6264_3383_2795;
            let (mut leaf, mut main) = (0, 0);
            for i in 0..20_000 {
                key = key.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835) ^ (key >> 61);
                // Half the keys wide, half narrow (below 2^80), so that both areas are met.
                let key = if i % 2 == 0 {
                    key | 1 << 100
                } else {
                    key & ((1 << 80) - 1)
                };
                check_slot(&t, key);
                if is_wide_key(key) {
                    leaf += 1;
                    if i % 20 == 0 {
                        assert_eq!(keys_of_leaf_slot(&t, t.slot(key)), [key]);
                    }
                } else {
                    main += 1;
                }
            }
            assert_eq!((leaf, main), (10_000, 10_000));
            for edge in [u128::MAX, 1 << 80, wide(1 << 16, 0), wide(!0, 0)] {
                check_slot(&t, edge);
                assert_eq!(keys_of_leaf_slot(&t, t.slot(edge)), [edge]);
            }
        }
    }

    #[test]
    fn colliding_keys_never_hit_each_other_in_the_near_leaf_area() {
        for format in [Format::Binary, Format::Bounds] {
            let leaf = TranspositionTable::minimum_leaf_bytes(Replacement::TwoBig, format);
            let main = TranspositionTable::minimum_main_bytes(Replacement::New, format, 80);
            let config = TableConfig::new(main + leaf, KEY_WIDTH_3D)
                .format(format)
                .replacement(Replacement::New);
            let t = TranspositionTable::new(&config).unwrap();
            // One bucket: keys of one low word, keys of one high word, keys of neither.
            let key = |upper: u64, low: u64| key_in_bucket(&t, upper, low, 99);
            let keys: Vec<u128> = (1..40u64)
                .flat_map(|j| {
                    [
                        key(0x1234_5678 + j, 77),
                        key(0x1234, 77 + j),
                        key(j << 40, j << 50),
                    ]
                })
                .collect();
            let value = |i: usize| i.is_multiple_of(3);
            let bound = |i: usize| Bound::Lower(i as i32 % 31);
            let mut stats = TableStats::default();
            for (i, &key) in keys.iter().enumerate() {
                match format {
                    Format::Binary => t.store(t.slot(key), value(i), 1 << (i % 20), &mut stats),
                    Format::Bounds => {
                        t.store_bound(t.slot(key), bound(i), 1 << (i % 20), &mut stats)
                    }
                }
            }
            let mut found = 0;
            for (i, &key) in keys.iter().enumerate() {
                let hit = match format {
                    Format::Binary => t.probe(t.slot(key), &mut stats).map(|v| v == value(i)),
                    Format::Bounds => t.probe_bound(t.slot(key)).map(|b| b == bound(i)),
                };
                assert_ne!(hit, Some(false), "{format:?}: key {key:#x}");
                found += hit.is_some() as usize;
            }
            // All in one bucket of three entries: the biggest and the newest stay.
            assert!(found >= 2, "{format:?}: {found} of the keys kept");
            // Unseen keys of the bucket, some sharing a word with a stored key.
            let strangers =
                (100..140u64).flat_map(|j| [key(0x1234_5678 + j, 77), key(0x1234, 77 + j)]);
            for stranger in strangers {
                assert_eq!(t.find(t.slot(stranger)), None, "{format:?}: {stranger:#x}");
            }
        }
    }

    #[test]
    fn a_near_leaf_bucket_keeps_its_biggest_and_its_newest_entries() {
        let t = small_with_leaf_area(Replacement::TwoBig);
        let key = |j: u64| key_in_bucket(&t, 0xFEDC_BA98_7654 + j, 77, 5); // one bucket
        let found = |j: u64| t.probe(t.slot(key(j)), &mut TableStats::default());
        let mut stats = TableStats::default();
        t.store(t.slot(key(0)), true, 1 << 20, &mut stats);
        for j in 1..10 {
            t.store(t.slot(key(j)), j % 2 == 0, 2, &mut stats);
        }
        assert_eq!(found(0), Some(true), "the biggest subtree stays");
        assert_eq!(
            (found(8), found(9)),
            (Some(true), Some(false)),
            "the two newest"
        );
        assert_eq!(found(7), None);
        // A position stored again is overwritten where it is, not copied.
        t.store(t.slot(key(9)), true, 2, &mut stats);
        assert_eq!(
            (found(0), found(8), found(9)),
            (Some(true), Some(true), Some(true))
        );
    }

    #[test]
    fn threads_racing_on_near_leaf_buckets_never_read_half_of_two_entries() {
        // Keys of one bucket whose low and high words are independent, each stored with a
        // value that is a function of the whole key: a read made of one entry's low word and
        // another's high word would find a key whose value is the other function's.
        let t = small_with_leaf_area(Replacement::TwoBig);
        let key =
            |a: u64, b: u64| key_in_bucket(&t, 0x20_0000_0000_0000 + a, b * 0x1_0000_0001 + 1, 7);
        let value = |a: u64, b: u64| (a + b).is_multiple_of(2);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let wrong = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for thread in 0..2u64 {
                let (t, stop, wrong) = (&t, &stop, &wrong);
                scope.spawn(move || {
                    let mut stats = TableStats::default();
                    let mut i = thread;
                    while !stop.load(Relaxed) {
                        let (a, b) = (i % 3, i / 3 % 3);
                        t.store(t.slot(key(a, b)), value(a, b), 1 + i % 7, &mut stats);
                        let (c, d) = (i / 5 % 3, i / 7 % 3);
                        if t.probe(t.slot(key(c, d)), &mut stats) == Some(!value(c, d)) {
                            wrong.fetch_add(1, Relaxed);
                        }
                        i += 2;
                    }
                });
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
            stop.store(true, Relaxed);
        });
        assert_eq!(wrong.load(Relaxed), 0);
    }

    #[test]
    fn near_leaf_areas_that_do_not_fit_are_refused() {
        let leaf = TranspositionTable::minimum_leaf_bytes(Replacement::TwoBig, Format::Binary);
        let main = TranspositionTable::minimum_main_bytes(Replacement::TwoBig, Format::Binary, 80);
        assert_eq!(
            TranspositionTable::minimum_bytes(Replacement::TwoBig),
            main + leaf
        );
        let make = |bytes: u64, leaf_area: LeafArea, key_width: u32| {
            TranspositionTable::new(&TableConfig::new(bytes, key_width).leaf_area(leaf_area))
        };
        for (bytes, leaf_bytes) in [(main + leaf, leaf - 16), (main + leaf - 16, leaf)] {
            let error = make(bytes, LeafArea::Bytes(leaf_bytes), KEY_WIDTH_3D).unwrap_err();
            assert!(matches!(error, TableError::LeafAreaTooSmall { .. }));
            assert!(error.is_bad_input());
            assert!(error.to_string().contains("near-leaf area"), "{error}");
        }
        let narrow = make(1 << 26, LeafArea::Bytes(leaf), 49).unwrap_err();
        assert!(matches!(narrow, TableError::LeafAreaNeedsBoardKeys { .. }));
        // The 3-D game's keys need the area: off is refused, a table too small for both is.
        let off = make(1 << 30, LeafArea::Off, KEY_WIDTH_3D).unwrap_err();
        assert!(matches!(off, TableError::LeafAreaNeeded) && off.concerns_leaf_area());
        assert!(off.to_string().contains("near-leaf area"), "{off}");
        let error = make(main + leaf - 8, LeafArea::Auto, KEY_WIDTH_3D).unwrap_err();
        assert!(matches!(error, TableError::TooSmall { minimum, .. } if minimum == main + leaf));
        // Auto: none for narrow keys; for 3-D keys half the table, less where the main area
        // would fall below its smallest size, in either format.
        assert_eq!(
            make(1 << 28, LeafArea::Auto, 49).unwrap().leaf_min_stones(),
            None
        );
        let smallest = make(main + leaf, LeafArea::Auto, KEY_WIDTH_3D).unwrap();
        assert_eq!(smallest.leaf_min_stones(), Some(LEAF_MIN_STONES));
        assert!(smallest.leaf_bytes() <= leaf);
        let large = make(1 << 30, LeafArea::Auto, KEY_WIDTH_3D).unwrap();
        assert!(large.leaf_bytes() <= (1 << 30) / LEAF_AREA_AUTO_PARTS);
        assert!(large.leaf_bytes() > (1 << 30) / LEAF_AREA_AUTO_PARTS - 1024);
        // Sizes far beyond any machine are only checked (the smallest memory that works is
        // found by halving from 2^50 bytes): they lay out without a panic.
        for leaf_area in [LeafArea::Auto, LeafArea::Bytes(1 << 49)] {
            let huge = TableConfig::new(1 << 50, KEY_WIDTH_3D).leaf_area(leaf_area);
            assert!(TranspositionTable::layout(&huge).is_ok());
        }
        // 128 MiB: half would leave the main area below its smallest size, so the area is the
        // largest power of two of buckets that leaves it enough.
        let medium = make(128 << 20, LeafArea::Auto, KEY_WIDTH_3D).unwrap();
        assert!(medium.leaf_bytes() <= (128 << 20) - main);
        assert!(medium.leaf_bytes() > ((128 << 20) - main) / 2);
        let bytes = TranspositionTable::minimum_bytes_for(Replacement::New, Format::Bounds);
        let config = TableConfig::new(bytes, KEY_WIDTH_3D).format(Format::Bounds);
        let bounds = TranspositionTable::new(&config.replacement(Replacement::New));
        assert_eq!(bounds.unwrap().leaf_min_stones(), Some(LEAF_MIN_STONES));
        for text in ["auto", "off", "67109104"] {
            assert_eq!(text.parse::<LeafArea>().unwrap().to_string(), text);
        }
        assert!("sometimes".parse::<LeafArea>().is_err());
    }

    #[test]
    fn replacement_schemes_keep_what_they_promise() {
        let mut stats = TableStats::default();
        for replacement in [Replacement::TwoBig, Replacement::New, Replacement::Big] {
            let t = small(replacement);
            let s = t.block_buckets() as u128;
            let (big, small_one, newer) = (5u128, 5 + s, 5 + 2 * s); // one bucket
            t.store(t.slot(big), true, 1 << 20, &mut stats);
            t.store(t.slot(small_one), false, 2, &mut stats);
            t.store(t.slot(newer), true, 4, &mut stats);
            let found = |k: u128| t.probe(t.slot(k), &mut TableStats::default());
            match replacement {
                Replacement::New => {
                    assert_eq!(
                        (found(big), found(small_one), found(newer)),
                        (None, None, Some(true))
                    )
                }
                Replacement::Big => {
                    assert_eq!(
                        (found(big), found(small_one), found(newer)),
                        (Some(true), None, None)
                    )
                }
                Replacement::TwoBig => assert_eq!(
                    (found(big), found(small_one), found(newer)),
                    (Some(true), None, Some(true))
                ),
            }
        }
    }

    #[test]
    fn bound_codes_round_trip_and_answer_thresholds() {
        for b in -31..=31 {
            for bound in [Bound::Lower(b), Bound::Upper(b)] {
                let code = bound.code().unwrap();
                assert!((1..128).contains(&code));
                assert_eq!(Bound::from_code(code), bound);
                for t in -33..=33 {
                    let expected = match bound {
                        Bound::Lower(b) => (b >= t).then_some(true),
                        Bound::Upper(b) => (b < t).then_some(false),
                    };
                    assert_eq!(bound.answers(t), expected, "{bound:?} at {t}");
                }
            }
        }
        assert_eq!(Bound::Lower(-32).code(), None);
        assert_eq!(Bound::Upper(32).code(), None);
    }

    #[test]
    fn colliding_keys_never_hit_each_other_in_the_bounds_format() {
        for replacement in [Replacement::TwoBig, Replacement::New, Replacement::Big] {
            let bytes = TranspositionTable::minimum_bytes_for(replacement, Format::Bounds);
            let config = TableConfig::new(bytes, KEY_WIDTH_3D).format(Format::Bounds);
            let t = TranspositionTable::new(&config.replacement(replacement).threads(2)).unwrap();
            assert!((t.block_buckets() as u128) << t.key_bits() >= 1u128 << 64);
            let s = t.block_buckets() as u128;
            let k = t.key_bits();
            let base: u128 = 0x0BCD_0123_4567_89AB_CDEF & ((1 << 80) - 1);
            let keys: Vec<u128> = (1..40)
                .map(|j| (base + j * s) & ((1 << 80) - 1))
                .chain((1..40).map(|j| (base + (j << k)) & ((1 << 80) - 1)))
                .collect();
            let bound_of = |i: usize| {
                let b = (i as i32 * 7) % 63 - 31;
                if i.is_multiple_of(2) {
                    Bound::Lower(b)
                } else {
                    Bound::Upper(b)
                }
            };
            let mut stats = TableStats::default();
            for (i, &key) in keys.iter().enumerate() {
                t.store_bound(t.slot(key), bound_of(i), 1 << (i % 20), &mut stats);
            }
            let mut found = 0;
            for (i, &key) in keys.iter().enumerate() {
                if let Some(bound) = t.probe_bound(t.slot(key)) {
                    assert_eq!(bound, bound_of(i), "{replacement}: key {key:#x}");
                    found += 1;
                }
            }
            assert!(found >= 2, "{replacement}: the last stores are kept");
            let stranger = (base + 1000 * s) & ((1 << 80) - 1);
            assert_eq!(t.probe_bound(t.slot(stranger)), None);
        }
        let too_small = TranspositionTable::minimum_bytes_for(Replacement::New, Format::Bounds) - 8;
        assert!(matches!(
            TranspositionTable::new(
                &TableConfig::new(too_small, KEY_WIDTH_3D)
                    .replacement(Replacement::New)
                    .format(Format::Bounds)
            ),
            Err(TableError::TooSmall { .. })
        ));
    }
}
