//! `score4 prove` on MPI (the `mpi` feature): real `mpirun` (MPICH's Hydra) with three ranks
//! oversubscribing the machine's cores, on positions whose value the sequential solver gives;
//! a worker rank killed with SIGKILL mid-run, `--stop-after` and SIGINT (also SIGINT before the
//! run has begun), each resumed to the end by the same command; a worker rank that cannot make
//! its table.
#![cfg(feature = "mpi")]

mod common;

use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use score4_board::GameRecord;
use score4_solver::{Replacement, Solver, TranspositionTable};
use score4_store::Store;

/// A hold of 24 stones whose proof takes some 30 s of two worker ranks here: long enough to
/// be killed or stopped mid-run.
const LONG: &str = "AF68D6C793B885C852BDD5AA";

fn score4_path() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("score4")
}

/// `mpirun -n ranks score4 prove moves --store store ...` (one thread a rank, 256 MiB).
fn mpirun(ranks: u32, moves: &str, store: &Path, extra: &[&str]) -> Command {
    mpirun_with_memory(ranks, moves, store, "256MiB", extra)
}

/// [`mpirun`] with a table of `memory` a rank.
fn mpirun_with_memory(
    ranks: u32,
    moves: &str,
    store: &Path,
    memory: &str,
    extra: &[&str],
) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["-n", &ranks.to_string()])
        .arg(score4_path())
        .args(["prove", moves, "--store"])
        .arg(store)
        .args(["--threads", "1", "--memory", memory, "--progress", "none"])
        .args(extra);
    command
}

fn sequential_value(moves: &str) -> bool {
    let game: GameRecord = moves.parse().unwrap();
    let table = TranspositionTable::of_size(256 << 20, Replacement::TwoBig).unwrap();
    Solver::new(&table).first_player_wins(game.position())
}

fn claim(wins: bool) -> &'static str {
    if wins {
        "the first player (X) wins"
    } else {
        "the first player (X) does not win"
    }
}

fn wait_at_most(child: &mut Child, limit: Duration) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("mpirun still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The processes of `score4 prove` on `store` that are rank `rank`.
fn ranks_pids(store: &Path, rank: u32) -> Vec<u32> {
    let wanted = format!("PMI_RANK={rank}");
    let store = store.display().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains(&store)
                && environ
                    .split(|&b| b == 0)
                    .any(|variable| variable == wanted.as_bytes())
        })
        .collect()
}

/// Waits until the store records `runs` runs: the ranks have made their tables and rank 0 has
/// begun its run. Signalling or killing earlier would test the start, not a run under way.
fn wait_for_runs(store: &Path, runs: usize, limit: Duration) {
    let started = Instant::now();
    loop {
        let recorded = Store::open_for_reading(store)
            .and_then(|store| store.runs())
            .map_or(0, |recorded| recorded.len());
        if recorded >= runs {
            return;
        }
        assert!(
            started.elapsed() < limit,
            "{}: {recorded} runs recorded after {limit:?}, {runs} awaited",
            store.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Sends SIGINT to `mpirun` (which forwards it to every rank) and checks that the run ended
/// cleanly within a minute; what it printed.
fn interrupt(run: &mut Child) -> String {
    let sent = Command::new("kill")
        .args(["-INT", &run.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = wait_at_most(run, Duration::from_secs(60));
    let mut said = String::new();
    std::io::Read::read_to_string(run.stdout.as_mut().unwrap(), &mut said).unwrap();
    std::io::Read::read_to_string(run.stderr.as_mut().unwrap(), &mut said).unwrap();
    // Rank 0 exits 130; what mpirun then returns is Hydra's choice (130 or 0 seen here).
    assert!(said.contains("stopped by SIGINT"), "{status:?}: {said}");
    assert!(matches!(status.code(), Some(130 | 0)), "{status:?}: {said}");
    said
}

fn run_to_the_end(moves: &str, store: &Path) -> String {
    let output = mpirun(3, moves, store, &["--checkpoint", "1s"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn three_ranks_give_the_sequential_solvers_values() {
    let dir = tempfile::tempdir().unwrap();
    for moves in [
        "6CAE6791F18B269AD699E11A4D5055",
        "A7F0082911A278D5491CD54E6552",
        "8314AF47B999EBD1F8E73B8D3462541B",
        "9B42352047551D44859FA0D1C6",
    ] {
        let store = dir.path().join(format!("{moves}.sqlite"));
        let output = mpirun(3, moves, &store, &["--checkpoint", "5ms", "--json"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let wins = sequential_value(moves);
        assert_eq!(report["value"], i32::from(wins), "{moves}: {report}");
        // The run is recorded with the ranks that did it.
        let status =
            common::stdout_of_success(common::score4().args(["store", "status"]).arg(&store));
        assert!(status.contains("and 2 worker ranks: 2 threads"), "{status}");
    }
}

#[test]
fn a_killed_worker_rank_ends_the_run_and_the_same_command_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("killed.sqlite");
    let mut run = mpirun(3, LONG, &store, &["--checkpoint", "1s"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Some commits first: the run has begun, then a few checkpoints have passed.
    wait_for_runs(&store, 1, Duration::from_secs(120));
    std::thread::sleep(Duration::from_secs(3));
    let workers = ranks_pids(&store, 1);
    assert_eq!(workers.len(), 1, "rank 1 not found");
    let killed = Command::new("kill")
        .args(["-KILL", &workers[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = wait_at_most(&mut run, Duration::from_secs(60));
    assert!(
        !status.success(),
        "a run that lost a rank cannot have ended well"
    );
    // What was committed before is kept, and the same command resumes to the value.
    let said = run_to_the_end(LONG, &store);
    assert!(said.contains(claim(false)), "{said}");
    assert!(said.contains("over 2 runs"), "{said}");
}

#[test]
fn stop_after_and_sigint_end_a_cluster_run_cleanly_and_it_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("stopped.sqlite");
    // --stop-after: exit 0, the value still open, a last commit made.
    let output = mpirun(
        3,
        LONG,
        &store,
        &["--checkpoint", "1s", "--stop-after", "3s", "--json"],
    )
    .output()
    .unwrap();
    assert!(output.status.success(), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["value"], serde_json::Value::Null, "{report}");
    assert_eq!(report["stopped"], "stop-after", "{report}");
    assert!(report["committed"].as_u64().unwrap() > 0, "{report}");
    // SIGINT to mpirun, which forwards it to every rank: rank 0 ends the run with a last
    // commit, the worker ranks when rank 0 tells them.
    let mut run = mpirun(3, LONG, &store, &["--checkpoint", "1s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_runs(&store, 2, Duration::from_secs(120));
    std::thread::sleep(Duration::from_secs(2));
    interrupt(&mut run);
    let said = run_to_the_end(LONG, &store);
    assert!(said.contains(claim(false)), "{said}");
    assert!(said.contains("over 3 runs"), "{said}");
}

/// Whether process `pid` has a handler for SIGINT (bit 1 of `SigCgt` in its status).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}

#[test]
fn sigint_as_soon_as_the_ranks_catch_it_still_ends_the_run_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("early.sqlite");
    // The signal comes as soon as every rank has its handler: most often while rank 0 still
    // waits for the worker ranks' tables, before the run has begun (the reason signals are
    // caught before joining the MPI run), at the latest just after.
    let mut run = mpirun_with_memory(3, LONG, &store, "1GiB", &["--checkpoint", "1s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !(0..3).all(|rank| {
        let pids = ranks_pids(&store, rank);
        !pids.is_empty() && pids.iter().all(|&pid| catches_sigint(pid))
    }) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "ranks not started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let said = interrupt(&mut run);
    // The run has its row, and the same command resumes to the value.
    let runs = Store::open_for_reading(&store).unwrap().runs().unwrap();
    assert_eq!(runs.len(), 1, "{said}");
    let said = run_to_the_end(LONG, &store);
    assert!(said.contains(claim(false)), "{said}");
    assert!(said.contains("over 2 runs"), "{said}");
}

#[test]
fn a_worker_rank_without_its_table_ends_the_run_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("small.sqlite");
    let mut command = Command::new("mpirun");
    command
        .args(["-n", "2"])
        .arg(score4_path())
        .args(["prove", "A7F0082911A278D5491CD54E6552", "--store"])
        .arg(&store)
        .args(["--threads", "1", "--memory", "1MiB", "--progress", "none"]);
    let mut run = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_at_most(&mut run, Duration::from_secs(30));
    let mut stderr = String::new();
    std::io::Read::read_to_string(run.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(!status.success());
    assert!(
        stderr.contains("rank 1") && stderr.contains("table"),
        "{stderr}"
    );
}
