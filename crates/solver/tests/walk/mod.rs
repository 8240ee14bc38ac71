//! Positions for the tests to look at: a generated game's position and those one move beyond.

use score4_board::CellCoordinates;
use score4_board::{GameRecord, Position};

/// The positions reached from `game` and one move beyond it (moves that do not win), each with
/// its move list as column numbers (for the reference solver and for messages).
pub fn positions_from(game: &GameRecord) -> Vec<(Position, Vec<u8>)> {
    let columns: Vec<u8> = game.moves().iter().map(|c| c.number()).collect();
    let position = *game.position();
    let mut found = vec![(position, columns.clone())];
    for cell in position.playable() {
        if !position.wins_with(cell) {
            let mut extended = columns.clone();
            extended.push(cell.column().number());
            found.push((position.after(cell), extended));
        }
    }
    found
}
