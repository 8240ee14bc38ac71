//! The extraction: a depth-first walk from the root that writes each node's line before its
//! children's (the order docs/CERTIFICATE.md asks for), numbering positions as they are first
//! referenced.

use std::collections::HashMap;
use std::io::Write;

use score4_board::{Cell, Colour, Column, Game, GameRecord, Position};
use score4_solver::{Solver, TranspositionTable};

use crate::pairs::{find_pairs, find_zugzwang};

/// What a written certificate holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CertifySummary {
    /// Whether the first player wins the root (the claim `win`), else `hold`.
    pub first_player_wins: bool,
    /// Node lines.
    pub nodes: u64,
    /// Leaves by kind: a move completing four, a finished game, O's pairs strategy.
    pub win_leaves: u64,
    /// See `win_leaves`.
    pub over_leaves: u64,
    /// See `win_leaves`.
    pub pairs_leaves: u64,
    /// X's zugzwang on an odd threat.
    pub zugzwang_leaves: u64,
    /// References to a node already in the certificate (transpositions shared).
    pub shared: u64,
    /// Nodes the solver searched to choose the claimant's moves.
    pub search_nodes: u64,
}

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The root is finished: nobody may have four in it.
    #[error("the game is over in the root position")]
    Finished,
    /// The certificate would exceed the node limit.
    #[error("the certificate would have more than {0} nodes")]
    TooLarge(u64),
    /// The solver found no move of the claimant that keeps the claim at a position it
    /// reached: the solver contradicts itself, which only a bug can cause.
    #[error(
        "no move keeps the claim at the position {x:016x} {o:016x} (X's and O's stones): the \
         solver contradicts itself"
    )]
    NoMove {
        /// X's stones.
        x: u64,
        /// O's stones.
        o: u64,
    },
    /// Writing failed.
    #[error("cannot write the certificate: {0}")]
    Io(#[from] std::io::Error),
}

/// A position waiting for its line.
struct Pending {
    id: u32,
    position: Position,
}

/// Writes the certificate of `game`'s position to `out`, searching with `table` (of the binary
/// format), with at most `max_nodes` node lines.
///
/// Contract: `table` is a binary table for 3-D keys.
pub fn certify(
    game: &GameRecord,
    table: &TranspositionTable,
    max_nodes: u64,
    out: &mut impl Write,
) -> Result<CertifySummary, CertifyError> {
    let root = *game.position();
    if root.has_four(Colour::White) || root.has_four(Colour::Black) {
        return Err(CertifyError::Finished);
    }
    let mut solver = Solver::new(table);
    let first_player_wins = solver.first_player_wins(&root);
    let claimant = if first_player_wins {
        Colour::White
    } else {
        Colour::Black
    };
    let moves = if game.moves().is_empty() {
        "-".to_owned()
    } else {
        game.to_string()
    };
    writeln!(out, "score4-certificate 1")?;
    writeln!(out, "game 3d")?;
    writeln!(out, "root {moves}")?;
    writeln!(
        out,
        "claim {}",
        if first_player_wins { "win" } else { "hold" }
    )?;
    let mut summary = CertifySummary {
        first_player_wins,
        ..CertifySummary::default()
    };
    let mut ids: HashMap<(u64, u64), u32> = HashMap::from([(masks(&root), 0)]);
    let mut stack = vec![Pending {
        id: 0,
        position: root,
    }];
    while let Some(Pending { id, position }) = stack.pop() {
        summary.nodes += 1;
        if summary.nodes > max_nodes {
            return Err(CertifyError::TooLarge(max_nodes));
        }
        let (x, o) = masks(&position);
        write!(out, "{id} {x:016x} {o:016x} ")?;
        if position.has_four(Colour::White)
            || position.has_four(Colour::Black)
            || position.is_full()
        {
            writeln!(out, "over")?;
            summary.over_leaves += 1;
            continue;
        }
        let legal: Vec<(Column, Cell)> = Column::all()
            .filter_map(|column| position.drop_cell(column).map(|cell| (column, cell)))
            .collect();
        if position.mover() == claimant {
            if let Some(&(column, _)) = legal.iter().find(|(_, cell)| position.wins_with(*cell)) {
                writeln!(out, "win {}", column.to_char())?;
                summary.win_leaves += 1;
                continue;
            }
            let keeps_claim = |solver: &mut Solver<'_>, child: &Position| {
                solver.first_player_wins(child) == first_player_wins
            };
            // A child already in the certificate costs nothing more; else the first move, in the
            // search's own ordering (which finds short proofs first), that the solver proves.
            let before = solver.stats().nodes;
            let known = legal.iter().find(|(_, cell)| {
                ids.contains_key(&masks(&position.after(*cell)))
                    && keeps_claim(&mut solver, &position.after(*cell))
            });
            let ordered = position.order(position.playable());
            let chosen = known.copied().or_else(|| {
                ordered
                    .as_slice()
                    .iter()
                    .map(|&index| Cell::from_index(index))
                    .find(|&cell| keeps_claim(&mut solver, &position.after(cell)))
                    .map(|cell| (<Position as Game>::column(cell), cell))
            });
            summary.search_nodes += solver.stats().nodes - before;
            let Some((column, cell)) = chosen else {
                return Err(CertifyError::NoMove { x, o });
            };
            let child = refer(position.after(cell), &mut ids, &mut stack, &mut summary);
            writeln!(out, "choose {} {child}", column.to_char())?;
        } else {
            // A strategy leaf: X's zugzwang for a win, O's pairs for a hold.
            let strategy = if first_player_wins {
                find_zugzwang(&position)
                    .map(|(threat, pairs)| (format!("zugzwang {threat}"), pairs))
            } else {
                find_pairs(&position).map(|pairs| ("pairs".to_owned(), pairs))
            };
            if let Some((head, pairs)) = strategy {
                write!(out, "{head}")?;
                for (a, b) in pairs {
                    write!(out, " {a}-{b}")?;
                }
                writeln!(out)?;
                match first_player_wins {
                    true => summary.zugzwang_leaves += 1,
                    false => summary.pairs_leaves += 1,
                }
                continue;
            }
            write!(out, "every")?;
            // Children are pushed in reverse, so the first column is written first.
            let children: Vec<(Column, u32)> = legal
                .iter()
                .rev()
                .map(|&(column, cell)| {
                    (
                        column,
                        refer(position.after(cell), &mut ids, &mut stack, &mut summary),
                    )
                })
                .collect();
            for (column, child) in children.iter().rev() {
                write!(out, " {}:{child}", column.to_char())?;
            }
            writeln!(out)?;
        }
    }
    writeln!(out, "end {}", summary.nodes)?;
    Ok(summary)
}

/// The id of `child`: its id if it is in the certificate already, else a new one, with the
/// child pushed to be written.
fn refer(
    child: Position,
    ids: &mut HashMap<(u64, u64), u32>,
    stack: &mut Vec<Pending>,
    summary: &mut CertifySummary,
) -> u32 {
    let next = ids.len() as u32;
    match ids.entry(masks(&child)) {
        std::collections::hash_map::Entry::Occupied(entry) => {
            summary.shared += 1;
            *entry.get()
        }
        std::collections::hash_map::Entry::Vacant(entry) => {
            entry.insert(next);
            stack.push(Pending {
                id: next,
                position: child,
            });
            next
        }
    }
}

/// X's and O's stones.
fn masks(position: &Position) -> (u64, u64) {
    (
        position.stones(Colour::White).0,
        position.stones(Colour::Black).0,
    )
}
