//! [`Engine`]: a table sized and built once, then positions evaluated on it one after another,
//! by the sequential or the parallel solver, in the settings' mode.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use score4_analysis::{Analysis, Player};
use score4_game::Game;
use score4_parallel::{Config as ParallelConfig, Race};
use score4_solver::{
    narrow, BestFirst, Mode, Monitor, Replacement, SearchStats, Solver, TableConfig, TableError,
    TranspositionTable,
};

use crate::error::EngineError;
use crate::evaluation::{Evaluation, Event, Interrupted, ParallelCounts};
use crate::settings::{Memory, Setting, Settings};

/// The table `settings` ask for, for keys of `G`.
fn table_config<G: Game>(settings: &Settings) -> TableConfig {
    let threads = settings.threads.max(1);
    let (table_bytes, _) = settings.memory.split(threads);
    TableConfig::new(table_bytes, G::KEY_WIDTH)
        .replacement(settings.replacement)
        .format(settings.mode.format())
        .threads(threads)
        .leaf_area(settings.leaf_area)
}

/// For memory settings too small for their table: the smallest memory (the same kind of
/// [`Memory`], whole MiB) that works with `settings`' replacement scheme, then with each of the
/// other schemes, all else unchanged. Empty if none up to 1 PiB would.
fn smallest_memory<G: Game>(settings: &Settings) -> Vec<(Replacement, u64)> {
    const MIB: u64 = 1 << 20;
    let works = |replacement: Replacement, mebibytes: u64| {
        let memory = match settings.memory {
            Memory::Budget(_) => Memory::Budget(mebibytes * MIB),
            Memory::Table(_) => Memory::Table(mebibytes * MIB),
        };
        let settings = Settings {
            memory,
            replacement,
            ..settings.clone()
        };
        TranspositionTable::check(&table_config::<G>(&settings)).is_ok()
    };
    let others = Replacement::ALL
        .into_iter()
        .filter(|&replacement| replacement != settings.replacement);
    std::iter::once(settings.replacement)
        .chain(others)
        .filter_map(|replacement| {
            // Tables grow with the memory, so the first size that works is found by halving.
            let (mut fails, mut works_at) = (0u64, 1u64 << 30);
            if !works(replacement, works_at) {
                return None;
            }
            while works_at - fails > 1 {
                let middle = fails + (works_at - fails) / 2;
                if works(replacement, middle) {
                    works_at = middle;
                } else {
                    fails = middle;
                }
            }
            Some((replacement, works_at * MIB))
        })
        .collect()
}

/// The one entry point for solving positions of a game `G`: it owns the transposition table
/// (shared by every evaluation, so that later positions profit from earlier ones) and chooses
/// the solver by the number of threads.
///
/// ```
/// use score4_engine::{Engine, Memory, Mode, Settings};
/// use score4_board::{GameRecord, Position};
/// let engine = Engine::<Position>::new(Settings::new(Mode::Wdl, Memory::Table(600 << 20)))
///     .expect("a table of 600 MiB");
/// // X has three in a row on the bottom layer and it is its move: X wins.
/// let game: GameRecord = "041526".parse().unwrap();
/// let evaluation = engine.evaluate(game.position(), |_| {}).expect("not stopped");
/// assert_eq!(evaluation.value, 1);
/// ```
pub struct Engine<G: Game> {
    settings: Settings,
    table: TranspositionTable,
    tree_bytes: u64,
    set_up: Duration,
    stop: Arc<Monitor>,
    /// Evaluations running now. The last one to end lowers the stop flag: a stop raised while
    /// several run on one engine must reach them all, and one that ends first must not take it
    /// from the others.
    running: AtomicUsize,
    game: PhantomData<fn(G)>,
}

impl<G: Game> Engine<G> {
    /// An engine with `settings`: the memory split between table and tree, the table built
    /// (in the format the mode needs, for `G`'s keys). Fails if the table cannot be made: a
    /// size too small for exact entries or a near-leaf area that does not fit
    /// ([`EngineError::is_bad_input`]), or memory the system refuses.
    pub fn new(settings: Settings) -> Result<Engine<G>, EngineError> {
        let started = Instant::now();
        let threads = settings.threads.max(1);
        let (_, tree_bytes) = settings.memory.split(threads);
        let config = table_config::<G>(&settings);
        let table = TranspositionTable::new(&config).map_err(|error| {
            let setting = if error.concerns_leaf_area() {
                Setting::LeafArea
            } else {
                match settings.memory {
                    Memory::Budget(_) => Setting::MemoryBudget,
                    Memory::Table(_) => Setting::TableSize,
                }
            };
            let smallest = match (setting, &error) {
                (Setting::LeafArea, _) | (_, TableError::OutOfMemory { .. }) => Vec::new(),
                _ => smallest_memory::<G>(&settings),
            };
            EngineError::Table {
                setting,
                mode: settings.mode,
                threads,
                error,
                smallest,
            }
        })?;
        Ok(Engine {
            settings: Settings {
                threads,
                ..settings
            },
            table,
            tree_bytes,
            set_up: started.elapsed(),
            stop: Arc::new(Monitor::default()),
            running: AtomicUsize::new(0),
            game: PhantomData,
        })
    }

    /// The settings, with the number of threads at least one.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The table, for its size and statistics.
    pub fn table(&self) -> &TranspositionTable {
        &self.table
    }

    /// Empties the table, so that the next evaluation's count does not depend on the ones
    /// before it.
    pub fn clear_table(&self) {
        self.table.clear();
    }

    /// The most bytes the parallel solver's tree may take (0 with one thread).
    pub fn tree_bytes(&self) -> u64 {
        if self.settings.threads > 1 {
            self.tree_bytes
        } else {
            0
        }
    }

    /// The time it took to build the table.
    pub fn set_up_time(&self) -> Duration {
        self.set_up
    }

    /// A handle that stops the evaluation running now, from another thread or a signal
    /// handler's thread ([`StopHandle::stop`]). One stop serves the engine: a stop raised while
    /// no evaluation runs ends the next one at once, and evaluations running at the same time
    /// on one engine stop together.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// `position`'s value in the settings' mode ([`Evaluation::value`]), calling `on_event` as
    /// the parallel solver reports (the sequential solver reports nothing).
    ///
    /// `Err` if the stop handle was used: then with what was proven of the score. The table
    /// holds only proven values either way, and once no other evaluation of the engine is
    /// running the stop is cleared for the next one.
    ///
    /// Contract: nobody has four in a line in `position`.
    pub fn evaluate(
        &self,
        position: &G,
        on_event: impl FnMut(Event<'_>),
    ) -> Result<Evaluation, Interrupted> {
        self.evaluate_within(position, None, on_event)
    }

    /// [`Self::evaluate`], given up at `deadline` if it is still running then.
    pub fn evaluate_within(
        &self,
        position: &G,
        deadline: Option<Instant>,
        on_event: impl FnMut(Event<'_>),
    ) -> Result<Evaluation, Interrupted> {
        let _running = Running::enter(&self.running, &self.stop);
        if self.settings.threads == 1 {
            self.evaluate_sequentially(position, deadline)
        } else {
            self.evaluate_in_parallel(position, deadline, on_event)
        }
    }

    /// One thread: the sequential solver (with the best-first driver if the settings ask).
    fn evaluate_sequentially(
        &self,
        position: &G,
        deadline: Option<Instant>,
    ) -> Result<Evaluation, Interrupted> {
        let best_first = self.settings.best_first.then_some(BestFirst::DEFAULT);
        let mut solver = Solver::new(&self.table)
            .with_monitor(&self.stop)
            .with_best_first(best_first)
            .with_book(self.settings.book.as_deref());
        let before = solver.stats();
        let started = Instant::now();
        match solver.evaluate_within(position, self.settings.mode, deadline) {
            Ok(valuation) => Ok(Evaluation {
                mode: valuation.mode,
                value: valuation.value,
                range: valuation.range,
                stats: valuation.stats,
                seconds: valuation.seconds,
                parallel: None,
            }),
            Err(range) => Err(Interrupted {
                range,
                stats: solver.stats().since(&before),
                seconds: started.elapsed().as_secs_f64(),
            }),
        }
    }

    /// Several threads: one parallel solve per question of the narrowing (one in first-wins
    /// mode), each reported as it goes.
    fn evaluate_in_parallel(
        &self,
        position: &G,
        deadline: Option<Instant>,
        mut on_event: impl FnMut(Event<'_>),
    ) -> Result<Evaluation, Interrupted> {
        let started = Instant::now();
        let mut stats = SearchStats::default();
        let mut counts = ParallelCounts::default();
        let config = ParallelConfig {
            threads: self.settings.threads,
            dag_bytes: self.tree_bytes,
            threshold: 1,
            assumption: self.settings.assumption,
            first_cutoff: self.settings.first_cutoff,
            progress_every: self.settings.progress_every,
            deadline,
            stop: Some(Arc::clone(&self.stop)),
            book: self.settings.book.clone(),
            race: self
                .settings
                .race_after
                .filter(|_| self.settings.mode == Mode::FirstWins && self.settings.best_first)
                .map(|after| Race {
                    after,
                    best_first: BestFirst::DEFAULT,
                }),
        };
        let narrowed = narrow(position, self.settings.mode, |threshold| {
            on_event(Event::Question { threshold });
            let config = ParallelConfig {
                threshold,
                ..config.clone()
            };
            let solution = score4_parallel::solve(position, &self.table, &config, |progress| {
                on_event(Event::Progress(progress))
            });
            on_event(Event::QuestionDone);
            let (counted, last, by_race) = match &solution {
                Ok(solution) => (solution.stats, &solution.progress, solution.by_race),
                Err(abandoned) => (abandoned.stats, &abandoned.progress, false),
            };
            stats += counted;
            counts.add(last, by_race);
            let solution = solution.ok()?;
            Some(solution.first_player_wins)
        });
        let seconds = started.elapsed().as_secs_f64();
        match narrowed {
            Ok((value, range)) => Ok(Evaluation {
                mode: self.settings.mode,
                value,
                range,
                stats,
                seconds,
                parallel: Some(counts),
            }),
            Err(range) => Err(Interrupted {
                range,
                stats,
                seconds,
            }),
        }
    }

    /// Every legal move of `position` valued within `time` (exact where the solver gets
    /// there, else what it proved and a heuristic estimate), the best move and a principal
    /// variation ([`score4_analysis::analyze`]), on this engine's table.
    ///
    /// Contract: the settings' mode is wdl or exact (a table of bounds); the game goes on.
    pub fn analyze(&self, position: &G, time: Duration) -> Analysis<G::Column> {
        self.analysis(position, time, None)
    }

    /// [`Self::analyze`], cut short when `monitor`'s stop flag is raised: one analysis among
    /// several on the shared table stops alone (the engine's [`StopHandle`] stops them all).
    pub fn analyze_watched(
        &self,
        position: &G,
        time: Duration,
        monitor: &Monitor,
    ) -> Analysis<G::Column> {
        self.analysis(position, time, Some(monitor))
    }

    fn analysis(
        &self,
        position: &G,
        time: Duration,
        monitor: Option<&Monitor>,
    ) -> Analysis<G::Column> {
        assert_ne!(
            self.mode(),
            Mode::FirstWins,
            "analysis needs a table of bounds"
        );
        let book = self.settings.book.as_deref();
        score4_analysis::analyze_watched(position, &self.table, book, time, monitor)
    }

    /// A player that chooses its moves on this engine's table within `time` per move
    /// ([`score4_analysis::Player`]). Contract: as [`Self::analyze`].
    pub fn player(&self, time: Duration) -> Player<'_> {
        assert_ne!(self.mode(), Mode::FirstWins, "play needs a table of bounds");
        Player::new(&self.table, time).with_book(self.settings.book.as_deref())
    }

    /// The mode, for convenience.
    pub fn mode(&self) -> Mode {
        self.settings.mode
    }
}

/// One evaluation counted in [`Engine`]'s `running` while it lives; the last to end (also by
/// a panic) clears the stop.
struct Running<'e> {
    running: &'e AtomicUsize,
    stop: &'e Monitor,
}

impl<'e> Running<'e> {
    fn enter(running: &'e AtomicUsize, stop: &'e Monitor) -> Running<'e> {
        running.fetch_add(1, Ordering::SeqCst);
        Running { running, stop }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if self.running.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.stop.resume();
        }
    }
}

/// Stops an engine's running evaluation ([`Engine::stop_handle`]).
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<Monitor>);

impl StopHandle {
    /// Asks the running evaluation to stop: it returns [`Interrupted`] within a few
    /// milliseconds (the sequential solver looks every few thousand nodes, the parallel one
    /// every [`score4_parallel::STOP_LATENCY`]).
    pub fn stop(&self) {
        self.0.stop();
    }

    /// The nodes of the sequential search running now, as it last published them (every few
    /// thousand nodes), for a sign of life while it runs; the parallel solver reports its own
    /// ([`Event::Progress`]) and leaves this alone.
    pub fn sequential_nodes(&self) -> u64 {
        self.0.nodes()
    }
}
