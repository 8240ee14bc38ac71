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
//! - **The near-leaf area** ([`LeafArea`]): tables of 256 MiB or more in the binary format keep
//!   the positions of [`LEAF_MIN_STONES`] stones or more apart, after the blocks, in `S'`
//!   buckets (`S'` prime) indexed by the whole key mod `S'`, with the key's low `k'` bits stored
//!   and `S' · 2^k' ≥ 2^80`: exact by the same argument, in the entry layout above (so
//!   `S' > 2^22`: 64 MiB for TWOBIG). A node's children there are not kept on one block; the
//!   area is small enough that its reads stay closer to the caches and the address
//!   translation's reach.
//!
//! In the binary format 58 bits are left for `low mod 2^k`, so `S > 2^6`: the smallest table
//! has 2^16 blocks of 67 buckets, about 34 MiB (NEW, BIG) or 67 MiB (TWOBIG).
//!
//! The classic 7×6 game's keys have 49 bits ([`TableConfig::key_width`]): any
//! table with 2^10 buckets or more stays exact in both formats (`k = 49 - ⌊log2 S⌋`).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::Ordering::Relaxed;

use score4_board::key::table_key_stones;

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

/// Whether a table keeps the positions near the leaves apart, in a small area of their own.
///
/// Most probes and stores are of positions a few stones from the end, whose subtrees are
/// small and whose transpositions are found soon after they are stored. Spread over a
/// gigabyte, every such probe misses the caches and the address translation; kept in an area
/// of 64 MiB they mostly hit both, and the area's turnover loses few entries the search would
/// have come back to (docs/PERFORMANCE.md, "The table and the cutoff"). A position goes to the area
/// when it has at least [`LEAF_MIN_STONES`] stones ([`score4_board::key::table_key_stones`]),
/// so its place is still a function of its key alone. The area is exact by the Chinese
/// remainder theorem like the main one, over the whole 80-bit key: `S'` buckets, `S'` prime,
/// and entries holding the key's low `k'` bits with `S' · 2^k' ≥ 2^80`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafArea {
    /// No such area: every position in the main area.
    Off,
    /// The smallest exact area ([`TranspositionTable::minimum_leaf_bytes`], 64 MiB for TWOBIG,
    /// 32 MiB for NEW and BIG) in a binary-format table of 80-bit keys of at least
    /// [`LEAF_AREA_AUTO_FROM`] bytes; otherwise none.
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

/// Positions with at least this many stones live in the near-leaf area ([`LeafArea`]), when
/// the table has one. Chosen on the first 120 of d24 and the first 300 of d28
/// (docs/PERFORMANCE.md, "The table and the cutoff").
pub const LEAF_MIN_STONES: u32 = 44;

/// [`LeafArea::Auto`] gives a table of at least this many bytes (four times the TWOBIG area)
/// a near-leaf area.
pub const LEAF_AREA_AUTO_FROM: u64 = 256 << 20;

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
    /// A near-leaf area asked for a table of keys narrower than the 3-D game's: the area picks
    /// positions by the stones of a 3-D table key.
    LeafAreaNeedsBoardKeys {
        /// The table's key width.
        key_width: u32,
    },
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
            TableError::LeafAreaTooSmall { .. } | TableError::LeafAreaNeedsBoardKeys { .. }
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
/// assert_eq!(table.leaf_min_stones(), None); // too small for a near-leaf area
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
    /// Default [`LeafArea::Auto`]: the near-leaf area in a binary-format table of 3-D keys of
    /// at least [`LEAF_AREA_AUTO_FROM`] bytes, where it saves address translations, and none
    /// elsewhere (the area picks positions by the stones of a 3-D key, and in a smaller table
    /// it would take too large a share of the memory).
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
    /// The near-leaf area ([`LeafArea`]): where its buckets start among the words, how many
    /// there are (`S'`, a prime, 0 without the area), `⌊2^64 / S'⌋`, `2^64 mod S'`, the key
    /// bits its entries hold, and the fewest stones of a position it takes (`u32::MAX`: none).
    leaf_first: usize,
    leaf_buckets: u64,
    leaf_reciprocal: u64,
    leaf_page_factor: u64,
    leaf_key_bits: u32,
    leaf_min_stones: u32,
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
    /// Key bits an entry of the near-leaf area keeps.
    leaf_key_bits: u32,
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

    /// The smallest table, in bytes, for `replacement`, `format` and keys of `key_width` bits.
    pub fn minimum_bytes_for_keys(replacement: Replacement, format: Format, key_width: u32) -> u64 {
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
            leaf_key_bits,
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
        let (leaf_reciprocal, leaf_page_factor) = match leaf_buckets {
            0 => (0, 0),
            s => (
                ((1u128 << 64) / s as u128) as u64,
                ((1u128 << 64) % s as u128) as u64,
            ),
        };
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
            leaf_reciprocal,
            leaf_page_factor,
            leaf_key_bits,
            leaf_min_stones: if leaf_buckets == 0 {
                u32::MAX
            } else {
                LEAF_MIN_STONES
            },
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
        let main_minimum = Self::minimum_bytes_for_keys(replacement, format, key_width);
        let leaf_bytes = match leaf {
            LeafArea::Off => 0,
            LeafArea::Auto => {
                let fits = format == Format::Binary
                    && key_width == KEY_WIDTH_3D
                    && bytes >= LEAF_AREA_AUTO_FROM;
                if fits {
                    leaf_minimum
                } else {
                    0
                }
            }
            LeafArea::Bytes(leaf_bytes) => {
                if key_width != KEY_WIDTH_3D {
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
        // The near-leaf area: S' buckets, S' prime, S' · 2^k' ≥ 2^80 with k' as above.
        let mut leaf_buckets = leaf_bytes / bucket_bytes;
        while leaf_buckets > 0 && !is_prime(leaf_buckets) {
            leaf_buckets -= 1;
        }
        let leaf_key_bits = if leaf_buckets == 0 {
            0
        } else {
            key_width - (63 - leaf_buckets.leading_zeros())
        };
        debug_assert!(leaf_buckets == 0 || leaf_key_bits + format.payload_bits() <= 64);
        // `leaf_slot` multiplies a page (below 2^16) by a remainder below S'.
        assert!(leaf_buckets < 1 << 48, "a near-leaf area of 4 PiB or more");
        let words = main_words + leaf_buckets as usize * replacement.entries_per_bucket();
        Ok(Layout {
            block_buckets,
            blocks,
            key_bits,
            main_words,
            leaf_buckets,
            leaf_key_bits,
            words,
        })
    }

    /// A binary-format table of at most `bytes` bytes for the 3-D game's keys, with
    /// `replacement` and otherwise [`TableConfig::new`]'s defaults: the plain table most tests
    /// and benchmarks want.
    pub fn of_size(bytes: u64, replacement: Replacement) -> Result<TranspositionTable, TableError> {
        Self::new(&TableConfig::new(bytes, KEY_WIDTH_3D).replacement(replacement))
    }

    /// The smallest near-leaf area, in bytes, for `replacement` and `format`: `S'` must exceed
    /// `2^(80 - k)` for the `k` key bits an entry has room for.
    pub fn minimum_leaf_bytes(replacement: Replacement, format: Format) -> u64 {
        let room = 64 - format.payload_bits();
        let s = prime_above(1u64 << (KEY_WIDTH_3D - room));
        s * 8 * replacement.entries_per_bucket() as u64
    }

    /// The near-leaf area's size in bytes (0 without one).
    pub fn leaf_bytes(&self) -> u64 {
        self.leaf_buckets * 8 * self.replacement.entries_per_bucket() as u64
    }

    /// `S'`, the near-leaf area's buckets (a prime; 0 without the area).
    pub fn leaf_buckets(&self) -> u64 {
        self.leaf_buckets
    }

    /// `k'`, the key bits an entry of the near-leaf area holds (`S' · 2^k' ≥ 2^80`).
    pub fn leaf_key_bits(&self) -> u32 {
        self.leaf_key_bits
    }

    /// The fewest stones of a position kept in the near-leaf area, if the table has one.
    pub fn leaf_min_stones(&self) -> Option<u32> {
        (self.leaf_buckets > 0).then_some(self.leaf_min_stones)
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
        self.entries
            .words()
            .iter()
            .filter(|w| w.load(Relaxed) != 0)
            .count() as u64
    }

    /// The share of entries in use, estimated from `samples` entries spread evenly over the
    /// table (cheap enough for a progress display; [`Self::occupied`] counts them all).
    pub fn fill_estimate(&self, samples: usize) -> f64 {
        let words = self.entries.words();
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
    /// position with enough stones) and the key bits its entry holds.
    #[inline(always)]
    pub fn slot(&self, key: u128) -> Slot {
        debug_assert!(
            key >> self.key_width == 0,
            "a key wider than the table takes"
        );
        let (page, low) = ((key >> 64) as u64, key as u64);
        if table_key_stones(key) >= self.leaf_min_stones {
            return self.leaf_slot(page, low);
        }
        let bucket = page * self.block_buckets + self.reduce(low);
        let stored = low & ((1u64 << self.key_bits) - 1);
        Slot {
            first: bucket as usize * self.replacement.entries_per_bucket(),
            tag: stored << self.payload_bits,
        }
    }

    /// [`Self::slot`] in the near-leaf area: bucket `key mod S'`, computed as
    /// `(page · (2^64 mod S') + low mod S') mod S'`, and the key's low `k'` bits stored; since
    /// `S'` is odd and `S' · 2^k' ≥ 2^80`, the two give back the whole key (a hit is exact).
    #[inline(always)]
    fn leaf_slot(&self, page: u64, low: u64) -> Slot {
        let reduce = |x: u64| barrett_reduce(x, self.leaf_buckets, self.leaf_reciprocal);
        // page < 2^16 and 2^64 mod S' < S' < 2^48 (asserted when the table is made): the sum
        // stays below 2^64.
        let bucket = reduce(page * self.leaf_page_factor + reduce(low));
        let stored = low & ((1u64 << self.leaf_key_bits) - 1);
        Slot {
            first: self.leaf_first + bucket as usize * self.replacement.entries_per_bucket(),
            tag: stored << self.payload_bits,
        }
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

    /// The entry of the position at `slot`, if present.
    #[inline(always)]
    fn find(&self, slot: Slot) -> Option<u64> {
        let words = self.entries.words();
        (0..self.replacement.entries_per_bucket())
            .map(|i| words[slot.first + i].load(Relaxed))
            .find(|&entry| entry != 0 && entry & !self.payload_mask == slot.tag)
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
        let leaf_words = t.leaf_buckets() as usize * per_bucket;
        assert_eq!(t.entries.words().len(), main_words + leaf_words);
        let in_leaf_area = t
            .leaf_min_stones()
            .is_some_and(|least| table_key_stones(key) >= least);
        if in_leaf_area {
            // The near-leaf area: the whole key's bucket mod S', its low k' bits stored.
            let bucket = (key % t.leaf_buckets() as u128) as usize;
            assert_eq!(slot.first, main_words + bucket * per_bucket);
            let stored = key & ((1 << t.leaf_key_bits()) - 1);
            assert_eq!(slot.tag >> t.format().payload_bits(), stored as u64);
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
        let bytes = TranspositionTable::minimum_bytes(replacement) + leaf;
        let leaf_area = LeafArea::Bytes(leaf);
        let config = TableConfig::new(bytes, KEY_WIDTH_3D)
            .replacement(replacement)
            .leaf_area(leaf_area);
        let t = TranspositionTable::new(&config).unwrap();
        assert!(t.bytes() <= bytes);
        t
    }

    /// A key whose low word is `low` and page `page`.
    fn key_of(page: u128, low: u64) -> u128 {
        (page & 0xFFFF) << 64 | low as u128
    }

    #[test]
    fn the_near_leaf_area_is_exact_by_the_crt_over_the_whole_key() {
        let tables = [Replacement::TwoBig, Replacement::New, Replacement::Big]
            .into_iter()
            .flat_map(|replacement| [1, 3].map(|times| (replacement, times)));
        for (replacement, times) in tables {
            let t = with_leaf_area_of(replacement, times);
            let s = t.leaf_buckets();
            assert!(is_prime(s));
            assert_eq!(t.leaf_key_bits(), if times == 1 { 58 } else { 57 });
            assert!((s as u128) << t.leaf_key_bits() >= 1u128 << 80);
            assert!(t.leaf_key_bits() + Format::Binary.payload_bits() <= 64);
            let per_bucket = replacement.entries_per_bucket();
            let mut key: u128 = 0x3141_5926_5358_9793_2384;
            let (mut leaf, mut main) = (0, 0);
            for _ in 0..200_000 {
                key = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (key >> 29)) & ((1 << 80) - 1);
                // Half the keys with layers 3 and "full" filled (64 stones by the markers), half
                // with them empty (at most 32), so that both areas are met.
                let upper = 0xFFFF_FFFF << 32;
                let key = if key & 1 == 0 {
                    key | upper
                } else {
                    key & !upper
                };
                let slot = t.slot(key);
                if table_key_stones(key) >= LEAF_MIN_STONES {
                    leaf += 1;
                } else {
                    main += 1;
                }
                check_slot(&t, key);
                assert!(slot.first + per_bucket <= t.entries.words().len());
            }
            assert!(leaf > 50_000 && main > 50_000, "{leaf} / {main}");
        }
    }

    #[test]
    fn colliding_keys_never_hit_each_other_in_the_near_leaf_area() {
        for replacement in [Replacement::TwoBig, Replacement::New, Replacement::Big] {
            let t = small_with_leaf_area(replacement);
            let s = t.leaf_buckets() as u128;
            let k = t.leaf_key_bits();
            // Upper layers full: 64 stones by the markers, so every key below is in the area
            // (adding multiples of S' or of 2^k' keeps enough of layers 2 and 3).
            let base = key_of(0x1234, 0xFFFF_FFFF_0000_0000 | 0x89AB_CDEF);
            let same_bucket = (1..40).map(|j| (base + j * s) & ((1 << 80) - 1));
            let same_tag = (1..40).map(|j| (base + (j << k)) & ((1 << 80) - 1));
            let keys: Vec<u128> = same_bucket
                .chain(same_tag)
                .filter(|&key| table_key_stones(key) >= LEAF_MIN_STONES)
                .collect();
            assert!(keys.len() >= 60, "{} keys in the area", keys.len());
            let mut stats = TableStats::default();
            for (i, &key) in keys.iter().enumerate() {
                t.store(t.slot(key), i % 3 == 0, 1 << (i % 20), &mut stats);
            }
            let mut found = 0;
            for (i, &key) in keys.iter().enumerate() {
                if let Some(value) = t.probe(t.slot(key), &mut stats) {
                    assert_eq!(value, i % 3 == 0, "{replacement}: key {key:#x}");
                    found += 1;
                }
            }
            assert!(found >= 2, "{replacement}: the last stores are kept");
            // Unseen keys in a busy bucket, or with the stored bits of a stored key.
            let strangers: Vec<u128> = (1000..1040)
                .flat_map(|j| [base + j * s, base + (j << k)])
                .map(|key| key & ((1 << 80) - 1))
                .filter(|&key| table_key_stones(key) >= LEAF_MIN_STONES)
                .collect();
            assert!(strangers.len() >= 40);
            for stranger in strangers {
                assert_eq!(t.probe(t.slot(stranger), &mut stats), None);
            }
        }
    }

    #[test]
    fn near_leaf_areas_that_do_not_fit_are_refused() {
        let leaf = TranspositionTable::minimum_leaf_bytes(Replacement::TwoBig, Format::Binary);
        let main = TranspositionTable::minimum_bytes(Replacement::TwoBig);
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
        // Auto leaves narrow keys, the bounds format and small tables without the area.
        assert_eq!(
            make(1 << 28, LeafArea::Auto, 49).unwrap().leaf_min_stones(),
            None
        );
        assert_eq!(
            make(main, LeafArea::Auto, KEY_WIDTH_3D)
                .unwrap()
                .leaf_min_stones(),
            None
        );
        let bytes = TranspositionTable::minimum_bytes_for(Replacement::New, Format::Bounds);
        assert!(bytes >= LEAF_AREA_AUTO_FROM);
        let config = TableConfig::new(bytes, KEY_WIDTH_3D).format(Format::Bounds);
        let bounds = TranspositionTable::new(&config.replacement(Replacement::New));
        assert_eq!(bounds.unwrap().leaf_min_stones(), None);
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
