//! [`Position`]: the stones of both players plus what the search asks of them at every node —
//! threats, lines still open to each player and the lines holding their stones — kept up to date
//! move by move; and the table keys, computed from the stones when asked.

use core::fmt;

use crate::bitboard::{Layers, BOTTOM};
use crate::geometry::{lines_in, Cell, Column, ALL_LINES, LINES, LINE_SET_THROUGH};
use crate::key::{
    least_image_key, least_image_table_key, least_image_wide_key, table_key, SymmetricKeys,
    WIDE_KEY_MIN_STONES,
};
use crate::symmetry::{Symmetry, SymmetryGroup};
use score4_game::BitBoard;

pub use score4_game::Colour;

/// Why a pair of stone sets is not a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A cell holds stones of both players.
    Overlap,
    /// A stone floats above an empty cell.
    Floating,
    /// White must have as many stones as black, or one more.
    StoneCounts {
        /// White stones.
        white: u32,
        /// Black stones.
        black: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap => f.write_str("a cell holds stones of both players"),
            PositionError::Floating => f.write_str("a stone floats above an empty cell"),
            PositionError::StoneCounts { white, black } => write!(
                f,
                "{white} white and {black} black stones: white must have as many as black or one more"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// A position of Connect Four 3D: the stones of both players, and, kept up to date by
/// [`Position::play`], each player's threats (empty cells that would complete a line of theirs),
/// each player's live lines (lines free of the other's stones), the lines holding one and two
/// stones of each player or more. The side to move follows from the number of stones. Keys are
/// computed from the stones when asked ([`Position::key_within`],
/// [`Position::table_key_within`]): no symmetric keys are carried
/// from move to move, so that a position is two cache lines (128 bytes) to copy.
///
/// A `Position` is a plain value (`Copy`); the search copies it to make a move and drops the copy
/// to take it back.
///
/// ```
/// use score4_board::{Colour, GameRecord, Layers};
/// // The report's line up to black's 4th stone.
/// let game: GameRecord = "0F C3 48 4B".parse().unwrap();
/// let position = game.position();
/// assert_eq!(position.count(), 8);
/// assert_eq!(position.mover(), Colour::White);
/// assert_eq!(position.to_string(), "\
/// z=0      z=1      z=2      z=3      columns
/// X · · O  · · · ·  · · · ·  · · · ·  0 1 2 3
/// X · · ·  X · · ·  · · · ·  · · · ·  4 5 6 7
/// O · · O  · · · ·  · · · ·  · · · ·  8 9 A B
/// X · · O  · · · ·  · · · ·  · · · ·  C D E F
/// ");
/// // O has three on the right edge of the bottom layer: X must answer in column 7.
/// assert_eq!(position.openings(Colour::Black).drawn().to_string(), "\
/// z=0      z=1      z=2      z=3
/// . . . .  . . . .  . . . .  . . . .
/// . . . x  . . . .  . . . .  . . . .
/// . . . .  . . . .  . . . .  . . . .
/// . . . .  . . . .  . . . .  . . . .
/// ");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Position {
    stones: [BitBoard; 2],
    threats: [BitBoard; 2],
    live: [u128; 2],
    /// For each player, the lines holding at least one / at least two of its stones (bit `l`
    /// for `LINES[l]`, whatever the other player holds there): with `live`, how many stones
    /// a player has on each line, without counting them line by line.
    holding: [[u128; 2]; 2],
}

/// What the table keys of a position's children share, computed once for them all
/// ([`Position::child_keys`], [`Position::table_key_after_with`]): the search's group of
/// symmetries and, when the children are keyed by wide keys, the position's dead stones and its
/// *lone* stones, alive on a single line of their player, from which each child's dead stones
/// follow in a few operations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ChildKeys {
    group: SymmetryGroup,
    wide: bool,
    dead: u64,
    lone: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::EMPTY
    }
}

impl Position {
    /// The empty board, white to move.
    pub const EMPTY: Position = Position {
        stones: [BitBoard::EMPTY; 2],
        threats: [BitBoard::EMPTY; 2],
        live: [ALL_LINES; 2],
        holding: [[0; 2]; 2],
    };

    /// The position with these stones, its threats and lines computed afresh.
    ///
    /// Checks gravity and stone counts, not whether someone already has four in a line
    /// (see [`Position::has_four`]).
    pub fn from_stones(white: BitBoard, black: BitBoard) -> Result<Position, PositionError> {
        if !(white & black).is_empty() {
            return Err(PositionError::Overlap);
        }
        let filled = white | black;
        if !(filled & !filled.up() & !BOTTOM).is_empty() {
            return Err(PositionError::Floating);
        }
        if white.len() != black.len() && white.len() != black.len() + 1 {
            return Err(PositionError::StoneCounts {
                white: white.len(),
                black: black.len(),
            });
        }
        let stones = [white, black];
        let mut threats = [BitBoard::EMPTY; 2];
        let mut live = [ALL_LINES; 2];
        let mut holding = [[0u128; 2]; 2];
        for (l, &line) in LINES.iter().enumerate() {
            for colour in [Colour::White, Colour::Black] {
                let (own, opp) = (stones[colour.index()].0, stones[colour.other().index()].0);
                let held = (line & own).count_ones();
                for (at_least, set) in holding[colour.index()].iter_mut().enumerate() {
                    if held > at_least as u32 {
                        *set |= 1u128 << l;
                    }
                }
                if line & opp != 0 {
                    live[colour.index()] &= !(1u128 << l);
                } else if (line & own).count_ones() == 3 {
                    threats[colour.index()] |= BitBoard(line & !own);
                }
            }
        }
        Ok(Position {
            stones,
            threats,
            live,
            holding,
        })
    }

    /// The stones of `colour`.
    #[inline(always)]
    pub const fn stones(&self, colour: Colour) -> BitBoard {
        self.stones[colour as usize]
    }

    /// All stones.
    #[inline(always)]
    pub const fn occupied(&self) -> BitBoard {
        BitBoard(self.stones[0].0 | self.stones[1].0)
    }

    /// Number of stones on the board.
    #[inline(always)]
    pub const fn count(&self) -> u32 {
        self.occupied().len()
    }

    /// The player to move: white after an even number of stones.
    #[inline(always)]
    pub const fn mover(&self) -> Colour {
        if self.count() & 1 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// Whether all 64 cells are filled.
    #[inline(always)]
    pub const fn is_full(&self) -> bool {
        self.occupied().0 == !0
    }

    /// The cells a move can go to: the lowest empty cell of every column that is not full.
    #[inline(always)]
    pub const fn playable(&self) -> BitBoard {
        let empty = !self.occupied().0;
        BitBoard(empty & !(empty << 16))
    }

    /// The cell a stone dropped into `column` lands on, or `None` if the column is full.
    #[inline(always)]
    pub const fn drop_cell(&self, column: Column) -> Option<Cell> {
        BitBoard(self.playable().0 & column.cells().0).first()
    }

    /// The threats of `colour`: empty cells that would complete a line of theirs.
    #[inline(always)]
    pub const fn threats(&self, colour: Colour) -> BitBoard {
        self.threats[colour as usize]
    }

    /// The openings of `colour`: threats that can be played now.
    #[inline(always)]
    pub const fn openings(&self, colour: Colour) -> BitBoard {
        BitBoard(self.threats[colour as usize].0 & self.playable().0)
    }

    /// The lines of `colour` that hold no stone of the other player, bit `l` for
    /// [`LINES`]`[l]`: the lines `colour` can still complete.
    #[inline(always)]
    pub const fn live_lines(&self, colour: Colour) -> u128 {
        self.live[colour as usize]
    }

    /// The compact keys of the 8 symmetric images of the position.
    pub fn keys(&self) -> SymmetricKeys {
        SymmetricKeys::from_stones(self.stones[0].0, self.stones[1].0)
    }

    /// The canonical key: least compact key over the 8 symmetric images.
    #[inline(always)]
    pub fn canonical_key(&self) -> u128 {
        self.key_within(SymmetryGroup::ALL)
    }

    /// The least compact key over the images of the position under `group`
    /// ([`least_image_key`]); with all 8 symmetries the canonical key. (Searches key their
    /// tables with [`Position::table_key_within`], the same idea in another encoding.)
    #[inline(always)]
    pub fn key_within(&self, group: SymmetryGroup) -> u128 {
        least_image_key(self.stones[0].0, self.stones[1].0, group)
    }

    /// The stones no line can use any more: every line through such a stone holds stones of both
    /// players, so nobody can complete it, and the stone's colour no longer matters to the game.
    /// A stone stays dead once dead (stones are only added).
    ///
    /// ```
    /// use score4_board::{GameRecord, Layers};
    /// // X's first stone, in the corner, under seven stones of O: one on each of its lines.
    /// let game: GameRecord = "00A1F1A4F4C5C5".parse().unwrap();
    /// assert_eq!(game.position().dead_stones().drawn().to_string(), "\
    /// z=0      z=1      z=2      z=3
    /// x . . .  . . . .  . . . .  . . . .
    /// . . . .  . . . .  . . . .  . . . .
    /// . . . .  . . . .  . . . .  . . . .
    /// . . . .  . . . .  . . . .  . . . .
    /// ");
    /// ```
    #[inline(always)]
    pub fn dead_stones(&self) -> BitBoard {
        BitBoard(dead_and_lone_stones([self.stones[0].0, self.stones[1].0]).0)
    }

    /// What the table keys of the children share under `group` ([`ChildKeys`]).
    #[inline(always)]
    pub fn child_keys(&self, group: SymmetryGroup) -> ChildKeys {
        let wide = self.count() + 1 >= WIDE_KEY_MIN_STONES;
        let (dead, lone) = if wide {
            dead_and_lone_stones([self.stones[0].0, self.stones[1].0])
        } else {
            (0, 0)
        };
        ChildKeys {
            group,
            wide,
            dead,
            lone,
        }
    }

    /// The dead stones after the mover plays `cell`, from those of now and the lone ones
    /// (`keys`, of this position). The mover's move can kill its own stone, if every line
    /// through `cell` already holds a stone of the other player, and the other player's lone
    /// stones on the lines it takes from them (a stone lies on at most one line through `cell`,
    /// so a lone stone there loses its only line); no other stone.
    #[inline(always)]
    fn dead_after(&self, cell: Cell, keys: &ChildKeys) -> u64 {
        let (me, other) = (self.mover() as usize, self.mover().other() as usize);
        let through = LINE_SET_THROUGH[cell.index() as usize];
        let own = if self.live[me] & through == 0 {
            1u64 << cell.index()
        } else {
            0
        };
        let exposed = self.stones[other].0 & keys.lone;
        let taken = if exposed == 0 {
            0
        } else {
            lines_in(self.live[other] & through).fold(0, |cells, line| cells | line)
        };
        keys.dead | own | exposed & taken
    }

    /// The key under which the search's table keeps the position, folded over `group`: below
    /// [`WIDE_KEY_MIN_STONES`] stones the least table key over its images
    /// ([`least_image_table_key`]), from there on the least wide key
    /// ([`least_image_wide_key`]), which merges the positions that differ only in the colours of
    /// their dead stones ([`Position::dead_stones`]). With [`Position::transposing_symmetries`]
    /// of a search's root, the key under which the search's table finds every position of its
    /// tree and its images. The children of a position share their table key's page (its top 16
    /// bits) when `group` is trivial, which the table turns into locality.
    #[inline(always)]
    pub fn table_key_within(&self, group: SymmetryGroup) -> u128 {
        let [white, black] = [self.stones[0].0, self.stones[1].0];
        if self.count() >= WIDE_KEY_MIN_STONES {
            return least_image_wide_key(white, black, self.dead_stones().0, group);
        }
        least_image_table_key(white, black, group)
    }

    /// [`Position::table_key_within`] of the position after the mover plays `cell`, without
    /// making the move.
    #[inline(always)]
    pub fn table_key_after_within(&self, cell: Cell, group: SymmetryGroup) -> u128 {
        self.table_key_after_with(cell, &self.child_keys(group))
    }

    /// [`Position::table_key_after_within`] with what the children's keys share computed
    /// beforehand (`keys`, from [`Position::child_keys`] of this position): what the search
    /// calls for every child of a node.
    #[inline(always)]
    pub fn table_key_after_with(&self, cell: Cell, keys: &ChildKeys) -> u128 {
        let bit = 1u64 << cell.index();
        let me = self.mover();
        if keys.wide {
            let mut stones = [self.stones[0].0, self.stones[1].0];
            stones[me as usize] |= bit;
            let dead = self.dead_after(cell, keys);
            return least_image_wide_key(stones[0], stones[1], dead, keys.group);
        }
        // After the move the opponent is to move, holding what it holds now.
        let to_move = me.other();
        let occupied = self.occupied().0 | bit;
        table_key_to_move(self.stones(to_move).0, occupied, to_move, keys.group)
    }

    /// [`Position::table_key_within`] of the position after the mover plays `cell` and the
    /// opponent then `reply`, without making the moves.
    ///
    /// Contract: `cell` is playable, and `reply` is playable after it.
    #[inline(always)]
    pub fn table_key_after_reply_within(
        &self,
        cell: Cell,
        reply: Cell,
        group: SymmetryGroup,
    ) -> u128 {
        if self.count() + 2 >= WIDE_KEY_MIN_STONES {
            return self.after(cell).table_key_after_within(reply, group);
        }
        let bit = 1u64 << cell.index();
        let occupied = self.occupied().0 | bit | 1u64 << reply.index();
        // After the two moves the mover is to move again, holding `cell` as well.
        let to_move = self.mover();
        table_key_to_move(self.stones(to_move).0 | bit, occupied, to_move, group)
    }

    /// The symmetries that can make two different positions below this one (positions holding
    /// every stone of this one in place) images of each other: the group generated by the
    /// symmetries `s` under which this position and its image never hold stones of different
    /// colours on one cell. (If `Q` and `s(Q)` both hold this position `R`, then `Q` holds `R`
    /// and `s⁻¹(R)`, which must then agree; and `s⁻¹` agrees exactly when `s` does.)
    ///
    /// For most positions of twenty stones or more no symmetry but the identity qualifies: a
    /// search below such a position finds every transposition of its tree with plain compact
    /// keys ([`SymmetryGroup::TRIVIAL`]), without computing eight images a key.
    ///
    /// ```
    /// use score4_board::{GameRecord, Position};
    /// use score4_board::symmetry::SymmetryGroup;
    /// // Every symmetry maps the empty board onto itself.
    /// assert_eq!(Position::EMPTY.transposing_symmetries(), SymmetryGroup::ALL);
    /// // X in columns C and 0, O in F and 3: the mirror in y maps the position onto itself,
    /// // every other symmetry puts an X on an O.
    /// let game: GameRecord = "CF03".parse().unwrap();
    /// let mirror_in_y = score4_board::Symmetry::new(2).unwrap();
    /// assert_eq!(
    ///     game.position().transposing_symmetries(),
    ///     SymmetryGroup::generated_by([mirror_in_y]),
    /// );
    /// // Five stones can already rule out every symmetry.
    /// let game: GameRecord = "E1D82".parse().unwrap();
    /// assert_eq!(game.position().transposing_symmetries(), SymmetryGroup::TRIVIAL);
    /// ```
    pub fn transposing_symmetries(&self) -> SymmetryGroup {
        let [white, black] = self.stones.map(|stones| stones.0);
        SymmetryGroup::generated_by(
            Symmetry::ALL.into_iter().filter(|sym| {
                sym.apply_bits(white) & black == 0 && sym.apply_bits(black) & white == 0
            }),
        )
    }

    /// Whether the mover wins at once by playing `cell` (a threat of theirs).
    #[inline(always)]
    pub const fn wins_with(&self, cell: Cell) -> bool {
        self.threats[self.mover() as usize].has(cell)
    }

    /// The threats the mover would create by playing `cell`: the empty fourth cells of lines
    /// through `cell` that would then hold three of the mover's stones and none of the other's.
    #[inline(always)]
    pub fn threats_created_by(&self, cell: Cell) -> BitBoard {
        let me = self.mover();
        let own = self.stones[me as usize].0 | 1u64 << cell.index();
        let created =
            lines_in(self.lines_through_holding(cell, me, 2)).fold(0, |cells, line| cells | line);
        BitBoard(created & !own)
    }

    /// The lines through the empty `cell` that `colour` can still complete and that hold
    /// exactly `stones` of its stones, for 0, 1 or 2 (with 2, also those holding three: then
    /// `cell` is a threat of `colour`).
    #[inline(always)]
    pub fn lines_through_holding(&self, cell: Cell, colour: Colour, stones: usize) -> u128 {
        let [one, two] = self.holding[colour as usize];
        let through = LINE_SET_THROUGH[cell.index() as usize] & self.live[colour as usize];
        match stones {
            0 => through & !one,
            1 => through & one & !two,
            _ => through & two,
        }
    }

    /// Puts a stone of the mover on `cell`.
    ///
    /// Contract: `cell` is playable and nobody has four in a line yet. If the move makes four
    /// ([`Position::wins_with`]), the result is a finished game: stones are right, threats
    /// and live lines no longer matter.
    #[inline(always)]
    pub fn play(&mut self, cell: Cell) {
        let created = self.threats_created_by(cell);
        self.play_creating(cell, created);
    }

    /// [`Position::play`] for a caller that has already computed
    /// [`Position::threats_created_by`]`(cell)` (the search does, to order moves).
    ///
    /// Contract: as [`Position::play`], and `created` is exactly that set (checked in debug
    /// builds, so the tests check it at every node they search).
    #[inline(always)]
    pub fn play_creating(&mut self, cell: Cell, created: BitBoard) {
        debug_assert!(
            self.playable().has(cell),
            "cell {} is not playable",
            cell.index()
        );
        debug_assert_eq!(
            created,
            self.threats_created_by(cell),
            "wrong threats for {cell:?}"
        );
        let me = self.mover() as usize;
        let bit = 1u64 << cell.index();
        self.stones[me].0 |= bit;
        self.threats[me].0 = (self.threats[me].0 | created.0) & !bit;
        self.threats[me ^ 1].0 &= !bit;
        let through = LINE_SET_THROUGH[cell.index() as usize];
        self.live[me ^ 1] &= !through;
        let [one, two] = &mut self.holding[me];
        *two |= *one & through;
        *one |= through;
    }

    /// The position after the mover plays `cell` (same contract as [`Position::play`]).
    #[inline(always)]
    pub fn after(&self, cell: Cell) -> Position {
        let mut next = *self;
        next.play(cell);
        next
    }

    /// Whether `colour` has four in a line, by scanning all 76 lines.
    pub fn has_four(&self, colour: Colour) -> bool {
        let own = self.stones(colour).0;
        LINES.iter().any(|&line| line & !own == 0)
    }

    /// The image of the position under `sym`.
    pub fn transformed(&self, sym: Symmetry) -> Position {
        let image = Position::from_stones(sym.apply(self.stones[0]), sym.apply(self.stones[1]));
        image.expect("a symmetric image of a position is a position")
    }
}

impl fmt::Display for Position {
    /// The four layers side by side with the column key (`X`, `O`, `·`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let picture = crate::render::draw_layers_with(
            |cell| {
                if self.stones[0].has(cell) {
                    'X'
                } else if self.stones[1].has(cell) {
                    'O'
                } else {
                    '·'
                }
            },
            true,
        );
        f.write_str(&picture)
    }
}

/// The dead stones (see [`Position::dead_stones`]) among `stones` (white's, black's), and the
/// lone ones, on a single live line of their player: from the cells each player's live lines,
/// the lines within the cells free of the other's stones, cover once and twice
/// ([`cells_on_lines_within`], both players at once).
#[inline(always)]
fn dead_and_lone_stones(stones: [u64; 2]) -> (u64, u64) {
    let (once, twice) = cells_on_lines_within([!stones[1], !stones[0]]);
    let dead = stones[0] & !once[0] | stones[1] & !once[1];
    let lone = stones[0] & once[0] & !twice[0] | stones[1] & once[1] & !twice[1];
    (dead, lone)
}

/// The cells of the lines of one direction lying wholly within `cells`, for two sets of cells
/// side by side (two lanes, which the compiler keeps in one vector register): the lines of
/// stride `D` (bit `16*z + 4*y + x`) that start at the cells of `starts`. A line starts at `s`
/// exactly when `s`, `s + D`, `s + 2D` and `s + 3D` all lie in `cells`, and it covers those
/// four (the start cells of one direction lie on none of its other lines, so spreading each
/// start over its line by shifts sets no bit twice).
#[inline(always)]
fn lines_within<const D: u32>(cells: [u64; 2], starts: u64) -> [u64; 2] {
    let mut covered = [0; 2];
    for lane in 0..2 {
        let pairs = cells[lane] & cells[lane] >> D;
        let first = pairs & pairs >> (2 * D) & starts;
        let halves = first | first << D;
        covered[lane] = halves | halves << (2 * D);
    }
    covered
}

/// The cells of the lines lying wholly within `cells` (two sets side by side), covered by at
/// least one and by at least two of them, for all 76 lines at once, direction by direction
/// ([`lines_within`]): rows in x, y and z; the diagonals of the layers and of the two upright
/// planes; the four space diagonals (16 · 3 + 8 · 3 + 4 = 76 lines).
#[inline(always)]
fn cells_on_lines_within(cells: [u64; 2]) -> ([u64; 2], [u64; 2]) {
    let directions = [
        lines_within::<1>(cells, 0x1111_1111_1111_1111),
        lines_within::<4>(cells, 0x000F_000F_000F_000F),
        lines_within::<16>(cells, 0xFFFF),
        lines_within::<5>(cells, 0x0001_0001_0001_0001),
        lines_within::<3>(cells, 0x0008_0008_0008_0008),
        lines_within::<17>(cells, 0x1111),
        lines_within::<15>(cells, 0x8888),
        lines_within::<20>(cells, 0x000F),
        lines_within::<12>(cells, 0xF000),
        lines_within::<21>(cells, 0x0001),
        lines_within::<19>(cells, 0x0008),
        lines_within::<13>(cells, 0x1000),
        lines_within::<11>(cells, 0x8000),
    ];
    let (mut once, mut twice) = ([0u64; 2], [0u64; 2]);
    for covered in directions {
        for lane in 0..2 {
            twice[lane] |= once[lane] & covered[lane];
            once[lane] |= covered[lane];
        }
    }
    (once, twice)
}

/// [`Position::table_key_within`] of the position whose player `to_move` holds `to_move_stones`
/// among the `occupied` cells.
#[inline(always)]
fn table_key_to_move(
    to_move_stones: u64,
    occupied: u64,
    to_move: Colour,
    group: SymmetryGroup,
) -> u128 {
    if group.is_trivial() {
        return table_key(to_move_stones, occupied);
    }
    let others = occupied & !to_move_stones;
    let (white, black) = if to_move == Colour::White {
        (to_move_stones, others)
    } else {
        (others, to_move_stones)
    };
    least_image_table_key(white, black, group)
}
