//! The store opener on arbitrary bytes as a database file: every reading `score4 store status`
//! and `--book` do gives a value or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use score4_store::Store;

fuzz_target!(|data: &[u8]| {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("fuzzed.sqlite");
    std::fs::write(&path, data).expect("the file is written");
    let Ok(store) = Store::open_for_reading(&path) else {
        return;
    };
    let _ = store.game();
    let _ = store.summary();
    let _ = store.runs();
    let _ = store.check_integrity();
    let _ = store.for_each(|_| {});
    let _ = store.nodes_under("0");
    let _ = store.get(0);
});
