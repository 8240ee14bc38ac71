//! The fuzz target `certificate` (fuzz/README.md) as a test of the normal run: thousands of
//! mutations of the seed certificates (fuzz/seeds/certificate: wins and holds, with pairs,
//! mirror, spare-tempo and zugzwang leaves) never crash `score4-verify`; every mutant it accepts
//! has the value the plain reference solver finds; and on a sample the Python checker gives the
//! same verdict.

#[allow(dead_code)]
#[path = "../../solver/tests/plain/mod.rs"]
mod plain;

use std::path::{Path, PathBuf};
use std::process::Command;

use score4_board::GameRecord;
use score4_verify::{verify, Claim};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn seeds() -> Vec<(String, Vec<u8>)> {
    let directory = repository().join("fuzz/seeds/certificate");
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&directory)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 7, "the seeds are there");
    seeds
}

/// A small deterministic generator (xorshift64*), so that a failure can be replayed.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// One to three edits of `text`: a byte changed (often to a hex digit or a separator), a byte
/// deleted, a line deleted, duplicated or swapped with another.
fn mutate(text: &[u8], random: &mut Random) -> Vec<u8> {
    const ALPHABET: &[u8] = b"0123456789abcdefABCDEF !~-\n#xzqpairsmirrortempo";
    let mut bytes = text.to_vec();
    for _ in 0..=random.below(3) {
        if bytes.is_empty() {
            break;
        }
        let at = random.below(bytes.len());
        match random.below(5) {
            0 => bytes[at] = ALPHABET[random.below(ALPHABET.len())],
            1 => {
                bytes.remove(at);
            }
            kind => {
                let mut lines: Vec<Vec<u8>> =
                    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let (i, j) = (random.below(lines.len()), random.below(lines.len()));
                match kind {
                    2 => {
                        lines.remove(i);
                    }
                    3 => {
                        let copy = lines[i].clone();
                        lines.insert(j, copy);
                    }
                    _ => lines.swap(i, j),
                }
                bytes = lines.join(&b'\n');
            }
        }
    }
    bytes
}

fn plain_first_player_wins(root: &str) -> bool {
    let game: GameRecord = root.parse().unwrap();
    let columns: Vec<u8> = game.moves().iter().map(|c| c.number()).collect();
    plain::PlainSolver::new(&columns).first_player_wins()
}

#[test]
fn mutated_certificates_are_rejected_or_true() {
    let mut random = Random(0x0005_C04E_F022);
    let (mut accepted, mut rejected) = (0, 0);
    for (name, seed) in seeds() {
        for _ in 0..400 {
            let mutant = mutate(&seed, &mut random);
            match verify(&mutant[..], |_| {}) {
                Ok(verdict) if verdict.parts.is_empty() => {
                    accepted += 1;
                    let stones = verdict.root.len();
                    if stones >= 40 {
                        assert_eq!(
                            plain_first_player_wins(&verdict.root),
                            verdict.claim == Claim::Win,
                            "a mutant of {name} accepted with a false claim:\n{}",
                            String::from_utf8_lossy(&mutant)
                        );
                    }
                }
                Ok(_) => accepted += 1,
                Err(fault) => {
                    rejected += 1;
                    assert!(!fault.to_string().is_empty());
                }
            }
        }
    }
    eprintln!("{accepted} mutants accepted (each true), {rejected} rejected");
    assert!(rejected > accepted, "the mutations reach the checks");
}

#[test]
fn both_checkers_give_the_same_verdict_on_mutants() {
    let directory = tempfile::tempdir().unwrap();
    let mut random = Random(0xD1FF_E2E7);
    let mut agreed = [0usize; 2];
    for (name, seed) in seeds() {
        for k in 0..12 {
            let mutant = mutate(&seed, &mut random);
            let path = directory.path().join(format!("{name}-{k}.cert"));
            std::fs::write(&path, &mutant).unwrap();
            let rust = verify(&mutant[..], |_| {}).is_ok_and(|verdict| verdict.parts.is_empty());
            let python = Command::new("python3")
                .arg(repository().join("tools/verify_certificate.py"))
                .arg(&path)
                .output()
                .expect("python3 runs (CI installs it)");
            let python_accepts = match python.status.code() {
                Some(0) => true,
                Some(1 | 2) => false,
                other => panic!(
                    "the Python checker ended with {other:?} on a mutant of {name}: {}",
                    String::from_utf8_lossy(&python.stderr)
                ),
            };
            assert_eq!(
                rust,
                python_accepts,
                "the checkers disagree on a mutant of {name}:\n{}\nPython: {}",
                String::from_utf8_lossy(&mutant),
                String::from_utf8_lossy(&python.stderr)
            );
            agreed[usize::from(rust)] += 1;
        }
    }
    eprintln!(
        "agreed on {} rejections and {} acceptances",
        agreed[0], agreed[1]
    );
}
