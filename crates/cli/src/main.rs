//! `score4`: the command line of the Connect Four 3D solver. Thin: it parses arguments, reads
//! positions and prints; the work is done by the `score4-*` crates.

mod input;
mod show;
mod size;
mod solve;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use score4_solver::Replacement;

/// Solve, analyse and generate positions of Connect Four 3D (Score Four, Sogo).
#[derive(Parser)]
#[command(name = "score4", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve positions: does the first player (X) win?
    ///
    /// Positions are move strings such as 0FC3484B7, given as arguments, or one per line
    /// (`MOVES [anything]`, the first word is the moves) from --file or standard input.
    Solve(SolveArgs),
    /// Draw a position, say whose move it is, and list threats and openings.
    Show {
        /// The moves that reach the position, e.g. 0FC3484B7.
        moves: String,
    },
    /// Generate positions by random reasonable play (DESIGN §3), one per line.
    Gen {
        /// Stones on the board in every position.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=63))]
        stones: u32,
        /// Number of positions.
        #[arg(long, default_value_t = 1000)]
        count: usize,
        /// Seed of the random stream (the same seed gives the same positions everywhere).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Options of `score4 solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// Move strings of the positions (whitespace inside is ignored).
    positions: Vec<String>,
    /// Read positions from this file, one per line.
    #[arg(long, short, conflicts_with = "positions")]
    file: Option<PathBuf>,
    /// One JSON object per position and line (DESIGN §2), the summary on standard error.
    #[arg(long)]
    json: bool,
    /// Size of the transposition table (B, KiB, MiB, GiB or TiB).
    #[arg(long, default_value = "1GiB", value_parser = size::parse_bytes)]
    tt_size: u64,
    /// Replacement scheme of the transposition table.
    #[arg(long, default_value = "twobig", value_parser = parse_replacement)]
    replacement: Replacement,
}

fn parse_replacement(text: &str) -> Result<Replacement, String> {
    text.parse()
}

/// Exit code for bad input (a bad position, file or option).
pub const EXIT_BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return match error.use_stderr() {
                true => ExitCode::from(EXIT_BAD_INPUT),
                false => ExitCode::SUCCESS, // --help, --version
            };
        }
    };
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Show { moves } => show::run(&moves),
        Command::Gen {
            stones,
            count,
            seed,
        } => {
            println!("# score4 gen --stones {stones} --count {count} --seed {seed}");
            println!("# random reasonable play (DESIGN §3), {stones} stones, seed {seed}");
            for game in score4_bench::PositionGenerator::new(stones, seed).take(count) {
                println!("{game}");
            }
            ExitCode::SUCCESS
        }
    }
}
