//! The checks of docs/CERTIFICATE.md, over a stream of lines.

use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, Read};

use crate::board::{lines, Board, Stone};
use crate::strategy::{self, Leaf};

/// The longest line a certificate may have.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// What a certificate claims of its root (and of every node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The first player (X) wins.
    Win,
    /// X does not win: O holds a draw or better.
    Hold,
}

impl Claim {
    /// The player who reaches the claim.
    fn claimant(self) -> Stone {
        match self {
            Claim::Win => Stone::X,
            Claim::Hold => Stone::O,
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::Win => "X wins",
            Claim::Hold => "X does not win",
        })
    }
}

/// Nodes by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCounts {
    /// `choose` nodes.
    pub choose: u64,
    /// `every` nodes.
    pub every: u64,
    /// `win` leaves.
    pub win: u64,
    /// `over` leaves.
    pub over: u64,
    /// `pairs` leaves.
    pub pairs: u64,
    /// `zugzwang` leaves.
    pub zugzwang: u64,
    /// `part` leaves.
    pub part: u64,
    /// Replies `c!w` of `every` nodes: an opponent's move the claimant answers with four.
    pub win_replies: u64,
}

/// A `part` leaf: a position whose claim another certificate of the set must prove.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obligation {
    /// The node's id.
    pub node: u32,
    /// The moves from the certificate's root to it (by the first reference to it).
    pub moves: String,
    /// X's stones.
    pub x: u64,
    /// O's stones.
    pub o: u64,
}

/// An accepted certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The root's moves from the empty board.
    pub root: String,
    /// What is proven of it.
    pub claim: Claim,
    /// Node lines.
    pub nodes: u64,
    /// Node lines by kind.
    pub kinds: KindCounts,
    /// The root position: X's and O's stones.
    pub root_position: (u64, u64),
    /// The `part` leaves, in file order: complete only with certificates that prove them
    /// ([`join`](crate::join)).
    pub parts: Vec<Obligation>,
}

/// Why a certificate is rejected: where, and what does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The line (from 1).
    pub line: u64,
    /// The node, if the fault is one node's.
    pub node: Option<u32>,
    /// The moves from the root to that node (by the first reference to it).
    pub moves: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.node, &self.moves) {
            (Some(node), Some(moves)) => {
                let moves = if moves.is_empty() { "-" } else { moves };
                write!(
                    f,
                    "line {}: node {node} (moves {moves}): {}",
                    self.line, self.reason
                )
            }
            (Some(node), None) => write!(f, "line {}: node {node}: {}", self.line, self.reason),
            _ => write!(f, "line {}: {}", self.line, self.reason),
        }
    }
}

/// What is known of an id: the position it must have, the moves by which it was first
/// reached from the root, and whether its line has come.
struct Entry {
    x: u64,
    o: u64,
    moves: String,
    defined: bool,
}

/// The checker's state between lines.
struct Checker {
    lines: Vec<[usize; 4]>,
    claim: Claim,
    ids: HashMap<u32, Entry>,
    undefined: u64,
    nodes: u64,
    kinds: KindCounts,
    parts: Vec<Obligation>,
    line: u64,
}

/// Checks the certificate read from `input`, calling `on_line` with the bytes read so far after
/// each line (for a progress bar). Returns the verdict, or the first fault found.
pub fn verify(mut input: impl BufRead, mut on_line: impl FnMut(u64)) -> Result<Verdict, Fault> {
    let mut buffer = Vec::new();
    let mut read = 0u64;
    let mut number = 0u64;
    let mut next_line = |buffer: &mut Vec<u8>| -> Result<Option<String>, Fault> {
        buffer.clear();
        number += 1;
        let limit = MAX_LINE_BYTES as u64 + 1;
        let count = std::io::Read::by_ref(&mut input)
            .take(limit)
            .read_until(b'\n', buffer)
            .map_err(|error| fault(number, format!("cannot read: {error}")))?;
        read += count as u64;
        on_line(read);
        if count == 0 {
            return Ok(None);
        }
        if buffer.last() == Some(&b'\n') {
            buffer.pop();
        } else if count as u64 == limit {
            return Err(fault(
                number,
                format!("a line longer than {MAX_LINE_BYTES} bytes"),
            ));
        }
        let text =
            std::str::from_utf8(buffer).map_err(|_| fault(number, "not UTF-8 text".to_owned()))?;
        if text.contains('\r') {
            return Err(fault(number, "a carriage return (\\r)".to_owned()));
        }
        Ok(Some(text.to_owned()))
    };
    let mut header = |expected: &str, buffer: &mut Vec<u8>| -> Result<String, Fault> {
        let line = next_line(buffer)?.ok_or_else(|| fault(0, "truncated: no header".to_owned()))?;
        line.strip_prefix(expected)
            .map(str::to_owned)
            .ok_or_else(|| {
                fault(
                    0,
                    format!("the header line should start with {expected:?}, not {line:?}"),
                )
            })
    };
    let version = header("score4-certificate ", &mut buffer)?;
    if version != "1" {
        return Err(fault(
            1,
            format!("version {version:?}: this checker reads version 1"),
        ));
    }
    if header("game ", &mut buffer)? != "3d" {
        return Err(fault(2, "the game must be 3d".to_owned()));
    }
    let root_moves = header("root ", &mut buffer)?;
    let lines = lines();
    let root = root_position(&root_moves, &lines).map_err(|reason| fault(3, reason))?;
    let claim = match header("claim ", &mut buffer)?.as_str() {
        "win" => Claim::Win,
        "hold" => Claim::Hold,
        other => return Err(fault(4, format!("claim {other:?}: it must be win or hold"))),
    };
    let (x, o) = root.masks();
    let mut checker = Checker {
        lines,
        claim,
        ids: HashMap::from([(
            0,
            Entry {
                x,
                o,
                moves: String::new(),
                defined: false,
            },
        )]),
        undefined: 1,
        nodes: 0,
        kinds: KindCounts::default(),
        parts: Vec::new(),
        line: 4,
    };
    loop {
        let Some(line) = next_line(&mut buffer)? else {
            return Err(fault(checker.line + 1, "truncated: no end line".to_owned()));
        };
        checker.line += 1;
        if let Some(count) = line.strip_prefix("end ") {
            let count: u64 = parse_decimal(count)
                .ok_or_else(|| fault(checker.line, format!("bad count {count:?}")))?;
            if count != checker.nodes {
                return Err(fault(
                    checker.line,
                    format!(
                        "the end line says {count} nodes, the file has {}",
                        checker.nodes
                    ),
                ));
            }
            if next_line(&mut buffer)?.is_some() {
                return Err(fault(
                    checker.line + 1,
                    "a line after the end line".to_owned(),
                ));
            }
            if checker.undefined != 0 {
                let (id, entry) = checker
                    .ids
                    .iter()
                    .filter(|(_, entry)| !entry.defined)
                    .min_by_key(|(id, _)| **id)
                    .expect("an undefined id");
                return Err(Fault {
                    line: checker.line,
                    node: Some(*id),
                    moves: Some(entry.moves.clone()),
                    reason: "dangling: referenced but never defined".to_owned(),
                });
            }
            return Ok(Verdict {
                root: root_moves,
                claim,
                nodes: checker.nodes,
                kinds: checker.kinds,
                root_position: (x, o),
                parts: checker.parts,
            });
        }
        checker.node(&line)?;
    }
}

fn fault(line: u64, reason: String) -> Fault {
    Fault {
        line,
        node: None,
        moves: None,
        reason,
    }
}

/// A decimal number without sign or leading zeros.
pub(crate) fn parse_decimal(text: &str) -> Option<u64> {
    let well_formed = !text.is_empty()
        && text.len() <= 20
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    well_formed.then(|| text.parse().ok()).flatten()
}

fn parse_id(text: &str) -> Option<u32> {
    parse_decimal(text).and_then(|id| u32::try_from(id).ok())
}

pub(crate) fn parse_column(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let digit = chars.next()?.to_digit(16)?;
    chars.next().is_none().then_some(digit as usize)
}

fn parse_board(text: &str) -> Option<u64> {
    (text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(text, 16).ok())
        .flatten()
}

/// The position the root's moves reach: legal, with nobody having four before the end.
fn root_position(moves: &str, lines: &[[usize; 4]]) -> Result<Board, String> {
    let mut board = Board::EMPTY;
    if moves == "-" {
        return Ok(board);
    }
    if moves.is_empty() {
        return Err("the root's moves are empty (the empty board is \"-\")".to_owned());
    }
    for (i, character) in moves.chars().enumerate() {
        let column = character
            .to_digit(16)
            .ok_or_else(|| format!("the root's move {} is {character:?}, not a column", i + 1))?;
        if board.has_four(Stone::X, lines) || board.has_four(Stone::O, lines) {
            return Err(format!("the root's game is over before move {}", i + 1));
        }
        board = board.after(column as usize).ok_or_else(|| {
            format!(
                "the root's move {} plays the full column {character}",
                i + 1
            )
        })?;
    }
    if board.has_four(Stone::X, lines) || board.has_four(Stone::O, lines) {
        return Err("the root position has four in a line".to_owned());
    }
    Ok(board)
}

impl Checker {
    /// Checks one node line.
    fn node(&mut self, line: &str) -> Result<(), Fault> {
        let mut fields = line.split(' ');
        let id_text = fields.next().unwrap_or("");
        let id = parse_id(id_text)
            .ok_or_else(|| fault(self.line, format!("bad node id {id_text:?}")))?;
        let Some(entry) = self.ids.get_mut(&id) else {
            return Err(self.node_fault(
                id,
                None,
                "defined before any node refers to it".to_owned(),
            ));
        };
        if entry.defined {
            let moves = entry.moves.clone();
            return Err(self.node_fault(id, Some(moves), "duplicate id: defined twice".to_owned()));
        }
        if id == 0 && self.nodes != 0 || id != 0 && self.nodes == 0 {
            return Err(self.node_fault(
                id,
                None,
                "the first node must be the root, id 0".to_owned(),
            ));
        }
        entry.defined = true;
        self.undefined -= 1;
        self.nodes += 1;
        let (x, o, moves) = (entry.x, entry.o, entry.moves.clone());
        let at =
            |checker: &Checker, reason: String| checker.node_fault(id, Some(moves.clone()), reason);
        let boards = (fields.next(), fields.next());
        let (Some(bx), Some(bo)) = (
            boards.0.and_then(parse_board),
            boards.1.and_then(parse_board),
        ) else {
            return Err(at(
                self,
                "the boards must be two fields of 16 hexadecimal digits".to_owned(),
            ));
        };
        if (bx, bo) != (x, o) {
            return Err(at(
                self,
                format!("wrong position: the line says {bx:016x} {bo:016x}, the moves give {x:016x} {o:016x}"),
            ));
        }
        let board = Board::from_masks(x, o).expect("positions reached by moves do not overlap");
        let kind = fields.next().unwrap_or("");
        let arguments: Vec<&str> = fields.collect();
        let x_four = board.has_four(Stone::X, &self.lines);
        let o_four = board.has_four(Stone::O, &self.lines);
        if kind == "over" {
            if !arguments.is_empty() {
                return Err(at(self, "over takes no arguments".to_owned()));
            }
            let holds = match self.claim {
                Claim::Win => x_four,
                Claim::Hold => !x_four && (o_four || board.is_full()),
            };
            if !holds {
                return Err(at(
                    self,
                    format!("over, but the game is not over with {}", self.claim),
                ));
            }
            self.kinds.over += 1;
            return Ok(());
        }
        if x_four || o_four {
            return Err(at(
                self,
                "the game is over here: only over may stand".to_owned(),
            ));
        }
        if board.is_full() {
            return Err(at(
                self,
                "the board is full: only over may stand".to_owned(),
            ));
        }
        let claimant = self.claim.claimant();
        let mover = board.mover();
        match kind {
            "choose" => {
                if mover != claimant {
                    return Err(at(
                        self,
                        "choose at a node where the opponent moves".to_owned(),
                    ));
                }
                let [column, child] = arguments[..] else {
                    return Err(at(self, "choose takes a column and an id".to_owned()));
                };
                let column = parse_column(column)
                    .ok_or_else(|| at(self, format!("bad column {column:?}")))?;
                self.refer(id, &moves, &board, column, child)?;
                self.kinds.choose += 1;
            }
            "every" => {
                if mover == claimant {
                    return Err(at(
                        self,
                        "every at a node where the claimant moves".to_owned(),
                    ));
                }
                if arguments.len() > 16 {
                    return Err(at(self, "every with more than 16 moves".to_owned()));
                }
                let mut seen = [false; 16];
                for argument in &arguments {
                    let reply = argument
                        .split_once(':')
                        .map(|(column, child)| (column, Ok(child)))
                        .or_else(|| {
                            let (column, win) = argument.split_once('!')?;
                            Some((column, Err(win)))
                        });
                    let Some((column, next)) = reply else {
                        return Err(at(
                            self,
                            format!("bad reply {argument:?}: column:id or column!column"),
                        ));
                    };
                    let column = parse_column(column)
                        .ok_or_else(|| at(self, format!("bad column {column:?}")))?;
                    if std::mem::replace(&mut seen[column], true) {
                        return Err(at(self, format!("column {column:X} listed twice")));
                    }
                    match next {
                        Ok(child) => self.refer(id, &moves, &board, column, child)?,
                        Err(win) => {
                            let reason = self.win_reply(&board, column, win).err();
                            if let Some(reason) = reason {
                                return Err(at(self, format!("reply {argument}: {reason}")));
                            }
                            self.kinds.win_replies += 1;
                        }
                    }
                }
                if let Some(missing) = (0..16).find(|&c| !seen[c] && board.drop_cell(c).is_some()) {
                    return Err(at(
                        self,
                        format!("a missing reply: the move {missing:X} is not answered"),
                    ));
                }
                self.kinds.every += 1;
            }
            "win" => {
                if mover != claimant {
                    return Err(at(
                        self,
                        "win at a node where the opponent moves".to_owned(),
                    ));
                }
                let [column] = arguments[..] else {
                    return Err(at(self, "win takes a column".to_owned()));
                };
                let column = parse_column(column)
                    .ok_or_else(|| at(self, format!("bad column {column:?}")))?;
                let after = board
                    .after(column)
                    .ok_or_else(|| at(self, format!("column {column:X} is full")))?;
                if !after.has_four(claimant, &self.lines) {
                    return Err(at(
                        self,
                        format!("the move {column:X} does not complete four"),
                    ));
                }
                self.kinds.win += 1;
            }
            "pairs" | "zugzwang" => {
                // O's pairs hold for a hold with X to move; X's zugzwang wins with O to move.
                let (claim, to_move) = match kind {
                    "pairs" => (Claim::Hold, Stone::X),
                    _ => (Claim::Win, Stone::O),
                };
                if self.claim != claim || mover != to_move {
                    return Err(at(
                        self,
                        format!(
                            "{kind} stands only for the claim {claim}, with {to_move:?} to move"
                        ),
                    ));
                }
                let leaf = match kind {
                    "pairs" => Leaf::Pairs,
                    _ => Leaf::Zugzwang,
                };
                strategy::check(leaf, &board, &arguments, &self.lines)
                    .map_err(|reason| at(self, reason))?;
                match kind {
                    "pairs" => self.kinds.pairs += 1,
                    _ => self.kinds.zugzwang += 1,
                }
            }
            "part" => {
                if !arguments.is_empty() {
                    return Err(at(self, "part takes no arguments".to_owned()));
                }
                if id == 0 {
                    return Err(at(
                        self,
                        "part at the root: a certificate cannot be its own part".to_owned(),
                    ));
                }
                self.parts.push(Obligation {
                    node: id,
                    moves: moves.clone(),
                    x,
                    o,
                });
                self.kinds.part += 1;
            }
            other => return Err(at(self, format!("unknown kind {other:?}"))),
        }
        Ok(())
    }

    /// Records that node `parent` (reached by `moves`, at `board`) leads by `column` to the node
    /// named by `child`.
    fn refer(
        &mut self,
        parent: u32,
        moves: &str,
        board: &Board,
        column: usize,
        child: &str,
    ) -> Result<(), Fault> {
        let child = parse_id(child).ok_or_else(|| {
            self.node_fault(
                parent,
                Some(moves.to_owned()),
                format!("bad child id {child:?}"),
            )
        })?;
        let Some(next) = board.after(column) else {
            return Err(self.node_fault(
                parent,
                Some(moves.to_owned()),
                format!("column {column:X} is full"),
            ));
        };
        let (x, o) = next.masks();
        match self.ids.get(&child) {
            Some(entry) if (entry.x, entry.o) != (x, o) => Err(self.node_fault(
                parent,
                Some(moves.to_owned()),
                format!("the move {column:X} leads to node {child}, which is another position"),
            )),
            Some(_) => Ok(()),
            None => {
                let moves = format!("{moves}{column:X}");
                self.ids.insert(
                    child,
                    Entry {
                        x,
                        o,
                        moves,
                        defined: false,
                    },
                );
                self.undefined += 1;
                Ok(())
            }
        }
    }

    /// Whether the reply `column` then `win` (a column, as text) of docs/CERTIFICATE.md holds
    /// at `board`: nobody has four after `column` and the board is not full, then the claimant
    /// completes four with `win`.
    fn win_reply(&self, board: &Board, column: usize, win: &str) -> Result<(), String> {
        let win = parse_column(win).ok_or_else(|| format!("bad column {win:?}"))?;
        let after = board
            .after(column)
            .ok_or_else(|| format!("column {column:X} is full"))?;
        if after.has_four(Stone::X, &self.lines)
            || after.has_four(Stone::O, &self.lines)
            || after.is_full()
        {
            return Err(format!("the game is over after {column:X}"));
        }
        let won = after
            .after(win)
            .ok_or_else(|| format!("column {win:X} is full"))?;
        if !won.has_four(self.claim.claimant(), &self.lines) {
            return Err(format!("the move {win:X} does not complete four"));
        }
        Ok(())
    }

    fn node_fault(&self, node: u32, moves: Option<String>, reason: String) -> Fault {
        Fault {
            line: self.line,
            node: Some(node),
            moves,
            reason,
        }
    }
}
