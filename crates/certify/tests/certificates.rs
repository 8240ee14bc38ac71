//! Certificates against the checkers: certificates of 454 positions (304 of the committed sets
//! of 34–48 stones and 150 generated ones of 41–49, wins and holds) are accepted by
//! `score4-verify`, and those under 4 MB (the Python checker reads about 1 MB a second) by
//! `tools/verify_certificate.py`, with the value the plain reference solver finds (positions of
//! 41 stones or more, 302 of them) and a fresh main solver (all); each kind of corruption is
//! caught by both, with the node named; hostile files never crash a checker.

#[allow(dead_code)]
#[path = "../../solver/tests/plain/mod.rs"]
mod plain;

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

use score4_bench::PositionGenerator;
use score4_board::GameRecord;
use score4_certify::certify;
use score4_solver::{Replacement, Solver, TranspositionTable};
use score4_verify::{verify, Claim};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The first `count` positions of the committed set of `stones` stones.
fn committed(stones: u32, count: usize) -> Vec<GameRecord> {
    let path = repository().join(format!("bench/positions/d{stones}.txt"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_whitespace().next())
        .take(count)
        .map(|moves| moves.parse().unwrap())
        .collect()
}

fn certificate(game: &GameRecord, table: &TranspositionTable) -> Vec<u8> {
    let mut out = Vec::new();
    certify(game, table, 20_000_000, &mut out).unwrap();
    out
}

/// The Python checker's verdicts on `files`: its exit status and its standard error.
fn python_check(files: &[PathBuf]) -> (i32, String) {
    let output = Command::new("python3")
        .arg(repository().join("tools/verify_certificate.py"))
        .args(files)
        .output()
        .expect("python3 runs (CI installs it)");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The plain reference solver's value: whether the first player wins `game`.
fn plain_value(game: &GameRecord) -> bool {
    let columns: Vec<u8> = game.moves().iter().map(|c| c.number()).collect();
    plain::PlainSolver::new(&columns).first_player_wins()
}

/// Positions of at least this many stones are judged by the plain reference solver too (17
/// million nodes a position at 40 stones, 3 million at 42).
const PLAIN_MIN_STONES: usize = 41;

/// The test positions: 38 of each committed set of 34–48 stones, and 30 generated positions
/// of each odd count 41–49 (O to move at the root).
fn test_positions() -> Vec<GameRecord> {
    let committed = [34, 36, 38, 40, 42, 44, 46, 48]
        .into_iter()
        .flat_map(|stones| committed(stones, 38));
    let odd = [41, 43, 45, 47, 49]
        .into_iter()
        .flat_map(|stones| PositionGenerator::new(stones, 500 + stones as u64).take(30));
    committed.chain(odd).collect()
}

#[test]
fn certificates_of_the_committed_sets_verify_with_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    let table = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
    let positions = test_positions();
    // The plain reference judges every position of 41 stones or more (it takes minutes below);
    // a fresh main solver, itself checked against it (crates/solver/tests/reference.rs), judges
    // every position. On two threads, the plain one first.
    let judged: Vec<bool> = std::thread::scope(|scope| {
        let plain = scope.spawn(|| {
            positions
                .iter()
                .map(|game| (game.moves().len() >= PLAIN_MIN_STONES).then(|| plain_value(game)))
                .collect::<Vec<_>>()
        });
        let judge_table = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
        let main: Vec<bool> = positions
            .iter()
            .map(|game| {
                judge_table.clear();
                Solver::new(&judge_table).first_player_wins(game.position())
            })
            .collect();
        let plain = plain.join().unwrap();
        for ((game, main), plain) in positions.iter().zip(&main).zip(&plain) {
            assert!(
                plain.is_none_or(|plain| plain == *main),
                "{game}: solvers disagree"
            );
        }
        main
    });
    let (mut files, mut holds, mut pairs, mut zugzwangs, mut by_plain) = (vec![], 0, 0, 0, 0);
    for (i, (game, &wins)) in positions.iter().zip(&judged).enumerate() {
        let bytes = certificate(game, &table);
        let verdict = verify(Cursor::new(&bytes), |_| {}).unwrap_or_else(|fault| {
            panic!("{game}: {fault}");
        });
        let expected = if wins { Claim::Win } else { Claim::Hold };
        assert_eq!(verdict.claim, expected, "{game}");
        assert_eq!(verdict.root, game.to_string());
        by_plain += (game.moves().len() >= PLAIN_MIN_STONES) as u32;
        holds += (!wins) as u32;
        pairs += verdict.kinds.pairs;
        zugzwangs += verdict.kinds.zugzwang;
        if bytes.len() < 4 << 20 {
            let path = dir.path().join(format!("{i}-{game}.cert"));
            std::fs::write(&path, &bytes).unwrap();
            files.push(path);
        }
    }
    assert_eq!((positions.len(), by_plain), (454, 302));
    assert!(files.len() >= 350, "{} small certificates", files.len());
    assert!(holds >= 20, "{holds} holds");
    assert!(pairs > 0, "no pairs leaf");
    assert!(zugzwangs > 0, "no zugzwang leaf");
    let (status, stderr) = python_check(&files);
    assert_eq!((status, stderr.as_str()), (0, ""));
}

/// Certificates of a win, of a hold with pairs leaves, of a win with zugzwang leaves, and with
/// a mirror and with a spare tempo in a strategy leaf, as text.
fn samples() -> Vec<String> {
    let table = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
    let (mut win, mut hold, mut zugzwang, mut mirror, mut tempo) = (None, None, None, None, None);
    for game in committed(34, 40).iter().chain(&committed(32, 40)) {
        let text = String::from_utf8(certificate(game, &table)).unwrap();
        if text.len() > 4 << 20 {
            continue;
        }
        if text.contains(" mirror ") {
            mirror.get_or_insert(text.clone());
        }
        if text.contains(" tempo ") {
            tempo.get_or_insert(text.clone());
        }
        if text.contains("\nclaim win") && text.contains(" zugzwang ") {
            zugzwang.get_or_insert(text);
        } else if text.contains("\nclaim win") && text.contains(" every ") {
            win.get_or_insert(text);
        } else if text.contains("\nclaim hold") && text.contains(" pairs ") {
            hold.get_or_insert(text);
        }
    }
    vec![
        win.expect("a win"),
        hold.expect("a hold with pairs"),
        zugzwang.expect("a win with a zugzwang"),
        mirror.expect("a strategy with a mirror"),
        tempo.expect("a strategy with a spare tempo"),
    ]
}

/// Applies `edit` to the first node line (after the header) for which it returns `Some`.
fn mutate(text: &str, edit: impl Fn(&str) -> Option<String>) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    for i in 4..lines.len() {
        if let Some(changed) = edit(lines[i]) {
            let mut out: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            out[i] = changed;
            return Some(out.join("\n") + "\n");
        }
    }
    None
}

#[test]
fn every_kind_of_corruption_is_caught_by_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    type Edit = Box<dyn Fn(&str) -> Option<String>>;
    let field = |line: &str, kind: &str| line.split(' ').nth(3) == Some(kind);
    let edits: Vec<(&str, Edit)> = vec![
        (
            "drop a reply",
            Box::new(move |l: &str| {
                (field(l, "every") && l.split(' ').count() > 5)
                    .then(|| l.rsplit_once(' ').unwrap().0.to_owned())
            }),
        ),
        (
            "change a chosen move",
            Box::new(move |l: &str| {
                field(l, "choose").then(|| {
                    let f: Vec<&str> = l.split(' ').collect();
                    let column = u8::from_str_radix(f[4], 16).unwrap();
                    format!(
                        "{} {} {} choose {:X} {}",
                        f[0],
                        f[1],
                        f[2],
                        (column + 1) % 16,
                        f[5]
                    )
                })
            }),
        ),
        (
            "change a winning reply",
            Box::new(move |l: &str| {
                let f: Vec<&str> = l.split(' ').collect();
                let at = f.iter().position(|reply| reply.contains('!'))?;
                let (column, win) = f[at].split_once('!')?;
                let win = u8::from_str_radix(win, 16).ok()?;
                let mut f: Vec<String> = f.iter().map(|s| s.to_string()).collect();
                f[at] = format!("{column}!{:X}", (win + 5) % 16);
                Some(f.join(" "))
            }),
        ),
        (
            "a reply listed twice",
            Box::new(move |l: &str| {
                let f: Vec<&str> = l.split(' ').collect();
                let reply = f.iter().find(|reply| reply.contains('!'))?;
                Some(format!("{l} {reply}"))
            }),
        ),
        (
            "a leaf's claim swapped",
            Box::new(move |l: &str| {
                (field(l, "pairs") || field(l, "zugzwang")).then(|| {
                    let f: Vec<&str> = l.split(' ').collect();
                    format!("{} {} {} over", f[0], f[1], f[2])
                })
            }),
        ),
        (
            "break a strategy pair",
            Box::new(move |l: &str| {
                (field(l, "pairs") || field(l, "zugzwang"))
                    .then_some(())
                    .and_then(|_| {
                        let mut f: Vec<String> = l.split(' ').map(str::to_owned).collect();
                        let at = f.iter().rposition(|word| word.contains('-'))?;
                        let (a, _) = f[at].split_once('-')?;
                        f[at] = format!("{a}-{a}");
                        Some(f.join(" "))
                    })
            }),
        ),
        (
            "drop a strategy pair",
            Box::new(move |l: &str| {
                (field(l, "pairs") || field(l, "zugzwang"))
                    .then_some(())
                    .and_then(|_| {
                        let mut f: Vec<&str> = l.split(' ').collect();
                        let at = f.iter().rposition(|word| word.contains('-'))?;
                        f.remove(at);
                        Some(f.join(" "))
                    })
            }),
        ),
        (
            "drop a strategy's change",
            Box::new(move |l: &str| {
                let f: Vec<&str> = l.split(' ').collect();
                let at = f.iter().position(|w| *w == "mirror" || *w == "tempo")?;
                Some([&f[..at], &f[at + 3..]].concat().join(" "))
            }),
        ),
        (
            "a change naming one column twice",
            Box::new(move |l: &str| {
                let mut f: Vec<&str> = l.split(' ').collect();
                let at = f.iter().position(|w| *w == "mirror" || *w == "tempo")?;
                f[at + 2] = f[at + 1];
                Some(f.join(" "))
            }),
        ),
        (
            "a wrong board",
            Box::new(move |l: &str| {
                let f: Vec<&str> = l.split(' ').collect();
                (f.len() > 3 && f[0] != "0").then(|| {
                    let x = u64::from_str_radix(f[1], 16).unwrap() ^ (1 << 63);
                    format!("{} {x:016x} {}", f[0], f[2..].join(" "))
                })
            }),
        ),
        (
            "a dangling id",
            Box::new(move |l: &str| {
                field(l, "choose").then(|| {
                    let (head, _) = l.rsplit_once(' ').unwrap();
                    format!("{head} 4000000000")
                })
            }),
        ),
        (
            "an id pointed at another position",
            Box::new(move |l: &str| {
                field(l, "choose").then(|| {
                    let (head, _) = l.rsplit_once(' ').unwrap();
                    format!("{head} 0")
                })
            }),
        ),
        (
            "a duplicate id",
            Box::new(move |l: &str| {
                let id = l.split(' ').next()?;
                (id != "0").then(|| format!("{l}\n{l}"))
            }),
        ),
    ];
    let mut files = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    for (s, sample) in samples().iter().enumerate() {
        assert!(verify(Cursor::new(sample), |_| {}).is_ok());
        let path = dir.path().join(format!("{s}.cert"));
        std::fs::write(&path, sample).unwrap();
        let (status, stderr) = python_check(&[path]);
        assert_eq!(status, 0, "sample {s}: the Python checker said {stderr:?}");
        let mut corrupted: Vec<(String, String)> = edits
            .iter()
            .filter_map(|(name, edit)| Some((name.to_string(), mutate(sample, edit)?)))
            .collect();
        let body = sample.trim_end();
        let (without_end, _) = body.rsplit_once('\n').unwrap();
        corrupted.push(("truncated".into(), format!("{without_end}\n")));
        corrupted.push((
            "cut in a line".into(),
            body[..body.len() * 2 / 3].to_owned(),
        ));
        let count: u64 = body.rsplit_once("end ").unwrap().1.parse().unwrap();
        corrupted.push((
            "a wrong count".into(),
            format!("{without_end}\nend {}\n", count + 1),
        ));
        corrupted.push(("claim flipped".into(), {
            if sample.contains("claim win") {
                sample.replacen("claim win", "claim hold", 1)
            } else {
                sample.replacen("claim hold", "claim win", 1)
            }
        }));
        corrupted.push((
            "garbage after the end".into(),
            format!("{body}\n\u{1}\u{2}garbage\n"),
        ));
        for (name, text) in corrupted {
            let fault = verify(Cursor::new(&text), |_| {});
            assert!(fault.is_err(), "{name} accepted (sample {s})");
            let path = dir
                .path()
                .join(format!("{s}-{}.cert", name.replace(' ', "-")));
            std::fs::write(&path, &text).unwrap();
            kinds.insert(name.clone());
            files.push((name, path));
        }
    }
    assert_eq!(
        kinds.len(),
        edits.len() + 5,
        "corruptions that found no line: {kinds:?}"
    );
    for (name, path) in &files {
        let (status, stderr) = python_check(std::slice::from_ref(path));
        assert_eq!(status, 1, "{name}: the Python checker said {stderr:?}");
        assert!(stderr.contains("invalid"), "{name}: {stderr}");
    }
}

#[test]
fn hostile_files_never_crash_a_checker() {
    let header = "score4-certificate 1\ngame 3d\nroot -\nclaim win\n";
    let hostile: Vec<Vec<u8>> = vec![
        format!("{header}end 99999999999999999999999\n").into_bytes(),
        format!("{header}4294967296 0 0 over\nend 1\n").into_bytes(),
        format!("{header}0 {} over\n", "f".repeat(100_000)).into_bytes(),
        (0..=255u8).cycle().take(100_000).collect(),
        format!(
            "{header}0 0000000000000000 0000000000000000 every {}\nend 1\n",
            "0:1 ".repeat(5000)
        )
        .into_bytes(),
        Vec::new(),
        b"score4-certificate 1\r\n".to_vec(),
        // A certificate that would prove itself: its root as its own part.
        format!("{header}0 0000000000000000 0000000000000000 part\nend 1\n").into_bytes(),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, bytes) in hostile.iter().enumerate() {
        assert!(
            verify(Cursor::new(bytes), |_| {}).is_err(),
            "hostile file {i} accepted"
        );
        let path = dir.path().join(format!("{i}.cert"));
        std::fs::write(&path, bytes).unwrap();
        let (status, stderr) = python_check(&[path]);
        assert_eq!(status, 1, "hostile file {i}: {stderr}");
        assert!(!stderr.contains("Traceback"), "{stderr}");
    }
}
