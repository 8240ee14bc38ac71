//! `solve --mode`, `analyze` and `play` end to end: values against the library, a scripted
//! game to a legal record, engine self-play to the end, and bad input.

mod common;
use common::{json_lines, score4, stdout_of_success};
use score4_board::{GameRecord, Outcome};
use score4_classic::ClassicRecord;
use score4_engine::{Engine, Memory, Mode, Replacement, Settings, TranspositionTable};

/// Large enough for a table of bounds (at least 522 MiB for TWOBIG).
const TT: &str = "600MiB";

/// The game record `play` prints last (`record: MOVES`).
fn record_of(stdout: &str) -> &str {
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("record: "))
        .expect("a record")
}

fn positions(stones: u32, count: usize) -> Vec<String> {
    score4_bench::PositionGenerator::new(stones, 11)
        .take(count)
        .map(|g| g.to_string())
        .collect()
}

/// The engine's value of `moves` in `mode`, on the smallest table of bounds, to compare the
/// binary's with.
fn library(moves: &str, mode: Mode) -> i32 {
    let game: GameRecord = moves.parse().unwrap();
    let bytes = TranspositionTable::minimum_bytes_for(Replacement::New, mode.format());
    let settings = Settings {
        replacement: Replacement::New,
        ..Settings::new(mode, Memory::Table(bytes))
    };
    let engine = Engine::new(settings).unwrap();
    engine.evaluate(game.position(), |_| {}).unwrap().value
}

#[test]
fn solve_in_every_mode_gives_the_library_values_and_names_the_mode() {
    let moves = positions(42, 4);
    for (mode, name) in [
        (Mode::FirstWins, "first-wins"),
        (Mode::Wdl, "wdl"),
        (Mode::Exact, "exact"),
    ] {
        for threads in ["1", "2"] {
            let stdout = stdout_of_success(
                score4()
                    .args(["solve", "--json", "--progress", "none", "--tt-size", TT])
                    .args(["--mode", name, "--threads", threads])
                    .args(&moves),
            );
            let rows = json_lines(stdout.as_bytes());
            assert_eq!(rows.len(), moves.len());
            for (row, moves) in rows.iter().zip(&moves) {
                assert_eq!(row["mode"], name);
                assert_eq!(row["value"], library(moves, mode), "{moves} in {name}");
            }
        }
    }
}

#[test]
fn analyze_json_agrees_with_solving_each_move() {
    let moves = &positions(44, 1)[0];
    let stdout = stdout_of_success(score4().args([
        "analyze",
        moves,
        "--json",
        "--time",
        "30s",
        "--tt-size",
        TT,
    ]));
    let analysis = &json_lines(stdout.as_bytes())[0];
    let game: GameRecord = moves.parse().unwrap();
    let mut best = i32::MIN;
    for m in analysis["moves"].as_array().unwrap() {
        let column = m["column"].as_str().unwrap();
        let mut child = game.clone();
        let score = match child
            .play(column.parse::<GameRecord>().unwrap().moves()[0])
            .unwrap()
        {
            Outcome::Won(_) => 32 - game.position().count() as i32 / 2,
            _ => -library(&child.to_string(), Mode::Exact),
        };
        assert_eq!(m["kind"], "exact", "{moves} {column}");
        assert_eq!(m["score"], score, "{moves} {column}");
        best = best.max(score);
    }
    let chosen = analysis["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["column"] == analysis["best"])
        .unwrap();
    assert_eq!(chosen["score"], best);
    // The table beside the board, for people.
    score4()
        .args(["analyze", moves, "--time", "5s", "--tt-size", TT])
        .assert()
        .success()
        .stdout(predicates::str::contains("best move"))
        .stdout(predicates::str::contains("z=0"));
}

#[test]
fn analyze_labels_heuristic_values_as_the_side_to_move_s_and_no_score() {
    // No move of the empty board is decided in a second: every one shows the range proven and
    // the heuristic's value, which the legend and the best move's sentence explain.
    let stdout = stdout_of_success(score4().args(["analyze", "", "--time", "1s", "--tt-size", TT]));
    assert!(stdout.contains(" move  value for X "), "{stdout}");
    let rows = stdout
        .lines()
        .filter(|line| line.contains(", heuristic ") && !line.contains("best move"))
        .count();
    assert_eq!(rows, 16, "{stdout}");
    assert!(
        stdout.contains(
            "\nheuristic: the heuristic search's value for X (the side to move), higher is \
             better for X: not a score\n"
        ),
        "{stdout}"
    );
    let best = stdout
        .lines()
        .find(|line| line.starts_with("X (first player) to move; best move "))
        .expect("the best move's line");
    assert!(best.contains(": unknown, proven -"), "{best}");
    assert!(
        best.contains(" for X, not a score; expected line: "),
        "{best}"
    );
    assert!(
        !stdout.contains("estimate") && !stdout.contains("(-"),
        "{stdout}"
    );
    // JSON keeps the field `estimate`, the same value.
    let json = stdout_of_success(score4().args([
        "analyze",
        "",
        "--time",
        "1s",
        "--tt-size",
        TT,
        "--json",
    ]));
    let analysis = &json_lines(json.as_bytes())[0];
    for m in analysis["moves"].as_array().unwrap() {
        assert_eq!(m["kind"], "unknown", "{m}");
        assert!(m["estimate"].is_i64(), "{m}");
    }
}

#[test]
fn a_scripted_game_between_two_humans_ends_with_its_record() {
    // X wins on the fourth stone of column 0 ... after hint, show, a bad line and an undo; the
    // second show lists X's opening on top of column 0.
    let script = "0\n1\nhint\n0\nshow\n7\nundo\n2\n0\nZZ\nshow\n3\n0\n";
    let args = [
        "play",
        "--human",
        "both",
        "--time",
        "100ms",
        "--tt-size",
        TT,
    ];
    let opening = "X: openings column 0 at z=3; other threats none";
    check_scripted_game(&args, script, "ZZ", opening, "0102030");
}

/// Runs `play` with `args` on `script`: line 10 is bad (`bad` in the message), a hint is given,
/// one move undone and a `show` lists the line `threats`, X wins, and the record is `record`.
fn check_scripted_game(args: &[&str], script: &str, bad: &str, threats: &str, record: &str) {
    let output = score4().args(args).write_stdin(script).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "a bad line: {stderr}");
    assert!(
        stderr.contains("input line 10") && stderr.contains(bad),
        "{stderr}"
    );
    assert!(stdout.contains("hint: "), "{stdout}");
    assert!(stdout.contains(&format!("\n{threats}\n")), "{stdout}");
    assert!(stdout.contains("undone: 1 move\n"), "{stdout}");
    assert!(stdout.contains("result: X has won"), "{stdout}");
    assert!(stdout.contains(&format!("record: {record}\n")), "{stdout}");
}

#[test]
fn score4_against_itself_plays_a_legal_game_to_the_end() {
    let start = &positions(36, 1)[0];
    let stdout = stdout_of_success(
        score4()
            .args([
                "play",
                "--human",
                "none",
                "--time",
                "200ms",
                "--tt-size",
                TT,
            ])
            .args(["--start", start]),
    );
    let record = record_of(&stdout);
    assert!(record.starts_with(start.as_str()));
    let game: GameRecord = record.parse().expect("a legal record");
    assert_ne!(game.outcome(), Outcome::Ongoing, "played to the end");
    // The record goes back into solve and analyze (here: the last position before the end).
    let before_end = &record[..record.len() - 1];
    score4()
        .args(["solve", "--mode", "exact", "--tt-size", TT, before_end])
        .assert()
        .success();
}

#[test]
fn a_human_against_score4_with_piped_moves() {
    // The human (O) answers whatever score4 plays with the first legal column from a script;
    // the input ends before the game: the record so far is printed.
    let stdout = stdout_of_success(
        score4()
            .args(["play", "--human", "o", "--time", "100ms", "--tt-size", TT])
            .write_stdin("F\nE\nD\n"),
    );
    assert!(stdout.contains("score4 (X) plays"), "{stdout}");
    let record = record_of(&stdout);
    let game: GameRecord = record.parse().expect("a legal record");
    assert!(game.moves().len() >= 6, "{record}");
}

#[test]
fn bad_input_to_analyze_play_and_modes_is_a_clear_error() {
    for (args, message) in [
        (vec!["analyze", "00000"], "move 5: column 0 is full"),
        (vec!["analyze", "0102030"], "the game is over"),
        (vec!["analyze", "012G"], "move 4"),
        (vec!["analyze", "0", "--tt-size", "64MiB"], "too small"),
        (vec!["analyze", "0", "--time", "soon"], "--time"),
        (vec!["play", "--start", "0102030"], "the game is over"),
        (vec!["play", "--human", "z"], "--human"),
        (
            vec!["solve", "--mode", "sharp", "0"],
            "[possible values: first-wins, wdl, exact]",
        ),
        (
            vec!["solve", "--mode", "exact", "--tt-size", "256MiB", "0"],
            "too small",
        ),
    ] {
        score4()
            .args(&args)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
}

#[test]
fn the_classic_game_is_solved_in_pons_notation_and_scores() {
    // Pons's convention: the side to move wins with its k-th stone for 22 - k. "4453" is an
    // early position; a line of his End-Easy set scores -1.
    let output = score4()
        .args([
            "--game",
            "classic",
            "solve",
            "--mode",
            "exact",
            "--json",
            "--tt-size",
            TT,
        ])
        .args(["2252576253462244111563365343671351441", "12121212", "448"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "two bad positions");
    let rows = json_lines(&output.stdout);
    assert_eq!(rows[0]["value"], -1);
    assert_eq!(rows[0]["mode"], "exact");
    assert!(rows[1]["error"]
        .as_str()
        .unwrap()
        .contains("move 8 (column 2)"));
    assert!(rows[2]["error"]
        .as_str()
        .unwrap()
        .contains("'8' is not a column"));
}

#[test]
fn the_classic_game_is_solved_in_parallel_too() {
    // Every 50th line of Pons's Middle-Medium set, strong, with two workers.
    let lines: Vec<(String, i32)> = score4_bench::pons::set("Test_L2_R2")
        .into_iter()
        .step_by(50)
        .collect();
    let input: Vec<&str> = lines.iter().map(|(moves, _)| moves.as_str()).collect();
    let output = score4()
        .args(["--game", "classic", "solve", "--mode", "exact", "--json"])
        .args([
            "--threads",
            "2",
            "--progress",
            "json",
            "--progress-every",
            "0.001",
        ])
        .write_stdin(input.join("\n"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let rows = json_lines(&output.stdout);
    assert_eq!(rows.len(), lines.len());
    for (row, (moves, published)) in rows.iter().zip(&lines) {
        assert_eq!(row["value"], *published, "{moves}");
    }
    // Live progress names the classic columns 1-7, and each position's last report has
    // nothing running.
    let reports: Vec<serde_json::Value> = stderr
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(|line| serde_json::from_str(line).expect("a JSON progress line"))
        .collect();
    for (moves, _) in &lines {
        let mine: Vec<_> = reports
            .iter()
            .filter(|r| r["position"] == **moves)
            .collect();
        let last = mine.last().expect("a progress report for every position");
        assert_eq!(last["running"], 0, "{last}");
        for report in mine {
            for column in report["moves"].as_object().unwrap().keys() {
                assert!(["1", "2", "3", "4", "5", "6", "7"].contains(&column.as_str()));
            }
        }
    }
}

#[test]
fn the_classic_game_is_analysed_and_played() {
    // The first line of Pons's Middle-Medium set scores 0: every move gets an exact score,
    // the best one his.
    let stdout = stdout_of_success(score4().args([
        "--game",
        "classic",
        "analyze",
        "274552224131661",
        "--json",
        "--time",
        "30s",
    ]));
    let analysis = &json_lines(stdout.as_bytes())[0];
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    assert!(moves.iter().all(|m| m["kind"] == "exact"), "{stdout}");
    let best = moves.iter().map(|m| m["score"].as_i64().unwrap()).max();
    assert_eq!(best, Some(0));
    let chosen = moves.iter().find(|m| m["column"] == analysis["best"]);
    assert_eq!(chosen.unwrap()["score"], 0);

    // Two humans: X wins in column 1 after a hint, a show, a bad line and an undo; the second
    // show lists X's opening on top of column 1.
    let script = "1\n2\n1\nhint\n2\nshow\n7\nundo\n1\n9\nshow\n2\n1\n";
    let args = [
        "--game", "classic", "play", "--human", "both", "--time", "100ms",
    ];
    let opening = "X: openings column 1 at row 4; other threats none";
    check_scripted_game(&args, script, "column (1-7)", opening, "1212121");

    // score4 against itself from an End-Easy position plays to a legal end.
    let stdout = stdout_of_success(score4().args([
        "--game",
        "classic",
        "play",
        "--human",
        "none",
        "--time",
        "100ms",
        "--start",
        "2252576253462244111563365343671351441",
    ]));
    let record: ClassicRecord = record_of(&stdout).parse().expect("a legal record");
    assert!(record.is_over(), "{stdout}");
    score4()
        .args(["--game", "classic", "analyze", "4455667"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("the game is over (X has won)"));
}

/// The JSON rows of `score4 --game classic solve --mode exact --json ARGS`, which must succeed.
fn classic_exact_rows(args: &[&str]) -> Vec<serde_json::Value> {
    let classic = ["--game", "classic", "solve", "--mode", "exact", "--json"];
    json_lines(stdout_of_success(score4().args(classic).args(args)).as_bytes())
}

#[test]
fn the_classic_game_values_each_move_like_the_3d_game() {
    // X has three in the bottom row (columns 4, 5, 6): columns 3 and 7 win at once with X's
    // fourth stone, 22 - 4 = 18 for X, who makes the move and for whom each row is valued.
    let each = classic_exact_rows(&["--each-move", "445566"]);
    assert_eq!(each.len(), 7, "one row per column");
    for row in &each {
        let moves = row["position"].as_str().unwrap();
        assert_eq!(row["value_for"], "X", "{row}");
        let ends = moves.ends_with('3') || moves.ends_with('7');
        assert_eq!(row["ends_game"].as_bool().unwrap_or(false), ends, "{row}");
        if ends {
            assert_eq!(row["value"], 18, "{row}");
            continue;
        }
        // Solved alone, the position after the move is valued for O, who is to move there.
        let alone = classic_exact_rows(&[moves]);
        assert_eq!(
            -alone[0]["value"].as_i64().unwrap(),
            row["value"],
            "{moves}"
        );
        assert_eq!(row["game"], "classic");
    }
}
