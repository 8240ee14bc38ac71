//! `score4 certify` (a certificate of a position's first-wins value, docs/CERTIFICATE.md) and
//! `score4 verify` (checks certificates with `score4-verify`, which shares no code with the
//! solver).

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use score4_board::{Game, GameRecord, Position};
use score4_certify::{certify, certify_top, CertifyError, CertifySummary, Top};
use score4_engine::{format_bytes, Replacement, TranspositionTable};
use score4_verify::Joined;

use crate::part_search::{search_leaves, Found, Leaf, SearchSettings, Stopped};
use crate::{CertifyArgs, VerifyArgs, EXIT_BAD_INPUT};

/// Runs `score4 certify`: one certificate, or with `--store` a top and its parts.
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
    if let Some(store) = &args.store {
        return run_certify_parts(&args, store, &game, &table);
    }
    let started = Instant::now();
    let written = write_atomically(&args.output, |out| {
        certify(&game, &table, args.max_nodes, out)
    });
    match written {
        Ok((summary, bytes)) => {
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
        Err(error) => {
            eprintln!("{command}: {}: {error}", args.moves);
            ExitCode::FAILURE
        }
    }
}

/// Why a certificate file was not written.
#[derive(Debug, thiserror::Error)]
enum WriteError {
    #[error(transparent)]
    Certify(CertifyError),
    #[error("{0}")]
    File(String),
}

/// Writes a file with `write`, beside `path` first and renamed when complete, so that a
/// failed or killed run leaves no partial file under the name; returns what `write` returned
/// and the file's size.
fn write_atomically<T>(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<T, CertifyError>,
) -> Result<(T, u64), WriteError> {
    let partial = partial_path(path);
    let file = File::create(&partial).map_err(|error| {
        WriteError::File(format!("cannot create {}: {error}", partial.display()))
    })?;
    let mut out = BufWriter::new(file);
    let written = write(&mut out).and_then(|value| Ok(out.flush().map(|_| value)?));
    let value = written.map_err(|error| {
        let _ = std::fs::remove_file(&partial);
        WriteError::Certify(error)
    })?;
    std::fs::rename(&partial, path).map_err(|error| {
        let _ = std::fs::remove_file(&partial);
        WriteError::File(format!("cannot write {}: {error}", path.display()))
    })?;
    Ok((value, std::fs::metadata(path).map_or(0, |m| m.len())))
}

/// `score4 certify MOVES --store STORE -o DIR`: the top from the store in `DIR/top.cert`, and
/// each part in `DIR/part-MOVES.cert` (kept if already there, so that a stopped run resumes;
/// none with `--top-only`).
fn run_certify_parts(
    args: &CertifyArgs,
    store: &Path,
    game: &GameRecord,
    table: &TranspositionTable,
) -> ExitCode {
    let command = "score4 certify";
    let book = match crate::book::Book::open(store, <Position as Game>::NAME, Some(None)) {
        Ok(book) => book.for_search().expect("the book is read for the search"),
        Err(error) => {
            eprintln!("{command}: --store: {error}");
            return crate::prove::store_error_code(&error);
        }
    };
    if let Err(error) = std::fs::create_dir_all(&args.output) {
        eprintln!("{command}: cannot make {}: {error}", args.output.display());
        return ExitCode::FAILURE;
    }
    let started = Instant::now();
    let top_path = args.output.join("top.cert");
    let top = write_atomically(&top_path, |out| {
        certify_top(game, &book, args.max_nodes, out)
    })
    .or_else(|error| match error {
        // A proof of one job has no top: its certificate is whole, in the top's place.
        WriteError::Certify(CertifyError::Unsplit) => {
            write_atomically(&top_path, |out| certify(game, table, args.max_nodes, out)).map(
                |(summary, bytes)| {
                    let parts = Vec::new();
                    (Top { summary, parts }, bytes)
                },
            )
        }
        _ => Err(error),
    });
    let (top, bytes) = match top {
        Ok(written) => written,
        Err(error) => {
            eprintln!("{command}: {game}: {error}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{game}: {}; top {}: {}, {}",
        claim_text(&top.summary),
        top_path.display(),
        describe(&top.summary),
        format_bytes(bytes)
    );
    if args.top_only {
        for part in &top.parts {
            let path = args.output.join(format!("part-{part}.cert"));
            println!("part {part}: score4 certify {part} -o {}", path.display());
        }
        return ExitCode::SUCCESS;
    }
    let to_write: Vec<&GameRecord> = top
        .parts
        .iter()
        .filter(|part| !args.output.join(format!("part-{part}.cert")).exists())
        .collect();
    let kept = top.parts.len() - to_write.len();
    let written = match write_parts(args, &to_write, top.summary.first_player_wins, table) {
        Ok(bytes) => bytes,
        Err(message) => {
            eprintln!("{command}: {message}");
            return ExitCode::FAILURE;
        }
    };
    let total = bytes + written;
    let written = to_write.len();
    println!(
        "{game}: the top and {} parts in {} ({written} written, {kept} kept from before), {} \
         written in {:.2} s; check them all with score4 verify {}/*.cert",
        top.parts.len(),
        args.output.display(),
        format_bytes(total),
        started.elapsed().as_secs_f64(),
        args.output.display()
    );
    ExitCode::SUCCESS
}

/// Writes the certificates of `parts` into `args.output` on `args.threads` threads, each with
/// its own table (the first uses `table`), taking the parts in order; returns the bytes written,
/// or the first failure (a part whose value is not the top's, or a certificate not written),
/// after which no thread starts another part.
fn write_parts(
    args: &CertifyArgs,
    parts: &[&GameRecord],
    first_player_wins: bool,
    table: &TranspositionTable,
) -> Result<u64, String> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let write_some = |table: &TranspositionTable| -> Result<u64, String> {
        let mut bytes = 0;
        while !failed.load(Ordering::Relaxed) {
            let Some(part) = parts.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let path = args.output.join(format!("part-{part}.cert"));
            let outcome = write_atomically(&path, |out| certify(part, table, args.max_nodes, out));
            let failure = match outcome {
                Ok((summary, _)) if summary.first_player_wins != first_player_wins => {
                    let _ = std::fs::remove_file(&path);
                    format!(
                        "part {part}: the solver finds {}, the store the opposite: the store \
                         is wrong or the solver is",
                        claim_text(&summary)
                    )
                }
                Ok((summary, written)) => {
                    bytes += written;
                    println!(
                        "part {part}: {}, {}",
                        describe(&summary),
                        format_bytes(written)
                    );
                    continue;
                }
                Err(error) => format!("part {part}: {error}"),
            };
            failed.store(true, Ordering::Relaxed);
            return Err(failure);
        }
        Ok(bytes)
    };
    let results: Vec<Result<u64, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..args.threads.min(parts.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let own = TranspositionTable::of_size(args.memory, Replacement::TwoBig)
                        .map_err(|error| {
                            failed.store(true, Ordering::Relaxed);
                            format!("--memory {}: {error}", format_bytes(args.memory))
                        })?;
                    write_some(&own)
                })
            })
            .collect();
        let mut results = vec![write_some(table)];
        results.extend(workers.into_iter().map(|worker| {
            worker
                .join()
                .unwrap_or_else(|_| Err("a certify thread failed".to_owned()))
        }));
        results
    });
    results.into_iter().sum()
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
        "{} nodes ({} win, {} over, {} pairs, {} zugzwang, {} part leaves; {} strategies with a \
         mirror, {} with a spare tempo; {} win replies in place; {} transpositions shared; {} \
         nodes searched to choose moves)",
        summary.nodes,
        summary.win_leaves,
        summary.over_leaves,
        summary.pairs_leaves,
        summary.zugzwang_leaves,
        summary.part_leaves,
        summary.mirror_leaves,
        summary.tempo_leaves,
        summary.win_replies,
        summary.shared,
        summary.search_nodes
    )
}

fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".partial");
    path.with_file_name(name)
}

/// What checking one file alone gave.
enum Checked {
    Unreadable(String),
    Invalid(score4_verify::Fault),
    Valid(score4_verify::Verdict, f64),
}

/// Checks one file alone, adding the bytes it reads to `bar`.
fn check_file(path: &Path, bar: &ProgressBar) -> Checked {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) => return Checked::Unreadable(error.to_string()),
    };
    let started = Instant::now();
    let mut counted = 0;
    let verdict = score4_verify::verify(BufReader::new(file), |read| {
        bar.inc(read - counted);
        counted = read;
    });
    match verdict {
        Ok(verdict) => Checked::Valid(verdict, started.elapsed().as_secs_f64()),
        Err(fault) => Checked::Invalid(fault),
    }
}

/// Runs `score4 verify FILE...`: checks every file alone (on every core), then joins the set
/// (each `part` leaf must be proven by a file of the set, docs/CERTIFICATE.md), and with
/// `--search-parts` searches the leaves no file proves. Exit status 0 if every certificate
/// checks, 1 if any does not, 2 if a file cannot be read (or an option is impossible), 128 + the
/// signal's number if a signal stopped the search.
pub fn run_verify(args: VerifyArgs) -> ExitCode {
    let files = args.files;
    let total: u64 = files
        .iter()
        .map(|path| std::fs::metadata(path).map_or(0, |m| m.len()))
        .sum();
    let bar = if std::io::stderr().is_terminal() && total > 8 << 20 {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {eta}")
                .expect("a valid template"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<Checked>> = (0..files.len()).map(|_| None).collect();
    let checked = std::sync::Mutex::new(&mut results);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = files.get(index) else {
                    break;
                };
                let result = check_file(path, &bar);
                checked.lock().expect("no checker panics")[index] = Some(result);
            });
        }
    });
    bar.finish_and_clear();
    let results: Vec<Checked> = results.into_iter().flatten().collect();
    let verdicts: Vec<Option<score4_verify::Verdict>> = results
        .iter()
        .map(|result| match result {
            Checked::Valid(verdict, _) => Some(verdict.clone()),
            _ => None,
        })
        .collect();
    let joined = score4_verify::join(&verdicts);
    let searched = if args.search_parts {
        let search = SearchSettings {
            threads: args.threads.unwrap_or_else(score4_engine::physical_cores),
            memory: args.memory,
            part_time: args.part_time,
        };
        match search_unmet(&files, &verdicts, &joined, search) {
            Ok(searched) => searched,
            Err(Stopped::Engine(code)) => return code,
            Err(Stopped::Signal(signal)) => return crate::signals::exit_code(signal),
        }
    } else {
        HashMap::new()
    };
    let (mut unreadable, mut invalid, mut undecided) = (false, false, false);
    for ((path, result), joined) in files.iter().zip(&results).zip(joined) {
        match (result, joined) {
            (Checked::Unreadable(error), _) => {
                eprintln!("score4 verify: cannot read {}: {error}", path.display());
                unreadable = true;
            }
            (Checked::Invalid(fault), _) => {
                eprintln!("{}: invalid: {fault}", path.display());
                invalid = true;
            }
            (Checked::Valid(verdict, seconds), joined) => {
                let joined = joined.expect("a valid file is joined");
                let claim = claim_word(verdict.claim);
                // A leaf no file proves is accepted only when the search found its claim.
                let not_met = joined.unmet.iter().find_map(|part| {
                    let found = searched.get(&leaf_key(verdict.claim, part));
                    (!matches!(found, Some(Found::Agrees { .. }))).then_some((part, found))
                });
                if let Some((part, found)) = not_met {
                    let moves = if part.moves.is_empty() {
                        "-"
                    } else {
                        &part.moves
                    };
                    let given_up = matches!(found, Some(Found::GivenUp { .. }));
                    let why = match found {
                        Some(Found::Disagrees { .. }) => {
                            "score4's search does not find the claim there".to_owned()
                        }
                        Some(Found::GivenUp { .. }) => {
                            "score4's search was given up at --part-time".to_owned()
                        }
                        Some(Found::NotReached(reason)) => reason.clone(),
                        _ => "no certificate of the set proves this position".to_owned(),
                    };
                    let verdict_word = if given_up { "undecided" } else { "invalid" };
                    eprintln!(
                        "{}: {verdict_word}: node {} (moves {moves}): part: {why} ({:016x} \
                         {:016x}) with the claim {claim}",
                        path.display(),
                        part.node,
                        part.x,
                        part.o,
                    );
                    if given_up {
                        undecided = true;
                    } else {
                        invalid = true;
                    }
                    continue;
                }
                let kinds = &verdict.kinds;
                let searched = joined.unmet.len();
                let parts = match (kinds.part, joined.is_part, searched) {
                    (0, false, _) => String::new(),
                    (0, true, _) => "; a part of the set".to_owned(),
                    (n, false, 0) => format!("; its {n} parts are proven by the set"),
                    (n, true, 0) => format!("; a part of the set, its {n} parts proven by the set"),
                    (n, is_part, searched) => format!(
                        "{}; of its {n} parts, {} are proven by the set and {searched} by \
                         score4's search (not by a certificate)",
                        if is_part { "; a part of the set" } else { "" },
                        n - searched as u64,
                    ),
                };
                println!(
                    "{}: valid: root {}: {}; {} nodes ({} choose, {} every, {} win, {} over, {} \
                     pairs, {} zugzwang, {} part; {} win replies){parts}, checked in {seconds:.2} s",
                    path.display(),
                    verdict.root,
                    verdict.claim,
                    verdict.nodes,
                    kinds.choose,
                    kinds.every,
                    kinds.win,
                    kinds.over,
                    kinds.pairs,
                    kinds.zugzwang,
                    kinds.part,
                    kinds.win_replies,
                );
            }
        }
    }
    if unreadable {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if invalid {
        ExitCode::FAILURE
    } else if undecided {
        ExitCode::from(EXIT_UNDECIDED)
    } else {
        ExitCode::SUCCESS
    }
}

/// `score4 verify`'s exit status when a leaf's search was given up and nothing is invalid.
const EXIT_UNDECIDED: u8 = 3;

/// The claim as the reports write it.
fn claim_word(claim: score4_verify::Claim) -> &'static str {
    match claim {
        score4_verify::Claim::Win => "win",
        score4_verify::Claim::Hold => "hold",
    }
}

/// A leaf to search, as the set needs it: the claim and the position.
type LeafKey = (bool, u64, u64);

fn leaf_key(claim: score4_verify::Claim, part: &score4_verify::Obligation) -> LeafKey {
    (claim == score4_verify::Claim::Win, part.x, part.o)
}

/// Searches, once each, the `part` leaves of the files valid alone that no file of the set
/// proves, printing a line per leaf and a summary.
fn search_unmet(
    files: &[PathBuf],
    verdicts: &[Option<score4_verify::Verdict>],
    joined: &[Option<Joined>],
    search: SearchSettings,
) -> Result<HashMap<LeafKey, Found>, Stopped> {
    let mut seen = HashSet::new();
    let mut leaves = Vec::new();
    for (file, (verdict, joined)) in verdicts.iter().zip(joined).enumerate() {
        let (Some(verdict), Some(joined)) = (verdict, joined) else {
            continue;
        };
        for part in &joined.unmet {
            if seen.insert(leaf_key(verdict.claim, part)) {
                leaves.push(Leaf {
                    file,
                    claim: verdict.claim,
                    part: part.clone(),
                    root: verdict.root.clone(),
                });
            }
        }
    }
    let mut searched = HashMap::new();
    if leaves.is_empty() {
        return Ok(searched);
    }
    eprintln!(
        "score4 verify: searching the {} part leaves no certificate of the set proves, with \
         score4's solver ({} threads, {}): what they prove rests on that search",
        leaves.len(),
        search.threads,
        format_bytes(search.memory),
    );
    let started = Instant::now();
    let mut total_nodes = 0;
    search_leaves(&leaves, search, |leaf, found, seconds| {
        let claim = claim_word(leaf.claim);
        let (what, nodes) = match found {
            Found::Agrees { nodes } => (format!("searched: {claim}, as claimed"), Some(*nodes)),
            Found::Disagrees { nodes } => (
                format!("searched: NOT {claim}, against the claim"),
                Some(*nodes),
            ),
            Found::GivenUp { nodes } => (
                "given up at --part-time, undecided".to_owned(),
                Some(*nodes),
            ),
            Found::NotReached(reason) => (format!("not searched: {reason}"), None),
        };
        total_nodes += nodes.unwrap_or(0);
        let cost = nodes.map_or(String::new(), |nodes| {
            format!("; {nodes} nodes in {seconds:.1} s")
        });
        println!(
            "{}: part {} (node {}): {what}{cost}",
            files[leaf.file].display(),
            leaf.moves(),
            leaf.part.node,
        );
        searched.insert(leaf_key(leaf.claim, &leaf.part), found.clone());
    })?;
    eprintln!(
        "score4 verify: {} part leaves searched: {total_nodes} nodes in {:.1} s",
        leaves.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(searched)
}
