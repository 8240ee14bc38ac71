//! # score4-classic
//!
//! The classic Connect Four board, 7 columns × 6 rows, as a second game for the score4 engine:
//! only what differs from the 3-D game — geometry, lines, symmetry, keys, notation — lives here.
//!
//! - [`ClassicPosition`]: Pons's bitboard layout (7 bits per column, the 7th always empty), the
//!   threats of both players computed by shifts and kept by each move, the unique 49-bit key
//!   and its mirror image, the 69 lines;
//! - [`ClassicGame`]: Pons's notation (columns `1`–`7`, one digit per move) and game records.
//!
//! It depends on `score4-board` only, for the [`BitBoard`](score4_board::BitBoard),
//! [`Cell`](score4_board::Cell), `Colour` and `Outcome` types (a cell here is the bit index
//! `7 * column + row`). No allocation per move, no dynamic dispatch.
#![warn(missing_docs)]

mod column;
mod geometry;
mod notation;
mod position;

pub use column::ClassicColumn;
pub use geometry::{CELLS, HEIGHT, KEY_WIDTH, LINES, ODD_ROWS, WIDTH};
pub use notation::{ClassicError, ClassicGame};
pub use position::ClassicPosition;
