//! The report's binary search: "does the first player win?".
//!
//! White (the first player) needs a win; black is content with a draw. So at a white node the
//! search stops at the first winning move, at a black node at the first move that holds.
//! Before any move is tried, the decisive situations (docs/RULES.md) are read off the bitboards,
//! and the static rules of [`score4_board::rules`] settle many nodes without a search: black's
//! claimeven with baseinverse pairs (black keeps white from four) and white's zugzwang on a
//! layer-2 threat (white wins), both also with two columns mirrored, each at the nodes of its
//! contract and after any one move of the player to move. Where a rule fails after a move, how
//! far it fell short (the opponent's lines its strategy left alive) goes into the ordering of
//! the moves. Before the rules, a node with a choice checks whether one move wins by force
//! (the opponent faces two openings, or one below another threat): that settles it without any
//! more work. High in the tree, nodes then look for a short chain of forcing threats
//! ([`score4_board::forcing`]).
//!
//! The transposition table is the memory-bound part. At a node with a choice, the slots of all
//! children are computed and prefetched together (their cache misses overlap), and then read
//! before any child is searched (enhanced transposition cutoff): a child already known to win
//! ends the node, a child known to lose is skipped.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use score4_game::{BitBoard, Cell, Colour, ForcedLine, Game, Opening, OrderedMoves, NO_COLUMN};

use crate::best_first::{BestFirst, DepthFirst, TableKnows};
use crate::book::Book;
use crate::table::{Bound, Slot, TableStats, TranspositionTable};

/// A step of [`Solver::search`] that may settle its node: the value it hands on to the next
/// step, or else a return from the search with the node's bound.
macro_rules! step {
    ($step:expr) => {
        match $step {
            ControlFlow::Continue(value) => value,
            ControlFlow::Break(bound) => return bound,
        }
    };
}

/// What a search counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited: calls of the search function (the root included), and the positions
    /// played by the look for a forced win ([`score4_board::forcing`]).
    pub nodes: u64,
    /// Use of the transposition table.
    pub table: TableStats,
    /// Nodes looked up in the opening book ([`Solver::with_book`]), and those it answered.
    pub book_lookups: u64,
    /// See `book_lookups`.
    pub book_hits: u64,
}

impl SearchStats {
    /// What was counted since `earlier` (a snapshot of the same counters).
    pub fn since(&self, earlier: &SearchStats) -> SearchStats {
        SearchStats {
            nodes: self.nodes - earlier.nodes,
            table: self.table - earlier.table,
            book_lookups: self.book_lookups - earlier.book_lookups,
            book_hits: self.book_hits - earlier.book_hits,
        }
    }
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, other: SearchStats) {
        self.nodes += other.nodes;
        self.table += other.table;
        self.book_lookups += other.book_lookups;
        self.book_hits += other.book_hits;
    }
}

/// The answer for one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// Whether the first player wins with best play.
    pub first_player_wins: bool,
    /// What the search counted.
    pub stats: SearchStats,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
}

/// How another thread watches a [`Solver`] and stops it.
#[derive(Debug, Default)]
pub struct Monitor {
    stop: AtomicBool,
    nodes: AtomicU64,
}

impl Monitor {
    /// Asks the watched search to stop (it notices within [`CLOCK_INTERVAL`] nodes).
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Lowers the stop flag, for the next search.
    pub fn resume(&self) {
        self.stop.store(false, Relaxed);
    }

    /// Whether the stop flag is raised.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// The watched searcher's node count (since it was made), as last published: it lags by
    /// fewer than [`CLOCK_INTERVAL`] nodes, and is exact after [`Solver::publish`].
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// Nodes between two readings of the clock when a deadline is set (a power of two).
pub const CLOCK_INTERVAL: u64 = 1 << 14;

/// A sequential searcher over a (possibly shared) transposition table.
pub struct Solver<'t> {
    table: &'t TranspositionTable,
    stats: SearchStats,
    /// When to give up, if ever ([`Self::solve_within`]).
    deadline: Option<Instant>,
    /// Shared with another thread: a stop flag and the published node count
    /// ([`Self::with_monitor`]).
    monitor: Option<&'t Monitor>,
    /// Set once the deadline has passed: every node on the stack then returns at once and
    /// stores nothing, so the table never holds a value the interruption made up.
    interrupted: bool,
    /// Set with `interrupted` by the clock or the monitor, not by a probe's node budget: the
    /// whole solve then ends.
    stopped: bool,
    /// The node count at which a probe ([`DepthFirst::probe`]) gives up (`u64::MAX`: never).
    node_limit: u64,
    /// Whether, and when, a root the depth-first search does not settle soon goes to the
    /// best-first driver ([`Self::with_best_first`]).
    best_first: Option<BestFirst>,
    /// Proven bounds read where the table knows nothing ([`Self::with_book`]).
    book: Option<&'t Book>,
}

impl<'t> Solver<'t> {
    /// A searcher using `table`.
    pub fn new(table: &'t TranspositionTable) -> Solver<'t> {
        Solver {
            table,
            stats: SearchStats::default(),
            deadline: None,
            monitor: None,
            interrupted: false,
            stopped: false,
            node_limit: u64::MAX,
            best_first: None,
            book: None,
        }
    }

    /// This searcher, watched through `monitor`: it publishes its node count there and stops
    /// when the monitor's flag is raised (both as often as the clock is read), ending the search
    /// as if its deadline had passed — see [`Self::try_solve`].
    pub fn with_monitor(self, monitor: &'t Monitor) -> Solver<'t> {
        Solver {
            monitor: Some(monitor),
            ..self
        }
    }

    /// This searcher with the best-first driver ([`crate::best_first`]) over the top of the
    /// tree of [`Self::first_player_wins`] (`None`: the depth-first search alone, as made by
    /// [`Self::new`]). The answers are the same; the nodes spent differ.
    pub fn with_best_first(self, best_first: Option<BestFirst>) -> Solver<'t> {
        Solver { best_first, ..self }
    }

    /// This searcher with an opening book: a node of at most [`Book::max_stones`] stones that
    /// the table does not know is looked up in `book` (`None`: no book, as made by
    /// [`Self::new`]), and a bound there that answers the question settles it, as a table hit
    /// would, and is stored in the table. The answers are the same; the nodes spent differ.
    pub fn with_book(self, book: Option<&'t Book>) -> Solver<'t> {
        Solver { book, ..self }
    }

    /// Publishes the node count to the monitor now (it is also published as the search runs).
    pub fn publish(&self) {
        if let Some(monitor) = self.monitor {
            monitor.nodes.store(self.stats.nodes, Relaxed);
        }
    }

    /// The format of the table's entries.
    pub fn table_format(&self) -> crate::table::Format {
        self.table.format()
    }

    /// Counters since this searcher was made.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Solves `position`, timing the search and counting its nodes.
    ///
    /// Contract: nobody has four in a line in `position` (a finished game has no value to find).
    pub fn solve<G: Game>(&mut self, position: &G) -> Solution {
        let before = self.stats;
        let start = Instant::now();
        let first_player_wins = self.first_player_wins(position);
        let seconds = start.elapsed().as_secs_f64();
        Solution {
            first_player_wins,
            stats: self.stats.since(&before),
            seconds,
        }
    }

    /// [`Self::solve`], unless the search is still running at `deadline`: then `None`, and the
    /// table holds only values that were proven before the interruption. The clock is read
    /// every few thousand nodes, so the search may overrun `deadline` by a millisecond or so.
    pub fn solve_within<G: Game>(&mut self, position: &G, deadline: Instant) -> Option<Solution> {
        self.set_deadline(Some(deadline));
        let solution = self.try_solve(position);
        self.set_deadline(None);
        solution
    }

    /// [`Self::solve`], unless the monitor's stop flag ([`Self::with_monitor`]) is raised or the
    /// deadline passes first: then `None`, and the table holds only values proven before that.
    pub fn try_solve<G: Game>(&mut self, position: &G) -> Option<Solution> {
        self.attempt(|solver| solver.solve(position))
    }

    /// [`Self::score_at_least`], unless the search is still running at `deadline` or the
    /// monitor's stop flag is raised first: then `None`, and the table holds only values proven
    /// before that.
    ///
    /// Contract: as [`Self::score_at_least`].
    pub fn score_at_least_within<G: Game>(
        &mut self,
        position: &G,
        threshold: i32,
        deadline: Instant,
    ) -> Option<bool> {
        self.set_deadline(Some(deadline));
        let answer = self.attempt(|solver| solver.score_at_least(position, threshold));
        self.set_deadline(None);
        answer
    }

    /// Runs `search` unless the stop flag is raised or the deadline passes first: then `None`
    /// (whatever `search` returned is meaningless, and nothing it stored is).
    pub(crate) fn attempt<R>(&mut self, search: impl FnOnce(&mut Self) -> R) -> Option<R> {
        self.check_clock();
        let result = (!self.interrupted).then(|| search(self));
        let interrupted = std::mem::take(&mut self.interrupted);
        self.stopped = false;
        result.filter(|_| !interrupted)
    }

    /// Sets (or with `None` clears) the deadline of the searches to come.
    pub(crate) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Reads the clock and the monitor: sets `interrupted` once the deadline has passed or the
    /// stop flag is raised, and publishes the node count.
    #[cold]
    fn check_clock(&mut self) {
        if let Some(deadline) = self.deadline {
            self.stopped |= Instant::now() >= deadline;
        }
        if let Some(monitor) = self.monitor {
            self.stopped |= monitor.stop.load(Relaxed);
            monitor.nodes.store(self.stats.nodes, Relaxed);
        }
        self.interrupted |= self.stopped;
    }

    /// Whether the first player (white) wins `position` with best play; a draw counts as not a
    /// win.
    ///
    /// Contract: nobody has four in a line, and the table's format is
    /// [`Format::Binary`](crate::table::Format::Binary). Every position visited counts as one
    /// node.
    pub fn first_player_wins<G: Game>(&mut self, position: &G) -> bool {
        if let Some(settings) = self.best_first {
            if let Some(answer) = self.probe(position, settings.after) {
                return answer;
            }
            if self.stopped {
                return false; // meaningless: the caller's attempt reports the stop
            }
            return crate::best_first::first_player_wins(self, position, settings);
        }
        self.plain_first_player_wins(position)
    }

    /// [`Self::first_player_wins`] by the depth-first search alone.
    fn plain_first_player_wins<G: Game>(&mut self, position: &G) -> bool {
        self.check_key_width::<G>();
        let symmetries = position.transposing_symmetries();
        self.search(
            position,
            symmetries,
            None,
            FirstPlayerWins,
            false,
            NO_COLUMN,
        ) >= 1
    }

    /// Whether the first player's exact score (docs/RULES.md, "Values": a win with the winner's
    /// `k`-th stone scores `33 - k`, for the first player positive, for the second negative) is at
    /// least `threshold`. `first_player_wins` is the question at threshold 1.
    ///
    /// Contract: nobody has four in a line, and the table's format is
    /// [`Format::Bounds`](crate::table::Format::Bounds).
    pub fn score_at_least<G: Game>(&mut self, position: &G, threshold: i32) -> bool {
        self.score_bound(position, threshold) >= threshold
    }

    /// [`Self::score_at_least`] with what the search proved: a bound on the first player's
    /// score, at or above `threshold` a lower bound (the answer is yes), below it an upper
    /// bound (no). It often lies beyond the threshold (the search is fail-soft).
    ///
    /// Contract: as [`Self::score_at_least`].
    pub fn score_bound<G: Game>(&mut self, position: &G, threshold: i32) -> i32 {
        self.check_key_width::<G>();
        let symmetries = position.transposing_symmetries();
        self.search(
            position,
            symmetries,
            None,
            AtLeast(threshold),
            false,
            NO_COLUMN,
        )
    }

    /// Panics unless the table takes `G`'s keys whole: a narrower table could mistake one
    /// position for another, which no speed is worth.
    fn check_key_width<G: Game>(&self) {
        assert!(
            G::KEY_WIDTH <= self.table.key_width(),
            "a table for {}-bit keys cannot hold this game's {}-bit keys",
            self.table.key_width(),
            G::KEY_WIDTH
        );
    }

    /// The search of every question: a bound on the first player's score that answers "is it at
    /// least `question.threshold()`?" — at or above the threshold a lower bound (yes), below it an
    /// upper bound (no); for the report's question 1 or 0. Fail-soft: the bound is what the search
    /// proved, often beyond the threshold, so the narrowing of exact scores can skip questions. The
    /// table is keyed with `symmetries`, the root's [`Game::transposing_symmetries`]. `slot` is the
    /// position's table slot if the caller computed it; `rule_failed` says the caller already tried
    /// the static rule of this node's mover's opponent on it (after its move) and it did not apply,
    /// so it is not tried again. `last_column` is the column of the move that led here
    /// ([`NO_COLUMN`] at the root), for the ordering.
    ///
    /// The steps of a node, each of which may settle it: the count of the node
    /// ([`Self::enter_node`]); the decisive situations ([`examine_moves`]); a node with a
    /// single move goes to [`Self::search_forced_move`]. A node with a choice: the table
    /// ([`Self::probe_node`]), the static answers ([`Self::settle_statically`]), a chain of
    /// forcing threats ([`Self::forcing_chain`]), the children's slots
    /// ([`Self::child_slots`]), the ordering, the cutoff on the children's values
    /// ([`Self::read_children`]), and the move loop with the store of the node's bound
    /// ([`Self::search_children`]).
    fn search<G: Game, Q: Question>(
        &mut self,
        position: &G,
        symmetries: G::Symmetries,
        slot: Option<Slot>,
        question: Q,
        rule_failed: bool,
        last_column: u8,
    ) -> i32 {
        let node = Node {
            position,
            symmetries,
            question,
        };
        step!(self.enter_node());
        let moves = match examine_moves(position, question) {
            Head::Settled(bound) => return bound,
            Head::Moves(moves, _) => moves,
        };
        if !moves.has_several() {
            return self.search_forced_move(&node, slot, rule_failed, moves);
        }
        let slot = step!(self.probe_node(&node, slot));
        let gaps = step!(self.settle_statically(&node, slot, rule_failed, moves));
        let nodes_before = self.stats.nodes;
        step!(self.forcing_chain(&node, slot));
        let mut slots = ChildSlots::NONE;
        step!(self.child_slots(&node, slot, moves, &mut slots));
        let order = match &gaps {
            Some(gaps) => position.order_by_gaps(moves, gaps, last_column),
            None => position.order(moves),
        };
        let children = Children {
            order: &order,
            slots: &slots,
            rule_failed: gaps.is_some(),
        };
        let cutoff = step!(self.read_children(&node, slot, &children));
        self.search_children(&node, slot, &children, cutoff, nodes_before)
    }

    /// Counts a visit of a node, and reads the clock every [`CLOCK_INTERVAL`] nodes. Breaks
    /// when the node budget of a probe ([`DepthFirst::probe`]) is spent, with `interrupted`
    /// raised and a meaningless bound that nothing stores on the way up. A stop by the clock
    /// or the monitor raises `interrupted` too but lets the node go on: every move loop on the
    /// stack returns, storing nothing, as soon as its current child returns.
    #[inline(always)]
    fn enter_node(&mut self) -> ControlFlow<i32> {
        self.stats.nodes += 1;
        if self.stats.nodes & (CLOCK_INTERVAL - 1) == 0 {
            self.check_clock();
        }
        if self.stats.nodes >= self.node_limit {
            self.interrupted = true;
            return ControlFlow::Break(0);
        }
        ControlFlow::Continue(())
    }

    /// Records `bound` for the node at `slot`, found with a subtree of `nodes` nodes, and
    /// returns it.
    #[inline(always)]
    fn store<Q: Question>(&mut self, question: Q, slot: Slot, bound: i32, nodes: u64) -> i32 {
        question.store(self.table, slot, bound, nodes, &mut self.stats.table);
        bound
    }

    /// A node with a single move, `moves` (the block of the opponent's only opening, or the one
    /// move not below an opponent's threat): the mover's static rule is asked about that move
    /// alone (its gap would order nothing), and unless it settles the node the child is
    /// searched, without a slot of its own. Returns the node's bound. When the parent keyed
    /// this node (its move opened nothing, so its cutoff reads `slot`) the bound is stored
    /// there for that read; a forced node reached otherwise has no slot (the forced lines
    /// read past it).
    ///
    /// Contract: `moves` has exactly one cell; the node is counted ([`Self::enter_node`]) and
    /// [`examine_moves`] did not settle it.
    #[inline(always)]
    fn search_forced_move<G: Game, Q: Question>(
        &mut self,
        node: &Node<'_, G, Q>,
        slot: Option<Slot>,
        rule_failed: bool,
        moves: BitBoard,
    ) -> i32 {
        let nodes_before = self.stats.nodes;
        let gaps = match examine_rules(node.position, node.question, rule_failed, moves) {
            Head::Settled(bound) => {
                if let Some(slot) = slot {
                    self.store(node.question, slot, bound, 1);
                }
                return bound;
            }
            Head::Moves(_, gaps) => gaps,
        };
        let cell = moves.first().expect("one move");
        let child = node.position.after(cell);
        let bound = self.search(
            &child,
            node.symmetries,
            None,
            node.question,
            gaps.is_some(),
            G::column_of(cell) as u8,
        );
        if let (Some(slot), false) = (slot, self.interrupted) {
            let subtree = self.stats.nodes - nodes_before;
            self.store(node.question, slot, bound, subtree);
        }
        bound
    }

    /// The table's answer for a node with a choice, read before the static rules: a position
    /// found there needs neither the rules nor the gaps of its moves. (For the report's
    /// question a hit and a rule give the same answer, so the tree stays the same; for scores
    /// both bounds are sound.) Breaks with the bound of a hit; otherwise continues with the
    /// node's slot: `slot` if the parent computed it, else the slot of the node's key.
    #[inline(always)]
    fn probe_node<G: Game, Q: Question>(
        &mut self,
        node: &Node<'_, G, Q>,
        slot: Option<Slot>,
    ) -> ControlFlow<i32, Slot> {
        let table = self.table;
        let slot = slot.unwrap_or_else(|| slot_of::<G>(table, node.position.key(node.symmetries)));
        if let Some(bound) = node.question.probe(table, slot, &mut self.stats.table) {
            return ControlFlow::Break(bound);
        }
        if let Some(book) = self.book {
            if node.position.stone_count() <= book.max_stones() {
                self.stats.book_lookups += 1;
                if let Some(bound) = book_answer(book, node) {
                    self.stats.book_hits += 1;
                    return ControlFlow::Break(self.store(node.question, slot, bound, 1));
                }
            }
        }
        ControlFlow::Continue(slot)
    }

    /// The static answers for a node with a choice the table did not know, cheapest first:
    /// for the report's question a move that wins by force, found without a visit to the
    /// child, before the rules, the children's keys and the ordering are paid for (for scores
    /// the ordering puts such a move first instead: its score still has to be found); then
    /// the static rules ([`examine_rules`]). Breaks with the bound of a settled node, stored at
    /// `slot` although it cost one node: the slot is at hand, and the next parent that reads
    /// it in its cutoff skips the visit and the rules. Otherwise continues with the gaps of
    /// the moves, where the mover's rule was tried after each ([`Head::Moves`]).
    ///
    /// Contract: `moves` are the moves [`examine_moves`] left, at least two.
    #[inline(always)]
    fn settle_statically<G: Game, Q: Question>(
        &mut self,
        node: &Node<'_, G, Q>,
        slot: Slot,
        rule_failed: bool,
        moves: BitBoard,
    ) -> ControlFlow<i32, Option<[u8; 16]>> {
        if !Q::SCORES && node.position.wins_by_force(moves) {
            return ControlFlow::Break(self.store(node.question, slot, node.mover_wins(), 1));
        }
        match examine_rules(node.position, node.question, rule_failed, moves) {
            Head::Settled(bound) => ControlFlow::Break(self.store(node.question, slot, bound, 1)),
            Head::Moves(_, gaps) => ControlFlow::Continue(gaps),
        }
    }

    /// High in the tree (at most [`FORCING_MAX_STONES_WHITE`] stones at a node of the first
    /// player, [`FORCING_MAX_STONES_BLACK`] at one of the second), for the report's question,
    /// a short chain of forcing threats that reaches the mover's goal
    /// ([`score4_board::forcing`]),
    /// before the ordering's choice; the chains' positions count as nodes. Breaks with the
    /// mover's win, stored at `slot` with those positions as its subtree. For scores such a
    /// chain bounds nothing beyond the report's question, and nothing is tried.
    ///
    /// Contract: no single move reaches the mover's goal (the check for a win by force and the
    /// gaps of the rules said so: [`Self::settle_statically`]).
    #[inline(always)]
    fn forcing_chain<G: Game, Q: Question>(
        &mut self,
        node: &Node<'_, G, Q>,
        slot: Slot,
    ) -> ControlFlow<i32> {
        let forcing_max_stones = if node.position.white_to_move() {
            FORCING_MAX_STONES_WHITE
        } else {
            FORCING_MAX_STONES_BLACK
        };
        if !Q::SCORES && node.position.stone_count() <= forcing_max_stones {
            let mut visited = 0;
            let reached = node.position.forcing_win(FORCING_DEPTH, &mut visited);
            self.stats.nodes += visited;
            if reached {
                let bound = node.mover_wins();
                return ControlFlow::Break(self.store(node.question, slot, bound, visited));
            }
        }
        ControlFlow::Continue(())
    }

    /// Fills `slots` (given as [`ChildSlots::NONE`]) with where each child's value is read,
    /// computed and prefetched all at once before the moves are ordered, so that the
    /// ordering's work overlaps the loads. A move that creates or uncovers an opening leaves
    /// the opponent a single move, the block: that child is never stored, but the position
    /// after the block has the child's value and is looked up instead — or, when the block
    /// opens a threat in turn, the first position with a choice after the forced replies
    /// ([`ForcedLine`]). For the report's question, breaks when such a line wins for the
    /// mover, with its win stored at `slot` as a one-node subtree; for scores such a line
    /// bounds nothing beyond the report's question, and its move is searched.
    ///
    /// Contract: `moves` are the moves [`examine_moves`] left, at least two, none of which
    /// wins by force for the report's question ([`Self::settle_statically`]).
    #[inline(always)]
    fn child_slots<G: Game, Q: Question>(
        &mut self,
        node: &Node<'_, G, Q>,
        slot: Slot,
        moves: BitBoard,
        slots: &mut ChildSlots,
    ) -> ControlFlow<i32> {
        let (position, table) = (node.position, self.table);
        let own_threats = position.threats(position.mover());
        let child_keys = position.child_keys(node.symmetries);
        for cell in moves {
            let column = G::column_of(cell) as usize;
            match position.opening_after(cell) {
                Opening::Block(block) => {
                    match position.forced_line(cell, block, node.symmetries) {
                        ForcedLine::Reaches(key) => {
                            let s = slot_of::<G>(table, key);
                            table.prefetch(s);
                            slots.by_column[column] = Some(s);
                            slots.block_columns |= 1 << column;
                        }
                        ForcedLine::MoverWins if !Q::SCORES => {
                            let bound = node.mover_wins();
                            return ControlFlow::Break(self.store(node.question, slot, bound, 1));
                        }
                        ForcedLine::MoverLoses if !Q::SCORES => slots.lost_columns |= 1 << column,
                        ForcedLine::MoverWins | ForcedLine::MoverLoses => {}
                    }
                    continue;
                }
                // The opponent has lost: for the report's question the check for a win by
                // force has settled the node; for scores the child is searched.
                Opening::Unstoppable => continue,
                Opening::None => debug_assert!(
                    (G::below(own_threats) & BitBoard::from(cell)).is_empty(),
                    "a move below the mover's threat opens it"
                ),
                Opening::NotLookedAt => {
                    if !(G::below(own_threats) & BitBoard::from(cell)).is_empty() {
                        continue;
                    }
                }
            }
            let s = slot_of::<G>(table, position.key_after_with(cell, &child_keys));
            table.prefetch(s);
            slots.by_column[column] = Some(s);
        }
        ControlFlow::Continue(())
    }

    /// The enhanced transposition cutoff: the value of every move read from its slot before
    /// any child is searched. A move known to reach the mover's goal settles the node: breaks
    /// with its bound, stored at `slot` as a one-node subtree. Otherwise continues with the
    /// moves known to fail the mover ([`Cutoff`]): those the table knows, and those that create
    /// an opening whose forced line loses. A move that creates an opening leaves the opponent
    /// a forced reply or a lost position: such a child never reaches the table; the position
    /// at the end of its forced line is read instead, if any (the classic game keys such a
    /// move as its child: not read).
    #[inline(always)]
    fn read_children<G: Game, Q: Question>(
        &mut self,
        node: &Node<'_, G, Q>,
        slot: Slot,
        children: &Children<'_>,
    ) -> ControlFlow<i32, Cutoff> {
        let (table, order, slots) = (self.table, children.order, children.slots);
        let mut cutoff = Cutoff {
            known_failing: 0,
            failed: Failing::new::<Q>(node.position.white_to_move()),
        };
        for i in 0..order.as_slice().len() {
            let column = children.column::<G>(i);
            let read_slot = if order.creates_opening(i) {
                cutoff.known_failing |= ((slots.lost_columns >> column) & 1) << i;
                slots.by_column[column].filter(|_| slots.block_columns & (1 << column) != 0)
            } else {
                debug_assert!(
                    slots.by_column[column].is_some() && slots.block_columns & (1 << column) == 0,
                    "every move that opens no threat is keyed as its child"
                );
                slots.by_column[column]
            };
            let Some(read_slot) = read_slot else {
                continue;
            };
            match node.question.probe(table, read_slot, &mut self.stats.table) {
                Some(bound) if node.reaches_goal(bound) => {
                    return ControlFlow::Break(self.store(node.question, slot, bound, 1));
                }
                Some(bound) => {
                    cutoff.known_failing |= 1 << i;
                    cutoff.failed.add(bound);
                }
                None => {}
            }
        }
        ControlFlow::Continue(cutoff)
    }

    /// The move loop: searches the moves the cutoff left, in order, until one reaches the
    /// mover's goal. The node's bound — that move's, or when every move fails the mover the
    /// best of the children's bounds for it ([`Failing`]) — is stored at `slot` with the
    /// nodes counted since `nodes_before` as its subtree, and returned. An interrupted child
    /// ends the loop at once with a meaningless bound, and nothing is stored.
    #[inline(always)]
    fn search_children<G: Game, Q: Question>(
        &mut self,
        node: &Node<'_, G, Q>,
        slot: Slot,
        children: &Children<'_>,
        cutoff: Cutoff,
        nodes_before: u64,
    ) -> i32 {
        let Cutoff {
            known_failing,
            mut failed,
        } = cutoff;
        for i in 0..children.order.as_slice().len() {
            if known_failing & (1 << i) != 0 {
                continue;
            }
            let column = children.column::<G>(i);
            let child_slot = if children.order.creates_opening(i) {
                None
            } else {
                children.slots.by_column[column]
            };
            let mut child = *node.position;
            child.play_ordered(children.order, i);
            let bound = self.search(
                &child,
                node.symmetries,
                child_slot,
                node.question,
                children.rule_failed,
                column as u8,
            );
            if self.interrupted {
                return bound; // meaningless; nothing is stored on the way up
            }
            if node.reaches_goal(bound) {
                let subtree = self.stats.nodes - nodes_before;
                return self.store(node.question, slot, bound, subtree);
            }
            failed.add(bound);
        }
        let subtree = self.stats.nodes - nodes_before;
        self.store(node.question, slot, failed.bound, subtree)
    }
}

/// One node of [`Solver::search`], as its steps read it: the position, the symmetries its
/// table keys fold (the root's), and the question asked.
struct Node<'p, G: Game, Q> {
    position: &'p G,
    symmetries: G::Symmetries,
    question: Q,
}

impl<G: Game, Q: Question> Node<'_, G, Q> {
    /// Whether `bound` reaches the mover's goal: the answer yes for the first player (who
    /// maximises the score), no for the second (who minimises it).
    #[inline(always)]
    fn reaches_goal(&self, bound: i32) -> bool {
        (bound >= self.question.threshold()) == self.position.white_to_move()
    }

    /// The bound of a node whose mover wins, for the report's question: 1 at a node of the
    /// first player, 0 at one of the second.
    #[inline(always)]
    fn mover_wins(&self) -> i32 {
        self.position.white_to_move() as i32
    }
}

/// Where the cutoff of a node with a choice reads the value of each move, by column
/// ([`Solver::child_slots`]).
struct ChildSlots {
    /// The child's own slot; for a move that creates an opening (marked in `block_columns`)
    /// the slot of the first position with a choice at the end of its forced line; `None`
    /// for a move nothing is read for (below the mover's own threat, or a forced line that
    /// ends the game).
    by_column: [Option<Slot>; 16],
    /// The moves whose slot is that of the end of their forced line.
    block_columns: u16,
    /// The moves whose forced line loses for the mover (report's question only).
    lost_columns: u16,
}

impl ChildSlots {
    /// Nothing read yet.
    const NONE: ChildSlots = ChildSlots {
        by_column: [None; 16],
        block_columns: 0,
        lost_columns: 0,
    };
}

/// The moves of a node with a choice as its cutoff and its move loop take them: by reference,
/// since moving the order and the slots into one value copied half a kilobyte per node (4 %
/// more instructions).
struct Children<'c> {
    /// The moves in the order to search them, best first.
    order: &'c OrderedMoves,
    /// Where each move's value is read.
    slots: &'c ChildSlots,
    /// Whether the mover's rule was tried after each move (for the gaps of the ordering):
    /// then each child skips the rule of its mover's opponent.
    rule_failed: bool,
}

impl Children<'_> {
    /// The column of the `i`-th move of the order.
    #[inline(always)]
    fn column<G: Game>(&self, i: usize) -> usize {
        G::column_of(Cell::from_index(self.order.as_slice()[i])) as usize
    }
}

/// What the cutoff of a node ([`Solver::read_children`]) learned without a search: the moves
/// (by their rank in the order) known to fail the mover, and their bounds.
struct Cutoff {
    known_failing: u16,
    failed: Failing,
}

/// The bound of a node whose every move fails its mover: the best for the mover of its
/// children's bounds (moves the head pruned lose at once: never better). For the report's
/// question it is fixed, 0 at a node of the first player and 1 at one of the second: failing
/// has one answer, with nothing to compare.
#[derive(Clone, Copy)]
struct Failing {
    bound: i32,
    white_to_move: bool,
    scores: bool,
}

impl Failing {
    /// Nothing seen yet, at a node of the first player (`white_to_move`) or the second.
    #[inline(always)]
    fn new<Q: Question>(white_to_move: bool) -> Failing {
        let bound = match (Q::SCORES, white_to_move) {
            (true, true) => i32::MIN,
            (true, false) => i32::MAX,
            (false, white) => !white as i32,
        };
        Failing {
            bound,
            white_to_move,
            scores: Q::SCORES,
        }
    }

    /// Takes the bound of a child that fails the mover.
    #[inline(always)]
    fn add(&mut self, bound: i32) {
        if self.scores {
            self.bound = if self.white_to_move {
                self.bound.max(bound)
            } else {
                self.bound.min(bound)
            }
        }
    }
}

/// The depth-first search as the best-first driver sees it: the driver's probes are searches
/// of this solver within a node budget, on its table.
impl DepthFirst for Solver<'_> {
    fn nodes(&self) -> u64 {
        self.stats.nodes
    }

    fn stopped(&self) -> bool {
        self.stopped
    }

    fn probe<G: Game>(&mut self, position: &G, budget: u64) -> Option<bool> {
        if self.stopped {
            return None;
        }
        self.node_limit = self.stats.nodes.saturating_add(budget);
        let answer = self.plain_first_player_wins(position);
        self.node_limit = u64::MAX;
        if self.interrupted {
            // Out of budget: the solve goes on (a stop leaves `interrupted` raised).
            self.interrupted = self.stopped;
            return None;
        }
        Some(answer)
    }

    /// The moves [`Solver::search`] tries at a node with the report's question: those
    /// [`examine_moves`] leaves, ordered by the gaps of [`examine_rules`].
    fn moves_to_search<G: Game>(position: &G, last_column: u8) -> Option<OrderedMoves> {
        let moves = match examine_moves(position, FirstPlayerWins) {
            Head::Settled(_) => return None,
            Head::Moves(moves, _) => moves,
        };
        match examine_rules(position, FirstPlayerWins, false, moves) {
            Head::Settled(_) => None,
            Head::Moves(_, Some(gaps)) => Some(position.order_by_gaps(moves, &gaps, last_column)),
            Head::Moves(_, None) => Some(position.order(moves)),
        }
    }

    /// Each move's child is read from its slot, keyed as a search rooted at `position` keys
    /// it.
    fn table_knows<G: Game>(&mut self, position: &G, last_column: u8) -> TableKnows {
        let Some(order) = Self::moves_to_search(position, last_column) else {
            // The head or the rules settle it (a probe would have, in one node): one move left.
            return TableKnows::OpenMoves(1);
        };
        let symmetries = position.transposing_symmetries();
        let white = position.white_to_move();
        let mut open = 0;
        for &cell in order.as_slice() {
            let child = position.after(Cell::from_index(cell));
            let slot = slot_of::<G>(self.table, child.key(symmetries));
            match FirstPlayerWins.probe(self.table, slot, &mut self.stats.table) {
                Some(bound) if (bound >= 1) == white => return TableKnows::Settled(white),
                Some(_) => {}
                None => open += 1,
            }
        }
        TableKnows::OpenMoves(open)
    }
}

/// White nodes with at most this many stones look for a forced win first
/// ([`score4_board::forcing`]); deeper, most looks fail and cost more than the rare win saves.
/// Tuned on the committed sets: docs/TUNING.md, "The forcing look's reach".
const FORCING_MAX_STONES_WHITE: i32 = 36;

/// Black nodes with at most this many stones look for a chain of forcing threats that wins or
/// ends in black's follow-up ([`score4_board::forcing`]). Tuned on the committed sets:
/// docs/TUNING.md, "The forcing look's reach".
const FORCING_MAX_STONES_BLACK: i32 = 38;

/// The longest chain of the mover's moves [`score4_board::forcing::forcing_win`] tries: longer
/// chains are rare and dear. Tuned on the committed sets: docs/TUNING.md, "The forcing
/// look's reach".
const FORCING_DEPTH: u32 = 4;

/// The bound `book` gives `node`'s question, if its bounds answer it: at or above the
/// threshold a lower bound, below it an upper bound (for the report's question, 1 or 0).
#[cold]
#[inline(never)]
fn book_answer<G: Game, Q: Question>(book: &Book, node: &Node<'_, G, Q>) -> Option<i32> {
    let (lower, upper) = book.bounds(node.position)?;
    let threshold = node.question.threshold();
    if lower >= threshold {
        Some(if Q::SCORES { lower } else { 1 })
    } else if upper < threshold {
        Some(if Q::SCORES { upper } else { 0 })
    } else {
        None
    }
}

/// The table slot of `key`, one of `G`'s keys: keys that fit in 64 bits skip the reduction of
/// the high half (decided at compile time).
#[inline(always)]
fn slot_of<G: Game>(table: &TranspositionTable, key: u128) -> Slot {
    if G::KEY_WIDTH <= 64 {
        table.narrow_slot(key as u64)
    } else {
        table.slot(key)
    }
}

/// The question a search answers at every node, "is the first player's score at least the
/// threshold?", and how its answers live in the table. Each kind is its own monomorphised
/// search: the report's question pays nothing for the others.
trait Question: Copy {
    /// Whether answers depend on how fast a game is won (any threshold but 1). The report's
    /// question skips that arithmetic.
    const SCORES: bool;
    /// The threshold.
    fn threshold(self) -> i32;
    /// The table's bound at `slot` if it answers the question (see [`Solver::search`]).
    fn probe(self, table: &TranspositionTable, slot: Slot, stats: &mut TableStats) -> Option<i32>;
    /// Records the bound found at `slot` with a subtree of `nodes` nodes.
    fn store(
        self,
        table: &TranspositionTable,
        slot: Slot,
        bound: i32,
        nodes: u64,
        stats: &mut TableStats,
    );
}

/// The report's question (threshold 1) over a
/// [`Format::Binary`](crate::table::Format::Binary) table.
#[derive(Clone, Copy)]
struct FirstPlayerWins;

impl Question for FirstPlayerWins {
    const SCORES: bool = false;
    #[inline(always)]
    fn threshold(self) -> i32 {
        1
    }
    #[inline(always)]
    fn probe(self, table: &TranspositionTable, slot: Slot, stats: &mut TableStats) -> Option<i32> {
        table.probe(slot, stats).map(i32::from)
    }
    #[inline(always)]
    fn store(
        self,
        table: &TranspositionTable,
        slot: Slot,
        bound: i32,
        nodes: u64,
        stats: &mut TableStats,
    ) {
        table.store(slot, bound >= 1, nodes, stats)
    }
}

/// Any threshold, over a [`Format::Bounds`](crate::table::Format::Bounds) table: a yes is a
/// lower bound, a no an upper one (the bound the search proved, not just the threshold).
#[derive(Clone, Copy)]
struct AtLeast(i32);

impl Question for AtLeast {
    const SCORES: bool = true;
    #[inline(always)]
    fn threshold(self) -> i32 {
        self.0
    }
    #[inline(always)]
    fn probe(self, table: &TranspositionTable, slot: Slot, stats: &mut TableStats) -> Option<i32> {
        table.probe_bound_at_least(slot, self.0, stats)
    }
    #[inline(always)]
    fn store(
        self,
        table: &TranspositionTable,
        slot: Slot,
        bound: i32,
        nodes: u64,
        stats: &mut TableStats,
    ) {
        let bound = if bound >= self.0 {
            Bound::Lower(bound)
        } else {
            Bound::Upper(bound)
        };
        table.store_bound(slot, bound, nodes, stats)
    }
}

/// What can be said of a position before any move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Examined {
    /// The answer is known without a search: `true` if the first player wins (for
    /// [`examine_at_least`]: if the first player's score reaches the threshold).
    Settled(bool),
    /// The moves that must be searched (at least one): every other legal move loses for the
    /// mover, or is no better than one of these.
    Moves(BitBoard),
}

/// What [`examine_for`] finds: [`Examined`] with the bound behind a settled answer.
enum Head {
    /// Settled with this bound on the first player's score: at or above the threshold a
    /// lower bound (the answer is yes), below it an upper bound (no).
    Settled(i32),
    /// The moves to search, and where the mover's rule was tried after each move, how far each
    /// move (by column) left it from a proof ([`Game::holding_gap`], [`Game::winning_gap`];
    /// for a single move only that it failed: every gap `u8::MAX`).
    Moves(BitBoard, Option<[u8; 16]>),
}

impl Head {
    /// The answer at `threshold`, without the bound.
    #[inline(always)]
    fn answered(self, threshold: i32) -> Examined {
        match self {
            Head::Settled(bound) => Examined::Settled(bound >= threshold),
            Head::Moves(moves, _) => Examined::Moves(moves),
        }
    }
}

/// The decisive situations (docs/RULES.md) and the static rules of [`score4_board::rules`], read
/// off the bitboards: either the position's value, or the moves a search must try.
///
/// This is the head of every node of [`Solver`]; the parallel solver uses it to build its
/// tree with the same moves and the same proofs.
///
/// Contract: nobody has four in a line in `position`.
#[inline(always)]
pub fn examine<G: Game>(position: &G) -> Examined {
    examine_for(position, FirstPlayerWins, false).answered(1)
}

/// [`examine`] for the question "is the first player's score at least `threshold`?"
/// (`examine` asks it at 1): `Settled(answer)`, or the moves to search.
///
/// Every situation that ends the game within two plies has an exact score; the static rules
/// bound the score (black holds: at most 0; white's zugzwang: at least 1) and answer only the
/// thresholds their bound decides. Pruned moves (below an opponent threat, or not blocking an
/// opening) lose to the opponent's next stone, the worst score the mover can get, so they are
/// never better than the moves kept: the pruning is sound for exact scores too.
///
/// Contract: nobody has four in a line in `position`.
#[inline(always)]
pub fn examine_at_least<G: Game>(position: &G, threshold: i32) -> Examined {
    examine_for(position, AtLeast(threshold), false).answered(threshold)
}

/// [`examine_at_least`] for `question`'s threshold, settling with a bound ([`Head`]); for the
/// report's question the game's length is not looked at (a win is a win). With `rule_failed`
/// the rule at this node itself (black holds at a white node, white's zugzwang at a black one)
/// is skipped: the parent tried it when it measured the gaps of its moves.
#[inline(always)]
fn examine_for<G: Game, Q: Question>(position: &G, question: Q, rule_failed: bool) -> Head {
    match examine_moves(position, question) {
        Head::Moves(moves, _) => examine_rules(position, question, rule_failed, moves),
        settled => settled,
    }
}

/// The answer at `threshold` with the bound that proves it: for scores the bound itself (an
/// exact score, or the bound a rule proves), for the report's question 1 (yes) or 0 (no).
#[inline(always)]
fn settled<Q: Question>(threshold: i32, answer: bool, bound: i32) -> Head {
    debug_assert!(!Q::SCORES || answer == (bound >= threshold));
    Head::Settled(if Q::SCORES { bound } else { answer as i32 })
}

/// The first half of [`examine_for`]: the decisive situations, and the moves left to try
/// (without gaps); the static rules are left to [`examine_rules`], so that the search can look
/// the position up in its table between the two.
#[inline(always)]
fn examine_moves<G: Game, Q: Question>(position: &G, question: Q) -> Head {
    let threshold = question.threshold();
    let settle = |answer: bool, bound: i32| settled::<Q>(threshold, answer, bound);
    let mover = position.mover();
    let white_to_move = mover == Colour::White;
    // Scores: a win with the winner's k-th stone scores half + 1 - k.
    let half = G::CELLS / 2;
    // The first player's score from the mover's.
    let for_white = |score: i32| if white_to_move { score } else { -score };
    // Stones of the mover and of the opponent; a win with the k-th stone scores 33 - k.
    let mine_and_theirs = || {
        let stones = position.stone_count();
        (stones / 2, stones - stones / 2)
    };
    // Whether the first player's score reaches the threshold when the mover wins at once, and
    // when the opponent wins with its next stone (a score of -(32 - theirs) for the mover).
    // The exact scores of those two ends (unused by the report's question).
    let (score_if_won, score_if_lost) = if Q::SCORES {
        let (mine, theirs) = mine_and_theirs();
        (for_white(half - mine), for_white(-(half - theirs)))
    } else {
        (0, 0)
    };
    let (reached_if_won, reached_if_lost) = if Q::SCORES {
        (score_if_won >= threshold, score_if_lost >= threshold)
    } else {
        (white_to_move, !white_to_move)
    };

    let playable = position.playable();
    // The mover has an opening: it wins at once.
    if !(position.threats(mover) & playable).is_empty() {
        return settle(reached_if_won, score_if_won);
    }
    if playable.is_empty() {
        return settle(0 >= threshold, 0); // full board, no four: a draw
    }
    let their_threats = position.threats(mover.other());
    let their_openings = their_threats & playable;
    let moves = if !their_openings.is_empty() {
        // Two openings cannot both be blocked; one must be, and blocking it loses if the
        // cell above is also theirs to win on.
        if their_openings.has_several() || !(G::above(their_openings) & their_threats).is_empty() {
            return settle(reached_if_lost, score_if_lost);
        }
        their_openings
    } else {
        // Never play directly below a threat of the opponent: they would win on top.
        playable & !G::below(their_threats)
    };
    if moves.is_empty() {
        return settle(reached_if_lost, score_if_lost);
    }
    if Q::SCORES {
        // The first player's score lies between these: the mover wins at the earliest with
        // its stone after next, the opponent with its next one.
        let (mine, theirs) = mine_and_theirs();
        let (best, worst) = (half - 1 - mine, -(half - theirs));
        let (highest, lowest) = if white_to_move {
            (best, worst)
        } else {
            (-worst, -best)
        };
        if highest < threshold {
            return settle(false, highest);
        }
        if lowest >= threshold {
            return settle(true, lowest);
        }
    } else if position.stone_count() >= G::CELLS - 2 {
        // The first player cannot win with the last but one stone (the 63rd) if it is not an
        // opening now: the last is the second player's. (The bounds above say the same at
        // threshold 1.)
        return settle(false, 0);
    }
    // A player with no line left cannot win: the first player's score is at most 0, or for
    // the second player at least 0.
    if threshold >= 1 && position.cannot_win(Colour::White) {
        return settle(false, 0);
    }
    if threshold <= 0 && position.cannot_win(Colour::Black) {
        return settle(true, 0);
    }
    Head::Moves(moves, None)
}

/// The second half of [`examine_for`]: the static rules of [`score4_board::rules`] on a position
/// [`examine_moves`] left unsettled with `moves`.
#[inline(always)]
fn examine_rules<G: Game, Q: Question>(
    position: &G,
    question: Q,
    rule_failed: bool,
    moves: BitBoard,
) -> Head {
    let threshold = question.threshold();
    let settle = |answer: bool, bound: i32| settled::<Q>(threshold, answer, bound);
    let white_to_move = position.white_to_move();
    // The static rules of `score4_board::rules`, at this node or after one move of the mover: black
    // holding bounds the score by 0 from above, white's zugzwang by 1 from below.
    let (holds_decides, zugzwang_decides) = (threshold >= 1, threshold <= 1);
    // With a single move its gap orders nothing: only whether the rule holds after it is
    // asked (no gaps, but the child still skips its own rule, which that answer covers).
    let single = (!moves.has_several()).then(|| moves.first().expect("a move"));
    if white_to_move {
        if holds_decides && !rule_failed && position.second_player_holds() {
            return settle(false, 0);
        }
        if let (true, Some(cell)) = (zugzwang_decides, single) {
            if position.wins_statically_after(cell)
                || position.first_player_wins_by_combination_after(cell)
            {
                return settle(true, 1);
            }
            return Head::Moves(moves, Some([u8::MAX; 16]));
        }
        if zugzwang_decides {
            let mut gaps = [0u8; 16];
            for cell in moves {
                let gap = position.winning_gap_after(cell);
                if gap == 0
                    || (G::combination_worth_asking(gap)
                        && position.first_player_wins_by_combination_after(cell))
                {
                    return settle(true, 1);
                }
                gaps[G::column_of(cell) as usize] = gap.min(u8::MAX as u32) as u8;
            }
            return Head::Moves(moves, Some(gaps));
        }
    } else {
        // White's zugzwang on an odd threat, or on a threat combination (tried together with
        // the zugzwang after each move of the parent, the combination where it is worth asking,
        // so not again where that failed).
        if zugzwang_decides
            && !rule_failed
            && (position.first_player_wins_statically()
                || position.first_player_wins_by_combination())
        {
            // The two rules prove opposite values: they must never both apply.
            debug_assert!(!moves
                .iter()
                .any(|cell| position.after(cell).second_player_holds()));
            return settle(true, 1);
        }
        if let (true, Some(cell)) = (holds_decides, single) {
            if position.holds_after(cell) {
                return settle(false, 0);
            }
            return Head::Moves(moves, Some([u8::MAX; 16]));
        }
        if holds_decides {
            // As for white above (the twin loop: a shared helper taking the gap as a function
            // ran 14 % more instructions).
            let mut gaps = [0u8; 16];
            for cell in moves {
                let gap = position.holding_gap_after(cell);
                if gap == 0 {
                    return settle(false, 0);
                }
                gaps[G::column_of(cell) as usize] = gap.min(u8::MAX as u32) as u8;
            }
            return Head::Moves(moves, Some(gaps));
        }
    }
    Head::Moves(moves, None)
}
