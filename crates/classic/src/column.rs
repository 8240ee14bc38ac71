//! [`ClassicColumn`]: a column of the classic board, written `1`–`7`.

use std::fmt;

use crate::geometry::WIDTH;

/// A column of the classic board, shown as Pons writes it: `1`–`7`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ClassicColumn(u8);

impl ClassicColumn {
    /// The column of 0-based `index`, if there is one.
    pub const fn new(index: u32) -> Option<ClassicColumn> {
        if index < WIDTH {
            Some(ClassicColumn(index as u8))
        } else {
            None
        }
    }

    /// The 0-based index.
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// How the column is written: `1`–`7`.
    pub const fn to_char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The column written `character` (`1`–`7`).
    pub fn from_char(character: char) -> Option<ClassicColumn> {
        match character.to_digit(10) {
            Some(d @ 1..=7) => ClassicColumn::new(d - 1),
            _ => None,
        }
    }

    /// Every column, left to right.
    pub fn all() -> impl Iterator<Item = ClassicColumn> {
        (0..WIDTH as u8).map(ClassicColumn)
    }
}

impl fmt::Display for ClassicColumn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_written_1_to_7() {
        assert_eq!(ClassicColumn::from_char('7').unwrap().to_string(), "7");
        assert_eq!(ClassicColumn::from_char('8'), None);
        assert_eq!(ClassicColumn::from_char('0'), None);
        for column in ClassicColumn::all() {
            assert_eq!(ClassicColumn::from_char(column.to_char()), Some(column));
        }
        assert_eq!(ClassicColumn::new(0).unwrap().to_char(), '1');
    }
}
