//! Pons's notation of the classic game: [`ClassicRecord`] records, read from and written as
//! move strings (one digit `1`–`7` per move), and [`ClassicError`].

use std::fmt;
use std::str::FromStr;

use score4_game::Outcome;

use crate::position::ClassicPosition;

/// What is wrong with a move string of the classic game, naming the move (1-based) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClassicError {
    /// A character that is not a column digit `1`–`7` (nor whitespace).
    BadCharacter {
        /// Number of the move.
        move_number: usize,
        /// The character.
        character: char,
    },
    /// A move into a full column.
    ColumnFull {
        /// Number of the move.
        move_number: usize,
        /// The column (1-based).
        column: u32,
    },
    /// A move after four in a line or a full board.
    GameOver {
        /// Number of the move.
        move_number: usize,
        /// The column (1-based).
        column: u32,
    },
}

impl fmt::Display for ClassicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ClassicError::BadCharacter {
                move_number,
                character,
            } => write!(f, "move {move_number}: {character:?} is not a column (1-7)"),
            ClassicError::ColumnFull {
                move_number,
                column,
            } => write!(f, "move {move_number}: column {column} is full"),
            ClassicError::GameOver {
                move_number,
                column,
            } => write!(
                f,
                "move {move_number} (column {column}): the game is already over"
            ),
        }
    }
}

impl std::error::Error for ClassicError {}

/// A game of the classic board: the position and the columns (0-based) that reached it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ClassicRecord {
    position: ClassicPosition,
    moves: Vec<u32>,
    over: bool,
}

impl ClassicRecord {
    /// Plays in `column` (0-based); on error the game is unchanged.
    pub fn play(&mut self, column: u32) -> Result<(), ClassicError> {
        let move_number = self.moves.len() + 1;
        if self.over {
            return Err(ClassicError::GameOver {
                move_number,
                column: column + 1,
            });
        }
        let cell = self
            .position
            .drop_cell(column)
            .ok_or(ClassicError::ColumnFull {
                move_number,
                column: column + 1,
            })?;
        let wins = self.position.wins_with(cell);
        self.position.play(cell);
        self.moves.push(column);
        self.over = wins || self.position.is_full();
        Ok(())
    }

    /// The position reached.
    pub fn position(&self) -> &ClassicPosition {
        &self.position
    }

    /// The columns played (0-based).
    pub fn moves(&self) -> &[u32] {
        &self.moves
    }

    /// Whether someone has four or the board is full.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Who has won, a draw, or the game goes on (the first player is white, X).
    pub fn outcome(&self) -> Outcome {
        let last_mover = self.position.mover().other();
        if self.position.has_four(last_mover) {
            Outcome::Won(last_mover)
        } else if self.position.is_full() {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }
}

impl FromStr for ClassicRecord {
    type Err = ClassicError;

    /// Pons's notation: one digit `1`–`7` per move, whitespace ignored; the first fault in
    /// reading order is the error.
    fn from_str(moves: &str) -> Result<ClassicRecord, ClassicError> {
        let mut game = ClassicRecord::default();
        for (i, character) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let column = match character.to_digit(10) {
                Some(d @ 1..=7) => d - 1,
                _ => {
                    return Err(ClassicError::BadCharacter {
                        move_number: i + 1,
                        character,
                    })
                }
            };
            game.play(column)?;
        }
        Ok(game)
    }
}

impl fmt::Display for ClassicRecord {
    /// The move string in Pons's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.moves
            .iter()
            .try_for_each(|column| write!(f, "{}", column + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use score4_game::Colour;

    #[test]
    fn outcomes_name_the_winner() {
        let outcome = |moves: &str| moves.parse::<ClassicRecord>().unwrap().outcome();
        assert_eq!(outcome("4455667"), Outcome::Won(Colour::White));
        assert_eq!(outcome("14455667"), Outcome::Won(Colour::Black));
        assert_eq!(outcome("445566"), Outcome::Ongoing);
    }

    #[test]
    fn notation_round_trips_and_errors_name_the_move() {
        let game: ClassicRecord = "4453 1".parse().unwrap();
        assert_eq!(game.to_string(), "44531");
        assert_eq!(game.position().count(), 5);
        assert_eq!(
            "448".parse::<ClassicRecord>().unwrap_err().to_string(),
            "move 3: '8' is not a column (1-7)"
        );
        assert_eq!(
            "1111111".parse::<ClassicRecord>().unwrap_err().to_string(),
            "move 7: column 1 is full"
        );
        assert_eq!(
            "12121212".parse::<ClassicRecord>().unwrap_err().to_string(),
            "move 8 (column 2): the game is already over"
        );
        assert!("1212121"
            .parse::<ClassicRecord>()
            .unwrap()
            .position()
            .has_four(Colour::White));
    }

    proptest::proptest! {
        /// Any text is a game or an error naming a move, never a panic; a game prints as a
        /// move string that reads back as the same game.
        #[test]
        fn any_text_is_a_game_or_an_error(text in "[1-8 x]{0,50}|\\PC{0,20}") {
            match text.parse::<ClassicRecord>() {
                Ok(game) => {
                    let printed = game.to_string();
                    let again: ClassicRecord = printed.parse().unwrap();
                    proptest::prop_assert_eq!(again.moves(), game.moves());
                    proptest::prop_assert_eq!(again.to_string(), printed);
                    proptest::prop_assert!(
                        game.moves().len() == text.chars().filter(|c| !c.is_whitespace()).count()
                    );
                }
                Err(error) => proptest::prop_assert!(!error.to_string().is_empty()),
            }
        }
    }
}
