//! Text drawings of the board: the four layers side by side, bottom layer on the left.

use crate::geometry::Cell;
use crate::geometry::CellCoordinates;

/// Draws the four layers side by side, bottom layer (`z=0`) on the left, row `y = 0` on top and
/// `x` growing to the right, so that the cell `16*z + 4*y + x` stands where the report draws it.
/// With `column_key`, a fifth block names the columns by their hex digits.
pub(crate) fn draw_layers_with(cell_char: impl Fn(Cell) -> char, column_key: bool) -> String {
    let mut out = String::from("z=0      z=1      z=2      z=3");
    if column_key {
        out.push_str("      columns");
    }
    out.push('\n');
    for y in 0..4 {
        let mut row = String::new();
        for z in 0..4 {
            if z > 0 {
                row.push_str("  ");
            }
            for x in 0..4 {
                if x > 0 {
                    row.push(' ');
                }
                row.push(cell_char(Cell::new(x, y, z)));
            }
        }
        if column_key {
            row.push_str("  ");
            for x in 0..4 {
                if x > 0 {
                    row.push(' ');
                }
                row.push(Cell::new(x, y, 0).column().to_char());
            }
        }
        out.push_str(&row);
        out.push('\n');
    }
    out
}

/// [`draw_layers_with`] without the column key.
pub(crate) fn draw_layers(cell_char: impl Fn(Cell) -> char) -> String {
    draw_layers_with(cell_char, false)
}
