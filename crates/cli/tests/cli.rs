//! The `score4` binary end to end: output formats, reading positions from everywhere, and every
//! kind of bad input (clear message naming what and where, exit code 2, no panic, the rest of
//! the work done).

mod common;
use common::{json_lines, score4};
use predicates::prelude::*;
use score4_engine::{Engine, Memory, Mode, Settings};

/// Small enough for tests, large enough to be legal.
const TT: &str = "128MiB";

/// Positions of 44 stones from the committed generator (quick to solve).
fn positions(count: usize) -> Vec<String> {
    score4_bench::PositionGenerator::new(44, 5)
        .take(count)
        .map(|g| g.to_string())
        .collect()
}

/// The library's answer for `moves`, to compare the binary's with.
fn library_value(moves: &str) -> bool {
    let game: score4_board::GameRecord = moves.parse().unwrap();
    let engine = Engine::new(Settings::new(Mode::FirstWins, Memory::Table(128 << 20))).unwrap();
    engine.evaluate(game.position(), |_| {}).unwrap().value == 1
}

#[test]
fn solve_arguments_as_json_normalises_and_matches_the_library() {
    let moves = positions(3);
    let spaced: Vec<String> = moves
        .iter()
        .map(|m| {
            m.chars()
                .map(|c| format!("{} ", c.to_ascii_lowercase()))
                .collect()
        })
        .collect();
    let output = score4()
        .args(["solve", "--json", "--tt-size", TT])
        .args(&spaced)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = json_lines(&output.stdout);
    assert_eq!(rows.len(), 3);
    for (row, moves) in rows.iter().zip(&moves) {
        assert_eq!(row["position"], moves.as_str());
        assert_eq!(row["mode"], "first-wins");
        assert_eq!(row["value"], library_value(moves) as u8);
        assert!(row["nodes"].as_u64().unwrap() >= 1);
        assert!(row["seconds"].as_f64().unwrap() >= 0.0);
    }
    assert!(String::from_utf8_lossy(&output.stderr).contains("3 solved"));
}

#[test]
fn solve_reads_a_file_and_a_bad_line_does_not_stop_the_others() {
    let moves = positions(2);
    let dir = tempdir();
    let file = dir.join("positions.txt");
    let text = format!(
        "# a comment\n\n{} 12 anything after the moves\n0G12\n{}\n00000\n0102030\n",
        moves[0], moves[1]
    );
    std::fs::write(&file, text).unwrap();
    let output = score4()
        .args(["solve", "--json", "--tt-size", TT, "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "bad lines make exit code 2");
    let rows = json_lines(&output.stdout);
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["position"], moves[0].as_str());
    assert_eq!(rows[2]["position"], moves[1].as_str());
    let error = |i: usize| {
        (
            rows[i]["line"].as_u64().unwrap(),
            rows[i]["error"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(
        error(1),
        (
            4,
            "move 2: 'G' is not a column (expected a hex digit 0-9 or A-F)".into()
        )
    );
    assert_eq!(error(3), (6, "move 5: column 0 is full".into()));
    assert_eq!(error(4), (7, "the game is already over (X has won)".into()));
}

#[test]
fn solve_reads_standard_input_and_prints_a_table_with_a_summary() {
    let moves = positions(2);
    score4()
        .args(["solve", "--tt-size", TT, "--replacement", "new"])
        .write_stdin(format!("{}\n{}\n", moves[0], moves[1]))
        .assert()
        .success()
        .stdout(predicate::str::contains("value").and(predicate::str::contains("nodes")))
        .stdout(predicate::str::contains(moves[0].as_str()))
        .stdout(predicate::str::contains("summary: 2 solved"))
        .stdout(predicate::str::contains("new"));
}

#[test]
fn bad_positions_on_the_command_line_name_the_argument_and_the_move() {
    let good = positions(1).remove(0);
    score4()
        .args(["solve", "--tt-size", TT, good.as_str(), "01x"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("summary: 1 solved"))
        .stderr(
            predicate::str::contains("argument 2").and(predicate::str::contains("move 3: 'x'")),
        );
    score4()
        .args(["solve", "--tt-size", TT, "0000 0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("move 5: column 0 is full"));
    score4()
        .args(["solve", "--tt-size", TT, "01020304"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "move 8 (column 4): the game is already over (X has won)",
        ));
}

#[test]
fn parallel_solve_gives_the_library_values_and_reports_progress_as_json() {
    let moves: Vec<String> = score4_bench::PositionGenerator::new(34, 7)
        .take(4)
        .map(|g| g.to_string())
        .collect();
    for threads in ["2", "3"] {
        let output = score4()
            .args([
                "solve",
                "--json",
                "--memory",
                "256MiB",
                "--threads",
                threads,
            ])
            .args([
                "--progress",
                "json",
                "--progress-every",
                "0.01",
                "--cutoff",
                "1",
            ])
            // With three threads one worker races the tree from the start (docs/PARALLEL.md).
            .args(if threads == "3" {
                &["--race-after", "0"][..]
            } else {
                &[][..]
            })
            .args(&moves)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let rows = json_lines(&output.stdout);
        assert_eq!(rows.len(), moves.len());
        for (row, moves) in rows.iter().zip(&moves) {
            assert_eq!(row["value"], library_value(moves) as u8, "{moves}");
            assert_eq!(row["threads"].as_u64(), threads.parse().ok());
            assert!(row["tasks"].as_u64().is_some(), "{row}");
        }
        // Progress: JSON lines on standard error, the last of each position with nothing
        // running, every root move proven, refuted or open.
        let reports: Vec<serde_json::Value> = stderr
            .lines()
            .filter(|line| line.starts_with('{'))
            .map(|line| serde_json::from_str(line).expect("a JSON progress line"))
            .collect();
        for moves in &moves {
            let last = reports
                .iter()
                .rfind(|r| r["position"] == moves.as_str())
                .expect("a final report for every position");
            assert_eq!(last["running"], 0, "{last}");
            // Three threads race from the start; two would only after 20 s.
            assert_eq!(last["racing"], threads == "3", "{last}");
            for status in last["moves"].as_object().unwrap().values() {
                assert!(["proven", "refuted", "open"].contains(&status.as_str().unwrap()));
            }
        }
        assert!(stderr.contains(&format!("{threads} threads (--threads; parallel solver")));
        assert!(stderr.contains("settled by the race"), "{stderr}");
    }
}

#[test]
fn bad_options_and_files_are_clear_errors_with_exit_code_2() {
    let cases: [(&[&str], &str); 19] = [
        (&["solve", "--tt-size", "1GB", "0"], "unknown size unit"),
        (
            &["solve", "--leaf-area", "sometimes", "0"],
            "(or auto, off)",
        ),
        (
            &["solve", "--tt-size", "128MiB", "--leaf-area", "64MiB", "0"],
            "--leaf-area: a near-leaf area of 64.0 MiB in a table of 128.0 MiB does not fit",
        ),
        (
            &["solve", "--tt-size", "1GiB", "--leaf-area", "16KiB", "0"],
            "the area needs at least 1 MiB",
        ),
        (
            &["solve", "--leaf-area", "off", "0"],
            "--leaf-area: a table of the 3-D game cannot be without its near-leaf area",
        ),
        (
            &["--game", "classic", "solve", "--leaf-area", "64MiB", "4"],
            "needs the 3-D game's 80-bit table keys",
        ),
        (
            &["solve", "--memory", "1MiB", "--threads", "2", "0"],
            "--memory 1.0 MiB is too small for --mode first-wins (with 2 threads the parallel \
             solver's tree takes an eighth, leaving the table 896.0 KiB): its one-word entries \
             need a table of at least 68 MiB with --replacement twobig to keep every key exact; \
             use --memory 77MiB or more, or --replacement new with --memory 39MiB or more",
        ),
        (
            &["solve", "--memory", "1GiB", "--tt-size", "1GiB", "0"],
            "cannot be used with",
        ),
        (
            &["solve", "--threads", "0", "0"],
            "between 1 and 1024 threads",
        ),
        (
            &["solve", "--assume", "draw", "0"],
            "[possible values: win, loss]",
        ),
        (&["solve", "--progress", "loud", "0"], "loud"),
        (&["solve", "--race-after", "soon", "0"], "(or never)"),
        (&["solve", "--tt-size", "lots", "0"], "is not a size"),
        (&["solve", "--tt-size", "1MiB", "0"], "too small"),
        (
            &["solve", "--replacement", "oldest", "0"],
            "[possible values: twobig, new, big]",
        ),
        (
            &["solve", "--tt-size", TT, "--file", "/no/such/file.txt"],
            "cannot read /no/such/file.txt",
        ),
        (&["gen", "--stones", "64"], "64"),
        (
            &["--game", "classic", "bench", "--no-best-first"],
            "--no-best-first and --threads are for the 3-D protocol",
        ),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    for (args, message) in cases {
        score4()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message))
            .stderr(predicate::str::contains("panicked").not());
    }
}

/// The JSON rows of `score4 solve --threads 1 --json ARGS...`, which must succeed. One thread:
/// the sequential solver's node counts are exact and repeatable (the parallel solver's vary).
fn solve_rows(args: &[&str]) -> Vec<serde_json::Value> {
    let output = score4()
        .args(["solve", "--threads", "1", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    json_lines(&output.stdout)
}

/// The row of the move that ends the game among `rows`.
fn ended_row(rows: Vec<serde_json::Value>) -> serde_json::Value {
    rows.into_iter()
        .find(|row| row["ends_game"] == true)
        .expect("a row for the move that ends the game")
}

/// 48 stones, white to move, and both players have an opening (column 3): white's 3 wins at
/// once, and after any other move black wins on 3. Made from the first position of `d46.txt`
/// by two more moves that leave both openings.
const BOTH_OPEN: &str = "2D3BBCB468018B0800EA9DD911E4EE7532F1DC662AAA7F23";

/// 63 stones: the last move fills the board without a four.
const FULL_BUT_ONE: &str = "20DDED4D450FA6695E623F611AEE88B5184459BCCCC99231BB33AFF00A77287";

#[test]
fn solve_each_move_gives_a_row_per_legal_move_and_the_moves_that_end_the_game() {
    let rows = solve_rows(&["--each-move", "--tt-size", TT, BOTH_OPEN]);
    let parent: score4_board::GameRecord = BOTH_OPEN.parse().unwrap();
    let legal: Vec<char> = score4_board::Column::all()
        .filter(|&column| parent.clone().play(column).is_ok())
        .map(|column| column.to_char())
        .collect();
    assert_eq!(rows.len(), legal.len());
    for (row, column) in rows.iter().zip(&legal) {
        let position = row["position"].as_str().unwrap();
        assert_eq!(position, format!("{BOTH_OPEN}{column}"));
        let ends = row["ends_game"] == true;
        assert_eq!(ends, *column == '3', "{position}");
        if ends {
            assert_eq!(
                (row["value"].as_i64(), row["nodes"].as_u64()),
                (Some(1), Some(0))
            );
        } else {
            assert_eq!(row["value"], library_value(position) as i64, "{position}");
            assert!(row["nodes"].as_u64().unwrap() >= 1);
        }
    }
    // Each row is valued for the player who makes its move. The exact score of the win at
    // once: white's 25th stone, 33 - 25 = 8 for white. Then a black win (after white's 4,
    // black's 3 makes four: a win for black, though in first-wins mode the first player does
    // not win) and a move that fills the board (`gen --stones 63 --seed 1`), each in the modes
    // where its value reads differently.
    let cases = [
        (BOTH_OPEN.to_owned(), "exact", 8),
        (format!("{BOTH_OPEN}4"), "first-wins", 0),
        (format!("{BOTH_OPEN}4"), "wdl", 1),
        (FULL_BUT_ONE.to_owned(), "first-wins", 0),
        (FULL_BUT_ONE.to_owned(), "wdl", 0),
        (FULL_BUT_ONE.to_owned(), "exact", 0),
    ];
    for (position, mode, value) in cases {
        let rows = solve_rows(&[
            "--each-move",
            "--mode",
            mode,
            "--tt-size",
            "600MiB",
            &position,
        ]);
        assert_eq!(ended_row(rows)["value"], value, "{position} {mode}");
    }
}

#[test]
fn solve_with_a_cleared_table_counts_each_position_as_if_solved_alone() {
    let parent = positions(1).remove(0);
    let rows = solve_rows(&["--each-move", "--clear-table", "--tt-size", TT, &parent]);
    assert!(rows.len() >= 2);
    let mut searched = 0;
    for row in &rows {
        if row["ends_game"] == true {
            continue;
        }
        let position = row["position"].as_str().unwrap();
        let alone = &solve_rows(&["--tt-size", TT, position])[0];
        assert_eq!(row["value"], alone["value"], "{position}");
        assert_eq!(row["nodes"], alone["nodes"], "{position}");
        searched += 1;
    }
    assert!(searched >= 2);
    // Without the clearing, later moves find what earlier ones stored: the table carries over.
    let nodes = |rows: &[serde_json::Value]| -> Vec<u64> {
        rows.iter()
            .map(|row| row["nodes"].as_u64().unwrap())
            .collect()
    };
    let shared: u64 = nodes(&solve_rows(&["--each-move", "--tt-size", TT, &parent]))
        .iter()
        .sum();
    let cleared: u64 = nodes(&rows).iter().sum();
    assert!(shared < cleared, "shared {shared}, cleared {cleared}");
    // Without --each-move the table is cleared between the input positions.
    let mut args = vec!["--clear-table", "--tt-size", TT];
    args.extend(rows.iter().map(|row| row["position"].as_str().unwrap()));
    assert_eq!(nodes(&solve_rows(&args)), nodes(&rows));
}

#[test]
fn show_draws_the_position_and_its_openings() {
    score4()
        .args(["show", "0f c3 48 4b"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0FC3484B  (8 stones)"))
        .stdout(predicate::str::contains(
            "X · · O  · · · ·  · · · ·  · · · ·  0 1 2 3",
        ))
        .stdout(predicate::str::contains("X (first player) to move"))
        .stdout(predicate::str::contains(
            "O: openings column 7 at z=0; other threats none",
        ));
    // Layers are numbered as the drawing labels them: the top one is z=3.
    score4()
        .args(["show", "012301230123"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "X: openings column 0 at z=3, column 2 at z=3; other threats none\n\
             O: openings column 1 at z=3, column 3 at z=3; other threats none\n",
        ));
    score4()
        .args(["show", "0102030"])
        .assert()
        .success()
        .stdout(predicate::str::contains("X has won"));
    score4()
        .args(["show", "0F-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("move 3: '-' is not a column"));
}

#[test]
fn show_draws_a_classic_position_in_its_own_terms() {
    // X has three in row 1 (columns 4-6) and O three above them: X's openings are columns 3
    // and 7 of row 1, O's threats the cells above those, in row 2.
    score4()
        .args(["--game", "classic", "show", "445566"])
        .assert()
        .success()
        .stdout(predicate::str::contains("445566  (6 stones)\n"))
        .stdout(predicate::str::contains("· · · X X X ·\n1 2 3 4 5 6 7\n"))
        .stdout(predicate::str::contains(
            "X (first player) to move\n\
             X: openings column 3 at row 1, column 7 at row 1; other threats none\n\
             O: openings none; other threats column 3 at row 2, column 7 at row 2\n",
        ));
    score4()
        .args(["--game", "classic", "show", "4455667"])
        .assert()
        .success()
        .stdout(predicate::str::contains("X has won"));
    score4()
        .args(["--game", "classic", "show", "1111111"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "score4 --game classic show: move 7: column 1 is full",
        ));
}

/// The output of `score4 GAME_ARGS gen --stones STONES --count 25 --seed 9`, checked to be the
/// same on a second run and to differ with seed 10.
fn reproducible_gen(game_args: &[&str], stones: &str) -> String {
    let run = |seed: &str| {
        let output = score4()
            .args(game_args)
            .args(["gen", "--stones", stones, "--count", "25", "--seed", seed])
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let first = run("9");
    assert_eq!(first, run("9"));
    assert_ne!(first, run("10"));
    first
}

#[test]
fn gen_is_reproducible_and_writes_a_header() {
    let first = reproducible_gen(&[], "30");
    assert!(first.starts_with("# score4 gen --stones 30 --count 25 --seed 9\n"));
    let positions: Vec<&str> = first.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(positions.len(), 25);
    assert!(positions.iter().all(|p| p.len() == 30));
}

#[test]
fn gen_makes_classic_positions_too_and_refuses_a_full_board() {
    let first = reproducible_gen(&["--game", "classic"], "20");
    assert!(first.starts_with("# score4 --game classic gen --stones 20 --count 25 --seed 9\n"));
    let positions: Vec<&str> = first.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(positions.len(), 25);
    for moves in positions {
        let game: score4_classic::ClassicRecord = moves.parse().unwrap();
        assert_eq!(game.position().count(), 20, "{moves}");
        assert!(!game.is_over(), "{moves}");
    }
    score4()
        .args(["--game", "classic", "gen", "--stones", "42"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 41 stones"));
    // Every other command runs for the classic game too but `bench plot`, which draws the
    // 3-D protocol's runs.
    score4()
        .args(["--game", "classic", "bench", "plot", "run.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("runs of the 3-D protocol"));
}

/// A fresh directory under the target directory (no extra crate for temporary files).
fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("score4-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The committed benchmark sets (the tests run from the crate's directory).
fn sets() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/positions")
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("score4-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn bench_runs_the_protocol_and_writes_csv_json_and_charts() {
    let out = scratch("bench");
    let output = score4()
        .args([
            "bench",
            "--from",
            "48",
            "--to",
            "46",
            "--positions",
            "20",
            "--tt-size",
            TT,
        ])
        .arg("--sets")
        .arg(sets())
        .arg("--out")
        .arg(&out)
        .args(["--label", "cli test"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("solved/asked"), "{stdout}");
    assert!(stdout.contains("20/20"), "{stdout}");
    assert!(stdout.contains("frontier: difficulty 46"), "{stdout}");
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    assert_eq!(run["label"], "cli test");
    let difficulties = run["difficulties"].as_array().unwrap();
    assert_eq!(difficulties.len(), 2);
    assert_eq!(difficulties[0]["difficulty"], 48);
    assert_eq!(difficulties[1]["solved"], 20);
    // The wins agree with the library on the same positions.
    let games = score4_bench::protocol::read_set(&sets().join("d46.txt"), 20).unwrap();
    let wins = games
        .iter()
        .filter(|game| library_value(&game.to_string()))
        .count();
    assert_eq!(difficulties[1]["first_player_wins"], wins as u64);
    let csv = std::fs::read_to_string(out.join("bench.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    // Every solved position is recorded, in the set's order, with nodes adding up.
    for difficulty in difficulties {
        let positions = difficulty["positions"].as_array().unwrap();
        assert_eq!(positions.len(), 20);
        let nodes: u64 = positions.iter().map(|p| p["nodes"].as_u64().unwrap()).sum();
        assert_eq!(difficulty["nodes"].as_u64().unwrap(), nodes);
        assert_eq!(difficulty["stopped_at"], serde_json::Value::Null);
    }
    let recorded: Vec<&str> = difficulties[1]["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["moves"].as_str().unwrap())
        .collect();
    let set: Vec<String> = games.iter().map(|game| game.to_string()).collect();
    assert_eq!(recorded, set);
    let positions_csv = std::fs::read_to_string(out.join("positions.csv")).unwrap();
    assert_eq!(positions_csv.lines().count(), 41);
    assert!(
        stdout.contains("d46: the 10 heaviest of 20 solved positions hold"),
        "{stdout}"
    );
    for chart in ["time.png", "time.svg", "nodes.png", "nodes.svg"] {
        assert!(out.join(chart).exists(), "{chart} missing");
    }
    // Two saved runs on one chart.
    let plots = scratch("plot");
    score4()
        .args(["bench", "plot"])
        .arg(out.join("bench.json"))
        .arg(out.join("bench.json"))
        .arg("--out")
        .arg(&plots)
        .assert()
        .success()
        .stdout(predicate::str::contains("time.svg"));
    let svg = std::fs::read_to_string(plots.join("nodes.svg")).unwrap();
    assert!(
        svg.contains("cli test (bench)"),
        "duplicate labels are told apart"
    );
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(&plots).unwrap();
}

#[test]
fn bench_stops_a_difficulty_at_the_time_limit_and_records_where() {
    let out = scratch("bench-stopped");
    let output = score4()
        .args([
            "bench",
            "--difficulty",
            "20",
            "--time-limit",
            "1s",
            "--tt-size",
            TT,
        ])
        .arg("--sets")
        .arg(sets())
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("(out of time)"), "{stdout}");
    assert!(stdout.contains("frontier: none"), "{stdout}");
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    let difficulty = &run["difficulties"][0];
    let solved = difficulty["solved"].as_u64().unwrap() as usize;
    assert_eq!(difficulty["positions"].as_array().unwrap().len(), solved);
    // The stopped position is the set's next one after those solved.
    let games = score4_bench::protocol::read_set(&sets().join("d20.txt"), solved + 1).unwrap();
    assert_eq!(difficulty["stopped_at"], games[solved].to_string());
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bench_counts_agree_with_their_nouns() {
    let output = score4()
        .args([
            "bench",
            "--positions",
            "1",
            "--difficulty",
            "48",
            "--tt-size",
            TT,
        ])
        .arg("--sets")
        .arg(sets())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("score4 bench: 1 position per difficulty, "),
        "{stdout}"
    );
    assert!(stdout.contains(", 1 thread\n"), "{stdout}");
    assert!(stdout.contains("whose 1 position finished"), "{stdout}");
    assert!(
        stdout.contains("d48: one solved position, place 1 ("),
        "{stdout}"
    );
    assert!(!stdout.contains("(s)"), "{stdout}");
}

#[test]
fn bench_finds_the_committed_sets_from_any_directory() {
    // Outside the repository the defaults bench/positions and bench/pons do not exist here;
    // bench falls back to the repository's copies beside the sources it was built from.
    let elsewhere = scratch("bench-elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let output = score4()
        .current_dir(&elsewhere)
        .args([
            "bench",
            "--positions",
            "2",
            "--difficulty",
            "40",
            "--tt-size",
            TT,
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("2/2"), "{stdout}");
    let output = score4()
        .current_dir(&elsewhere)
        .args(["--game", "classic", "bench", "--pons-set", "Test_L3_R1"])
        .args(["--positions", "2"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("End-Easy"), "{stdout}");
    // A directory the user names is not replaced: the error names it.
    let missing = elsewhere.join("no-such-sets");
    score4()
        .current_dir(&elsewhere)
        .args(["bench", "--positions", "2", "--difficulty", "40", "--sets"])
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "--sets {}: no such directory",
            missing.display()
        )));
    score4()
        .current_dir(&elsewhere)
        .args(["--game", "classic", "bench", "--pons", "no-such-pons"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--pons no-such-pons: no such directory",
        ));
    std::fs::remove_dir_all(&elsewhere).unwrap();
}

#[test]
fn bench_rejects_bad_options_and_files_with_exit_code_2() {
    let cases: [(&[&str], &str); 6] = [
        (&["--threads", "0"], "between 1 and 1024 threads"),
        (&["--leaf-area", "16KiB"], "--leaf-area: a near-leaf area"),
        (&["--time-limit", "soon"], "soon"),
        (&["--positions", "0"], "at least one position"),
        (&["--difficulty", "27"], "d27.txt"),
        (&["--tt-size", "1MiB"], "--tt-size"),
    ];
    for (args, message) in cases {
        score4()
            .arg("bench")
            .args(args)
            .arg("--sets")
            .arg(sets())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    score4()
        .args(["bench", "--difficulty", "48", "--positions", "1001"])
        .arg("--sets")
        .arg(sets())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1000 positions, 1001 asked for"));
    let bad = scratch("bad-json");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("run.json"), "{\"label\": 3}").unwrap();
    score4()
        .args(["bench", "plot"])
        .arg(bad.join("run.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "run.json: not a score4 bench result",
        ));
    std::fs::remove_dir_all(&bad).unwrap();
}

#[cfg(unix)]
#[test]
fn a_reader_that_goes_away_ends_score4_quietly_not_with_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("score4"))
        .args(["gen", "--stones", "20", "--count", "1000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap(); // the reader is dropped here: the pipe closes
    let output = child.wait_with_output().unwrap();
    assert!(first.starts_with("# score4 gen"), "{first}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.signal(), Some(13), "{:?}", output.status);
}
