//! The strategy leaves `pairs` and `zugzwang` of docs/CERTIFICATE.md ("Strategy leaves"): from
//! the leaf, the cells the defender is sure of and the pairs it gets one cell of; then every one
//! of the 76 lines must be dead. Nothing here knows how the solver found the strategy.

use std::collections::HashMap;

use crate::board::{Board, Stone};
use crate::check::{parse_column, parse_decimal};

/// Which strategy leaf: O's `pairs`, or X's `zugzwang` on the threat cell it names.
#[derive(Clone, Copy)]
pub enum Leaf {
    /// O's follow-up and pairs, X to move.
    Pairs,
    /// X's zugzwang on an odd threat, O to move.
    Zugzwang,
}

/// Checks a strategy leaf at `board` with its `arguments` (the words after the kind).
pub fn check(
    leaf: Leaf,
    board: &Board,
    arguments: &[&str],
    lines: &[[usize; 4]],
) -> Result<(), String> {
    let (defender, attacker) = match leaf {
        Leaf::Pairs => (Stone::O, Stone::X),
        Leaf::Zugzwang => (Stone::X, Stone::O),
    };
    let mut arguments = arguments;
    let threat = |cell: usize, stone: Stone| {
        lines.iter().any(|line| {
            line.contains(&cell)
                && line
                    .iter()
                    .all(|&c| c == cell || board.at(c) == Some(stone))
        })
    };
    // Columns that leave the follow-up, and the defender's extra sure cells.
    let mut special = [false; 16];
    let mut sure_extra: Vec<usize> = Vec::new();
    let mut empty_threat_column = None;
    if let Leaf::Zugzwang = leaf {
        let Some((word, rest)) = arguments.split_first() else {
            return Err("zugzwang takes a cell and pairs".to_owned());
        };
        arguments = rest;
        let t = parse_cell(word).ok_or_else(|| format!("bad cell {word:?}"))?;
        if t / 16 != 2 || board.height(t % 16) > 1 {
            return Err(format!(
                "cell {t} is not on layer 2 of a column holding one stone or none"
            ));
        }
        if !threat(t, Stone::X) {
            return Err(format!("cell {t} is not a threat of X"));
        }
        special[t % 16] = true;
        if board.height(t % 16) == 0 {
            empty_threat_column = Some(t % 16);
        }
        sure_extra.extend([t, t + 16]);
    }
    let pair_words = arguments
        .iter()
        .position(|word| !word.contains('-'))
        .unwrap_or(arguments.len());
    let (pair_words, mut changes) = arguments.split_at(pair_words);
    let mut mirror_pairs: Vec<(usize, usize)> = Vec::new();
    while let Some((&change, rest)) = changes.split_first() {
        let [a, b] = match rest {
            [a, b, ..] => [*a, *b],
            _ => return Err(format!("{change} takes two columns")),
        };
        changes = &rest[2..];
        let is_mirror = match change {
            "mirror" => true,
            "tempo" => false,
            other => return Err(format!("unknown strategy word {other:?}")),
        };
        let (Some(a), Some(b)) = (parse_column(a), parse_column(b)) else {
            return Err(format!("{change}: bad columns {a:?} {b:?}"));
        };
        if a == b {
            return Err(format!("{change}: column {a:X} twice"));
        }
        for column in [a, b] {
            if special[column] {
                return Err(format!("{change}: column {column:X} is already special"));
            }
            special[column] = true;
        }
        if is_mirror {
            let height = board.height(a);
            if height != board.height(b) || height == 4 {
                return Err(format!(
                    "mirror: columns {a:X} and {b:X} are not of the same height below 4"
                ));
            }
            mirror_pairs.extend((height..4).map(|z| (16 * z + a, 16 * z + b)));
        } else {
            if board.height(a) != 1 || board.height(b) != 1 {
                return Err(format!(
                    "tempo: columns {a:X} and {b:X} do not hold one stone each"
                ));
            }
            let v2 = 32 + b;
            if !threat(v2, defender) {
                return Err(format!("tempo: cell {v2} is not a threat of {defender:?}"));
            }
            sure_extra.extend([32 + a, 48 + b]);
        }
    }
    let mut pair_cells: Vec<usize> = (0..16)
        .filter(|&c| !special[c] && board.height(c) % 2 == 1)
        .filter_map(|c| board.drop_cell(c))
        .collect();
    // The zugzwang's threat above an empty column: its bottom cell is paired too.
    pair_cells.extend(empty_threat_column);
    let partner = pairing(&pair_cells, pair_words)?;
    let sure: Vec<bool> = (0..64)
        .map(|cell| {
            let follow_up = !special[cell % 16]
                && board.at(cell).is_none()
                && (cell / 16) % 2 == 1
                && !partner.contains_key(&cell);
            follow_up || sure_extra.contains(&cell)
        })
        .collect();
    let defenders = |cell: usize| board.at(cell) == Some(defender) || sure[cell];
    for line in lines {
        let whole_pair = |(a, b): (usize, usize)| line.contains(&a) && line.contains(&b);
        let dead = line.iter().any(|&c| defenders(c))
            || line
                .iter()
                .any(|&c| partner.get(&c).is_some_and(|&p| whole_pair((c, p))))
            || mirror_pairs.iter().any(|&pair| whole_pair(pair))
            || completed_first(line, board, lines, &defenders);
        if !dead {
            return Err(format!(
                "the strategy leaves {attacker:?} the line {line:?}"
            ));
        }
    }
    Ok(())
}

/// Kill test 4: some line made of the defender's stones and sure cells whose every empty cell
/// lies below a cell of `line`, in the same column.
fn completed_first(
    line: &[usize; 4],
    board: &Board,
    lines: &[[usize; 4]],
    defenders: &impl Fn(usize) -> bool,
) -> bool {
    let below_line = |cell: usize| {
        line.iter()
            .any(|&c| c % 16 == cell % 16 && c / 16 > cell / 16)
    };
    lines.iter().any(|own| {
        own.iter()
            .all(|&c| defenders(c) && (board.at(c).is_some() || below_line(c)))
    })
}

/// The pairs `words` (`a-b` each) as a perfect matching of `pair_cells`: each cell's partner.
fn pairing(pair_cells: &[usize], words: &[&str]) -> Result<HashMap<usize, usize>, String> {
    let mut partner: HashMap<usize, usize> = HashMap::new();
    for word in words {
        let pair = word
            .split_once('-')
            .and_then(|(a, b)| Some((parse_cell(a)?, parse_cell(b)?)));
        let Some((a, b)) = pair else {
            return Err(format!("bad pair {word:?}: two cells 0..63 as a-b"));
        };
        for cell in [a, b] {
            if !pair_cells.contains(&cell) {
                return Err(format!("cell {cell} is not a pair cell"));
            }
        }
        if a == b || partner.contains_key(&a) || partner.contains_key(&b) {
            return Err(format!("pair {a}-{b}: a cell paired twice"));
        }
        partner.insert(a, b);
        partner.insert(b, a);
    }
    if let Some(unpaired) = pair_cells.iter().find(|c| !partner.contains_key(c)) {
        return Err(format!("the pair cell {unpaired} is not paired"));
    }
    Ok(partner)
}

/// A cell 0..63.
fn parse_cell(text: &str) -> Option<usize> {
    parse_decimal(text)
        .filter(|&cell| cell < 64)
        .map(|cell| cell as usize)
}
