//! `score4 certify` and `score4 verify` as real processes on real files: a certificate and its
//! faults, and proofs of `score4 prove` certified in parts from their stores, checked and
//! joined by both checkers (`score4 verify` and tools/verify_certificate.py), with a missing
//! part caught by both.

mod common;
use common::{score4, stdout_of_success};
use std::path::{Path, PathBuf};
use std::process::Command as Process;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Python checker on `files`: its exit status, standard output and standard error.
fn python_check(files: &[PathBuf]) -> (i32, String, String) {
    let output = Process::new("python3")
        .arg(repository().join("tools/verify_certificate.py"))
        .args(files)
        .output()
        .expect("python3 runs (CI installs it)");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `score4 verify` on `files`: its exit status, standard output and standard error.
fn rust_check(files: &[PathBuf]) -> (i32, String, String) {
    rust_check_with(files, &[])
}

/// `score4 verify` on `files` with `options`: its exit status, standard output and standard
/// error.
fn rust_check_with(files: &[PathBuf], options: &[&str]) -> (i32, String, String) {
    let output = score4()
        .arg("verify")
        .args(files)
        .args(options)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `--search-parts` on one thread, for the small tests.
const SEARCH_ON_ONE_THREAD: [&str; 5] = ["--search-parts", "--threads", "1", "--memory", "128MiB"];

/// The `.cert` files of `dir`, sorted.
fn certificates_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "cert"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_certificate_verifies_and_its_faults_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.cert");
    // 40 stones, from bench/positions/d40.txt.
    let moves = "64A68B56B1E26FA8812033383DE112D90CEEAAD9";
    let said = stdout_of_success(
        score4()
            .args(["certify", moves, "--memory", "128MiB", "-o"])
            .arg(&file),
    );
    assert!(said.contains("certificate"), "{said}");
    let (status, stdout, _) = rust_check(std::slice::from_ref(&file));
    assert_eq!(status, 0);
    assert!(stdout.contains(&format!("valid: root {moves}")), "{stdout}");
    // A board digit changed on the second node line: a wrong position, named by its node.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let target = &mut lines[5];
    let flipped = if target.as_bytes()[target.find(' ').unwrap() + 1] == b'0' {
        "1"
    } else {
        "0"
    };
    let at = target.find(' ').unwrap() + 1;
    target.replace_range(at..at + 1, flipped);
    let broken = dir.path().join("broken.cert");
    std::fs::write(&broken, lines.join("\n") + "\n").unwrap();
    let (status, _, stderr) = rust_check(std::slice::from_ref(&broken));
    assert_eq!(status, 1);
    assert!(
        stderr.contains("node ") && stderr.contains("wrong position"),
        "{stderr}"
    );
    let (status, _, stderr) = python_check(std::slice::from_ref(&broken));
    assert_eq!(status, 1, "{stderr}");
    // A file that does not exist cannot be read: 2, from both.
    let missing = dir.path().join("missing.cert");
    assert_eq!(rust_check(&[file.clone(), missing.clone()]).0, 2);
    assert_eq!(python_check(&[file, missing]).0, 2);
}

/// Proves `moves` on a new store in `dir` with jobs split after 5 ms, and returns the
/// store and whether the first player wins.
fn prove_split(dir: &Path, moves: &str) -> (PathBuf, bool) {
    let store = dir.join(format!("{moves}.sqlite"));
    let said = stdout_of_success(
        score4()
            .args(["prove", moves, "--store"])
            .arg(&store)
            .args([
                "--threads",
                "1",
                "--memory",
                "128MiB",
                "--checkpoint",
                "5ms",
                "--progress",
                "none",
            ]),
    );
    (store, said.contains("the first player (X) wins"))
}

#[test]
fn proofs_certified_in_parts_from_their_stores_verify_joined_with_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    // A hold (30 stones) and two wins (28 and 32), whose proofs split into jobs (how many
    // depends on the time each job takes: each takes some 40,000 to 70,000 nodes, and the
    // hold was replaced when the verticals made the first one too quick to split).
    let positions = [
        "D22593E019405312595FAA2E8B7D34",
        "A7F0082911A278D5491CD54E6552",
        "8314AF47B999EBD1F8E73B8D3462541B",
    ];
    let mut parts_seen = 0;
    let mut most_parts = (0, positions[0]);
    for moves in positions {
        let (store, wins) = prove_split(dir.path(), moves);
        let out = dir.path().join(moves);
        // Two threads write the parts; the run after it, on one, keeps them all.
        let said = stdout_of_success(
            score4()
                .args(["certify", moves, "--memory", "128MiB", "--threads", "2"])
                .arg("--store")
                .arg(&store)
                .arg("-o")
                .arg(&out),
        );
        let claim = if wins { "X wins" } else { "X does not win" };
        let files = certificates_in(&out);
        let parts = files.len() - 1;
        parts_seen += parts;
        most_parts = most_parts.max((parts, moves));
        assert!(
            said.contains(&format!("{parts} part leaves")) || parts == 0,
            "{said}"
        );
        let (status, stdout, stderr) = rust_check(&files);
        assert_eq!((status, stderr.as_str()), (0, ""));
        let top = stdout
            .lines()
            .find(|line| line.contains("top.cert"))
            .unwrap();
        assert!(top.contains(&format!("root {moves}: {claim}")), "{top}");
        if parts > 0 {
            assert!(top.contains("parts are proven by the set"), "{top}");
        }
        let (status, _, stderr) = python_check(&files);
        assert_eq!((status, stderr.as_str()), (0, ""));
        // Certifying again keeps every part already written.
        let again = stdout_of_success(
            score4()
                .args(["certify", moves, "--memory", "128MiB", "--store"])
                .arg(&store)
                .arg("-o")
                .arg(&out),
        );
        if parts > 0 {
            assert!(
                again.contains(&format!("0 written, {parts} kept")),
                "{again}"
            );
        }
    }
    assert!(
        most_parts.0 >= 2,
        "{parts_seen} parts: the proofs did not split"
    );
    let split = most_parts.1;

    // Without one of its parts, the top is rejected by both, naming a part leaf.
    let out = dir.path().join(split);
    let mut files = certificates_in(&out);
    let dropped = files.remove(files.len() / 2);
    assert!(dropped.display().to_string().contains("part-"));
    let (status, _, stderr) = rust_check(&files);
    assert_eq!(status, 1);
    assert!(
        stderr.contains("top.cert: invalid: node ") && stderr.contains("part:"),
        "{stderr}"
    );
    let (status, _, stderr) = python_check(&files);
    assert_eq!(status, 1);
    assert!(
        stderr.contains("top.cert: invalid: node ") && stderr.contains("part:"),
        "{stderr}"
    );

    // The top alone, then each part certified by its own command, as on other machines.
    let store = dir.path().join(format!("{split}.sqlite"));
    let out = dir.path().join("top-only");
    let listed = stdout_of_success(
        score4()
            .args(["certify", split, "--top-only", "--store"])
            .arg(&store)
            .arg("-o")
            .arg(&out),
    );
    assert_eq!(certificates_in(&out).len(), 1);
    for command in listed
        .lines()
        .filter_map(|line| line.split_once(": score4 "))
    {
        let arguments: Vec<&str> = command.1.split(' ').collect();
        stdout_of_success(score4().args(arguments).args(["--memory", "128MiB"]));
    }
    let files = certificates_in(&out);
    assert!(files.len() > 1, "{listed}");
    assert_eq!(rust_check(&files).0, 0);
}

/// X's and O's stones after `moves` (cell `16·height + column`), as a certificate writes them.
fn boards(moves: &str) -> (u64, u64) {
    let (mut stones, mut heights) = ([0u64; 2], [0u32; 16]);
    for (i, column) in moves.chars().enumerate() {
        let column = column.to_digit(16).unwrap() as usize;
        stones[i % 2] |= 1 << (16 * heights[column] + column as u32);
        heights[column] += 1;
    }
    (stones[0], stones[1])
}

#[test]
fn parts_no_file_proves_are_searched_with_search_parts_and_a_false_one_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    // A 30-stone hold that splits (the test above).
    let moves = "D22593E019405312595FAA2E8B7D34";
    let (store, wins) = prove_split(dir.path(), moves);
    assert!(!wins);
    let out = dir.path().join("top");
    stdout_of_success(
        score4()
            .args(["certify", moves, "--top-only", "--store"])
            .arg(&store)
            .arg("-o")
            .arg(&out),
    );
    let top = vec![out.join("top.cert")];
    let text = std::fs::read_to_string(&top[0]).unwrap();
    let part_leaves = text.lines().filter(|line| line.ends_with(" part")).count();
    assert!(part_leaves >= 2, "{text}");

    // Alone, the top is rejected; with its parts searched, accepted, and said to rest on the
    // search.
    assert_eq!(rust_check(&top).0, 1);
    let (status, stdout, _) = rust_check_with(&top, &SEARCH_ON_ONE_THREAD);
    assert_eq!(status, 0, "{stdout}");
    assert_eq!(
        stdout.matches(": searched: hold, as claimed;").count(),
        part_leaves,
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "of its {part_leaves} parts, 0 are proven by the set and {part_leaves} by score4's \
             search (not by a certificate)"
        )),
        "{stdout}"
    );

    // A top that claims X wins after a move that does not: valid alone, refuted by the search.
    let (x, o) = boards(moves);
    let column = (0..16)
        .find(|&c| {
            moves
                .matches(char::from_digit(c, 16).unwrap().to_ascii_uppercase())
                .count()
                < 4
        })
        .unwrap();
    let after = format!("{moves}{:X}", column);
    let (ax, ao) = boards(&after);
    let false_top = dir.path().join("false.cert");
    std::fs::write(
        &false_top,
        format!(
            "score4-certificate 1\ngame 3d\nroot {moves}\nclaim win\n\
             0 {x:016x} {o:016x} choose {column:X} 1\n1 {ax:016x} {ao:016x} part\nend 2\n"
        ),
    )
    .unwrap();
    let (status, stdout, stderr) = rust_check_with(&[false_top], &SEARCH_ON_ONE_THREAD);
    assert_eq!(status, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("searched: NOT win, against the claim"),
        "{stdout}"
    );
    assert!(
        stderr.contains("false.cert: invalid: node 1 (moves ")
            && stderr.contains("score4's search does not find the claim there"),
        "{stderr}"
    );
}

/// The published proofs of replies A, B, 3, 2, 9, E, 5, F, 1, D, 4 and 0 of the report's position
/// (proofs/README.md): each top is valid alone for both checkers (each rejects it only for the
/// parts no file proves; the part certificates of reply 3 are valid), and the parts no file
/// proves, searched as far as ten seconds each allow, are what the tops claim. The whole check,
/// without the time limit, is the command proofs/README.md gives.
#[test]
fn the_published_tops_check_and_their_parts_search_as_claimed() {
    let proofs = repository().join("proofs");
    let mut reply_3 = vec![proofs.join("0FC3484B73.top.cert")];
    reply_3.extend(certificates_in(&proofs.join("0FC3484B73.parts")));
    let sets = [
        ("A", vec![proofs.join("0FC3484B7A.top.cert")], 16, 16),
        ("B", vec![proofs.join("0FC3484B7B.top.cert")], 1, 1),
        ("3", reply_3, 29, 12),
        ("2", vec![proofs.join("0FC3484B72.top.cert")], 15, 15),
        ("9", vec![proofs.join("0FC3484B79.top.cert")], 30, 30),
        ("E", vec![proofs.join("0FC3484B7E.top.cert")], 29, 29),
        ("5", vec![proofs.join("0FC3484B75.top.cert")], 28, 28),
        ("F", vec![proofs.join("0FC3484B7F.top.cert")], 29, 29),
        ("1", vec![proofs.join("0FC3484B71.top.cert")], 29, 29),
        ("D", vec![proofs.join("0FC3484B7D.top.cert")], 29, 29),
        ("4", vec![proofs.join("0FC3484B74.top.cert")], 16, 16),
        ("0", vec![proofs.join("0FC3484B70.top.cert")], 28, 28),
    ];
    for (reply, files, parts, searched_parts) in sets {
        let part_files = files.len() - 1;
        for (status, stdout, stderr) in [rust_check(&files), python_check(&files)] {
            assert_eq!(status, 1, "reply {reply}");
            assert!(
                stderr.contains("top.cert: invalid: node ")
                    && stderr.contains("part: no certificate of the set proves this position"),
                "reply {reply}: {stderr}"
            );
            assert_eq!(stdout.matches(": valid: ").count(), part_files, "{stdout}");
        }
        let options = ["--search-parts", "--threads", "2", "--memory", "1GiB"];
        let (status, stdout, stderr) =
            rust_check_with(&files, &[&options[..], &["--part-time", "10s"]].concat());
        let agreed = stdout.matches(": searched: win, as claimed;").count();
        let given_up = stdout
            .matches(": given up at --part-time, undecided")
            .count();
        assert_eq!(agreed + given_up, searched_parts, "{stdout}{stderr}");
        assert_eq!(
            status,
            if given_up == 0 { 0 } else { 3 },
            "{stdout}{stderr}"
        );
        if given_up == 0 {
            let proven_by_set = parts - searched_parts;
            assert!(
                stdout.contains(&format!(
                    "of its {parts} parts, {proven_by_set} are proven by the set and \
                     {searched_parts} by score4's search"
                )),
                "{stdout}"
            );
        }
        eprintln!("reply {reply}: {agreed} of {searched_parts} parts searched within 10 s each");
    }
}
