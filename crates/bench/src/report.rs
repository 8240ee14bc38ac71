//! Reports of a benchmark run: the human table, CSV and JSON.

use std::fmt::Write as _;
use std::path::Path;

use crate::protocol::{BenchRun, DifficultyResult};

/// `n` and its noun in agreement: `1 position`, `2 positions`, `0 positions`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The header of the human table (one row per difficulty, see [`table_row`]).
pub fn table_header() -> String {
    format!(
        "{:>10} {:>13} {:>9} {:>7} {:>11} {:>15} {:>14} {:>10} {:>8}",
        "difficulty",
        "solved/asked",
        "seconds",
        "set-up",
        "s/position",
        "nodes",
        "nodes/position",
        "M nodes/s",
        "hit rate"
    )
}

/// One row of the human table. `set-up` is the part of `seconds` the table's set-up took;
/// `M nodes/s` is over the rest, the seconds of search.
pub fn table_row(result: &DifficultyResult) -> String {
    format!(
        "{:>10} {:>13} {:>9.2} {:>7.2} {:>11.4} {:>15} {:>14.0} {:>10.2} {:>7.1}%{}",
        result.difficulty,
        format!("{}/{}", result.solved, result.asked),
        result.seconds,
        result.setup_seconds,
        result.seconds_per_position(),
        result.nodes,
        result.nodes_per_position(),
        result.nodes_per_second() / 1e6,
        100.0 * result.hit_rate(),
        if result.finished {
            ""
        } else {
            "  (out of time)"
        }
    )
}

/// The sentence about the frontier.
pub fn frontier_line(run: &BenchRun) -> String {
    let limit = run.config.time_limit_seconds;
    match run.frontier() {
        Some(difficulty) => format!(
            "frontier: difficulty {difficulty} (the lowest whose {} finished inside {limit} s, \
             with every higher difficulty run)",
            count(run.config.positions, "position", "positions")
        ),
        None => format!("frontier: none (the highest difficulty run did not finish in {limit} s)"),
    }
}

/// The run as CSV: a header and one row per difficulty, the settings repeated on each row.
/// `seconds` includes `setup_seconds`; `nodes_per_second` is over the seconds of search (the
/// difference).
pub fn to_csv(run: &BenchRun) -> String {
    let mut csv = String::from(
        "label,version,table_bytes,replacement,leaf_area,threads,time_limit_seconds,difficulty,asked,\
         solved,finished,first_player_wins,seconds,setup_seconds,seconds_per_position,nodes,\
         nodes_per_position,nodes_per_second,probes,hits,hit_rate\n",
    );
    for result in &run.difficulties {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{},{},{:.6},{:.6},{:.6},{},{:.1},{:.1},{},{},{:.6}",
            csv_field(&run.label),
            run.version,
            run.config.table_bytes,
            run.config.replacement,
            run.config.leaf_area,
            run.config.threads,
            run.config.time_limit_seconds,
            result.difficulty,
            result.asked,
            result.solved,
            result.finished,
            result.first_player_wins,
            result.seconds,
            result.setup_seconds,
            result.seconds_per_position(),
            result.nodes,
            result.nodes_per_position(),
            result.nodes_per_second(),
            result.probes,
            result.hits,
            result.hit_rate(),
        );
    }
    csv
}

/// The solved positions as CSV: a header and one row per position, each with its run's label,
/// its difficulty, its 1-based place in the set, its moves, value, nodes and seconds.
pub fn to_positions_csv(run: &BenchRun) -> String {
    let mut csv = String::from("label,difficulty,place,moves,first_player_wins,nodes,seconds\n");
    for result in &run.difficulties {
        for (place, position) in result.positions.iter().enumerate() {
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{:.6}",
                csv_field(&run.label),
                result.difficulty,
                place + 1,
                position.moves,
                position.first_player_wins,
                position.nodes,
                position.seconds,
            );
        }
    }
    csv
}

/// How many heaviest positions [`heaviest_line`] weighs.
pub const HEAVIEST: usize = 10;

/// The sentence about where a difficulty's nodes lie: the share the [`HEAVIEST`] heaviest
/// solved positions hold, and the heaviest one (with a single solved position, just that
/// one); `None` when no position was recorded.
pub fn heaviest_line(result: &DifficultyResult) -> Option<String> {
    let (place, heaviest) = *result.heaviest(1).first()?;
    let solved = result.positions.len();
    let share = if solved == 1 {
        "one solved position".to_owned()
    } else {
        format!(
            "the {} heaviest of {solved} solved positions hold {:.1} % of the nodes; the \
             heaviest",
            HEAVIEST.min(solved),
            100.0 * result.heaviest_share(HEAVIEST),
        )
    };
    Some(format!(
        "d{}: {share}, place {} ({}), took {} in {:.2} s",
        result.difficulty,
        place + 1,
        heaviest.moves,
        count(heaviest.nodes as usize, "node", "nodes"),
        heaviest.seconds
    ))
}

/// A CSV field, quoted if it needs to be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The run as pretty JSON (what `score4 bench plot` reads back).
pub fn to_json(run: &BenchRun) -> String {
    serde_json::to_string_pretty(run).expect("a run is always serialisable")
}

/// Reads a run written by [`to_json`].
pub fn read_json(path: &Path) -> Result<BenchRun, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    serde_json::from_str(&text).map_err(|error| {
        format!(
            "{}: not a score4 bench result (line {}, column {}: {error})",
            path.display(),
            error.line(),
            error.column()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{BenchConfig, PositionResult};
    use score4_engine::Replacement;

    fn sample() -> BenchRun {
        BenchRun {
            label: "before, with comma".into(),
            version: "0.1.0".into(),
            config: BenchConfig {
                positions: 2,
                time_limit_seconds: 600.0,
                table_bytes: 1 << 30,
                replacement: Replacement::New,
                threads: 1,
                leaf_area: score4_engine::LeafArea::Auto,
                best_first: true,
            },
            difficulties: vec![DifficultyResult {
                difficulty: 28,
                asked: 2,
                solved: 2,
                first_player_wins: 1,
                seconds: 4.0,
                setup_seconds: 0.5,
                nodes: 1000,
                probes: 100,
                hits: 25,
                finished: true,
                positions: vec![
                    PositionResult {
                        moves: "0F".into(),
                        first_player_wins: true,
                        nodes: 250,
                        seconds: 1.5,
                    },
                    PositionResult {
                        moves: "33".into(),
                        first_player_wins: false,
                        nodes: 750,
                        seconds: 2.0,
                    },
                ],
                stopped_at: None,
            }],
        }
    }

    #[test]
    fn json_round_trips() {
        let run = sample();
        let back: BenchRun = serde_json::from_str(&to_json(&run)).unwrap();
        assert_eq!(back, run);
        assert!(to_json(&run).contains("\"replacement\": \"new\""));
        assert!(to_json(&run).contains("\"leaf_area\": \"auto\""));
        // Runs saved before the near-leaf area existed had none.
        let mut older: serde_json::Value = serde_json::from_str(&to_json(&run)).unwrap();
        older["config"].as_object_mut().unwrap().remove("leaf_area");
        let back: BenchRun = serde_json::from_value(older).unwrap();
        assert_eq!(back.config.leaf_area, score4_engine::LeafArea::Off);
    }

    #[test]
    fn csv_has_one_row_per_difficulty_and_quotes_the_label() {
        let csv = to_csv(&sample());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[1]
            .starts_with("\"before, with comma\",0.1.0,1073741824,new,auto,1,600,28,2,2,true,1,"));
        assert_eq!(lines[0].split(',').count(), 21);
        assert!(
            lines[1].contains(",4.000000,0.500000,2.000000,"),
            "{}",
            lines[1]
        );
        assert!(lines[1].ends_with(",100,25,0.250000"), "{}", lines[1]);
    }

    #[test]
    fn positions_csv_has_one_row_per_solved_position() {
        let csv = to_positions_csv(&sample());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].split(',').count(), 7);
        assert_eq!(lines[1], "\"before, with comma\",28,1,0F,true,250,1.500000");
        assert_eq!(
            lines[2],
            "\"before, with comma\",28,2,33,false,750,2.000000"
        );
    }

    #[test]
    fn the_heaviest_line_names_the_share_and_the_position() {
        let line = heaviest_line(&sample().difficulties[0]).unwrap();
        assert!(
            line.starts_with("d28: the 2 heaviest of 2 solved"),
            "{line}"
        );
        assert!(line.contains("100.0 %"), "{line}");
        assert!(
            line.contains("place 2 (33), took 750 nodes in 2.00 s"),
            "{line}"
        );
        let mut one = sample().difficulties[0].clone();
        one.positions.truncate(1);
        assert_eq!(
            heaviest_line(&one).unwrap(),
            "d28: one solved position, place 1 (0F), took 250 nodes in 1.50 s"
        );
        one.positions[0].nodes = 1;
        assert!(heaviest_line(&one).unwrap().contains("took 1 node in"));
        let mut none = sample().difficulties[0].clone();
        none.positions.clear();
        assert_eq!(heaviest_line(&none), None);
    }

    #[test]
    fn a_run_written_before_positions_were_recorded_still_reads() {
        let mut older: serde_json::Value = serde_json::from_str(&to_json(&sample())).unwrap();
        let difficulty = older["difficulties"][0].as_object_mut().unwrap();
        difficulty.remove("positions");
        difficulty.remove("stopped_at");
        let back: BenchRun = serde_json::from_value(older).unwrap();
        assert!(back.difficulties[0].positions.is_empty());
        assert_eq!(back.difficulties[0].stopped_at, None);
    }

    #[test]
    fn numbers_agree_with_their_nouns() {
        assert_eq!(count(1, "position", "positions"), "1 position");
        assert_eq!(count(0, "position", "positions"), "0 positions");
        assert_eq!(count(2, "thread", "threads"), "2 threads");
        let mut run = sample();
        assert!(frontier_line(&run).contains("whose 2 positions finished"));
        run.config.positions = 1;
        assert!(
            frontier_line(&run).contains("whose 1 position finished inside 600 s"),
            "{}",
            frontier_line(&run)
        );
    }

    #[test]
    fn rows_show_per_position_figures() {
        let row = table_row(&sample().difficulties[0]);
        assert!(row.contains("2/2"), "{row}");
        assert!(row.contains("2.0000"), "{row}"); // seconds per position
        assert!(row.contains("25.0%"), "{row}");
        assert!(row.contains(" 0.50 "), "{row}"); // the table's set-up
    }

    #[test]
    fn the_node_rate_leaves_out_the_set_up() {
        // The complaint's case: 80,052 nodes in 2.51 s, 2.49 s of them the table's set-up.
        let mut result = sample().difficulties[0].clone();
        (result.nodes, result.seconds, result.setup_seconds) = (80_052, 2.51, 2.49);
        assert!((result.nodes_per_second() - 4_002_600.0).abs() < 1.0);
        let row = table_row(&result);
        assert!(row.contains(" 4.00 "), "{row}");
        assert!(!row.contains(" 0.03 "), "{row}");
        // The protocol's seconds keep the set-up.
        assert!(row.contains(" 2.51 "), "{row}");
        let csv = to_csv(&BenchRun {
            difficulties: vec![result],
            ..sample()
        });
        let row = csv.lines().nth(1).unwrap();
        assert!(row.contains(",2.510000,2.490000,"), "{row}");
        assert!(row.contains(",80052,40026.0,4002600.0,"), "{row}");
        // The sample: 1000 nodes in 4 s, 0.5 s of set-up.
        let csv = to_csv(&sample());
        assert!(csv.contains(",1000,500.0,285.7,"), "{csv}");
    }

    #[test]
    fn a_run_written_before_the_set_up_was_recorded_still_reads() {
        let json = to_json(&sample()).replace("\"setup_seconds\": 0.5,", "");
        assert!(!json.contains("setup_seconds"));
        let back: BenchRun = serde_json::from_str(&json).unwrap();
        assert_eq!(back.difficulties[0].setup_seconds, 0.0);
        assert_eq!(back.difficulties[0].seconds, 4.0);
        // With no set-up recorded, the rate is over the whole time, as such runs measured it.
        assert_eq!(back.difficulties[0].nodes_per_second(), 250.0);
    }
}
