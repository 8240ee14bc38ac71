//! `score4 --game classic bench`: Pons's six test sets (`bench/pons/`), each by his weak
//! (win/draw/loss) and strong (exact) solver on a fresh table, printed as his table, with the
//! rows in `--out DIR/classic.json`. Any score that differs from Pons's fails the run.

use std::process::ExitCode;

use score4_bench::pons::{read_set, run_set, PonsSolver, PonsTable, PONS_SETS};
use score4_bench::BenchError;
use score4_engine::{Record, Setting};

use crate::bench::{data_directory, PONS_DEFAULT, PONS_IN_REPOSITORY};
use crate::{BenchArgs, EXIT_BAD_INPUT};

/// Runs `score4 --game classic bench`.
pub fn bench(args: BenchArgs) -> ExitCode {
    const COMMAND: &str = "score4 --game classic bench";
    if args.no_best_first || args.threads != 1 {
        eprintln!(
            "{COMMAND}: --no-best-first and --threads are for the 3-D protocol; Pons's sets are \
             solved on one thread in wdl and exact modes"
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let sets: Vec<(&str, &str)> = PONS_SETS
        .iter()
        .copied()
        .filter(|(file, _)| args.pons_set.as_deref().is_none_or(|only| only == *file))
        .collect();
    if sets.is_empty() {
        eprintln!(
            "{COMMAND}: --pons-set: unknown set {:?} (expected one of {})",
            args.pons_set.unwrap_or_default(),
            PONS_SETS.map(|(f, _)| f).join(", ")
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let directory = match data_directory(&args.pons, PONS_DEFAULT, PONS_IN_REPOSITORY, "pons") {
        Ok(directory) => directory,
        Err(error) => {
            eprintln!("{COMMAND}: {error}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let solvers = [PonsSolver::Weak, PonsSolver::Strong]
        .into_iter()
        .filter(|solver| {
            args.solver
                .as_deref()
                .is_none_or(|only| only == solver.name())
        });
    let solvers: Vec<PonsSolver> = solvers.collect();
    let table = PonsTable {
        bytes: args
            .tt_size
            .unwrap_or(score4_classic::ClassicRecord::DEFAULT_TABLE_BYTES),
        replacement: args.replacement,
        leaf_area: args.leaf_area,
    };
    println!(
        "{:<11} {:<14} {:<7} {:>9} {:>12} {:>14} {:>10} {:>11}",
        "set", "", "solver", "positions", "mean time", "mean pos", "K pos/s", "correct"
    );
    let mut rows = Vec::new();
    for (file, name) in sets {
        let positions = match read_set(&directory.join(file), args.skip, args.positions) {
            Ok(positions) => positions,
            Err(error) => {
                eprintln!("{COMMAND}: {error}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        };
        for &solver in &solvers {
            let first_line = args.skip + 1;
            let row = match run_set(
                (file, name),
                first_line,
                &positions,
                solver,
                table,
                args.time_limit,
            ) {
                Ok(row) => row,
                Err(BenchError::Engine(error)) if error.is_bad_input() => {
                    let option = match error.setting() {
                        Setting::LeafArea => "--leaf-area",
                        Setting::TableSize | Setting::MemoryBudget => "--tt-size",
                    };
                    eprintln!("{COMMAND}: {option}: {error}");
                    return ExitCode::from(EXIT_BAD_INPUT);
                }
                Err(error) => {
                    eprintln!("{COMMAND}: {error}");
                    return ExitCode::FAILURE;
                }
            };
            println!(
                "{:<11} {:<14} {:<7} {:>9} {:>9.3} ms {:>14.0} {:>10.0} {:>5}/{:<5}",
                row.set,
                row.name,
                row.solver,
                format!("{}/{}", row.solved, row.asked),
                row.mean_ms(),
                row.mean_nodes(),
                row.kpos_per_s(),
                row.correct,
                row.solved
            );
            rows.push(row);
        }
    }
    if let Some(out) = &args.out {
        let path = out.join("classic.json");
        let written = std::fs::create_dir_all(out).and_then(|()| {
            std::fs::write(&path, serde_json::to_string_pretty(&rows).expect("json"))
        });
        if let Err(error) = written {
            eprintln!("{COMMAND}: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if rows.iter().any(|row| row.correct != row.solved) {
        eprintln!("{COMMAND}: some scores differ from Pons's");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
