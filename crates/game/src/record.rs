//! [`Record`]: a game record — the moves played and the position they reach, in the game's
//! notation.

use core::fmt;
use core::str::FromStr;

use crate::{Cell, Colour, Game, Outcome};

/// A game record: the moves played from the empty board and the position they reach.
///
/// `FromStr` reads the game's move string (one character per move, whitespace ignored) and
/// names the offending move when it cannot; `Display` writes it back, normalised.
pub trait Record:
    Clone + Default + fmt::Display + FromStr<Err: fmt::Display> + Send + Sync + 'static
{
    /// The position type, which the search and the analysis work on.
    type Position: Game;
    /// How messages name the program for this game: `score4` or `score4 --game classic`.
    const COMMAND: &'static str;
    /// The characters that name columns, for prompts and errors (`0-9, A-F`).
    const COLUMN_CHARACTERS: &'static str;
    /// The size of a transposition table that suits this game's analysis and play when the
    /// user names none.
    const DEFAULT_TABLE_BYTES: u64;
    /// What a solve takes when the user names no memory and no threads: `Some(bytes)`, a table
    /// of this size and one thread (a game whose positions are small, solved in microseconds);
    /// `None`, the machine (three quarters of the available memory, a worker per physical
    /// core).
    const SOLVE_TABLE_BYTES: Option<u64>;
    /// The position reached.
    fn position(&self) -> &Self::Position;
    /// Who has won, a draw, or the game goes on.
    fn outcome(&self) -> Outcome;
    /// Plays in `column`; on error (a full column, a finished game) the record is unchanged
    /// and the error says why.
    fn play_column(&mut self, column: <Self::Position as Game>::Column) -> Result<(), String>;
    /// The columns played, in order.
    fn columns_played(&self) -> Vec<<Self::Position as Game>::Column>;
    /// The column written `character` (case-insensitive where the notation has letters).
    fn column_from_char(character: char) -> Option<<Self::Position as Game>::Column>;
    /// The side to move: white (`X`) moves first.
    fn mover(&self) -> Colour {
        self.position().mover()
    }
    /// The board drawn for the terminal.
    fn board_text(&self) -> String;
    /// How messages name `cell`, a cell of the board: its column as moves write it and its
    /// height as the game's drawings and docs count it (the 3-D game: `column 7 at z=1`; the
    /// classic game: `column 4 at row 2`).
    fn cell_text(cell: Cell) -> String;
}
