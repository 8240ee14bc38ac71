//! The strategy leaves of a certificate (docs/CERTIFICATE.md, "Strategy leaves"), found by a
//! search of their own rather than read from the rules' code: O's follow-up and pairs
//! (Allis's claimeven and baseinverse) for a hold with X to move, X's zugzwang on an odd threat
//! for a win with O to move, each with at most one change (two columns mirrored, or a spare
//! tempo), and the aftereven kill.
//!
//! The defender answers the attacker on top in most columns and gets their empty cells of
//! layers 1 and 3 (its *sure* cells), pairs up the lowest empty cells of the columns of odd
//! height, and wins when every line of the attacker holds a stone of the defender, a sure cell
//! or a whole pair, or the defender completes a line of its own first.

use score4_board::geometry::LINES;
use score4_board::Position;
use score4_game::Colour;

/// Odd layers (1 and 3).
const ODD_LAYERS: u64 = 0xFFFF_0000_FFFF_0000;
/// Layer 2.
const LAYER_2: u64 = 0x0000_FFFF_0000_0000;
/// The four cells of column 0.
const COLUMN_0: u64 = 0x0001_0001_0001_0001;

/// Pairings tried per strategy before giving up.
const MAX_TRIES: u32 = 20_000;

/// A strategy leaf as the certificate writes it: the zugzwang's threat cell (none for O's
/// pairs), the pairs, and the change, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// X's threat cell on layer 2 (`zugzwang` only).
    pub threat: Option<u8>,
    /// The pair cells, paired.
    pub pairs: Vec<(u8, u8)>,
    /// A change to the follow-up in two columns.
    pub change: Option<Change>,
}

/// A change to the follow-up in two columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Two columns of equal height, mirrored.
    Mirror(u8, u8),
    /// A spare tempo: column T (the defender answers `t1` with `t2`), then column V (the
    /// defender's threat on layer 2).
    Tempo(u8, u8),
}

impl std::fmt::Display for Strategy {
    /// The leaf's line after the node's boards: `pairs ...` or `zugzwang t ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.threat {
            Some(t) => write!(f, "zugzwang {t}")?,
            None => write!(f, "pairs")?,
        }
        for (a, b) in &self.pairs {
            write!(f, " {a}-{b}")?;
        }
        match self.change {
            Some(Change::Mirror(a, b)) => write!(f, " mirror {a:X} {b:X}"),
            Some(Change::Tempo(t, v)) => write!(f, " tempo {t:X} {v:X}"),
            None => Ok(()),
        }
    }
}

/// O's strategy refuting every line of X, if one is found: X must be to move.
pub fn find_pairs(position: &Position) -> Option<Strategy> {
    (position.mover() == Colour::White)
        .then(|| find(position, Colour::Black, None))
        .flatten()
}

/// X's zugzwang on one of its threats on layer 2 of a column of one stone or none, if one is found:
/// O must be to move.
pub fn find_zugzwang(position: &Position) -> Option<Strategy> {
    if position.mover() != Colour::Black {
        return None;
    }
    let occupied = position.occupied().0;
    // Above one stone, or two above an empty column's bottom cell.
    let above_empty = !occupied & !(occupied << 16) & !(occupied << 32) & LAYER_2;
    let candidates = position.threats(Colour::White).0 & (one_stone_tops(occupied) | above_empty);
    cells(candidates).find_map(|t| find(position, Colour::White, Some(t)))
}

/// The strategy of `defender` (with the zugzwang's `threat` for X): plain, else with a mirror,
/// else with a spare tempo, each only where it could kill the lines the plain one leaves.
fn find(position: &Position, defender: Colour, threat: Option<u8>) -> Option<Strategy> {
    let occupied = position.occupied().0;
    let fixed = threat.map_or(0, |t| COLUMN_0 << (t % 16));
    let strategy = |change| {
        attempt(position, defender, threat, change).map(|pairs| Strategy {
            threat,
            pairs,
            change,
        })
    };
    let hopeless = match strategy(None) {
        Ok(found) => return Some(found),
        // Only the pairing failed: no change of two columns helps the way the rules use them.
        Err(hopeless) if hopeless.is_empty() => return None,
        Err(hopeless) => hopeless,
    };
    let free_columns = (0..16u8).filter(|&c| fixed >> c & 1 == 0);
    let height = |c: u8| ((occupied >> c) & COLUMN_0).count_ones();
    // A mirror kills a line left alive only by a whole mirror pair: two empty cells of the
    // line on one layer, in the two columns.
    for a in free_columns.clone() {
        for b in free_columns
            .clone()
            .filter(|&b| b > a && height(b) == height(a))
        {
            let pair_in = |line: u64| {
                (0..4).any(|z| {
                    let pair = (1u64 << (16 * z + a)) | (1u64 << (16 * z + b));
                    line & pair == pair && !occupied & pair == pair
                })
            };
            if height(a) < 4 && hopeless.iter().all(|&line| pair_in(line)) {
                if let Ok(found) = strategy(Some(Change::Mirror(a, b))) {
                    return Some(found);
                }
            }
        }
    }
    // A spare tempo kills a line left alive by `t2` or `v3`, or by a line completed first
    // through them: the line has a cell in T or V.
    let tops = one_stone_tops(occupied) & !fixed;
    let threats = position.threats(defender).0 & tops;
    for v in cells(threats).map(|v2| v2 % 16) {
        for t in cells(tops).map(|t2| t2 % 16).filter(|&t| t != v) {
            let columns = (COLUMN_0 << t) | (COLUMN_0 << v);
            if hopeless.iter().all(|&line| line & columns != 0) {
                if let Ok(found) = strategy(Some(Change::Tempo(t, v))) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// The pairs under which `defender`'s strategy (with the zugzwang's `threat`, and `change`)
/// kills every line; else the lines that no pairing can kill (none when only the pairing
/// failed).
fn attempt(
    position: &Position,
    defender: Colour,
    threat: Option<u8>,
    change: Option<Change>,
) -> Result<Vec<(u8, u8)>, Vec<u64>> {
    let occupied = position.occupied().0;
    let empty = !occupied;
    let column = |c: u8| COLUMN_0 << c;
    let mut special = threat.map_or(0, |t| column(t % 16));
    let mut sure_extra = threat.map_or(0, |t| (1u64 << t) | (1u64 << t << 16));
    let mut mirror_pairs = Vec::new();
    match change {
        Some(Change::Mirror(a, b)) => {
            special |= column(a) | column(b);
            for z in 0..4 {
                let pair = (1u64 << (16 * z + a as u32)) | (1u64 << (16 * z + b as u32));
                if empty & pair == pair {
                    mirror_pairs.push(pair);
                }
            }
        }
        Some(Change::Tempo(t, v)) => {
            special |= column(t) | column(v);
            sure_extra |= (1u64 << (32 + t)) | (1u64 << (48 + v));
        }
        None => {}
    }
    // In the zugzwang, an empty column of the threat pairs its bottom cell.
    let bottom = threat.map_or(0, |t| empty & (1u64 << (t % 16)));
    let pair_cells = (empty & ODD_LAYERS & (occupied << 16) & !special) | bottom;
    let sure = (empty & ODD_LAYERS & !pair_cells & !special) | sure_extra;
    let defended = position.stones(defender).0 | sure;
    let mut needs = Vec::new();
    let mut hopeless = Vec::new();
    for &line in LINES.iter() {
        if line & defended != 0
            || mirror_pairs
                .iter()
                .any(|&pair| (line & pair).count_ones() == 2)
            || completed_first(line, defended, empty)
        {
            continue;
        }
        let inside = line & pair_cells;
        if inside.count_ones() < 2 {
            hopeless.push(line);
        } else {
            needs.push(inside);
        }
    }
    if !hopeless.is_empty() {
        return Err(hopeless);
    }
    matching(pair_cells, &needs).ok_or(hopeless)
}

/// Whether the defender, who gets every cell of `defended`, completes a line of its own made of
/// those cells before the attacker can complete `line`: every empty cell of it lies below a
/// cell of `line` in the same column (Allis's aftereven; kill test 4 of docs/CERTIFICATE.md).
fn completed_first(line: u64, defended: u64, empty: u64) -> bool {
    let below = (line >> 16) | (line >> 32) | (line >> 48);
    let claimed = empty & defended & below;
    claimed != 0
        && LINES
            .iter()
            .any(|&own| own & claimed != 0 && own & !(defended & !empty | claimed) == 0)
}

/// The layer-2 cells of the columns holding exactly one stone.
fn one_stone_tops(occupied: u64) -> u64 {
    !occupied & (!occupied << 16) & (occupied << 32) & LAYER_2
}

/// The cells of `set`, lowest first.
fn cells(set: u64) -> impl Iterator<Item = u8> + Clone {
    (0..64u8).filter(move |&c| set >> c & 1 == 1)
}

/// A pairing of `pair_cells` under which each of `needs` (the pair cells of a line) holds a
/// whole pair.
fn matching(pair_cells: u64, needs: &[u64]) -> Option<Vec<(u8, u8)>> {
    let cells: Vec<u8> = cells(pair_cells).collect();
    let mut partner = [u8::MAX; 64];
    let mut tries = 0;
    search(&cells, needs, &mut partner, &mut tries).then(|| {
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
