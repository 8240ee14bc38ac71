//! `score4 solve`: the first-player-wins value of each position, with nodes, time and table use.

use std::io::Write;
use std::process::ExitCode;

use score4_solver::{SearchStats, Solver, TableError, TranspositionTable};

use crate::input::{Entry, Source};
use crate::size::format_bytes;
use crate::{SolveArgs, EXIT_BAD_INPUT};

/// One JSON line per position (DESIGN §2).
#[derive(serde::Serialize)]
struct JsonSolved<'a> {
    position: &'a str,
    mode: &'static str,
    value: u8,
    nodes: u64,
    seconds: f64,
    probes: u64,
    hits: u64,
    stores: u64,
    replacements: u64,
}

#[derive(serde::Serialize)]
struct JsonError<'a> {
    position: &'a str,
    line: usize,
    error: String,
}

/// Solves every position of the input in order, one table for the whole run.
pub fn run(args: SolveArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let table = match TranspositionTable::new(args.tt_size, args.replacement) {
        Ok(table) => table,
        Err(error @ TableError::TooSmall { .. }) => {
            eprintln!("score4 solve: --tt-size: {error}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(error) => {
            eprintln!("score4 solve: {error}");
            return ExitCode::FAILURE;
        }
    };
    let set_up = started.elapsed().as_secs_f64();
    let mut solver = Solver::new(&table);
    let mut searching = 0.0;
    let (mut solved, mut wins, mut bad) = (0u64, 0u64, 0u64);
    let mut total = SearchStats::default();
    let stdout = std::io::stdout();
    if !args.json {
        println!(
            "{:<7} {:>14} {:>10} {:>9}  position",
            "value", "nodes", "seconds", "Mnodes/s"
        );
    }
    let source = Source::choose(args.positions, args.file);
    let read = source.for_each(|entry: Entry| {
        let mut out = stdout.lock();
        let game = match entry.game {
            Ok(game) => game,
            Err(error) => {
                bad += 1;
                if args.json {
                    let json = JsonError {
                        position: &entry.text,
                        line: entry.origin.number(),
                        error: error.to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::to_string(&json).expect("serialisable")
                    );
                } else {
                    eprintln!("score4 solve: {}: {:?}: {error}", entry.origin, entry.text);
                }
                return;
            }
        };
        let solution = solver.solve(game.position());
        solved += 1;
        wins += solution.first_player_wins as u64;
        total += solution.stats;
        searching += solution.seconds;
        let moves = game.to_string();
        let stats = solution.stats;
        if args.json {
            let json = JsonSolved {
                position: &moves,
                mode: "first-wins",
                value: solution.first_player_wins as u8,
                nodes: stats.nodes,
                seconds: solution.seconds,
                probes: stats.table.probes,
                hits: stats.table.hits,
                stores: stats.table.stores,
                replacements: stats.table.replacements,
            };
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string(&json).expect("serialisable")
            );
        } else {
            let value = if solution.first_player_wins {
                "win"
            } else {
                "no-win"
            };
            let rate = stats.nodes as f64 / solution.seconds.max(1e-9) / 1e6;
            let _ = writeln!(
                out,
                "{value:<7} {:>14} {:>10.3} {:>9.2}  {moves}",
                stats.nodes, solution.seconds, rate
            );
        }
        let _ = out.flush();
    });
    let seconds = started.elapsed().as_secs_f64();
    let summary = format!(
        "{solved} solved ({wins} win, {} no-win), {bad} bad; {} nodes in {searching:.3} s of \
         search ({:.2} M nodes/s, {:.0} nodes per position), {seconds:.3} s in all with the \
         table's set-up ({set_up:.3} s); table {} {} (S = {}, k = {}, huge pages {}): {} probes, \
         {:.1}% hits, {} stores, {} replacements",
        solved - wins,
        total.nodes,
        total.nodes as f64 / searching.max(1e-9) / 1e6,
        total.nodes as f64 / solved.max(1) as f64,
        format_bytes(table.bytes()),
        table.replacement(),
        table.buckets(),
        table.key_bits(),
        if table.huge_pages() { "on" } else { "off" },
        total.table.probes,
        100.0 * total.table.hit_rate(),
        total.table.stores,
        total.table.replacements,
    );
    if args.json {
        eprintln!("score4 solve: {summary}");
    } else {
        println!("summary: {summary}");
    }
    if let Err(error) = read {
        eprintln!("score4 solve: {error}");
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    if bad > 0 {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}
