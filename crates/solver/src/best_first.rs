//! A best-first driver over the depth-first search: proof-number search at the top of the
//! tree, with budgeted depth-first probes at its leaves (in the spirit of Allis's PN² search).
//!
//! The depth-first search commits to its ordering's first choice and pays for every failed
//! try in full: among several winning moves it takes the first it meets, whatever its proof
//! costs, and a heavy position's cheapest winning move is often far down the order
//! (docs/PERFORMANCE.md, "Effort at the top of the tree"). Here the top of the tree
//! is kept in memory. An expanded position's moves are probed by the depth-first search within
//! a node budget: a probe that finishes settles its move, one that runs out leaves an open
//! leaf. Proof and disproof numbers — how many open leaves must still be won to prove, or
//! lost to disprove, a position — pick the next leaf to work on, the one most likely to settle
//! the root soonest.
//!
//! Three choices fit the game's asymmetry (measured on d24: docs/PERFORMANCE.md, "Effort at
//! the top of the tree"):
//!
//! - White nodes (white needs one winning move) probe all their moves at once, so that a cheap
//!   win anywhere in the order is found. Black nodes (black needs one holding reply, and the
//!   search's order for black is good: its first move holds at most nodes) reveal their
//!   replies one at a time, in the search's order: the next one only when all before it are
//!   known to lose.
//! - The driver finds cheap wins the search misses (the heaviest d24 position: 509 M nodes by
//!   the search, 17 M by the driver) but costs two to four times the search's nodes on
//!   no-wins, where every white move must fail anyway. So the two take turns on the root
//!   ([`BestFirst::driver_turn_shift`]): the search's budget doubles each turn and the driver
//!   gets a fraction of it, which bounds the loss on no-wins by that fraction.
//! - Both kinds of probe get the same budget; a larger one after white's moves kept fewer
//!   nodes in the tree but lost the cheap wins.
//!
//! An open leaf's number starts from three counts: its rank in its parent's order and how far
//! the static rules of [`score4_board::rules`] fell short there (the search's gaps), so that the
//! ordering's first choice is worked on first until the numbers say otherwise; and how many
//! of the leaf's own moves the table does not yet know to fail, read after its probe ran out
//! (`DepthFirst::table_knows`; each of them must still be refuted). A leaf with a move the
//! table knows to reach its mover's goal is settled at once.
//!
//! Soundness: every settled leaf is a value proven by the depth-first search (a probe that
//! runs out stores nothing unproven in the table), and the numbers only combine those values
//! by the game's AND/OR rule; the driver decides only which leaf to work on next. Memory: the
//! tree grows by at most sixteen 16-byte nodes per expansion; it is freed when the root is
//! settled.
//!
//! The driver sees the depth-first search only through the crate's trait `DepthFirst` (its
//! probes, the moves it would try, what its table knows of them), which [`crate::search`]'s
//! `Solver` implements: this module sits below the search, and the search, which holds the
//! settings ([`crate::Solver::with_best_first`]), hands a root over by calling the driver.

use score4_game::{Cell, Game, OrderedMoves, NO_COLUMN};

/// When the best-first driver takes a root over from the depth-first search, and how large
/// its probes are ([`crate::Solver::with_best_first`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestFirst {
    /// Nodes the depth-first search spends on the root first; only a root it has not settled
    /// by then goes to the driver (most positions are settled cheaply by the search alone).
    pub after: u64,
    /// The node budget of a probe of a position with black to move (after a white move).
    pub black_to_move_budget: u64,
    /// The node budget of a probe of a position with white to move (after a black move).
    pub white_to_move_budget: u64,
    /// Whether black nodes reveal their replies one at a time, in the search's order (else
    /// all at once, as white nodes do).
    pub sequential_black: bool,
    /// `None`: after the first search the driver works alone until the root is settled.
    /// `Some(k)`: the driver and the depth-first search take turns on the root, the search's
    /// budget doubling each turn from [`Self::after`] and the driver's turn 1/2^k of the
    /// search's last; each keeps what it proved (the table, the driver's tree).
    pub driver_turn_shift: Option<u32>,
}

impl BestFirst {
    /// The settings measured best on `d24.txt` (docs/PERFORMANCE.md, "Effort at the top of the
    /// tree").
    pub const DEFAULT: BestFirst = BestFirst {
        after: 1_000_000,
        black_to_move_budget: 10_000,
        white_to_move_budget: 10_000,
        sequential_black: true,
        driver_turn_shift: Some(2),
    };
}

/// What the driver asks of the depth-first search it drives: budgeted probes, the moves the
/// search would try, and what its table already knows of them. The search's `Solver`
/// implements it (see the module documentation).
pub(crate) trait DepthFirst {
    /// Positions the search has visited so far (its node count).
    fn nodes(&self) -> u64;

    /// Whether the clock or the monitor has stopped the solve: every answer from then on is
    /// meaningless.
    fn stopped(&self) -> bool;

    /// Whether the first player wins `position`, if a depth-first search within `budget`
    /// nodes finds out: `None` when the budget runs out first or the solve is stopped
    /// ([`Self::stopped`] says which). Either way the table keeps only proven values.
    ///
    /// Contract: nobody has four in a line in `position`.
    fn probe<G: Game>(&mut self, position: &G, budget: u64) -> Option<bool>;

    /// The moves the search would try at `position` for the report's question, in its order
    /// (the block of the opponent's opening alone, no move under the opponent's threat, the
    /// rules' gaps in the ordering); `None` when the decisive situations or the rules settle
    /// the position. `last_column` is the column of the move that led here ([`NO_COLUMN`] at
    /// the root).
    ///
    /// Contract: nobody has four in a line in `position`.
    fn moves_to_search<G: Game>(position: &G, last_column: u8) -> Option<OrderedMoves>;

    /// What the table already knows of the moves the search would try at `position`
    /// ([`Self::moves_to_search`]): whether one of them is known to reach the mover's goal
    /// (then the position is settled), else how many are not yet known to fail the mover.
    /// The driver reads this at a leaf whose probe ran out.
    ///
    /// Contract: nobody has four in a line in `position`.
    fn table_knows<G: Game>(&mut self, position: &G, last_column: u8) -> TableKnows;
}

/// What the table knows of a position's moves ([`DepthFirst::table_knows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TableKnows {
    /// A move is known to reach the mover's goal: whether the first player wins here.
    Settled(bool),
    /// How many of the moves are not yet known to fail the mover.
    OpenMoves(u32),
}

/// A proof or disproof number that cannot be reached: the position is settled the other way.
const INFINITE: u32 = u32::MAX;

/// The most an open leaf's rules gap adds to its initial number.
const GAP_CAP: u32 = 8;

/// One position of the best-first tree (16 bytes).
#[derive(Clone, Copy, Debug)]
struct TreeNode {
    /// Open leaves whose win would prove that the first player wins here (0: proven).
    proof: u32,
    /// Open leaves whose loss would prove that the first player does not win here
    /// (0: disproven).
    disproof: u32,
    /// Index of the first child in the tree (children are contiguous, in the search's order).
    first_child: u32,
    /// How many children (0: not expanded).
    children: u8,
    /// How many of the children have been probed (the first ones).
    revealed: u8,
    /// The cell played to reach this position from its parent.
    cell: u8,
}

impl TreeNode {
    fn open(cell: u8) -> TreeNode {
        TreeNode {
            proof: 1,
            disproof: 1,
            first_child: 0,
            children: 0,
            revealed: 0,
            cell,
        }
    }

    fn settle(&mut self, first_player_wins: bool) {
        (self.proof, self.disproof) = if first_player_wins {
            (0, INFINITE)
        } else {
            (INFINITE, 0)
        };
    }

    fn child_range(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.revealed as usize
    }
}

/// Whether the first player wins `root`, by the best-first driver. If the solve is stopped
/// (deadline or monitor) the answer is meaningless: the caller's attempt reports the stop.
///
/// Contract: nobody has four in a line in `root`, and the table of `solver` holds
/// [`Format::Binary`](crate::table::Format::Binary) entries.
pub(crate) fn first_player_wins<G: Game, S: DepthFirst>(
    solver: &mut S,
    root: &G,
    settings: BestFirst,
) -> bool {
    let mut tree = vec![TreeNode::open(u8::MAX)];
    let Some(shift) = settings.driver_turn_shift else {
        return work(solver, root, settings, &mut tree, u64::MAX).unwrap_or(false);
    };
    let mut budget = settings.after;
    loop {
        let until = solver.nodes().saturating_add(budget >> shift);
        if let Some(answer) = work(solver, root, settings, &mut tree, until) {
            return answer;
        }
        budget = budget.saturating_mul(2);
        if solver.stopped() {
            return false; // meaningless
        }
        if let Some(answer) = solver.probe(root, budget) {
            return answer;
        }
        if solver.stopped() {
            return false; // meaningless
        }
    }
}

/// Works on `tree` until the root is settled (its value) or the node count passes `until`
/// (`None`; the tree is kept for more work).
fn work<G: Game, S: DepthFirst>(
    solver: &mut S,
    root: &G,
    settings: BestFirst,
    tree: &mut Vec<TreeNode>,
    until: u64,
) -> Option<bool> {
    // The path from the root to the node being worked on: each node's index and position.
    let mut path: Vec<(u32, G)> = Vec::new();
    loop {
        let top = tree[0];
        if top.proof == 0 {
            return Some(true);
        }
        if top.disproof == 0 {
            return Some(false);
        }
        if solver.nodes() >= until {
            return None;
        }
        // Down to the most-proving node: at a white node the child that fixes the proof
        // number, at a black node the open child that fixes the disproof number — or the
        // black node itself when its next reply is to be revealed.
        path.clear();
        let mut index = 0u32;
        let mut position = *root;
        path.push((index, position));
        loop {
            let node = tree[index as usize];
            if node.children == 0 {
                break;
            }
            let white = position.white_to_move();
            let chosen = node.child_range().find(|&c| {
                if white {
                    tree[c].proof == node.proof
                } else {
                    tree[c].disproof == node.disproof && tree[c].proof != 0
                }
            });
            let Some(chosen) = chosen else {
                break;
            };
            index = chosen as u32;
            position = position.after(Cell::from_index(tree[chosen].cell));
            path.push((index, position));
        }
        if tree[index as usize].children == 0 {
            expand::<G, S>(tree, index, &position);
        }
        if tree[index as usize].children > 0 {
            reveal(solver, tree, index, &position, settings);
        }
        if solver.stopped() {
            return None; // meaningless
        }
        for &(index, position) in path.iter().rev() {
            update(tree, index, position.white_to_move());
        }
    }
}

/// Gives the leaf `index` (position `position`) its moves as children still to be probed, in
/// the search's order; a position the search's head or rules settle is settled instead (a
/// probe settles those in its first node, so only the root of a tiny budget meets them).
fn expand<G: Game, S: DepthFirst>(tree: &mut Vec<TreeNode>, index: u32, position: &G) {
    let white = position.white_to_move();
    let playable = position.playable();
    if !(position.threats(position.mover()) & playable).is_empty() || playable.is_empty() {
        tree[index as usize].settle(white && !playable.is_empty());
        return;
    }
    let last_column = match tree[index as usize].cell {
        u8::MAX => NO_COLUMN,
        cell => G::column_of(Cell::from_index(cell)) as u8,
    };
    let order =
        S::moves_to_search(position, last_column).unwrap_or_else(|| position.order(playable));
    let first_child = tree.len() as u32;
    tree.extend(order.as_slice().iter().map(|&cell| TreeNode::open(cell)));
    let node = &mut tree[index as usize];
    node.first_child = first_child;
    node.children = order.as_slice().len() as u8;
}

/// Probes the children of `index` not probed yet, in order: at a white node all of them, at
/// a black node until one stays open; either way until one reaches the mover's goal.
fn reveal<G: Game, S: DepthFirst>(
    solver: &mut S,
    tree: &mut [TreeNode],
    index: u32,
    position: &G,
    settings: BestFirst,
) {
    let white = position.white_to_move();
    let node = tree[index as usize];
    let budget = if white {
        settings.black_to_move_budget
    } else {
        settings.white_to_move_budget
    };
    for rank in node.revealed as usize..node.children as usize {
        let c = node.first_child as usize + rank;
        let child = position.after(Cell::from_index(tree[c].cell));
        let probe = solver.probe(&child, budget);
        match probe {
            Some(first_player_wins) => tree[c].settle(first_player_wins),
            None if solver.stopped() => return,
            // The mover's number of an open child: its rank, how far the rule of the child's
            // opponent (the mover here) fell short, and how many of the child's moves are not
            // yet known to fail (each must still be refuted); a child whose move the table
            // already knows to reach its goal is settled.
            None => {
                let column = G::column_of(Cell::from_index(tree[c].cell)) as u8;
                match solver.table_knows(&child, column) {
                    TableKnows::Settled(first_player_wins) => tree[c].settle(first_player_wins),
                    TableKnows::OpenMoves(open) => {
                        let (number, gap) = if white {
                            (&mut tree[c].proof, child.winning_gap())
                        } else {
                            (&mut tree[c].disproof, child.holding_gap())
                        };
                        *number += rank as u32 + gap.min(GAP_CAP) + open.saturating_sub(1);
                    }
                }
            }
        }
        tree[index as usize].revealed = rank as u8 + 1;
        let reached = if white {
            tree[c].proof == 0
        } else {
            tree[c].disproof == 0
        };
        if reached || (probe.is_none() && !white && settings.sequential_black) {
            break;
        }
    }
}

/// Recomputes the numbers of `index` from its children (a leaf keeps its own).
fn update(tree: &mut [TreeNode], index: u32, white: bool) {
    let node = tree[index as usize];
    if node.children == 0 {
        return;
    }
    let revealed = &tree[node.child_range()];
    let hidden = (node.children - node.revealed) as u32;
    let sum = |number: fn(&TreeNode) -> u32| {
        revealed
            .iter()
            .fold(0u32, |total, c| total.saturating_add(number(c)))
    };
    let (proof, disproof) = if white {
        // All children are revealed at once, unless one of them proved the node.
        match revealed.iter().map(|c| c.proof).min() {
            Some(0) => (0, INFINITE),
            proof => (proof.unwrap_or(INFINITE), sum(|c| c.disproof)),
        }
    } else {
        // Every reply must lose, the hidden ones (one leaf each) too; the open reply decides
        // the disproof number, or with none open the next hidden one (a single leaf).
        let proof = sum(|c| c.proof).saturating_add(hidden);
        let open = revealed
            .iter()
            .filter(|c| c.proof != 0)
            .map(|c| c.disproof)
            .min();
        let disproof = match open {
            Some(disproof) => disproof,
            None if hidden > 0 => 1,
            None => INFINITE,
        };
        (proof, disproof)
    };
    let node = &mut tree[index as usize];
    node.proof = proof;
    node.disproof = disproof;
}
