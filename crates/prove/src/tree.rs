//! [`Tree`]: the jobs of a proof, an AND/OR tree over one question, "does the first player's
//! score reach the threshold?" (threshold 1: does the first player win?). A node is a
//! position; it is open (a job to search), split (its value is its children's), or settled.
//! White's nodes reach the threshold with one child that does, black's only if all do.

use std::collections::HashMap;

use score4_game::{Cell, Game};
use score4_store::{Bounds, Record};

use crate::value::{bounds_at, reaches};

/// Where a node stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// To be searched (or being searched by `Node::worker`).
    Open,
    /// Its children carry its value.
    Split,
    /// Proven: whether the first player's score reaches the threshold.
    Settled(bool),
}

/// One position of the tree.
pub(crate) struct Node<G> {
    pub(crate) position: G,
    pub(crate) key: u128,
    pub(crate) moves: String,
    parent: Option<usize>,
    children: Vec<usize>,
    pub(crate) state: State,
    /// The worker searching it now, and since when.
    pub(crate) worker: Option<(usize, std::time::Instant)>,
    /// An idle worker asked for the node to be split before its checkpoint.
    pub(crate) split_requested: bool,
    /// Split by an earlier run (its row in the store decides nothing): split again at once,
    /// without searching it.
    split_before: bool,
}

/// The tree, what the store knew, and the records settled since the last commit.
pub(crate) struct Tree<G> {
    nodes: Vec<Node<G>>,
    /// The question's threshold on the first player's score.
    threshold: i32,
    /// Bounds by key: the store's at the start, then every node settled or split.
    known: HashMap<u128, Bounds>,
    /// Records for the next commit.
    pub(crate) pending: Vec<Record>,
}

/// The key the store files `position` under: its table key (a key names the position or a
/// symmetric image of it, which has the same value). Everything that reads a store looks
/// positions up by it.
pub fn store_key<G: Game>(position: &G) -> u128 {
    score4_solver::Book::key_of(position)
}

impl<G: Game> Tree<G> {
    /// A tree of the root alone for the question at `threshold`, over what the store holds.
    pub(crate) fn new(
        root: G,
        moves: String,
        known: HashMap<u128, Bounds>,
        threshold: i32,
    ) -> Tree<G> {
        let mut tree = Tree {
            nodes: Vec::new(),
            threshold,
            known,
            pending: Vec::new(),
        };
        tree.add(root, moves, None);
        tree
    }

    /// The root's value, once settled.
    pub(crate) fn value(&self) -> Option<bool> {
        match self.nodes[0].state {
            State::Settled(wins) => Some(wins),
            _ => None,
        }
    }

    pub(crate) fn node(&self, id: usize) -> &Node<G> {
        &self.nodes[id]
    }

    pub(crate) fn node_mut(&mut self, id: usize) -> &mut Node<G> {
        &mut self.nodes[id]
    }

    /// The root's moves (column character) with each one's state, once the root is split.
    pub(crate) fn root_moves(&self) -> Vec<(char, State)> {
        self.nodes[0]
            .children
            .iter()
            .map(|&child| {
                let moves = &self.nodes[child].moves;
                (moves.chars().last().unwrap_or('?'), self.nodes[child].state)
            })
            .collect()
    }

    /// Nodes in the tree, and of them open ones.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let open = self.nodes.iter().filter(|n| n.state == State::Open).count();
        (self.nodes.len(), open)
    }

    /// Adds a node, settled at once if the store decides it.
    fn add(&mut self, position: G, moves: String, parent: Option<usize>) -> usize {
        let key = store_key(&position);
        let known = self.known.get(&key).copied();
        let white = position.white_to_move();
        let state = match known.and_then(|bounds| reaches(bounds, white, self.threshold)) {
            Some(wins) => State::Settled(wins),
            None => State::Open,
        };
        self.nodes.push(Node {
            position,
            key,
            moves,
            parent,
            children: Vec::new(),
            state,
            worker: None,
            split_requested: false,
            // Rows that decide nothing record splits; a row that answers another question
            // (the other threshold of a wdl proof) is no sign that this one needs a split.
            split_before: known.is_some_and(Bounds::is_unknown),
        });
        self.nodes.len() - 1
    }

    /// Whether the node's value is still wanted: neither it nor an ancestor is settled.
    pub(crate) fn is_needed(&self, mut id: usize) -> bool {
        loop {
            if matches!(self.nodes[id].state, State::Settled(_)) {
                return false;
            }
            match self.nodes[id].parent {
                Some(parent) => id = parent,
                None => return true,
            }
        }
    }

    /// The next job: the first open node, in the order of the moves, that nobody searches.
    /// Nodes split before are split again on the way, and nodes whose key another node has
    /// settled since are settled (which may cancel running jobs: the workers returned).
    pub(crate) fn pick(&mut self, cancel: &mut Vec<usize>) -> Option<usize> {
        self.pick_below(0, cancel)
    }

    fn pick_below(&mut self, id: usize, cancel: &mut Vec<usize>) -> Option<usize> {
        match self.nodes[id].state {
            State::Settled(_) => None,
            State::Split => {
                let children = self.nodes[id].children.clone();
                for child in children {
                    if !self.is_needed(id) {
                        return None;
                    }
                    if let Some(job) = self.pick_below(child, cancel) {
                        return Some(job);
                    }
                }
                None
            }
            State::Open => {
                let node = &self.nodes[id];
                let white = node.position.white_to_move();
                let decided = self
                    .known
                    .get(&node.key)
                    .and_then(|&bounds| reaches(bounds, white, self.threshold));
                if let Some(wins) = decided {
                    self.settle(id, wins, cancel);
                    return None;
                }
                if node.worker.is_some() {
                    return None;
                }
                if node.split_before {
                    self.split(id, 0, 0.0, cancel);
                    return self.pick_below(id, cancel);
                }
                Some(id)
            }
        }
    }

    /// For an idle worker: the job searched longest, if longer than `after` and not yet asked
    /// to split; it is marked as asked, and its worker returned.
    pub(crate) fn request_split(&mut self, after: std::time::Duration) -> Option<usize> {
        let oldest = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.state == State::Open && !node.split_requested)
            .filter_map(|(id, node)| node.worker.map(|(worker, since)| (since, id, worker)))
            .filter(|(since, _, _)| since.elapsed() >= after)
            .min()?;
        let (_, id, worker) = oldest;
        self.nodes[id].split_requested = true;
        Some(worker)
    }

    /// The node's search proved `wins`, with `nodes` in `seconds`.
    pub(crate) fn settle_searched(
        &mut self,
        id: usize,
        wins: bool,
        nodes: u64,
        seconds: f64,
        cancel: &mut Vec<usize>,
    ) {
        self.record(id, Some(wins), nodes, seconds);
        self.settle(id, wins, cancel);
    }

    /// Queues the node's record: its value if known, else work spent before a split.
    fn record(&mut self, id: usize, wins: Option<bool>, nodes: u64, seconds: f64) {
        let node = &self.nodes[id];
        let bounds = match wins {
            Some(wins) => bounds_at(wins, node.position.white_to_move(), self.threshold),
            None => Bounds::UNKNOWN,
        };
        let merged = match self.known.get(&node.key) {
            Some(known) => known.meet(bounds).unwrap_or(bounds),
            None => bounds,
        };
        self.known.insert(node.key, merged);
        self.pending.push(Record {
            key: node.key,
            stones: node.position.stone_count() as u32,
            moves: node.moves.clone(),
            bounds,
            nodes,
            seconds,
        });
    }

    /// Settles the node and what that settles above it; the workers of jobs no longer needed
    /// go into `cancel`.
    fn settle(&mut self, id: usize, wins: bool, cancel: &mut Vec<usize>) {
        if matches!(self.nodes[id].state, State::Settled(_)) {
            return;
        }
        if self.nodes[id].state == State::Split || self.nodes[id].split_before {
            // Settled from its children (or another node's key): its row gets the value.
            self.record(id, Some(wins), 0, 0.0);
        }
        self.nodes[id].state = State::Settled(wins);
        self.cancel_below(id, cancel);
        if let Some(parent) = self.nodes[id].parent {
            self.reconsider(parent, cancel);
        }
    }

    /// Adds the workers searching below `id` to `cancel`.
    fn cancel_below(&self, id: usize, cancel: &mut Vec<usize>) {
        if let Some((worker, _)) = self.nodes[id].worker {
            cancel.push(worker);
        }
        for &child in &self.nodes[id].children {
            self.cancel_below(child, cancel);
        }
    }

    /// Settles a split node if its children now decide it.
    fn reconsider(&mut self, id: usize, cancel: &mut Vec<usize>) {
        if self.nodes[id].state != State::Split {
            return;
        }
        let white = self.nodes[id].position.white_to_move();
        let values: Vec<State> = self.nodes[id]
            .children
            .iter()
            .map(|&child| self.nodes[child].state)
            .collect();
        // White wins with one winning move; black holds with one move where white does not win.
        let decisive = State::Settled(white);
        if values.contains(&decisive) {
            self.settle(id, white, cancel);
        } else if values.iter().all(|&state| state == State::Settled(!white)) {
            self.settle(id, !white, cancel);
        }
    }

    /// Splits an open node into its children after a search of `nodes` in `seconds` that did
    /// not settle it: a move that makes four settles it at once (by the score of that win), a
    /// move that fills the board is a draw (score 0), the others become open nodes (or settled
    /// ones, if the store knows them).
    pub(crate) fn split(&mut self, id: usize, nodes: u64, seconds: f64, cancel: &mut Vec<usize>) {
        if nodes > 0 || !self.nodes[id].split_before {
            self.record(id, None, nodes, seconds);
        }
        let position = self.nodes[id].position;
        let white = position.white_to_move();
        // Every legal move becomes a child, whatever the ordering returns: the ordering's
        // first, then any it left out (a proof must not rest on an ordering's completeness).
        let playable = position.playable();
        let mut cells: Vec<Cell> = position
            .order(playable)
            .as_slice()
            .iter()
            .map(|&cell| Cell::from_index(cell))
            .filter(|&cell| playable.has(cell))
            .collect();
        for cell in playable.iter() {
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        self.nodes[id].state = State::Split;
        if cells.iter().any(|&cell| position.wins_with(cell)) {
            let mover_scores = position.score_of_winning_now();
            let first_player_scores = if white { mover_scores } else { -mover_scores };
            self.settle(id, first_player_scores >= self.threshold, cancel);
            return;
        }
        for cell in cells {
            let child = position.after(cell);
            let column = G::column_of(cell);
            let moves = format!("{}{}", self.nodes[id].moves, G::column_char(column));
            let full = child.is_full();
            let child_id = self.add(child, moves, Some(id));
            self.nodes[id].children.push(child_id);
            if full {
                self.nodes[child_id].state = State::Settled(0 >= self.threshold);
                // a draw
            }
        }
        self.reconsider(id, cancel);
    }
}
