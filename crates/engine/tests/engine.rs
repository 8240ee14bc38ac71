//! The engine against the games' own searches: the same values with one thread and with two,
//! in every mode, for both games; a stop handle that ends a long evaluation, reaches every
//! evaluation running at the time, and leaves the engine ready for the next; and table errors
//! that name the setting they concern.

use std::time::{Duration, Instant};

use score4_board::{GameRecord, Position};
use score4_classic::{ClassicPosition, ClassicRecord};
use score4_engine::{Engine, Event, Game, Memory, Mode, Setting, Settings};

/// The first `count` positions of a committed 3-D benchmark set.
fn three_d(set: &str, count: usize) -> Vec<Position> {
    set.lines()
        .filter(|line| !line.starts_with('#'))
        .take(count)
        .map(|line| *line.parse::<GameRecord>().unwrap().position())
        .collect()
}

/// Every 100th position of Pons's Middle-Medium set, with its published score.
fn classic() -> Vec<(ClassicPosition, i32)> {
    score4_bench::pons::set("Test_L2_R2")
        .into_iter()
        .step_by(100)
        .map(|(moves, score)| (*moves.parse::<ClassicRecord>().unwrap().position(), score))
        .collect()
}

/// The values of `positions` in `mode` with `threads` threads on a table of `bytes`, and the
/// number of progress events seen.
fn values<G: Game>(positions: &[G], mode: Mode, threads: usize, bytes: u64) -> (Vec<i32>, u64) {
    let settings = Settings {
        progress_every: Duration::from_millis(1),
        ..Settings::new(mode, Memory::Table(bytes)).threads(threads)
    };
    let engine = Engine::<G>::new(settings).unwrap();
    let mut events = 0;
    let values = positions
        .iter()
        .map(|position| {
            let evaluation = engine
                .evaluate(position, |event| {
                    if let Event::Progress(_) = event {
                        events += 1;
                    }
                })
                .unwrap();
            assert_eq!(evaluation.mode, mode);
            assert_eq!(evaluation.parallel.is_some(), threads > 1);
            evaluation.value
        })
        .collect();
    (values, events)
}

#[test]
fn one_thread_and_two_agree_in_every_mode_for_both_games() {
    let cube = three_d(include_str!("../../../bench/positions/d36.txt"), 30);
    let pons = classic();
    let pons_positions: Vec<ClassicPosition> = pons.iter().map(|(p, _)| *p).collect();
    assert!(pons.iter().any(|(_, score)| *score > 0) && pons.iter().any(|(_, score)| *score < 0));
    for mode in [Mode::FirstWins, Mode::Wdl, Mode::Exact] {
        let (one, none) = values(&cube, mode, 1, 600 << 20);
        let (two, some) = values(&cube, mode, 2, 600 << 20);
        assert_eq!(one, two, "3-D, {mode}");
        assert_eq!(none, 0, "the sequential solver reports nothing");
        assert!(some > 0, "the parallel solver reports its progress");
        let (one, _) = values(&pons_positions, mode, 1, 16 << 20);
        let (two, _) = values(&pons_positions, mode, 2, 16 << 20);
        assert_eq!(one, two, "classic, {mode}");
        for ((position, published), value) in pons.iter().zip(&one) {
            let expected = match mode {
                Mode::Exact => *published,
                Mode::Wdl => published.signum(),
                // Pons's scores are for the side to move; first-wins asks whether the first
                // player (white) wins.
                Mode::FirstWins => {
                    let mover_wins = *published > 0;
                    let opponent_wins = *published < 0;
                    (mover_wins && position.white_to_move()
                        || opponent_wins && !position.white_to_move()) as i32
                }
            };
            assert_eq!(*value, expected, "classic, {mode}");
        }
    }
}

/// A long evaluation and a short one: a heavy no-win of d24, hundreds of millions of nodes on
/// one thread, and the first position of d44.
fn long_and_short() -> (Position, Position) {
    let hard = *"5A8E7E64AEE25B93D10915D9"
        .parse::<GameRecord>()
        .unwrap()
        .position();
    let easy = three_d(include_str!("../../../bench/positions/d44.txt"), 1)[0];
    (hard, easy)
}

#[test]
fn a_stop_ends_a_long_evaluation_and_the_next_one_runs() {
    let (hard, easy) = long_and_short();
    for threads in [1, 2] {
        let settings = Settings::new(Mode::FirstWins, Memory::Table(256 << 20)).threads(threads);
        let engine = Engine::<Position>::new(settings).unwrap();
        let stop = engine.stop_handle();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            stop.stop();
        });
        let started = Instant::now();
        let interrupted = engine
            .evaluate(&hard, |_| {})
            .expect_err("stopped long before the end");
        stopper.join().unwrap();
        assert!(interrupted.stats.nodes > 0, "{threads} threads");
        assert!(started.elapsed() >= Duration::from_millis(200));
        // The range proven so far holds the value (a no-win: the first player's score ≤ 0).
        assert!(interrupted.range.lower <= 0, "{:?}", interrupted.range);
        // The stop is spent: the next evaluation runs to its end.
        assert!(engine.evaluate(&easy, |_| {}).is_ok(), "{threads} threads");
    }
}

#[test]
fn a_stop_reaches_every_evaluation_running_on_the_engine() {
    // A long evaluation runs on one thread; the stop is raised, and a short evaluation started
    // then on another thread ends at once. Ending, it must not take the stop from the long
    // one, which must end soon after too (on its own it would run for minutes).
    let (hard, easy) = long_and_short();
    let settings = Settings::new(Mode::FirstWins, Memory::Table(256 << 20)).threads(1);
    let engine = Engine::<Position>::new(settings).unwrap();
    let stop = engine.stop_handle();
    std::thread::scope(|scope| {
        let long = scope.spawn(|| engine.evaluate(&hard, |_| {}));
        std::thread::sleep(Duration::from_millis(300));
        stop.stop();
        let stopped = Instant::now();
        assert!(
            engine.evaluate(&easy, |_| {}).is_err(),
            "the stop is raised"
        );
        let long = long.join().unwrap();
        assert!(long.is_err(), "the long evaluation was stopped");
        assert!(
            stopped.elapsed() < Duration::from_secs(10),
            "it ended {:?} after the stop",
            stopped.elapsed()
        );
    });
    // Both have ended: the stop is spent, and the next evaluation runs to its end.
    assert!(engine.evaluate(&easy, |_| {}).is_ok());
}

#[test]
fn table_errors_name_the_setting() {
    let tiny = Settings::new(Mode::Exact, Memory::Table(1 << 20));
    let error = Engine::<Position>::new(tiny).err().unwrap();
    assert!(error.is_bad_input());
    assert_eq!(error.setting(), Setting::TableSize);
    let budget = Settings::new(Mode::Wdl, Memory::Budget(64 << 20));
    let error = Engine::<Position>::new(budget).err().unwrap();
    assert_eq!(error.setting(), Setting::MemoryBudget);
    assert!(error.to_string().contains("too small"), "{error}");
    let leaf = Settings {
        leaf_area: score4_engine::LeafArea::Bytes(64 << 20),
        ..Settings::new(Mode::FirstWins, Memory::Table(16 << 20))
    };
    let error = Engine::<ClassicPosition>::new(leaf).err().unwrap();
    assert_eq!(error.setting(), Setting::LeafArea);
}

#[test]
fn a_memory_too_small_names_the_smallest_that_works_with_each_replacement_scheme() {
    use score4_engine::{EngineError, Replacement, TableError};
    for (memory, threads) in [
        (Memory::Budget(512 << 20), 2),
        (Memory::Budget(100 << 20), 1),
        (Memory::Table(300 << 20), 2),
    ] {
        let settings = Settings::new(Mode::Wdl, memory).threads(threads);
        let Err(EngineError::Table {
            error: TableError::TooSmall { .. },
            smallest,
            ..
        }) = Engine::<Position>::new(settings.clone())
        else {
            panic!("{memory:?} is too small for a table of bounds");
        };
        assert_eq!(smallest.len(), 3, "{smallest:?}");
        assert_eq!(
            smallest[0].0,
            Replacement::TwoBig,
            "the scheme asked for comes first"
        );
        for (replacement, bytes) in smallest {
            let with = |bytes: u64| {
                let memory = match memory {
                    Memory::Budget(_) => Memory::Budget(bytes),
                    Memory::Table(_) => Memory::Table(bytes),
                };
                Settings {
                    replacement,
                    memory,
                    ..settings.clone()
                }
            };
            assert!(
                Engine::<Position>::new(with(bytes)).is_ok(),
                "{replacement} {bytes}"
            );
            assert!(Engine::<Position>::new(with(bytes - (1 << 20))).is_err());
        }
    }
}
