//! The points of the games' static evaluations ([`crate::Game::evaluate`]), for the heuristic
//! search of the analysis where no proof is in reach.
//!
//! Both games count, for each player, the lines still open to it by the stones it has in them, and
//! its threats — twice for a threat on a row of its parity (odd rows counting from 1 for white, the
//! first player; even rows for black; a row of the 3-D board is a layer), Allis's insight that a
//! threat on the right parity usually wins the zugzwang at the end.

/// Points for an open line holding 0, 1 or 2 of the player's stones (3 is a threat).
const LINE_POINTS: [i32; 3] = [1, 4, 16];
/// Points for each threat, and again for one on the player's parity.
const THREAT_POINTS: i32 = 60;

/// One player's points: `open_line_stones` gives the player's stones in each line still open
/// to it; `threats` are its threats, `parity` its rows.
pub fn side_points(open_line_stones: impl Iterator<Item = u32>, threats: u64, parity: u64) -> i32 {
    let lines: i32 = open_line_stones
        .filter(|&n| n < 3)
        .map(|n| LINE_POINTS[n as usize])
        .sum();
    lines
        + THREAT_POINTS * threats.count_ones() as i32
        + THREAT_POINTS * (threats & parity).count_ones() as i32
}
