//! The geometry of the 7×6 board: its size, the bit layout of a column (7 bits, the 7th
//! always empty), the odd rows and the 69 lines of four.

/// Columns of the board.
pub const WIDTH: u32 = 7;
/// Rows of the board.
pub const HEIGHT: u32 = 6;
/// Cells of the board.
pub const CELLS: u32 = WIDTH * HEIGHT;
/// Bits of [`ClassicPosition::key`](crate::ClassicPosition::key): a column of 7 bits for each
/// of the 7 columns.
pub const KEY_WIDTH: u32 = WIDTH * (HEIGHT + 1);

/// Bits per column (one more than the rows, so shifts between columns never wrap).
pub(crate) const STRIDE: u32 = HEIGHT + 1;
/// The lowest cell of every column.
pub(crate) const BOTTOM: u64 = {
    let mut mask = 0;
    let mut c = 0;
    while c < WIDTH {
        mask |= 1 << (c * STRIDE);
        c += 1;
    }
    mask
};
/// Every cell of the board (not the spare bit above each column).
pub(crate) const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// Rows 1, 3 and 5 (counting from 1 at the bottom): the first player's parity (Allis).
pub const ODD_ROWS: u64 = BOTTOM * 0b10101;

/// The 69 lines of four: 24 horizontal, 21 vertical, 12 of each diagonal.
pub const LINES: [u64; 69] = {
    let mut lines = [0; 69];
    let mut n = 0;
    // (column step, row step) of each direction.
    let directions: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = directions[d];
        let mut column = 0;
        while column < WIDTH as i32 {
            let mut row = 0;
            while row < HEIGHT as i32 {
                let (end_column, end_row) = (column + 3 * dc, row + 3 * dr);
                if end_column < WIDTH as i32 && end_row >= 0 && end_row < HEIGHT as i32 {
                    let mut line = 0;
                    let mut k = 0;
                    while k < 4 {
                        line |= 1 << ((column + k * dc) * STRIDE as i32 + row + k * dr);
                        k += 1;
                    }
                    lines[n] = line;
                    n += 1;
                }
                row += 1;
            }
            column += 1;
        }
        d += 1;
    }
    assert!(n == 69);
    lines
};
