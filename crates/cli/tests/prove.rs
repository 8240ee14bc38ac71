//! `score4 prove` and `score4 store` as real processes on real SQLite files: a proof killed with
//! SIGKILL again and again resumes to the value an uninterrupted solve finds, the store passes
//! SQLite's integrity check after every kill, a second process reads the store during a run,
//! and bad stores are refused with the file named.

mod common;
use common::{score4, stdout_of_success};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use score4_store::Store;

/// 22 stones; the first player wins, and only with column 6. About 30 M nodes: some 8 s on two
/// threads, long enough to be killed many times.
const POSITION: &str = "4ADD7EB265E49F0CC207AB";

/// The arguments of a prove of `POSITION` on `store` with a short checkpoint.
fn prove_args(store: &Path) -> Vec<String> {
    ["prove", POSITION, "--store"]
        .iter()
        .map(|s| s.to_string())
        .chain([store.display().to_string()])
        .chain(
            [
                "--threads",
                "2",
                "--memory",
                "256MiB",
                "--checkpoint",
                "0.5s",
            ]
            .iter()
            .map(|s| s.to_string()),
        )
        .collect()
}

/// Checks the replies `store status --depth` lists under `row` (a move of the first player
/// when `first_players_move`), down the whole listing, and returns how many it lists: each
/// has more than one node, the listed and the counted ones are at most 16 moves, and none
/// contradicts the move's value (a proven move of the first player has no refuted reply; a
/// proven reply of the first player makes the second player's move before it refuted, i.e.
/// proven for the first player).
fn replies_agree(row: &serde_json::Value, first_players_move: bool) -> usize {
    let replies = row["replies"].as_array().cloned().unwrap_or_default();
    let others: u64 = row["others"].as_object().map_or(0, |others| {
        others.values().map(|n| n.as_u64().unwrap()).sum()
    });
    if replies.is_empty() && others == 0 {
        return 0;
    }
    // Every legal reply, listed or counted: 16 but for full columns.
    assert!(replies.len() as u64 + others <= 16, "{row}");
    let status = row["status"].as_str().unwrap();
    let mut listed = replies.len();
    for reply in &replies {
        assert!(reply["nodes"].as_u64().unwrap() > 1, "{reply}");
        let reply_status = reply["status"].as_str().unwrap();
        if first_players_move {
            assert!(
                !(status == "proven" && reply_status == "refuted"),
                "a proven move with a refuted reply: {row}"
            );
        } else {
            assert!(
                !(status == "refuted" && reply_status == "proven"),
                "a refuted reply with a proven answer: {row}"
            );
        }
        listed += replies_agree(reply, !first_players_move);
    }
    listed
}

fn json_of(output: &[u8]) -> serde_json::Value {
    serde_json::from_slice(output).expect("one JSON object")
}

#[test]
fn a_proof_killed_twenty_times_resumes_to_the_value_of_an_uninterrupted_solve() {
    let dir = tempfile::tempdir().unwrap();
    let solved = score4()
        .args([
            "solve",
            "--json",
            "--threads",
            "1",
            "--memory",
            "256MiB",
            POSITION,
        ])
        .output()
        .unwrap();
    let expected = json_of(&solved.stdout)["value"].clone();
    let whole = dir.path().join("whole.db");
    let uninterrupted = score4()
        .args(prove_args(&whole))
        .args(["--json", "--progress", "none"])
        .output()
        .unwrap();
    assert!(uninterrupted.status.success());
    let uninterrupted = json_of(&uninterrupted.stdout);
    assert_eq!(uninterrupted["value"], expected, "{uninterrupted}");
    let rate =
        uninterrupted["nodes"].as_f64().unwrap() / uninterrupted["seconds"].as_f64().unwrap();

    let store = dir.path().join("killed.db");
    let binary = assert_cmd::cargo::cargo_bin("score4");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut positions = 0;
    for kill in 0..20 {
        let mut child = Process::new(&binary)
            .args(prove_args(&store))
            .args(["--progress", "json", "--progress-every", "0.1s"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read progress reports until a moment drawn between 0.4 s and 1.6 s, then kill.
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let at = Duration::from_millis(400 + (seed >> 33) % 1200);
        let started = Instant::now();
        let mut reports = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut last_nodes = 0;
        while started.elapsed() < at {
            match reports.next() {
                Some(Ok(line)) => {
                    if let Ok(report) = serde_json::from_str::<serde_json::Value>(&line) {
                        last_nodes = report["nodes"].as_u64().unwrap_or(last_nodes);
                    }
                }
                _ => break, // it ended (proven) before the moment came
            }
        }
        let _ = child.kill(); // SIGKILL
        child.wait().unwrap();
        let reopened = Store::open_for_reading(&store).unwrap();
        reopened
            .check_integrity()
            .unwrap_or_else(|error| panic!("after kill {kill}: {error}"));
        let now = reopened.summary().unwrap().positions;
        assert!(now >= positions, "a kill never loses committed positions");
        positions = now;
        // Finished work not yet committed is lost: at most about a commit interval of it.
        if let Some(run) = reopened.runs().unwrap().last() {
            let lost = last_nodes.saturating_sub(run.nodes) as f64;
            assert!(
                lost <= rate * 2.0 * 1.5,
                "kill {kill}: {lost} nodes finished but not committed"
            );
        }
    }
    let prove_to_the_end = || {
        let mut command = score4();
        command
            .args(prove_args(&store))
            .args(["--json", "--progress", "none"]);
        json_of(stdout_of_success(&mut command).as_bytes())
    };
    let resumed = prove_to_the_end();
    assert_eq!(resumed["value"], expected, "{resumed}");
    assert!(resumed["runs"].as_u64().unwrap() >= 2, "{resumed}");
    // Once proven, the store answers at once.
    let again = prove_to_the_end();
    assert_eq!(
        (again["value"].clone(), again["nodes"].as_u64()),
        (expected, Some(0))
    );
}

#[test]
fn store_status_reads_the_store_while_a_proof_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    // A proof of minutes, stopped by SIGTERM once seen running.
    let live = dir.path().join("live.db");
    let hard = "180A23C9B53C74B507BB42";
    let binary = assert_cmd::cargo::cargo_bin("score4");
    let mut args = prove_args(&live);
    args[1] = hard.to_owned();
    let child = Process::new(&binary)
        .args(&args)
        .args(["--progress", "none"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first commit of a split (the checkpoint is half a second).
    let started = Instant::now();
    let status = loop {
        std::thread::sleep(Duration::from_millis(250));
        let output = score4()
            .args(["store", "status", "--json"])
            .arg(&live)
            .output()
            .unwrap();
        if output.status.success() {
            let status = json_of(&output.stdout);
            if status["positions"].as_u64().unwrap_or(0) >= 1 {
                break status;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no commit in a minute"
        );
    };
    assert_eq!(status["runs"][0]["outcome"], "running", "{status}");
    assert_eq!(status["roots"][0]["position"], hard);
    // A second prove on the same store is refused while the first runs.
    score4()
        .args(&args)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("in use by another process"));
    let killed = Process::new("sh")
        .args(["-c", &format!("kill -TERM {}", child.id())])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("not proven yet (stopped by SIGTERM)"),
        "{stdout}"
    );
    let status = json_of(
        &score4()
            .args(["store", "status", "--json"])
            .arg(&live)
            .output()
            .unwrap()
            .stdout,
    );
    assert_eq!(status["runs"][0]["outcome"], "stopped", "{status}");
    // A proof to its end: its status, export and merge.
    let store = dir.path().join("done.db");
    stdout_of_success(
        score4()
            .args(prove_args(&store))
            .args(["--progress", "none"]),
    );
    let status = score4()
        .args(["store", "status"])
        .arg(&store)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(text.contains("the first player wins"), "{text}");
    assert!(text.contains("move  6: proven"), "{text}");
    // Deeper: each move's replies the proof worked on, and the others counted.
    let deep = score4()
        .args(["store", "status", "--depth", "3", "--json"])
        .arg(&store)
        .output()
        .unwrap();
    let deep = json_of(&deep.stdout);
    let mut listed = 0;
    for row in deep["roots"][0]["moves"].as_array().unwrap() {
        listed += replies_agree(row, true);
    }
    assert!(listed > 0, "no reply listed at depth 3: {deep}");
    let text = String::from_utf8_lossy(
        &score4()
            .args(["store", "status", "--depth", "2"])
            .arg(&store)
            .output()
            .unwrap()
            .stdout,
    )
    .into_owned();
    assert!(text.lines().any(|line| line.starts_with("    6")), "{text}");
    // Export gives lines `solve` reads, and merge copies them.
    let export = score4()
        .args(["store", "export"])
        .arg(&store)
        .output()
        .unwrap();
    let lines = String::from_utf8_lossy(&export.stdout);
    assert!(
        lines
            .lines()
            .any(|line| line == format!("{POSITION} +1..?")),
        "{lines}"
    );
    let merged = dir.path().join("merged.db");
    score4()
        .args(["store", "merge"])
        .args([&merged, &store])
        .assert()
        .success();
    let merged = Store::open_for_reading(&merged).unwrap();
    assert_eq!(
        merged.summary().unwrap().positions,
        Store::open_for_reading(&store)
            .unwrap()
            .summary()
            .unwrap()
            .positions
    );
}

#[test]
fn bad_stores_and_faults_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "just text, not a database at all ".repeat(200)).unwrap();
    score4()
        .args(["prove", "0123", "--store"])
        .arg(&text)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("notes.txt: not a score4 store"));
    score4()
        .args(["store", "status"])
        .arg(dir.path().join("missing.db"))
        .assert()
        .failure()
        .stderr(predicates::str::contains("missing.db"));
    // A 3-D store is not a classic one.
    let store = dir.path().join("three.db");
    drop(Store::open_for_writing(&store, "3d").unwrap());
    score4()
        .args(["--game", "classic", "prove", "4455", "--store"])
        .arg(&store)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("a store of the 3d game"));
    // A folder that cannot be written: the store cannot be made, and nothing is left behind.
    let read_only = dir.path().join("read-only");
    std::fs::create_dir(&read_only).unwrap();
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o555);
    std::fs::set_permissions(&read_only, permissions).unwrap();
    let inside = read_only.join("proof.db");
    let output = score4()
        .args(["prove", POSITION, "--store"])
        .arg(&inside)
        .output()
        .unwrap();
    // Root ignores permissions: then the store is made and the proof runs, which is fine.
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("proof.db"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // A full disk, as a file-size limit (80 blocks of 512 bytes in sh): the write fails with a clear error, exit 1, and what
    // was committed before stays readable.
    let limited = dir.path().join("limited.db");
    let binary = assert_cmd::cargo::cargo_bin("score4");
    let output = Process::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 80; exec {} prove {POSITION} --store {} --memory 256MiB --checkpoint 0.5s \
             --progress none",
            binary.display(),
            limited.display()
        ))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("limited.db") && stderr.contains("what was committed before is kept"),
        "{stderr}"
    );
    let kept = Store::open_for_reading(&limited).unwrap();
    kept.check_integrity().unwrap();
}

#[test]
fn a_store_as_a_book_answers_what_the_solver_answers() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("book.db");
    let position = "22724F94BC9AE311CE6502"; // no first-player win, some 18 M nodes
    score4()
        .args(["prove", position, "--store"])
        .arg(&store)
        .args([
            "--memory",
            "256MiB",
            "--checkpoint",
            "0.2s",
            "--progress",
            "none",
        ])
        .assert()
        .success();
    let export = score4()
        .args(["store", "export"])
        .arg(&store)
        .output()
        .unwrap();
    let positions = dir.path().join("held-in.txt");
    std::fs::write(&positions, &export.stdout).unwrap();
    let rows = |book: bool| -> Vec<serde_json::Value> {
        let mut command = score4();
        command.args([
            "solve",
            "--json",
            "--threads",
            "1",
            "--memory",
            "256MiB",
            "--file",
        ]);
        command.arg(&positions);
        if book {
            command.arg("--book").arg(&store);
        }
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    };
    let (searched, booked) = (rows(false), rows(true));
    assert!(searched.len() >= 20, "{} held-in positions", searched.len());
    assert_eq!(searched.len(), booked.len());
    for (searched, booked) in searched.iter().zip(&booked) {
        assert_eq!(searched["position"], booked["position"]);
        assert_eq!(searched["value"], booked["value"], "{booked}");
        assert_eq!(
            (booked["book"].clone(), booked["nodes"].as_u64()),
            (true.into(), Some(0))
        );
    }
    // A book of the other game, or not a store, is refused.
    score4()
        .args(["--game", "classic", "solve", "4455", "--book"])
        .arg(&store)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("a store of the 3d game"));
}

#[test]
fn solve_analyze_and_play_read_the_book_inside_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let set = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/positions/d28.txt");
    let set = std::fs::read_to_string(set).unwrap();
    let positions: Vec<&str> = set
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_whitespace().next())
        .take(10)
        .collect();
    let mut hits = 0;
    for (i, moves) in positions.iter().enumerate() {
        let store = dir.path().join(format!("{i}.db"));
        score4()
            .args(["prove", moves, "--memory", "256MiB", "--checkpoint", "1ms"])
            .args(["--progress", "none", "--store"])
            .arg(&store)
            .assert()
            .success();
        // A first-wins proof decides neither win/draw/loss nor the score of a position the
        // first player does not win: the position is searched, reading the book below it.
        let wdl = |book: bool| -> serde_json::Value {
            let mut command = score4();
            command.args(["solve", moves, "--mode", "wdl", "--json", "--threads", "1"]);
            command.args(["--memory", "600MiB"]);
            if book {
                command
                    .arg("--book")
                    .arg(&store)
                    .args(["--book-stones", "64"]);
            }
            json_of(stdout_of_success(&mut command).as_bytes())
        };
        let (searched, read) = (wdl(false), wdl(true));
        assert_eq!(searched["value"], read["value"], "{moves}: {read}");
        assert_eq!(searched.get("book_hits"), None);
        hits += read["book_hits"].as_u64().unwrap();
        if i == 0 {
            let analysis = stdout_of_success(
                score4()
                    .args([
                        "analyze",
                        moves,
                        "--time",
                        "1s",
                        "--json",
                        "--tt-size",
                        "600MiB",
                    ])
                    .arg("--book")
                    .arg(&store),
            );
            assert_eq!(json_of(analysis.as_bytes())["position"], *moves);
            score4()
                .args(["play", "--start", moves, "--tt-size", "600MiB", "--book"])
                .arg(&store)
                .write_stdin("quit\n")
                .assert()
                .success();
        }
    }
    assert!(hits > 0, "the book answered no node of the searches");
    // --book-stones needs a book.
    score4()
        .args(["solve", "0", "--book-stones", "30"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--book"));
}

#[test]
fn stop_after_ends_a_run_cleanly_and_the_next_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("stop-after.sqlite");
    let started = Instant::now();
    let output = score4()
        .args(prove_args(&store))
        .args(["--stop-after", "1s", "--json", "--progress", "none"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "it did not stop"
    );
    let report = json_of(&output.stdout);
    assert_eq!(report["value"], serde_json::Value::Null, "{report}");
    assert_eq!(report["stopped"], "stop-after", "{report}");
    let runs = Store::open_for_reading(&store).unwrap().runs().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].outcome, "stopped");
    let output = score4()
        .args(prove_args(&store))
        .args(["--json", "--progress", "none"])
        .output()
        .unwrap();
    let report = json_of(&output.stdout);
    assert_eq!(report["value"], 1, "{report}");
    assert_eq!(report["runs"], 2, "{report}");
}
