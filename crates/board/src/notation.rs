//! Move strings (`0FC3484B7`): one hex digit per move naming the column, whitespace ignored; and
//! [`GameRecord`], a position together with the moves that reached it and whether the game is over.

use core::fmt;
use core::str::FromStr;

use crate::geometry::Column;
use crate::position::Position;

pub use score4_game::Outcome;

/// What is wrong with a move string, naming the move (1-based) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// A character that is neither a hex digit nor whitespace.
    BadCharacter {
        /// Number of the move the character stands for (1-based).
        move_number: usize,
        /// The character.
        character: char,
    },
    /// A move into a column that already holds four stones.
    ColumnFull {
        /// Number of the move (1-based).
        move_number: usize,
        /// The full column.
        column: Column,
    },
    /// A move after four in a line or a full board.
    GameOver {
        /// Number of the move (1-based).
        move_number: usize,
        /// The column of the move.
        column: Column,
        /// How the game had ended.
        outcome: Outcome,
    },
}

impl NotationError {
    /// Number of the offending move, 1-based.
    pub fn move_number(&self) -> usize {
        match *self {
            NotationError::BadCharacter { move_number, .. }
            | NotationError::ColumnFull { move_number, .. }
            | NotationError::GameOver { move_number, .. } => move_number,
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadCharacter { move_number, character } => write!(
                f,
                "move {move_number}: {character:?} is not a column (expected a hex digit 0-9 or A-F)"
            ),
            NotationError::ColumnFull { move_number, column } => {
                write!(f, "move {move_number}: column {column} is full")
            }
            NotationError::GameOver { move_number, column, outcome } => write!(
                f,
                "move {move_number} (column {column}): the game is already over ({outcome})"
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// Parses a move string into columns, checking only the characters (not the rules).
///
/// ```
/// use score4_board::notation::parse_columns;
/// let columns = parse_columns("0f C 3").unwrap();
/// assert_eq!(columns.iter().map(|c| c.to_char()).collect::<String>(), "0FC3");
/// assert_eq!(parse_columns("01x").unwrap_err().to_string(),
///            "move 3: 'x' is not a column (expected a hex digit 0-9 or A-F)");
/// ```
pub fn parse_columns(moves: &str) -> Result<Vec<Column>, NotationError> {
    columns(moves).collect()
}

/// The columns of a move string one by one, whitespace skipped; a character that is not a hex
/// digit gives `BadCharacter` with its move number.
fn columns(moves: &str) -> impl Iterator<Item = Result<Column, NotationError>> + '_ {
    let characters = moves.chars().filter(|c| !c.is_whitespace());
    characters.enumerate().map(|(i, character)| {
        Column::from_char(character).ok_or(NotationError::BadCharacter {
            move_number: i + 1,
            character,
        })
    })
}

/// A game: the moves played from the empty board, the position they reach, and the outcome.
///
/// ```
/// use score4_board::{GameRecord, Outcome, Colour};
/// let mut game: GameRecord = "0 F C 3 4 8 4 B 7".parse().unwrap();
/// assert_eq!(game.to_string(), "0FC3484B7");
/// assert_eq!(game.outcome(), Outcome::Ongoing);
/// // Four X stones in column 0: the fourth wins.
/// let won: GameRecord = "01020".parse::<GameRecord>().unwrap();
/// assert_eq!(won.outcome(), Outcome::Ongoing);
/// let won: GameRecord = "0102030".parse::<GameRecord>().unwrap();
/// assert_eq!(won.outcome(), Outcome::Won(Colour::White));
/// assert_eq!("01020304".parse::<GameRecord>().unwrap_err().to_string(),
///            "move 8 (column 4): the game is already over (X has won)");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    position: Position,
    moves: Vec<Column>,
    outcome: Outcome,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new()
    }
}

impl GameRecord {
    /// The empty board, white to move.
    pub fn new() -> GameRecord {
        GameRecord {
            position: Position::EMPTY,
            moves: Vec::new(),
            outcome: Outcome::Ongoing,
        }
    }

    /// Plays the mover's stone in `column`; on error the game is unchanged.
    pub fn play(&mut self, column: Column) -> Result<Outcome, NotationError> {
        let move_number = self.moves.len() + 1;
        if self.outcome != Outcome::Ongoing {
            return Err(NotationError::GameOver {
                move_number,
                column,
                outcome: self.outcome,
            });
        }
        let cell = self
            .position
            .drop_cell(column)
            .ok_or(NotationError::ColumnFull {
                move_number,
                column,
            })?;
        let mover = self.position.mover();
        let wins = self.position.wins_with(cell);
        self.position.play(cell);
        self.moves.push(column);
        self.outcome = if wins {
            Outcome::Won(mover)
        } else if self.position.is_full() {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
        Ok(self.outcome)
    }

    /// The position reached.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Column] {
        &self.moves
    }

    /// How the game stands.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
}

impl FromStr for GameRecord {
    type Err = NotationError;

    /// Reads and plays the moves one at a time, so the error is the first fault in reading order.
    fn from_str(moves: &str) -> Result<GameRecord, NotationError> {
        let mut game = GameRecord::new();
        for column in columns(moves) {
            game.play(column?)?;
        }
        Ok(game)
    }
}

impl fmt::Display for GameRecord {
    /// The normalised move string: upper-case digits, no spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.moves
            .iter()
            .try_for_each(|column| write!(f, "{column}"))
    }
}
