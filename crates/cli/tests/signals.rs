//! Clean stops, with real processes and real signals: Ctrl-C (SIGINT) or SIGTERM during
//! `solve`, `bench`, `analyze`, `play` and `verify --search-parts` ends each within a few
//! seconds, with what was finished printed or saved, and exit code 130 or 143. (`prove` and `serve` have theirs in
//! tests/prove.rs and tests/serve.rs.)

mod common;

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A 24-stone position whose solve and analysis take far longer than these tests wait.
const HARD: &str = "AF68D6C793B885C852BDD5AA";

fn start(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("score4"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` to `child` after `after`, then waits at most `within` for it to end: its
/// status, standard output and standard error.
fn stop(
    mut child: Child,
    signal: &str,
    after: Duration,
    within: Duration,
) -> (ExitStatus, String, String) {
    std::thread::sleep(after);
    assert!(
        child.try_wait().unwrap().is_none(),
        "it ended before the signal"
    );
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > within {
            let _ = child.kill();
            panic!("still running {within:?} after {signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut out, mut err) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, out, err)
}

const SOON: Duration = Duration::from_millis(2500);
const WITHIN: Duration = Duration::from_secs(3);

#[test]
fn analyze_prints_what_it_found_when_stopped() {
    let child = start(&["analyze", HARD, "--time", "60s", "--tt-size", "600MiB"]);
    let (status, out, err) = stop(child, "-INT", SOON, WITHIN);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(out.contains("stopped by SIGINT"), "{out}");
    assert!(out.contains("analysed in"), "{out}");

    let child = start(&[
        "analyze",
        HARD,
        "--time",
        "60s",
        "--tt-size",
        "600MiB",
        "--json",
    ]);
    let (status, out, err) = stop(child, "-TERM", SOON, WITHIN);
    assert_eq!(status.code(), Some(143), "{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(json["stopped_by"], "SIGTERM");
    assert!(!json["moves"].as_array().unwrap().is_empty());
}

#[test]
fn solve_prints_the_positions_done_and_the_summary_when_stopped() {
    let directory = tempfile::tempdir().unwrap();
    let file = directory.path().join("positions.txt");
    // Two quick positions first, then one that takes minutes.
    std::fs::write(
        &file,
        format!("A0F831EC4B738BA7F5BB8805623C0740\n33876243E775270CBD9ACEFDB39E41E4085B81D564AF\n{HARD}\n"),
    )
    .unwrap();
    let child = start(&[
        "solve",
        "--file",
        file.to_str().unwrap(),
        "--memory",
        "600MiB",
        "--threads",
        "1",
    ]);
    let (status, out, err) = stop(child, "-INT", SOON, WITHIN);
    assert_eq!(status.code(), Some(130), "{out}{err}");
    assert!(out.contains("A0F831EC4B738BA7F5BB8805623C0740"), "{out}");
    assert!(
        out.contains("33876243E775270CBD9ACEFDB39E41E4085B81D564AF"),
        "{out}"
    );
    assert!(format!("{out}{err}").contains("SIGINT"), "{out}{err}");
}

#[test]
fn bench_keeps_its_rows_and_files_when_stopped() {
    let directory = tempfile::tempdir().unwrap();
    let out_dir = directory.path().join("run");
    let child = start(&[
        "bench",
        "--difficulty",
        "24",
        "--positions",
        "1000",
        "--tt-size",
        "600MiB",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (status, out, err) = stop(child, "-INT", SOON, WITHIN);
    assert_eq!(status.code(), Some(130), "{out}{err}");
    assert!(
        err.contains("stopped by SIGINT during difficulty 24"),
        "{err}"
    );
    assert!(out.contains("24"), "the difficulty's row: {out}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("bench.json")).unwrap())
            .unwrap();
    let result = &saved["difficulties"][0];
    assert_eq!(result["difficulty"], 24);
    assert_eq!(result["finished"], false);
    assert!(
        result["seconds"].as_f64().unwrap() < 60.0,
        "the time spent, not the limit"
    );
}

#[test]
fn play_prints_the_game_so_far_when_stopped() {
    // A person's turn: score4 waits for a line that never comes.
    let child = start(&[
        "play",
        "--human",
        "x",
        "--tt-size",
        "600MiB",
        "--start",
        "0FC3",
    ]);
    let (status, out, err) = stop(child, "-TERM", SOON, WITHIN);
    assert_eq!(status.code(), Some(143), "{err}");
    assert!(
        out.contains("result: stopped by SIGTERM, X to move"),
        "{out}"
    );
    assert!(out.contains("record: 0FC3"), "{out}");

    // score4 thinking against itself.
    let child = start(&[
        "play",
        "--human",
        "none",
        "--time",
        "20s",
        "--tt-size",
        "600MiB",
    ]);
    let (status, out, err) = stop(child, "-INT", SOON, WITHIN);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(out.contains("result: stopped by SIGINT"), "{out}");
    assert!(out.contains("record: "), "{out}");
}

#[test]
fn verify_stops_every_leaf_search_when_stopped() {
    // Reply A's top: two threads each search one of its 12-stone leaves, for minutes.
    let top =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proofs/0FC3484B7A.top.cert");
    let child = start(&[
        "verify",
        top.to_str().unwrap(),
        "--search-parts",
        "--threads",
        "2",
        "--memory",
        "600MiB",
    ]);
    let (status, out, err) = stop(child, "-TERM", SOON, WITHIN);
    assert_eq!(status.code(), Some(143), "{out}{err}");
    assert!(
        err.contains("stopped by SIGTERM while searching 0FC3484B7A9"),
        "{err}"
    );
    assert!(!out.contains("valid"), "{out}");
}
