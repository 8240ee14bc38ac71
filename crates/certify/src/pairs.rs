//! O's follow-up-and-pairs strategy (Allis's claimeven and baseinverse), as a certificate's
//! `pairs` leaf states it: with X to move, the lowest empty cells of the columns of odd height
//! are paired up; O answers a pair cell with its partner and any other move on top of it, so O
//! gets every other empty cell of layers 1 and 3, and one cell of each pair. The strategy
//! refutes X when every line holds an O stone, one of those sure cells, or a whole pair.

use score4_board::geometry::LINES;
use score4_board::Position;
use score4_game::Colour;

/// Odd layers (1 and 3).
const ODD_LAYERS: u64 = 0xFFFF_0000_FFFF_0000;

/// Pairings tried before giving up.
const MAX_TRIES: u32 = 20_000;

/// A pairing of the pair cells under which O's strategy refutes every line of X, if one is
/// found: pairs of cell indices. `None` if X is not to move, or no pairing was found within
/// the search's bound.
pub fn find_pairs(position: &Position) -> Option<Vec<(u8, u8)>> {
    if position.mover() != Colour::White {
        return None;
    }
    let occupied = position.occupied().0;
    let empty = !occupied;
    // The lowest empty cell of each column of odd height: empty, on an odd layer, with the cell
    // below it filled.
    let pair_cells = empty & ODD_LAYERS & (occupied << 16);
    let sure = empty & ODD_LAYERS & !pair_cells;
    matching(pair_cells, position.stones(Colour::Black).0 | sure)
}

/// X's zugzwang on an odd threat (Allis's rule, as a certificate's `zugzwang` leaf states it):
/// O is to move and X has a threat `t` on layer 2 whose column holds one stone. O can never
/// play below `t`; in the other columns X answers O on top, and pairs up the lowest empty
/// cells of the other columns of odd height. O, always to move with an even number of other
/// cells left, must at last play below `t`, and X wins there — unless O makes four first,
/// which the strategy rules out when every line of O holds an X stone, a cell of layer 1 or 3
/// outside `t`'s column that is not a pair cell, `t` or the cell above it, or a whole pair.
/// Returns `t` and the pairs, if some threat and pairing do.
pub fn find_zugzwang(position: &Position) -> Option<(u8, Vec<(u8, u8)>)> {
    if position.mover() != Colour::Black {
        return None;
    }
    let occupied = position.occupied().0;
    let empty = !occupied;
    const LAYER_2: u64 = 0x0000_FFFF_0000_0000;
    // Threats of X on layer 2 above an empty layer-1 cell above a stone: columns of one stone.
    let candidates = position.threats(Colour::White).0 & LAYER_2 & (empty << 16) & (occupied << 32);
    let mut remaining = candidates;
    while remaining != 0 {
        let t = remaining.trailing_zeros() as u8;
        remaining &= remaining - 1;
        let column = 0x0001_0001_0001_0001u64 << (t % 16);
        let pair_cells = empty & ODD_LAYERS & (occupied << 16) & !column;
        let sure = (empty & ODD_LAYERS & !pair_cells & !column) | (1 << t) | (1 << t << 16);
        if let Some(pairs) = matching(pair_cells, position.stones(Colour::White).0 | sure) {
            return Some((t, pairs));
        }
    }
    None
}

/// A pairing of `pair_cells` under which every line holds a cell of `killers` or a whole pair.
fn matching(pair_cells: u64, killers: u64) -> Option<Vec<(u8, u8)>> {
    let cells: Vec<u8> = (0..64u8).filter(|&c| pair_cells >> c & 1 == 1).collect();
    // Lines that only a whole pair can kill: their pair cells.
    let mut needs: Vec<u64> = Vec::new();
    for &line in LINES.iter() {
        if line & killers != 0 {
            continue;
        }
        let inside = line & pair_cells;
        if inside.count_ones() < 2 {
            return None;
        }
        needs.push(inside);
    }
    let mut partner = [u8::MAX; 64];
    let mut tries = 0;
    search(&cells, &needs, &mut partner, &mut tries).then(|| {
        cells
            .iter()
            .filter(|&&c| partner[c as usize] > c)
            .map(|&c| (c, partner[c as usize]))
            .collect()
    })
}

/// Pairs the first unpaired cell with each possible partner in turn; at the end, whether
/// every needy line holds a whole pair.
fn search(cells: &[u8], needs: &[u64], partner: &mut [u8; 64], tries: &mut u32) -> bool {
    *tries += 1;
    if *tries > MAX_TRIES {
        return false;
    }
    let Some(&first) = cells.iter().find(|&&c| partner[c as usize] == u8::MAX) else {
        return needs
            .iter()
            .all(|&inside| (0..64).any(|c| inside >> c & 1 == 1 && inside >> partner[c] & 1 == 1));
    };
    for &other in cells {
        if other == first || partner[other as usize] != u8::MAX {
            continue;
        }
        partner[first as usize] = other;
        partner[other as usize] = first;
        if search(cells, needs, partner, tries) {
            return true;
        }
        partner[first as usize] = u8::MAX;
        partner[other as usize] = u8::MAX;
    }
    false
}
