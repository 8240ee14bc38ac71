//! The extraction: a depth-first walk from the root that writes each node's line before its
//! children's (the order docs/CERTIFICATE.md asks for), numbering positions as they are first
//! referenced. [`certify`] chooses the claimant's moves with the solver; [`crate::certify_top`]
//! with a store, down to the positions the store settles without their children.

use std::collections::HashMap;
use std::io::Write;

use score4_board::{Cell, Colour, Column, Game, GameRecord, Position};
use score4_solver::{Solver, TranspositionTable};

use crate::pairs::{find_pairs, find_zugzwang, Change};

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
    /// Strategy leaves (`pairs` or `zugzwang`) with two columns mirrored.
    pub mirror_leaves: u64,
    /// Strategy leaves with a spare tempo.
    pub tempo_leaves: u64,
    /// Positions proven by other certificates (a top's jobs).
    pub part_leaves: u64,
    /// Replies `c!w` of `every` nodes: an opponent's move the claimant answers with four,
    /// written in place of a `win` leaf.
    pub win_replies: u64,
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
    /// The store does not settle the root position.
    #[error("the store does not settle the position")]
    NotSettled,
    /// The store settles the root position in one job, with too few of its children for a
    /// top: the position is certified whole.
    #[error("the store settles the position in one job, not split into parts")]
    Unsplit,
    /// Writing failed.
    #[error("cannot write the certificate: {0}")]
    Io(#[from] std::io::Error),
}

/// A position waiting for its line.
struct Pending {
    id: u32,
    position: Position,
    /// The moves from the empty board to it, along the first reference to it.
    moves: String,
}

/// The state of a walk: the output, the ids given, the positions waiting for their lines.
pub(crate) struct Walk<'w, W: Write> {
    out: &'w mut W,
    ids: HashMap<(u64, u64), u32>,
    stack: Vec<Pending>,
    max_nodes: u64,
    pub(crate) summary: CertifySummary,
    /// The `part` leaves written: the moves from the empty board to each.
    pub(crate) parts: Vec<String>,
}

/// What the walk does at a node that is neither finished nor won in one move.
pub(crate) enum Step {
    /// The claimant plays this cell.
    Choose(Cell),
    /// Every legal move of the opponent.
    Every,
    /// Another certificate proves the node.
    Part,
}

impl<'w, W: Write> Walk<'w, W> {
    /// Writes the header of the certificate of `game` and starts the walk at its root.
    pub(crate) fn start(
        game: &GameRecord,
        first_player_wins: bool,
        max_nodes: u64,
        out: &'w mut W,
    ) -> Result<Self, CertifyError> {
        let root = *game.position();
        if root.has_four(Colour::White) || root.has_four(Colour::Black) {
            return Err(CertifyError::Finished);
        }
        let moves = if game.moves().is_empty() {
            "-".to_owned()
        } else {
            game.to_string()
        };
        let claim = if first_player_wins { "win" } else { "hold" };
        write!(
            out,
            "score4-certificate 1\ngame 3d\nroot {moves}\nclaim {claim}\n"
        )?;
        Ok(Walk {
            out,
            ids: HashMap::from([(masks(&root), 0)]),
            stack: vec![Pending {
                id: 0,
                position: root,
                moves: game.to_string(),
            }],
            parts: Vec::new(),
            max_nodes,
            summary: CertifySummary {
                first_player_wins,
                ..CertifySummary::default()
            },
        })
    }

    /// Writes every node, asking `step` what to do at each node that is not a leaf by itself
    /// (finished, won in one move, or settled by the opponent-side strategy), then the end line.
    /// `step` gets the node's position and whether it is the root.
    pub(crate) fn run(
        mut self,
        mut step: impl FnMut(&Position, bool, &dyn Fn(&Position) -> bool) -> Result<Step, CertifyError>,
    ) -> Result<(CertifySummary, Vec<String>), CertifyError> {
        let first_player_wins = self.summary.first_player_wins;
        let claimant = if first_player_wins {
            Colour::White
        } else {
            Colour::Black
        };
        while let Some(Pending {
            id,
            position,
            moves,
        }) = self.stack.pop()
        {
            self.summary.nodes += 1;
            if self.summary.nodes > self.max_nodes {
                return Err(CertifyError::TooLarge(self.max_nodes));
            }
            let (x, o) = masks(&position);
            write!(self.out, "{id} {x:016x} {o:016x} ")?;
            if position.has_four(Colour::White)
                || position.has_four(Colour::Black)
                || position.is_full()
            {
                writeln!(self.out, "over")?;
                self.summary.over_leaves += 1;
                continue;
            }
            let legal: Vec<(Column, Cell)> = Column::all()
                .filter_map(|column| position.drop_cell(column).map(|cell| (column, cell)))
                .collect();
            if position.mover() == claimant {
                if let Some(column) = winning_column(&position) {
                    writeln!(self.out, "win {}", column.to_char())?;
                    self.summary.win_leaves += 1;
                    continue;
                }
            } else if self.strategy_leaf(&position, first_player_wins)? {
                continue;
            }
            let ids = &self.ids;
            let known = |child: &Position| ids.contains_key(&masks(child));
            match step(&position, id == 0, &known)? {
                Step::Part => {
                    writeln!(self.out, "part")?;
                    self.summary.part_leaves += 1;
                    self.parts.push(moves);
                }
                Step::Choose(cell) => {
                    let column = <Position as Game>::column(cell);
                    let child = self.refer(position.after(cell), &moves, column);
                    writeln!(self.out, "choose {} {child}", column.to_char())?;
                }
                Step::Every => {
                    // A child the claimant wins at once is written in place (`c!w`); the others
                    // are pushed in reverse, so the first column is written first.
                    let replies: Vec<(Column, Result<u32, Column>)> = legal
                        .iter()
                        .rev()
                        .map(|&(column, cell)| {
                            let child = position.after(cell);
                            let reply = match winning_column(&child) {
                                Some(win) => {
                                    self.summary.win_replies += 1;
                                    Err(win)
                                }
                                None => Ok(self.refer(child, &moves, column)),
                            };
                            (column, reply)
                        })
                        .collect();
                    write!(self.out, "every")?;
                    for (column, reply) in replies.iter().rev() {
                        match reply {
                            Ok(child) => write!(self.out, " {}:{child}", column.to_char())?,
                            Err(win) => {
                                write!(self.out, " {}!{}", column.to_char(), win.to_char())?
                            }
                        }
                    }
                    writeln!(self.out)?;
                }
            }
        }
        writeln!(self.out, "end {}", self.summary.nodes)?;
        Ok((self.summary, self.parts))
    }

    /// Writes a strategy leaf if one settles `position` (the opponent to move): X's zugzwang
    /// for a win, O's pairs for a hold.
    fn strategy_leaf(
        &mut self,
        position: &Position,
        first_player_wins: bool,
    ) -> Result<bool, CertifyError> {
        let strategy = if first_player_wins {
            find_zugzwang(position)
        } else {
            find_pairs(position)
        };
        let Some(strategy) = strategy else {
            return Ok(false);
        };
        writeln!(self.out, "{strategy}")?;
        match first_player_wins {
            true => self.summary.zugzwang_leaves += 1,
            false => self.summary.pairs_leaves += 1,
        }
        match strategy.change {
            Some(Change::Mirror(..)) => self.summary.mirror_leaves += 1,
            Some(Change::Tempo(..)) => self.summary.tempo_leaves += 1,
            None => {}
        }
        Ok(true)
    }

    /// The id of `child` (reached from `moves` by `column`): its id if it is in the certificate
    /// already, else a new one, with the child pushed to be written.
    fn refer(&mut self, child: Position, moves: &str, column: Column) -> u32 {
        let next = self.ids.len() as u32;
        match self.ids.entry(masks(&child)) {
            std::collections::hash_map::Entry::Occupied(entry) => {
                self.summary.shared += 1;
                *entry.get()
            }
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(next);
                self.stack.push(Pending {
                    id: next,
                    position: child,
                    moves: format!("{moves}{}", column.to_char()),
                });
                next
            }
        }
    }
}

/// Writes the certificate of `game`'s position to `out`, searching with `table` (of the binary
/// format), with at most `max_nodes` node lines.
///
/// At a node of the claimant: a move whose child is already in the certificate and keeps the
/// claim, else the first move, in the search's own ordering (which finds short proofs first),
/// that the solver proves.
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
    let walk = Walk::start(game, first_player_wins, max_nodes, out)?;
    let mut search_nodes = 0;
    let (mut summary, _) = walk.run(|position, _, known| {
        if position.mover() == Colour::White && !first_player_wins
            || position.mover() == Colour::Black && first_player_wins
        {
            return Ok(Step::Every);
        }
        let before = solver.stats().nodes;
        let mut keeps_claim =
            |child: &Position| solver.first_player_wins(child) == first_player_wins;
        let playable = || Column::all().filter_map(|column| position.drop_cell(column));
        let chosen = playable()
            .find(|&cell| known(&position.after(cell)) && keeps_claim(&position.after(cell)))
            .or_else(|| {
                position
                    .order(position.playable())
                    .as_slice()
                    .iter()
                    .map(|&index| Cell::from_index(index))
                    .find(|&cell| keeps_claim(&position.after(cell)))
            });
        search_nodes += solver.stats().nodes - before;
        let (x, o) = masks(position);
        chosen
            .map(Step::Choose)
            .ok_or(CertifyError::NoMove { x, o })
    })?;
    summary.search_nodes = search_nodes;
    Ok(summary)
}

/// The first column (in column order) in which the mover completes four, if the game goes on
/// in `position` and there is one.
fn winning_column(position: &Position) -> Option<Column> {
    if position.has_four(Colour::White) || position.has_four(Colour::Black) || position.is_full() {
        return None;
    }
    Column::all().find(|&column| {
        position
            .drop_cell(column)
            .is_some_and(|cell| position.wins_with(cell))
    })
}

/// X's and O's stones.
pub(crate) fn masks(position: &Position) -> (u64, u64) {
    (
        position.stones(Colour::White).0,
        position.stones(Colour::Black).0,
    )
}
