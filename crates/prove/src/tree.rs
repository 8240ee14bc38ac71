//! [`Tree`]: the jobs of a proof, an AND/OR graph over one question, "does the first player's
//! score reach the threshold?" (threshold 1: does the first player win?). A node is a
//! position — one node per store key, so a position that two orders of moves reach, or a
//! position and its mirror image, is one node with two parents; it is open (a job to search),
//! split (its value is its children's), or settled. White's nodes reach the threshold with one
//! child that does, black's only if all do.

use std::collections::{HashMap, HashSet};

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

/// One position of the graph (the first of its images that the proof reached).
pub(crate) struct Node<G> {
    pub(crate) position: G,
    pub(crate) key: u128,
    /// The moves of the first line of the proof that reached it.
    pub(crate) moves: String,
    /// The nodes with a move to it (none for the root), each once.
    parents: Vec<usize>,
    /// One per legal move of `position` (none if a move makes four: the split settles the
    /// node instead): the node it reaches, and the move's column character. Two moves may
    /// reach one node (mirror images).
    children: Vec<(usize, char)>,
    pub(crate) state: State,
    /// The worker searching it now, and since when.
    pub(crate) worker: Option<(usize, std::time::Instant)>,
    /// An idle worker asked for the node to be split before its checkpoint.
    pub(crate) split_requested: bool,
    /// Its position was split before, by an earlier run (its row in the store decides
    /// nothing): split again at once, without searching it.
    split_before: bool,
}

/// Which open job a worker takes next (`Tree::pick`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JobOrder {
    /// The first open job in the order of the moves: depth first, the game's move ordering
    /// at every node. A move of the first player that is hard to refute is searched to its
    /// end before the next one is tried.
    Moves,
    /// Proof-number search over the job tree (Allis): every open job counts as one node to
    /// prove and one to disprove; a node of the first player needs the least proof of its
    /// children and all their disproofs, a node of the second player the reverse; the job
    /// taken is one below the children that need the least to prove (first player) or to
    /// disprove (second player), ties in move order. A move whose subtree keeps splitting
    /// grows dear, and its siblings get their turn. The default: it proved reply B of the report's
    /// position in 5.75 G nodes, where [`JobOrder::Moves`] had not after 16.8 G
    /// (docs/PERFORMANCE.md).
    #[default]
    ProofNumbers,
}

/// Proof and disproof numbers saturate here (a settled node's "infinite" one).
const INFINITE: u64 = u64::MAX / 4;

/// The graph, what the store knew, and the records settled since the last commit.
pub(crate) struct Tree<G> {
    nodes: Vec<Node<G>>,
    /// Each node by its key.
    by_key: HashMap<u128, usize>,
    /// How the next job is chosen.
    order: JobOrder,
    /// The question's threshold on the first player's score.
    threshold: i32,
    /// Bounds by key: the store's at the start, then every node settled or split.
    known: HashMap<u128, Bounds>,
    /// Records for the next commit.
    pub(crate) pending: Vec<Record>,
    /// Moves of split nodes that reached a node already in the graph (another order of moves
    /// to its position, or its mirror image): linked to it instead of added.
    transposed: usize,
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
        order: JobOrder,
    ) -> Tree<G> {
        let mut tree = Tree {
            nodes: Vec::new(),
            by_key: HashMap::new(),
            order,
            threshold,
            known,
            pending: Vec::new(),
            transposed: 0,
        };
        tree.add(root, moves);
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
            .map(|&(child, column)| (column, self.nodes[child].state))
            .collect()
    }

    /// Nodes in the tree, and of them open ones.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let open = self.nodes.iter().filter(|n| n.state == State::Open).count();
        (self.nodes.len(), open)
    }

    /// Moves of split nodes so far that reached a position already in the graph.
    pub(crate) fn transposed(&self) -> usize {
        self.transposed
    }

    /// Adds a node for a position not in the graph, settled at once if the store decides it.
    fn add(&mut self, position: G, moves: String) -> usize {
        let key = store_key(&position);
        debug_assert!(!self.by_key.contains_key(&key));
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
            parents: Vec::new(),
            children: Vec::new(),
            state,
            worker: None,
            split_requested: false,
            // Rows that decide nothing record splits; a row that answers another question
            // (the other threshold of a wdl proof) is no sign that this one needs a split.
            split_before: known.is_some_and(Bounds::is_unknown),
        });
        let id = self.nodes.len() - 1;
        self.by_key.insert(key, id);
        id
    }

    /// Whether the node's value is still wanted: it is not settled, and it is the root or a
    /// parent's value is still wanted (some line from the root to it crosses no settled node).
    pub(crate) fn is_needed(&self, id: usize) -> bool {
        let mut seen = HashSet::new();
        self.is_needed_from(id, &mut seen)
    }

    /// [`Self::is_needed`], skipping the nodes of `seen` (already found not needed).
    fn is_needed_from(&self, id: usize, seen: &mut HashSet<usize>) -> bool {
        let node = &self.nodes[id];
        if matches!(node.state, State::Settled(_)) || !seen.insert(id) {
            return false;
        }
        node.parents.is_empty()
            || node
                .parents
                .iter()
                .any(|&parent| self.is_needed_from(parent, seen))
    }

    /// The next job: the first open node, in the order of the moves, that nobody searches.
    /// Nodes split before are split again on the way, and an open node whose key is known
    /// settled is settled (which may cancel running jobs: the workers returned). A node below
    /// several parents is one job, whichever line reaches it first.
    /// With [`JobOrder::ProofNumbers`], the children of each node are tried by their numbers
    /// instead of in move order.
    pub(crate) fn pick(&mut self, cancel: &mut Vec<usize>) -> Option<usize> {
        let numbers = match self.order {
            JobOrder::Moves => Vec::new(),
            JobOrder::ProofNumbers => self.proof_numbers(),
        };
        self.pick_below(0, &numbers, cancel, &mut HashSet::new())
    }

    /// Each node's (proof, disproof) numbers, by id, for the question "does the first player
    /// reach the threshold?". A child has one stone more than its parent, so one pass over
    /// the nodes from the most stones to the fewest computes every node after its children.
    /// A node below several parents counts in each (as in proof-number search over a graph);
    /// a child two moves reach counts once.
    fn proof_numbers(&self) -> Vec<(u64, u64)> {
        let mut numbers = vec![(1, 1); self.nodes.len()];
        let mut ids: Vec<usize> = (0..self.nodes.len()).collect();
        ids.sort_by_key(|&id| std::cmp::Reverse(self.nodes[id].position.stone_count()));
        for id in ids {
            let node = &self.nodes[id];
            numbers[id] = match node.state {
                State::Settled(true) => (0, INFINITE),
                State::Settled(false) => (INFINITE, 0),
                State::Open => (1, 1),
                State::Split => {
                    let children = distinct(&node.children).map(|child| numbers[child]);
                    let (least_proof, least_disproof) = children
                        .clone()
                        .fold((INFINITE, INFINITE), |(p, d), (cp, cd)| {
                            (p.min(cp), d.min(cd))
                        });
                    let (all_proofs, all_disproofs) = children
                        .fold((0u64, 0u64), |(p, d), (cp, cd)| {
                            ((p + cp).min(INFINITE), (d + cd).min(INFINITE))
                        });
                    if node.position.white_to_move() {
                        (least_proof, all_disproofs)
                    } else {
                        (all_proofs, least_disproof)
                    }
                }
            };
        }
        numbers
    }

    /// [`Self::pick`] below `id`, skipping the nodes of `seen` (already looked below in
    /// this pick, through another parent).
    fn pick_below(
        &mut self,
        id: usize,
        numbers: &[(u64, u64)],
        cancel: &mut Vec<usize>,
        seen: &mut HashSet<usize>,
    ) -> Option<usize> {
        if !seen.insert(id) {
            return None;
        }
        match self.nodes[id].state {
            State::Settled(_) => None,
            State::Split => {
                let mut children: Vec<usize> = distinct(&self.nodes[id].children).collect();
                if !numbers.is_empty() {
                    // The most proving first: a stable sort keeps move order among equals.
                    // Nodes added below since the numbers were computed count as open.
                    let number = |child: usize| numbers.get(child).copied().unwrap_or((1, 1));
                    if self.nodes[id].position.white_to_move() {
                        children.sort_by_key(|&child| number(child).0);
                    } else {
                        children.sort_by_key(|&child| number(child).1);
                    }
                }
                for child in children {
                    if !self.is_needed(id) {
                        return None;
                    }
                    if let Some(job) = self.pick_below(child, numbers, cancel, seen) {
                        return Some(job);
                    }
                }
                None
            }
            State::Open => {
                let node = &self.nodes[id];
                let white = node.position.white_to_move();
                let known = self.known.get(&node.key).copied();
                let decided = known.and_then(|bounds| reaches(bounds, white, self.threshold));
                if let Some(wins) = decided {
                    self.settle(id, wins, cancel);
                    return None;
                }
                if node.worker.is_some() {
                    return None;
                }
                if node.split_before {
                    self.split(id, 0, 0.0, cancel);
                    seen.remove(&id);
                    return self.pick_below(id, numbers, cancel, seen);
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
    /// (below no unsettled line from the root) go into `cancel`.
    fn settle(&mut self, id: usize, wins: bool, cancel: &mut Vec<usize>) {
        if matches!(self.nodes[id].state, State::Settled(_)) {
            return;
        }
        if self.nodes[id].state == State::Split || self.nodes[id].split_before {
            // Settled from its children (or another node's key): its row gets the value.
            self.record(id, Some(wins), 0, 0.0);
        }
        self.nodes[id].state = State::Settled(wins);
        self.cancel_below(id, cancel, &mut HashSet::new());
        for parent in self.nodes[id].parents.clone() {
            self.reconsider(parent, cancel);
        }
    }

    /// Adds to `cancel` the workers searching at or below `id` whose jobs are no longer
    /// needed (a job below another parent that is still open goes on), skipping the nodes of
    /// `seen`.
    fn cancel_below(&self, id: usize, cancel: &mut Vec<usize>, seen: &mut HashSet<usize>) {
        if !seen.insert(id) {
            return;
        }
        if let Some((worker, _)) = self.nodes[id].worker {
            if !self.is_needed(id) {
                cancel.push(worker);
            }
        }
        for &(child, _) in &self.nodes[id].children {
            self.cancel_below(child, cancel, seen);
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
            .map(|&(child, _)| self.nodes[child].state)
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
    /// move that fills the board is a draw (score 0), the others reach the graph's node of
    /// their position, added as an open node (or a settled one, if the store knows it) when
    /// the graph has none.
    pub(crate) fn split(&mut self, id: usize, nodes: u64, seconds: f64, cancel: &mut Vec<usize>) {
        if nodes > 0 || !self.nodes[id].split_before {
            self.record(id, None, nodes, seconds);
        }
        let position = self.nodes[id].position;
        let white = position.white_to_move();
        let playable = position.playable();
        self.nodes[id].state = State::Split;
        // A move that makes four settles the node (before the ordering, whose contract is
        // that the mover has no opening: a node split without a search may have one).
        if playable.iter().any(|cell| position.wins_with(cell)) {
            let mover_scores = position.score_of_winning_now();
            let first_player_scores = if white { mover_scores } else { -mover_scores };
            self.settle(id, first_player_scores >= self.threshold, cancel);
            return;
        }
        // Every legal move becomes a child, whatever the ordering returns: the ordering's
        // first, then any it left out (a proof must not rest on an ordering's completeness).
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
        for cell in cells {
            let child = position.after(cell);
            let column = G::column_char(G::column_of(cell));
            let child_id = match self.by_key.get(&store_key(&child)) {
                Some(&existing) => {
                    self.transposed += 1;
                    existing
                }
                None => {
                    let moves = format!("{}{}", self.nodes[id].moves, column);
                    let full = child.is_full();
                    let child_id = self.add(child, moves);
                    if full {
                        self.nodes[child_id].state = State::Settled(0 >= self.threshold);
                        // a draw
                    }
                    child_id
                }
            };
            self.nodes[id].children.push((child_id, column));
            if !self.nodes[child_id].parents.contains(&id) {
                self.nodes[child_id].parents.push(id);
            }
        }
        self.reconsider(id, cancel);
    }
}

/// The nodes of `children`, each once (two moves may reach one node), in move order.
fn distinct(children: &[(usize, char)]) -> impl Iterator<Item = usize> + Clone + '_ {
    children
        .iter()
        .enumerate()
        .filter(|&(i, &(child, _))| children[..i].iter().all(|&(other, _)| other != child))
        .map(|(_, &(child, _))| child)
}

#[cfg(test)]
mod tests {
    use super::*;
    use score4_board::GameRecord;

    /// A graph over an opening position (X to move) with nothing known, in `order`. The
    /// position has no symmetry, so its 16 moves reach 16 nodes.
    fn tree(order: JobOrder) -> Tree<score4_board::Position> {
        let game: GameRecord = "01".parse().unwrap();
        Tree::new(*game.position(), "01".to_owned(), HashMap::new(), 1, order)
    }

    /// Splits `id` as a job would that ran out of its time.
    fn split(tree: &mut Tree<score4_board::Position>, id: usize) {
        tree.split(id, 100, 1.0, &mut Vec::new());
    }

    #[test]
    fn proof_numbers_give_a_dear_move_s_siblings_their_turn() {
        for order in [JobOrder::Moves, JobOrder::ProofNumbers] {
            let mut tree = tree(order);
            split(&mut tree, 0);
            assert_eq!(distinct(&tree.node(0).children).count(), 16);
            let first = tree.pick(&mut Vec::new()).unwrap();
            assert_eq!(tree.node(first).moves.len(), 3, "a move of X");
            // X's first move is split: each of O's replies (mirror images one node) needs
            // proving.
            split(&mut tree, first);
            let replies = distinct(&tree.node(first).children).count() as u64;
            assert!(replies > 1);
            let next = tree.pick(&mut Vec::new()).unwrap();
            let numbers = tree.proof_numbers();
            assert_eq!(numbers[first], (replies, 1), "{order:?}");
            assert_eq!(numbers[0], (1, 16), "{order:?}");
            match order {
                // Depth first: one of O's replies below the first move.
                JobOrder::Moves => assert_eq!(tree.node(next).moves.len(), 4),
                // The first move needs several proofs now, a sibling one: the job is a sibling.
                JobOrder::ProofNumbers => {
                    let moves = &tree.node(next).moves;
                    assert_eq!(moves.len(), 3, "{moves}");
                    assert_ne!(next, first);
                }
            }
        }
    }

    #[test]
    fn settled_children_decide_the_numbers() {
        let mut tree = tree(JobOrder::ProofNumbers);
        split(&mut tree, 0);
        let first = tree.pick(&mut Vec::new()).unwrap();
        tree.settle_searched(first, false, 10, 0.1, &mut Vec::new());
        let numbers = tree.proof_numbers();
        assert_eq!(numbers[first], (INFINITE, 0));
        // The root (X to move) still has 15 moves open: proof 1, disproof 15.
        assert_eq!(numbers[0], (1, 15));
        let second = tree.pick(&mut Vec::new()).unwrap();
        tree.settle_searched(second, true, 10, 0.1, &mut Vec::new());
        assert_eq!(tree.value(), Some(true));
        assert_eq!(tree.proof_numbers()[0], (0, INFINITE));
    }

    /// The node whose moves from the empty board are `moves`.
    fn node_at(tree: &Tree<score4_board::Position>, moves: &str) -> usize {
        (0..tree.nodes.len())
            .find(|&id| tree.node(id).moves == moves)
            .unwrap_or_else(|| panic!("no node {moves}"))
    }

    #[test]
    fn a_position_reached_by_two_orders_is_one_node_with_two_parents() {
        let mut tree = tree(JobOrder::ProofNumbers);
        split(&mut tree, 0);
        for line in ["014", "0145", "016"] {
            let id = node_at(&tree, line);
            split(&mut tree, id);
        }
        let nodes_before = tree.nodes.len();
        let linked_before = tree.transposed();
        let x6_o5 = node_at(&tree, "0165");
        split(&mut tree, x6_o5);
        // X 4, O 5, X 6 and X 6, O 5, X 4: one position, one node, reached from both.
        let shared = node_at(&tree, "01456");
        assert!(tree.node(x6_o5).children.contains(&(shared, '4')));
        assert_eq!(tree.nodes[shared].parents.len(), 2);
        assert!(tree.nodes.iter().all(|node| node.moves != "01654"));
        assert!(tree.transposed() > linked_before);
        // The split added only the positions new to the graph.
        assert_eq!(
            tree.nodes.len() - nodes_before,
            distinct(&tree.node(x6_o5).children).count() - (tree.transposed() - linked_before)
        );
        // Searched below one parent, it is no job below the other.
        let mut cancel = Vec::new();
        tree.node_mut(shared).worker = Some((0, std::time::Instant::now()));
        assert_eq!(
            tree.pick_below(x6_o5, &[], &mut cancel, &mut HashSet::new()),
            tree.pick_below(x6_o5, &[], &mut cancel, &mut HashSet::new())
        );
        assert_ne!(
            tree.pick_below(x6_o5, &[], &mut cancel, &mut HashSet::new()),
            Some(shared)
        );
        // Settling one parent does not cancel its job while the other parent needs it.
        let x4_o5 = node_at(&tree, "0145");
        tree.settle_searched(x4_o5, true, 10, 0.1, &mut cancel);
        assert!(cancel.is_empty());
        assert!(tree.is_needed(shared));
        // Settling the other too does.
        tree.settle_searched(x6_o5, true, 10, 0.1, &mut cancel);
        assert_eq!(cancel, vec![0]);
        assert!(!tree.is_needed(shared));
    }

    #[test]
    fn a_shared_node_settles_both_parents() {
        let mut tree = tree(JobOrder::ProofNumbers);
        split(&mut tree, 0);
        for line in ["014", "0145", "016", "0165"] {
            let id = node_at(&tree, line);
            split(&mut tree, id);
        }
        let shared = node_at(&tree, "01456");
        let (x4_o5, x6_o5) = (node_at(&tree, "0145"), node_at(&tree, "0165"));
        // X wins at the shared node (O to move): both parents, where X moves to it, are won.
        tree.settle_searched(shared, true, 10, 0.1, &mut Vec::new());
        assert_eq!(tree.node(x4_o5).state, State::Settled(true));
        assert_eq!(tree.node(x6_o5).state, State::Settled(true));
    }

    /// The value the graph gives `game` when every job is split instead of searched, until
    /// the root settles: moves that make four and full boards alone decide it, through the
    /// graph's AND/OR bookkeeping. Also the number of moves linked to a node already there.
    fn value_by_splitting(game: &GameRecord, order: JobOrder) -> (bool, usize) {
        let moves = game.to_string();
        let mut tree = Tree::new(*game.position(), moves, HashMap::new(), 1, order);
        let mut cancel = Vec::new();
        while let Some(job) = tree.pick(&mut cancel) {
            split(&mut tree, job);
        }
        assert!(cancel.is_empty(), "no job had a worker");
        (tree.value().expect("settled"), tree.transposed())
    }

    #[test]
    fn graphs_split_to_the_end_of_the_game_agree_with_the_solver() {
        let table = score4_solver::TranspositionTable::of_size(
            128 << 20,
            score4_solver::Replacement::TwoBig,
        )
        .unwrap();
        let mut linked = 0;
        for game in score4_bench::PositionGenerator::new(48, 43).take(60) {
            table.clear();
            let wins = score4_solver::Solver::new(&table).first_player_wins(game.position());
            for order in [JobOrder::Moves, JobOrder::ProofNumbers] {
                let (value, transposed) = value_by_splitting(&game, order);
                assert_eq!(value, wins, "{game} {order:?}");
                linked += transposed;
            }
        }
        // Positions of 16 empty cells transpose at every depth.
        assert!(linked > 1000, "{linked} moves linked");
    }
}
