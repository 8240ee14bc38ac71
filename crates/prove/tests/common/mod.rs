//! What the proof tests share.
#![allow(dead_code)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use score4_board::GameRecord;
use score4_prove::{prove, JobOrder, ProveConfig, ProveReport};
use score4_solver::Mode;
use score4_store::{Run, Store};

/// A first-wins proof on two threads and a 128 MiB table, committing every 20 ms, with
/// `checkpoint`.
pub fn config(checkpoint: Duration) -> ProveConfig {
    ProveConfig {
        mode: Mode::FirstWins,
        threads: 2,
        table_bytes: 128 << 20,
        checkpoint,
        job_order: JobOrder::Moves,
        commit_every: Duration::from_millis(20),
        progress_every: Duration::from_secs(3600),
        run: Run {
            id: 0,
            root: String::new(),
            mode: "first-wins".to_owned(),
            started: 0.0,
            stopped: 0.0,
            host: "test".to_owned(),
            threads: 2,
            memory: 128 << 20,
            version: "test".to_owned(),
            nodes: 0,
            outcome: String::new(),
        },
    }
}

/// Proves `game` on `store` to the end, with `config(checkpoint)` and no stop.
pub fn prove_to_the_end(game: &GameRecord, store: &mut Store, checkpoint: Duration) -> ProveReport {
    let stop = AtomicBool::new(false);
    prove(
        game.position(),
        &game.to_string(),
        store,
        &config(checkpoint),
        &stop,
        |_| {},
    )
    .unwrap()
}
