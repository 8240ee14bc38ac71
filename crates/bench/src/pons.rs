//! Pascal Pons's six test sets of the classic game (`MOVES SCORE` per line), read from
//! `../shared/data/pons` beside the repository: the published scores the classic game is
//! checked against.

use std::path::PathBuf;

/// The directory of the sets, beside the repository.
pub fn directory() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/pons")
}

/// The lines of set `name` (e.g. `Test_L2_R2`) as (moves, published score), in order.
///
/// Panics (naming the file and line) if the set cannot be read: for tests, whose data must be
/// there.
pub fn set(name: &str) -> Vec<(String, i32)> {
    let path = directory().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let mut words = line.split_whitespace();
            let parsed = (|| Some((words.next()?.to_owned(), words.next()?.parse().ok()?)))();
            parsed.unwrap_or_else(|| panic!("{} line {}: not MOVES SCORE", path.display(), i + 1))
        })
        .collect()
}
