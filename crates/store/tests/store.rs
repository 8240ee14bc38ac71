//! The store on real SQLite files: what is written comes back, contradictions and foreign
//! files are refused with the file named, a second writer is refused, merges combine.

use std::path::Path;

use score4_store::{Bounds, Record, Run, Store, StoreError};

fn record(key: u128, moves: &str, lower: i32, upper: i32, nodes: u64) -> Record {
    Record {
        key,
        stones: moves.len() as u32,
        moves: moves.to_owned(),
        bounds: Bounds { lower, upper },
        nodes,
        seconds: nodes as f64 / 1e6,
    }
}

const OPEN: i32 = i32::MAX / 2;

fn run() -> Run {
    Run {
        id: 0,
        root: "0FC".to_owned(),
        mode: "first-wins".to_owned(),
        started: 0.0,
        stopped: 0.0,
        host: "test".to_owned(),
        threads: 2,
        memory: 1 << 30,
        version: "test".to_owned(),
        nodes: 0,
        outcome: String::new(),
    }
}

#[test]
fn positions_and_runs_come_back_and_bounds_meet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.db");
    {
        let mut store = Store::open_for_writing(&path, "3d").unwrap();
        store
            .write(&[
                record(1, "0", 1, OPEN, 100),
                record((1 << 80) - 1, "01", -3, -3, 7),
            ])
            .unwrap();
        // A second answer about position 1 narrows it; nodes add up.
        store.write(&[record(1, "0", -OPEN, 5, 50)]).unwrap();
        let id = store.begin_run(&run()).unwrap();
        store.update_run(id, 157, "proven").unwrap();
        store.check_integrity().unwrap();
    }
    let store = Store::open_for_reading(&path).unwrap();
    let one = store.get(1).unwrap().unwrap();
    assert_eq!(one.bounds, Bounds { lower: 1, upper: 5 });
    assert_eq!((one.nodes, one.moves.as_str()), (150, "0"));
    assert_eq!(store.get((1 << 80) - 1).unwrap().unwrap().bounds.lower, -3);
    assert_eq!(store.get(2).unwrap(), None);
    let loaded = store.load().unwrap();
    assert_eq!(loaded.len(), 2);
    let runs = store.runs().unwrap();
    assert_eq!(
        (runs.len(), runs[0].nodes, runs[0].outcome.as_str()),
        (1, 157, "proven")
    );
    let summary = store.summary().unwrap();
    assert_eq!(
        (summary.positions, summary.settled, summary.nodes),
        (2, 2, 157)
    );
    assert_eq!(store.nodes_under("0").unwrap(), 157);
    assert_eq!(store.nodes_under("01").unwrap(), 7);
}

#[test]
fn a_contradiction_is_refused_and_nothing_of_its_write_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.db");
    let mut store = Store::open_for_writing(&path, "3d").unwrap();
    store.write(&[record(9, "0F", 1, OPEN, 10)]).unwrap();
    let error = store
        .write(&[record(10, "0E", 0, 0, 1), record(9, "0F", -OPEN, 0, 1)])
        .unwrap_err();
    assert!(matches!(error, StoreError::Contradiction { .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.contains("0F") && message.contains("proof.db"),
        "{message}"
    );
    assert_eq!(
        store.get(10).unwrap(),
        None,
        "the whole write was rolled back"
    );
}

/// The error opening `path` for writing and for reading.
fn refusals(path: &Path) -> (StoreError, StoreError) {
    let writing = Store::open_for_writing(path, "3d").err().unwrap();
    let reading = Store::open_for_reading(path).err().unwrap();
    (writing, reading)
}

#[test]
fn foreign_and_damaged_files_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // Not SQLite at all.
    let text = dir.path().join("notes.txt");
    std::fs::write(
        &text,
        "not a database, just some text that is long enough ".repeat(100),
    )
    .unwrap();
    for error in <[StoreError; 2]>::from(refusals(&text)) {
        assert!(matches!(error, StoreError::NotAStore { .. }), "{error}");
        assert!(error.to_string().contains("notes.txt"));
    }
    // SQLite, but not a store.
    let other = dir.path().join("other.db");
    sql(&other, "CREATE TABLE something_else (x INTEGER)");
    let (writing, reading) = refusals(&other);
    for error in [writing, reading] {
        assert!(
            error.to_string().contains("without score4's table"),
            "{error}"
        );
    }
    // A store of another schema version, and of the other game.
    let store_path = dir.path().join("store.db");
    drop(Store::open_for_writing(&store_path, "3d").unwrap());
    set_meta(&store_path, "schema_version", "99");
    let error = Store::open_for_reading(&store_path).err().unwrap();
    assert!(error.to_string().contains("schema version 99"), "{error}");
    set_meta(&store_path, "schema_version", "1");
    let error = Store::open_for_writing(&store_path, "classic")
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::OtherGame { .. }), "{error}");
    // Truncated to half its pages.
    let mut store = Store::open_for_writing(&store_path, "3d").unwrap();
    let many: Vec<Record> = (0..5000)
        .map(|key| record(key, "0123456789ABCDEF", 0, 0, key as u64))
        .collect();
    store.write(&many).unwrap();
    drop(store);
    let bytes = std::fs::read(&store_path).unwrap();
    std::fs::write(&store_path, &bytes[..bytes.len() / 2]).unwrap();
    let damaged = Store::open_for_reading(&store_path).and_then(|store| {
        store
            .check_integrity()
            .and_then(|_| store.load().map(|_| ()))
    });
    let error = damaged
        .map(|_| ())
        .expect_err("a truncated store is noticed");
    assert!(error.to_string().contains("store.db"), "{error}");
    // A file that does not exist cannot be read.
    let error = Store::open_for_reading(&dir.path().join("missing.db"))
        .err()
        .unwrap();
    assert!(error.to_string().contains("missing.db"), "{error}");
}

fn set_meta(path: &Path, name: &str, value: &str) {
    sql(
        path,
        &format!("UPDATE meta SET value = '{value}' WHERE name = '{name}'"),
    );
}

/// Runs a statement on the file with SQLite directly, as another program would.
fn sql(path: &Path, statement: &str) {
    let connection = rusqlite::Connection::open(path).unwrap();
    connection.execute_batch(statement).unwrap();
}

#[test]
fn a_second_writer_is_refused_while_readers_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.db");
    let mut writer = Store::open_for_writing(&path, "3d").unwrap();
    writer.write(&[record(3, "3", 1, OPEN, 1)]).unwrap();
    let error = Store::open_for_writing(&path, "3d").err().unwrap();
    assert!(matches!(error, StoreError::Busy { .. }), "{error}");
    let reader = Store::open_for_reading(&path).unwrap();
    assert!(reader.get(3).unwrap().is_some());
    drop(writer);
    assert!(Store::open_for_writing(&path, "3d").is_ok());
}

#[test]
fn stores_merge_and_a_disagreement_names_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c, merged) = (
        dir.path().join("a.db"),
        dir.path().join("b.db"),
        dir.path().join("c.db"),
        dir.path().join("merged.db"),
    );
    Store::open_for_writing(&a, "3d")
        .unwrap()
        .write(&[record(1, "1", 1, OPEN, 5), record(2, "2", 0, 0, 5)])
        .unwrap();
    Store::open_for_writing(&b, "3d")
        .unwrap()
        .write(&[record(1, "1", -OPEN, 4, 5), record(3, "3", -2, -2, 5)])
        .unwrap();
    Store::open_for_writing(&c, "3d")
        .unwrap()
        .write(&[record(2, "2", 1, OPEN, 5)])
        .unwrap();
    let mut target = Store::open_for_writing(&merged, "3d").unwrap();
    for source in [&a, &b] {
        target
            .merge_from(&Store::open_for_reading(source).unwrap())
            .unwrap();
    }
    assert_eq!(
        target.get(1).unwrap().unwrap().bounds,
        Bounds { lower: 1, upper: 4 }
    );
    assert_eq!(target.load().unwrap().len(), 3);
    let error = target
        .merge_from(&Store::open_for_reading(&c).unwrap())
        .unwrap_err();
    assert!(matches!(error, StoreError::Contradiction { .. }), "{error}");
    assert_eq!(
        target.get(2).unwrap().unwrap().bounds,
        Bounds { lower: 0, upper: 0 }
    );
}
