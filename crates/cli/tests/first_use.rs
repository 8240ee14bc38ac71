//! What a new user meets first: the default memory, `--time-limit`, progress when standard
//! error is not a terminal, a stop by a real signal, `--each-move` valued for the player who
//! moves, and help that lists the choices.

mod common;
use common::{json_lines, score4};
use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Eight stones: far beyond any time a test can give, so a search of it only ends when stopped.
const HARD: &str = "0FC3484B";

/// Positions of `stones` stones from the generator.
fn positions(stones: u32, count: usize) -> Vec<String> {
    score4_bench::PositionGenerator::new(stones, 5)
        .take(count)
        .map(|g| g.to_string())
        .collect()
}

#[test]
fn the_default_solve_takes_a_gibibyte_and_says_why() {
    let position = &positions(40, 1)[0];
    let output = score4().args(["solve", position]).output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "memory 1.0 GiB (the default, which starts in about a second; --memory all would take"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("one per physical core, the default"),
        "{stdout}"
    );
    score4()
        .args(["solve", "--memory", "lots", position])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("(or all)"));
}

#[test]
fn a_time_limit_gives_up_a_position_with_what_was_proven_and_goes_on() {
    let easy = &positions(44, 1)[0];
    for threads in ["1", "2"] {
        let started = Instant::now();
        let output = score4()
            .args(["solve", "--json", "--mode", "exact", "--threads", threads])
            .args(["--time-limit", "1s", "--progress", "none", HARD, easy])
            .output()
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(60));
        assert!(output.status.success(), "an unknown row is not a failure");
        let rows = json_lines(&output.stdout);
        assert_eq!(rows.len(), 2, "the run goes on after the position given up");
        let (unknown, solved) = (&rows[0], &rows[1]);
        assert_eq!(unknown["position"], HARD);
        assert!(unknown["value"].is_null(), "{unknown}");
        assert_eq!(unknown["stopped"], "time limit");
        let (lower, upper) = (unknown["lower"].as_i64(), unknown["upper"].as_i64());
        assert!(lower.unwrap() <= upper.unwrap(), "{unknown}");
        assert!(unknown["seconds"].as_f64().unwrap() >= 1.0);
        assert!(solved["value"].is_i64(), "{solved}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("1 solved") && stderr.contains("1 unknown"),
            "{stderr}"
        );
    }
    let table = score4()
        .args([
            "solve",
            "--mode",
            "exact",
            "--threads",
            "1",
            "--time-limit",
            "0.5s",
            HARD,
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&table.stdout);
    assert!(
        stdout.contains("unknown") && stdout.contains("(stopped by the time limit: proven score"),
        "{stdout}"
    );
}

#[test]
fn off_a_terminal_a_long_search_prints_plain_progress_lines() {
    // Standard error is a pipe here: the default progress is a plain line every
    // --progress-every, from the sequential solver's heartbeat and from the parallel solver.
    for threads in ["1", "2"] {
        let output = score4()
            .args(["solve", "--threads", threads, "--progress-every", "0.25s"])
            .args(["--time-limit", "1.6s", HARD])
            .output()
            .unwrap();
        assert!(output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| line.starts_with(&format!("progress: {HARD}: ")))
            .collect();
        assert!(lines.len() >= 3, "threads {threads}: {stderr}");
        assert!(
            lines.iter().all(|line| line.contains(" M nodes (")),
            "{stderr}"
        );
    }
    // A position solved within the first interval shows none.
    let output = score4()
        .args(["solve", "--progress-every", "5s", &positions(44, 1)[0]])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&output.stderr).contains("progress:"));
}

#[test]
fn sigint_stops_the_search_reports_it_and_prints_the_summary() {
    let easy = &positions(44, 1)[0];
    let binary = assert_cmd::cargo::cargo_bin("score4");
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let mut child = std::process::Command::new(&binary)
            .args(["solve", "--threads", "1", "--progress", "none", HARD, easy])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The table's header is printed once the table is built and the signals are caught;
        // half a second later the search is under way.
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        let mut stdout = String::new();
        reader.read_line(&mut stdout).unwrap();
        assert!(stdout.starts_with("value"), "{stdout}");
        std::thread::sleep(Duration::from_millis(500));
        // The shell's own kill: no kill binary need be installed.
        let killed = std::process::Command::new("sh")
            .args(["-c", &format!("kill -{signal} {}", child.id())])
            .status()
            .unwrap();
        assert!(killed.success());
        reader.read_to_string(&mut stdout).unwrap();
        let status = child.wait().unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(status.code(), Some(code), "{stdout}{stderr}");
        let name = format!("SIG{signal}");
        assert!(
            stdout.contains("unknown") && stdout.contains(&format!("stopped by {name}")),
            "{stdout}"
        );
        assert!(stdout.contains("summary: 0 solved"), "{stdout}");
        assert!(
            !stdout.contains(easy.as_str()),
            "the positions after it are not solved"
        );
        assert!(stderr.contains(&format!("stopped by {name}")), "{stderr}");
    }
}

/// The values of `solve --json ARGS`.
fn values(args: &[&str]) -> Vec<serde_json::Value> {
    let output = score4()
        .args(["solve", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success());
    json_lines(&output.stdout)
}

#[test]
fn each_move_values_every_row_for_the_player_who_makes_the_move() {
    // The best of the moves, for the mover, is the position's own value, in every mode that
    // takes sides; in first-wins mode a row says whether X wins, whoever moves.
    for position in positions(40, 4) {
        for mode in ["wdl", "exact"] {
            let args = ["--mode", mode, "--tt-size", "600MiB", "--threads", "1"];
            let own = values(&[&args[..], &[position.as_str()]].concat())[0]["value"].clone();
            let rows = values(&[&args[..], &["--each-move", position.as_str()]].concat());
            let mover = if position.len() % 2 == 0 { "X" } else { "O" };
            assert!(rows.iter().all(|row| row["value_for"] == mover), "{rows:?}");
            let best = rows.iter().map(|row| row["value"].as_i64().unwrap()).max();
            assert_eq!(best, own.as_i64(), "{position} {mode}");
        }
        let own = values(&[position.as_str()])[0]["value"].as_i64().unwrap();
        let rows = values(&["--each-move", position.as_str()]);
        assert!(rows.iter().all(|row| row["value_for"] == "X"), "{rows:?}");
        let white_moves = position.len() % 2 == 0;
        let x_wins = |row: &serde_json::Value| row["value"] == 1;
        let expected = if white_moves {
            rows.iter().any(x_wins)
        } else {
            rows.iter().all(x_wins)
        };
        assert_eq!(own == 1, expected, "{position} first-wins");
    }
    let output = score4()
        .args([
            "solve",
            "--mode",
            "wdl",
            "--tt-size",
            "600MiB",
            "--each-move",
            "0123",
        ])
        .args(["--time-limit", "0.2s"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with(
            "# --each-move: a row per legal move; its value is for the player who makes the move"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("# 0123: X to move"), "{stdout}");
    assert!(stdout.contains("loss for the player who moves"), "{stdout}");
}

#[test]
fn help_lists_the_choices_of_every_option_with_a_fixed_set() {
    let output = score4().args(["solve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    for choices in [
        "[possible values: first-wins, wdl, exact]",
        "[possible values: twobig, new, big]",
        "[possible values: win, loss]",
        "--time-limit",
    ] {
        assert!(help.contains(choices), "{choices}: {help}");
    }
}
