//! The job-level tree: a DAG of canonical positions from the root down to the cutoff depth.
//!
//! Every node is a position up to the symmetries that can matter below the root (two move orders,
//! or two images under those symmetries, that reach the same position share one node;
//! [`score4_solver::Game::transposing_symmetries`]). A node is *open* until its value is proven; an
//! open node above the cutoff is *expanded* (its children are the moves [`examine_at_least`]
//! leaves, best first), an open node at the cutoff is a *task* for a sequential solver. A task can
//! be *split*: its node is expanded although it lies at the cutoff, and its children become tasks —
//! the cutoff deepens there, where a task holds everyone up, and nowhere else.
//!
//! **Virtual values.** Every open task is assumed to have the value [`Assumption`] names (the
//! report's virtual win, or virtual loss). Under that assumption every open node has that
//! value too, and the nodes whose tasks must be solved to confirm it — the *needed* ones — are
//! found from the root: at a node whose mover wants the assumed value (a *chooser*), only the
//! first child not yet refuted is needed; at any other node, every open child is. A task whose
//! result contradicts the assumption is repaired upward by ordinary minimax: the chooser above
//! moves on to its next child, whose subtree then becomes needed and yields new tasks.
//!
//! **Eldest brother first.** Beyond the report: at a node needing all its children, the first
//! child (the best move by the ordering) is needed first and its younger brothers only once it
//! has turned out as assumed — if it does not, the node is refuted by it and its brothers'
//! work would be wasted (the sequential search would never have looked at them). Until then
//! the brothers' tasks are *speculative*: handed out only when no needed task is waiting, so a
//! worker that would otherwise idle works ahead in the sequential search's order.
//!
//! **Doubt.** Beyond the report: a chooser with [`DOUBT_AFTER`] of its children refuted
//! is *doubted* — the ordering's best moves failed, so the assumption is likely wrong there —
//! and from then on needs every open child at once, like a node that needs all its children.
//! Without it, a position that goes against the assumption is searched one chooser's move at a
//! time, the idle worker speculating on brothers that each refutation throws away; with it, the
//! idle worker refutes the chooser's next moves instead.
//!
//! **Order.** Node ids are given in creation order, and creation follows the minimax search's
//! own order (children best first, depth first), so the queue hands out the needed task with the
//! smallest id first: when a task refutes a chooser's child, the next sibling — created right
//! after it — comes next.
//!
//! Proofs only ever come from [`examine_at_least`], the transposition table, a finished sequential
//! search, or minimax over proven children, so a proven value is always the true value; the
//! assumption only steers which tasks are run, never what is concluded.

use std::collections::{BinaryHeap, HashMap};

use score4_game::Cell;
use score4_solver::{examine_at_least, Examined, Format, Game, TableStats, TranspositionTable};

/// How many refuted children make a chooser doubted (module doc, *Doubt*). On the first 100
/// positions of d26, two workers: 1 cut the nodes by 3 %, 2 by 5-6 % (docs/PARALLEL.md).
pub const DOUBT_AFTER: usize = 2;

/// Index of a node; ids grow in creation order.
pub type NodeId = u32;

/// The value open tasks are assumed to have until they are solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Assumption {
    /// The report's virtual win: every open task is assumed won by the first player. Best when
    /// the first player does win: the tree is then one proof tree.
    #[default]
    FirstPlayerWins,
    /// Virtual loss: every open task is assumed held by the second player.
    SecondPlayerHolds,
}

impl Assumption {
    /// The assumed value as "the first player wins".
    pub fn value(self) -> bool {
        self == Assumption::FirstPlayerWins
    }
}

/// Where a node stands with the task queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskState {
    /// Not in the queue and not being solved.
    Idle,
    /// In the queue.
    Queued,
    /// Being solved by the worker with this index.
    Running(usize),
}

/// One canonical position of the tree, a position of the game `G`.
#[derive(Clone, Debug)]
pub struct Node<G> {
    /// The position (one representative of its symmetry class).
    pub position: G,
    /// Stones beyond the root's.
    pub depth: u32,
    /// `Some(true)` once the first player is proven to win, `Some(false)` once proven not to.
    pub value: Option<bool>,
    /// Whether the children have been made.
    pub expanded: bool,
    /// Children in move order (best first), without repeats.
    pub children: Vec<NodeId>,
    /// Every node that has this one as a child.
    pub parents: Vec<NodeId>,
    /// Where the node stands with the task queue.
    pub task: TaskState,
    /// Whether the node is to be expanded although it lies at or below the cutoff.
    pub split: bool,
    /// The walk that last found the node needed or speculative (see [`Dag::walk`]).
    needed_in: u64,
    /// Whether that walk found it only speculative (under an eldest brother still open).
    speculative: bool,
    /// Whether the node's entry in the queue is a speculative one.
    queued_speculative: bool,
}

/// Bytes a node costs beyond its links: the node itself, plus its entry in the key index.
const fn node_bytes<G>() -> u64 {
    (std::mem::size_of::<Node<G>>() + 40) as u64
}
/// Bytes of one parent–child link (an id in each list).
const LINK_BYTES: u64 = 2 * std::mem::size_of::<NodeId>() as u64;

/// An entry of the queue: needed tasks before speculative ones, then by id.
type QueueEntry = std::cmp::Reverse<(bool, NodeId)>;

/// The tree of positions of the game `G`, its task queue and its counters. Not thread-safe by
/// itself: the parallel solver keeps it behind one lock (every operation is short next to a
/// task).
pub struct Dag<'t, G: Game> {
    nodes: Vec<Node<G>>,
    index: HashMap<u128, NodeId>,
    /// Tasks, needed before speculative, smallest id first; entries that stopped being needed
    /// (or changed kind) are dropped when met.
    queue: BinaryHeap<QueueEntry>,
    table: &'t TranspositionTable,
    table_stats: TableStats,
    /// The question: is the first player's score at least this? (1: does the first player
    /// win?) Every value in the tree answers it.
    threshold: i32,
    assumption: Assumption,
    /// Depth (stones beyond the root) at which open nodes become tasks.
    cutoff: u32,
    /// The deepest node made so far (stones beyond the root).
    deepest: u32,
    /// Approximate bytes in use, and the most the tree may use.
    bytes: u64,
    budget: u64,
    /// Number of the current walk.
    walk: u64,
    /// The root's [`Game::transposing_symmetries`]: the tree's nodes and table probes are
    /// keyed with them, as the sequential search below the root keys its table.
    symmetries: G::Symmetries,
}

impl<'t, G: Game> Dag<'t, G> {
    /// A tree holding only `root`, which becomes a task at once if `cutoff` is 0.
    ///
    /// Contract: nobody has four in a line in `root`; the table takes `G`'s keys.
    pub fn new(
        root: &G,
        table: &'t TranspositionTable,
        threshold: i32,
        assumption: Assumption,
        cutoff: u32,
        budget: u64,
    ) -> Dag<'t, G> {
        assert!(
            G::KEY_WIDTH <= table.key_width(),
            "a table for {}-bit keys cannot hold this game's {}-bit keys",
            table.key_width(),
            G::KEY_WIDTH
        );
        let mut dag = Dag {
            nodes: Vec::new(),
            index: HashMap::new(),
            queue: BinaryHeap::new(),
            table,
            table_stats: TableStats::default(),
            threshold,
            assumption,
            cutoff,
            deepest: 0,
            bytes: 0,
            budget,
            walk: 0,
            symmetries: root.transposing_symmetries(),
        };
        dag.node_for(*root, 0);
        dag
    }

    /// The root's value, once proven.
    pub fn root_value(&self) -> Option<bool> {
        self.nodes[0].value
    }

    /// The node with id `id`.
    pub fn node(&self, id: NodeId) -> &Node<G> {
        &self.nodes[id as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is empty (never: the root is always there).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Approximate bytes the tree uses.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The cutoff depth (where tasks were not split).
    pub fn cutoff(&self) -> u32 {
        self.cutoff
    }

    /// The depth of the deepest node (stones beyond the root): the cutoff where tasks were
    /// split.
    pub fn deepest(&self) -> u32 {
        self.deepest
    }

    /// Table use by the tree itself (looking up new nodes).
    pub fn table_stats(&self) -> TableStats {
        self.table_stats
    }

    /// Needed and speculative tasks waiting in the queue (a count over the queue: for
    /// progress reports).
    pub fn queued(&self) -> (usize, usize) {
        let mut counts = (0, 0);
        for &std::cmp::Reverse((speculative, id)) in &self.queue {
            let current = self.is_current_entry(speculative, id);
            match self.task_kind(id) {
                Some(false) if current => counts.0 += 1,
                Some(true) if current => counts.1 += 1,
                _ => {}
            }
        }
        counts
    }

    /// Every legal move at the root, in column order ([`Game::column_of`]), with its child's
    /// node — or `None` for a move [`examine_at_least`] leaves out (it loses at once). Empty
    /// while the root is not expanded (no move has been looked at).
    pub fn root_moves(&self) -> Vec<(Cell, Option<NodeId>)> {
        let root = &self.nodes[0];
        if !root.expanded {
            return Vec::new();
        }
        let mut moves: Vec<(Cell, Option<NodeId>)> = root
            .position
            .playable()
            .iter()
            .map(|cell| {
                let key = root.position.after(cell).key(self.symmetries);
                let child = self
                    .index
                    .get(&key)
                    .copied()
                    .filter(|id| root.children.contains(id));
                (cell, child)
            })
            .collect();
        moves.sort_by_key(|&(cell, _)| G::column_of(cell));
        moves
    }

    /// The node of `position` (a child at `depth`), made if new: settled at once when
    /// [`examine_at_least`] or the table knows its value.
    fn node_for(&mut self, position: G, depth: u32) -> NodeId {
        let key = position.key(self.symmetries);
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        let value = match examine_at_least(&position, self.threshold) {
            Examined::Settled(value) => Some(value),
            Examined::Moves(_) => {
                let slot = self.table.slot(key);
                match self.table.format() {
                    Format::Binary => self.table.probe(slot, &mut self.table_stats),
                    Format::Bounds => {
                        self.table
                            .probe_at_least(slot, self.threshold, &mut self.table_stats)
                    }
                }
            }
        };
        let id = NodeId::try_from(self.nodes.len()).expect("fewer than 2^32 nodes");
        self.deepest = self.deepest.max(depth);
        self.nodes.push(Node {
            position,
            depth,
            value,
            expanded: false,
            children: Vec::new(),
            parents: Vec::new(),
            task: TaskState::Idle,
            split: false,
            needed_in: 0,
            speculative: false,
            queued_speculative: false,
        });
        self.index.insert(key, id);
        self.bytes += node_bytes::<G>();
        id
    }

    /// Whether the mover at `id` wants the assumed value (then one child is enough).
    fn is_chooser(&self, id: NodeId) -> bool {
        let white = self.nodes[id as usize].position.white_to_move();
        white == self.assumption.value()
    }

    /// Whether chooser `id` has had [`DOUBT_AFTER`] children refuted: it then needs every open
    /// child (see the module's *Doubt*).
    fn is_doubted(&self, id: NodeId) -> bool {
        let refuted = Some(!self.assumption.value());
        let children = &self.nodes[id as usize].children;
        children
            .iter()
            .filter(|&&c| self.nodes[c as usize].value == refuted)
            .count()
            >= DOUBT_AFTER
    }

    /// Makes the children of open node `id`. Returns its value if that settles it.
    fn expand(&mut self, id: NodeId) -> Option<bool> {
        let node = &self.nodes[id as usize];
        let (position, depth) = (node.position, node.depth);
        let moves = match examine_at_least(&position, self.threshold) {
            Examined::Settled(value) => return Some(value),
            Examined::Moves(moves) => moves,
        };
        let order = position.order(moves);
        let mut children = Vec::with_capacity(order.as_slice().len());
        for &cell in order.as_slice() {
            let child = self.node_for(position.after(Cell::from_index(cell)), depth + 1);
            if !children.contains(&child) {
                children.push(child);
                self.nodes[child as usize].parents.push(id);
            }
        }
        self.bytes += LINK_BYTES * children.len() as u64;
        let node = &mut self.nodes[id as usize];
        node.children = children;
        node.expanded = true;
        self.settled_value(id)
    }

    /// The value of expanded node `id` if its children's proven values decide it (minimax).
    fn settled_value(&self, id: NodeId) -> Option<bool> {
        let node = &self.nodes[id as usize];
        let mover_wins = node.position.white_to_move();
        let mut all_lose = true;
        for &child in &node.children {
            match self.nodes[child as usize].value {
                Some(v) if v == mover_wins => return Some(mover_wins),
                Some(_) => {}
                None => all_lose = false,
            }
        }
        all_lose.then_some(!mover_wins)
    }

    /// Records that node `id` has value `value` and repairs everything above it.
    pub fn prove(&mut self, id: NodeId, value: bool) {
        let mut work = vec![(id, value)];
        while let Some((id, value)) = work.pop() {
            let node = &mut self.nodes[id as usize];
            if node.value.is_some() {
                debug_assert_eq!(node.value, Some(value), "two proofs disagree");
                continue;
            }
            node.value = Some(value);
            // Children of a proven node are no longer needed through it; the links stay (other
            // parents may still need them), the memory of the subtree is not reclaimed.
            for p in 0..self.nodes[id as usize].parents.len() {
                let parent = self.nodes[id as usize].parents[p];
                let parent_node = &self.nodes[parent as usize];
                if parent_node.value.is_none() && parent_node.expanded {
                    if let Some(v) = self.settled_value(parent) {
                        work.push((parent, v));
                    }
                }
            }
        }
    }

    /// Marks task `id` to be split by the next walk (its children become tasks), if the budget
    /// leaves room. Returns whether it did.
    pub fn split(&mut self, id: NodeId) -> bool {
        let node = &mut self.nodes[id as usize];
        if node.split || node.expanded || node.value.is_some() || self.bytes >= self.budget {
            return false;
        }
        node.split = true;
        true
    }

    /// Finds the needed and speculative nodes from the root: expands them while above the
    /// cutoff, queues their tasks (again, if a speculative task became needed). Walks again
    /// while expanding proves something (a proof can change which nodes are needed).
    /// Afterwards [`Self::task_kind`] is current.
    pub fn walk(&mut self) {
        loop {
            self.walk += 1;
            let mut proved = false;
            // Needed nodes are visited before speculative ones, so that a node reached both
            // ways counts as needed.
            let mut stack: Vec<(NodeId, bool)> = vec![(0, false)];
            let mut later: Vec<(NodeId, bool)> = Vec::new();
            while let Some((id, speculative)) = stack.pop().or_else(|| {
                std::mem::swap(&mut stack, &mut later);
                stack.reverse();
                stack.pop()
            }) {
                let walk = self.walk;
                let node = &mut self.nodes[id as usize];
                if node.value.is_some() || node.needed_in == walk {
                    continue;
                }
                node.needed_in = walk;
                node.speculative = speculative;
                if !node.expanded {
                    let room = self.bytes + node_bytes::<G>() * 16 + LINK_BYTES * 16 <= self.budget;
                    if (node.depth < self.cutoff || node.split) && room {
                        if let Some(value) = self.expand(id) {
                            self.prove(id, value);
                            proved = true;
                            continue;
                        }
                    } else {
                        let queue_again = node.task == TaskState::Queued
                            && node.queued_speculative
                            && !speculative;
                        if node.task == TaskState::Idle || queue_again {
                            node.task = TaskState::Queued;
                            node.queued_speculative = speculative;
                            self.queue.push(std::cmp::Reverse((speculative, id)));
                        }
                        continue;
                    }
                }
                let node = &self.nodes[id as usize];
                let open = |c: &&NodeId| self.nodes[**c as usize].value.is_none();
                let chooser = self.is_chooser(id);
                if chooser && !self.is_doubted(id) {
                    let refuted = Some(!self.assumption.value());
                    if let Some(&next) = node
                        .children
                        .iter()
                        .find(|&&c| self.nodes[c as usize].value != refuted)
                    {
                        stack.push((next, speculative));
                    }
                } else if !chooser && open(&&node.children[0]) {
                    // The eldest brother first; the others only speculatively.
                    stack.push((node.children[0], speculative));
                    later.extend(node.children[1..].iter().filter(open).map(|&c| (c, true)));
                } else {
                    // Reversed, so that children are visited (and their subtrees made) in order.
                    stack.extend(
                        node.children
                            .iter()
                            .rev()
                            .filter(open)
                            .map(|&c| (c, speculative)),
                    );
                }
            }
            if !proved || self.root_value().is_some() {
                return;
            }
        }
    }

    /// What node `id` is to the queue as of the last walk: `Some(false)` a needed task,
    /// `Some(true)` a speculative one, `None` no task (proven, expanded, or not needed).
    pub fn task_kind(&self, id: NodeId) -> Option<bool> {
        let node = &self.nodes[id as usize];
        let open_task = node.needed_in == self.walk && node.value.is_none() && !node.expanded;
        open_task.then_some(node.speculative)
    }

    /// Whether a queue entry is the node's current one (a task queued again as needed leaves
    /// its speculative entry behind, stale).
    fn is_current_entry(&self, speculative: bool, id: NodeId) -> bool {
        let node = &self.nodes[id as usize];
        node.task == TaskState::Queued && node.queued_speculative == speculative
    }

    /// The queued task to run next — needed before speculative, smallest id first — marked as
    /// running on `worker`. Entries met on the way that are stale leave the queue (a later walk
    /// queues a task again if it becomes needed).
    pub fn next_task(&mut self, worker: usize) -> Option<(NodeId, G)> {
        while let Some(std::cmp::Reverse((speculative, id))) = self.queue.pop() {
            if !self.is_current_entry(speculative, id) {
                continue; // a stale entry: the task was queued again as needed
            }
            if self.task_kind(id) == Some(speculative) {
                let node = &mut self.nodes[id as usize];
                node.task = TaskState::Running(worker);
                return Some((id, node.position));
            }
            self.nodes[id as usize].task = TaskState::Idle;
        }
        None
    }

    /// Task `id` ended: with its value, or stopped (`None`).
    pub fn finish_task(&mut self, id: NodeId, value: Option<bool>) {
        self.nodes[id as usize].task = TaskState::Idle;
        if let Some(value) = value {
            self.prove(id, value);
        }
    }

    /// The workers whose running task is no longer needed nor speculative (proven, expanded by a
    /// deeper cutoff, or cut off from the root), as of the last walk.
    pub fn unneeded_running(&self, running: &[Option<NodeId>]) -> Vec<usize> {
        running
            .iter()
            .enumerate()
            .filter_map(|(worker, task)| {
                task.filter(|&id| self.task_kind(id).is_none())
                    .map(|_| worker)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use score4_board::GameRecord as MoveRecord;
    use score4_solver::Replacement;

    /// The walk at a chooser: one child needed at a time until [`DOUBT_AFTER`] of them are
    /// refuted, then every open child at once (the values handed in are made up: the walk
    /// only reads them).
    #[test]
    fn a_chooser_needs_all_its_children_once_doubted() {
        let game: MoveRecord = "82641D8FA32D3AD8414637B9226CE3".parse().unwrap();
        let root = *game.position();
        let table = TranspositionTable::of_size(
            TranspositionTable::minimum_bytes(Replacement::TwoBig),
            Replacement::TwoBig,
        )
        .unwrap();
        // The root's mover wants the assumed value: the root is a chooser.
        let assumption = if root.white_to_move() {
            Assumption::FirstPlayerWins
        } else {
            Assumption::SecondPlayerHolds
        };
        let mut dag = Dag::new(&root, &table, 1, assumption, 1, 1 << 20);
        dag.walk();
        let children = dag.node(0).children.clone();
        let open = children
            .iter()
            .filter(|&&c| dag.node(c).value.is_none())
            .count();
        assert!(open > DOUBT_AFTER + 1, "a root with enough open moves");
        for &child in children.iter().take(DOUBT_AFTER) {
            assert_eq!(dag.queued(), (1, 0), "one child at a time before doubt");
            let (id, _) = dag.next_task(0).unwrap();
            assert_eq!(id, child, "in the ordering's order");
            dag.finish_task(id, Some(!assumption.value()));
            dag.walk();
        }
        assert_eq!(dag.root_value(), None);
        assert_eq!(
            dag.queued(),
            (open - DOUBT_AFTER, 0),
            "every open child, needed"
        );
    }
}
