//! The two players and how a game stands.

use core::fmt;

/// A player. White (`X`, the first player) moves first, black (`O`, the second player) second.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Colour {
    /// The first player, drawn `X`.
    White = 0,
    /// The second player, drawn `O`.
    Black = 1,
}

impl Colour {
    /// The other player.
    #[inline(always)]
    pub const fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// `0` for white, `1` for black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `X` for white, `O` for black.
    pub const fn symbol(self) -> char {
        match self {
            Colour::White => 'X',
            Colour::Black => 'O',
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "X (first player)",
            Colour::Black => "O (second player)",
        })
    }
}

/// How a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// Nobody has four and the board is not full.
    Ongoing,
    /// This player made four in a line with the last move.
    Won(Colour),
    /// The board is full and nobody has four.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("the game goes on"),
            Outcome::Won(colour) => write!(f, "{} has won", colour.symbol()),
            Outcome::Draw => f.write_str("the board is full: a draw"),
        }
    }
}
