//! # score4-classic
//!
//! The classic Connect Four game, 7 columns × 6 rows, as a second game for the score4 engine:
//! it implements [`Game`](score4_game::Game) for [`ClassicPosition`] and
//! [`Record`](score4_game::Record) for [`ClassicRecord`], and everything the search and the
//! analysis learn about the game comes through them — geometry, lines, keys, Pons's move
//! ordering, the static evaluation, notation.
//!
//! - [`ClassicPosition`]: Pons's bitboard layout (7 bits per column, the 7th always empty), the
//!   threats of both players computed by shifts and kept by each move, the unique 49-bit key
//!   and its mirror image, the 69 lines;
//! - [`ClassicRecord`]: Pons's notation (columns `1`–`7`, one digit per move) and game records.
//! - `game.rs`: the two traits' implementations.
//!
//! It depends on `score4-game` only, the games' shared vocabulary (a [`Cell`](score4_game::Cell)
//! here is the bit index `7 * column + row`), never on the search or on the 3-D game. No
//! allocation per move, no dynamic dispatch.
#![warn(missing_docs)]

mod column;
mod game;
mod geometry;
mod notation;
mod position;

pub use column::ClassicColumn;
pub use geometry::{CELLS, HEIGHT, KEY_WIDTH, LINES, ODD_ROWS, WIDTH};
pub use notation::{ClassicError, ClassicRecord};
pub use position::ClassicPosition;
