//! What `analyze` and `play` need of a game record, for the 3-D game and the classic one.

use std::fmt;

use score4_analysis::Board;
use score4_board::{Colour, Column, Game, Outcome};
use score4_classic::{ClassicColumn, ClassicGame, ClassicPosition};
use score4_solver::Game as _;

/// A game record: the moves played and the position they reach, in the game's notation.
pub trait Record: Clone + Default + fmt::Display {
    /// The board the analysis works on.
    type Board: Board;
    /// How messages name the program and game: `score4` or `score4 --game classic`.
    const PROGRAM: &'static str;
    /// The default size of a transposition table for this game.
    const TABLE_BYTES: u64;
    /// The characters that name columns, for prompts and errors.
    const COLUMN_CHARACTERS: &'static str;
    /// The record of `moves` (the game's notation), or what is wrong with it.
    fn parse(moves: &str) -> Result<Self, String>;
    /// The position reached.
    fn position(&self) -> &Self::Board;
    /// Who has won, a draw, or the game goes on.
    fn outcome(&self) -> Outcome;
    /// Plays in `column`; on error (a full column, a finished game) the record is unchanged.
    fn play(&mut self, column: <Self::Board as Board>::Column) -> Result<(), String>;
    /// The columns played, in order.
    fn columns_played(&self) -> Vec<<Self::Board as Board>::Column>;
    /// The character of the column numbered `index` (0-based, as
    /// [`score4_solver::Game::column_of`]).
    fn column_name(index: u32) -> char;
    /// The column written `character`.
    fn column_from_char(character: char) -> Option<<Self::Board as Board>::Column>;
    /// The side to move: X ([`Colour::White`]) moves first.
    fn mover(&self) -> Colour {
        if self.position().first_to_move() {
            Colour::White
        } else {
            Colour::Black
        }
    }
    /// The board drawn for the terminal.
    fn board_text(&self) -> String;
}

impl Record for Game {
    type Board = score4_board::Position;
    const PROGRAM: &'static str = "score4";
    const TABLE_BYTES: u64 = 1 << 30;
    const COLUMN_CHARACTERS: &'static str = "0-9, A-F";
    fn parse(moves: &str) -> Result<Game, String> {
        moves.parse().map_err(|error| format!("{error}"))
    }
    fn position(&self) -> &score4_board::Position {
        Game::position(self)
    }
    fn outcome(&self) -> Outcome {
        Game::outcome(self)
    }
    fn play(&mut self, column: Column) -> Result<(), String> {
        Game::play(self, column)
            .map(|_| ())
            .map_err(|error| error.to_string())
    }
    fn columns_played(&self) -> Vec<Column> {
        self.moves().to_vec()
    }
    fn column_name(index: u32) -> char {
        let column = u8::try_from(index).ok().and_then(Column::new);
        column.expect("a column of the board").to_char()
    }
    fn column_from_char(character: char) -> Option<Column> {
        Column::from_char(character)
    }
    fn board_text(&self) -> String {
        Game::position(self).to_string()
    }
}

impl Record for ClassicGame {
    type Board = ClassicPosition;
    const PROGRAM: &'static str = "score4 --game classic";
    /// 16 MiB stays in the processor's cache and was the fastest on Pons's sets
    /// (docs/CLASSIC.md); 49-bit keys keep any size exact.
    const TABLE_BYTES: u64 = 16 << 20;
    const COLUMN_CHARACTERS: &'static str = "1-7";
    fn parse(moves: &str) -> Result<ClassicGame, String> {
        moves.parse().map_err(|error| format!("{error}"))
    }
    fn position(&self) -> &ClassicPosition {
        ClassicGame::position(self)
    }
    fn outcome(&self) -> Outcome {
        ClassicGame::outcome(self)
    }
    fn play(&mut self, column: ClassicColumn) -> Result<(), String> {
        ClassicGame::play(self, column.index()).map_err(|error| error.to_string())
    }
    fn columns_played(&self) -> Vec<ClassicColumn> {
        self.moves()
            .iter()
            .map(|&c| ClassicColumn::new(c).expect("a played column exists"))
            .collect()
    }
    fn column_name(index: u32) -> char {
        let column = ClassicColumn::new(index);
        column.expect("a column of the board").to_char()
    }
    fn column_from_char(character: char) -> Option<ClassicColumn> {
        ClassicColumn::from_char(character)
    }
    fn board_text(&self) -> String {
        ClassicGame::position(self).to_string()
    }
}
