//! `score4 certify` (a certificate of a position's first-wins value, docs/CERTIFICATE.md) and
//! `score4 verify` (checks certificates with `score4-verify`, which shares no code with the
//! solver).

use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use score4_board::GameRecord;
use score4_certify::{certify, CertifySummary};
use score4_engine::{format_bytes, Replacement, TranspositionTable};

use crate::{CertifyArgs, EXIT_BAD_INPUT};

/// Runs `score4 certify`.
pub fn run_certify(args: CertifyArgs) -> ExitCode {
    let command = "score4 certify";
    let game: GameRecord = match args.moves.parse() {
        Ok(game) => game,
        Err(error) => {
            eprintln!("{command}: {:?}: {error}", args.moves);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let table = match TranspositionTable::of_size(args.memory, Replacement::TwoBig) {
        Ok(table) => table,
        Err(error) => {
            eprintln!("{command}: --memory {}: {error}", format_bytes(args.memory));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    // Written beside the target and renamed when complete: a failed run leaves no partial file.
    let partial = partial_path(&args.output);
    let file = match File::create(&partial) {
        Ok(file) => file,
        Err(error) => {
            eprintln!("{command}: cannot create {}: {error}", partial.display());
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let mut out = BufWriter::new(file);
    let written = certify(&game, &table, args.max_nodes, &mut out)
        .and_then(|summary| Ok(out.flush().map(|_| summary)?));
    let summary = match written {
        Ok(summary) => summary,
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            eprintln!("{command}: {}: {error}", args.moves);
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = std::fs::rename(&partial, &args.output) {
        let _ = std::fs::remove_file(&partial);
        eprintln!("{command}: cannot write {}: {error}", args.output.display());
        return ExitCode::FAILURE;
    }
    let bytes = std::fs::metadata(&args.output).map_or(0, |m| m.len());
    println!(
        "{}: {}; certificate {}: {}, {} in {:.2} s",
        game,
        claim_text(&summary),
        args.output.display(),
        describe(&summary),
        format_bytes(bytes),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

fn claim_text(summary: &CertifySummary) -> &'static str {
    if summary.first_player_wins {
        "the first player (X) wins"
    } else {
        "the first player (X) does not win"
    }
}

fn describe(summary: &CertifySummary) -> String {
    format!(
        "{} nodes ({} win, {} over, {} pairs, {} zugzwang leaves; {} transpositions shared; {} \
         nodes searched to choose moves)",
        summary.nodes,
        summary.win_leaves,
        summary.over_leaves,
        summary.pairs_leaves,
        summary.zugzwang_leaves,
        summary.shared,
        summary.search_nodes
    )
}

fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".partial");
    path.with_file_name(name)
}

/// Runs `score4 verify FILE...`: 0 if every certificate checks, 1 if any does not, 2 if a file
/// cannot be read.
pub fn run_verify(files: Vec<PathBuf>) -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    let mut any_invalid = false;
    for path in files {
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(error) => {
                eprintln!("score4 verify: cannot read {}: {error}", path.display());
                status = ExitCode::from(EXIT_BAD_INPUT);
                continue;
            }
        };
        let size = file.metadata().map_or(0, |m| m.len());
        let bar = (std::io::stderr().is_terminal() && size > 8 << 20).then(|| {
            let bar = ProgressBar::new(size);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {eta}")
                    .expect("a valid template"),
            );
            bar
        });
        let started = Instant::now();
        let verdict = score4_verify::verify(BufReader::new(file), |read| {
            if let Some(bar) = &bar {
                bar.set_position(read);
            }
        });
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        match verdict {
            Ok(verdict) => println!(
                "{}: valid: root {}: {}; {} nodes ({} choose, {} every, {} win, {} over, {} \
                 pairs, {} zugzwang), checked in {:.2} s",
                path.display(),
                verdict.root,
                verdict.claim,
                verdict.nodes,
                verdict.kinds.choose,
                verdict.kinds.every,
                verdict.kinds.win,
                verdict.kinds.over,
                verdict.kinds.pairs,
                verdict.kinds.zugzwang,
                started.elapsed().as_secs_f64()
            ),
            Err(fault) => {
                eprintln!("{}: invalid: {fault}", path.display());
                any_invalid = true;
            }
        }
    }
    if any_invalid {
        ExitCode::FAILURE
    } else {
        status
    }
}
