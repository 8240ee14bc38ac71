//! The fuzz target `store` (fuzz/README.md) as a test of the normal run: a valid store with
//! bytes changed, cut short or replaced by noise, opened as `store status` and `--book` open a
//! store, gives values or errors for every reading, never a panic.

use std::path::Path;

use score4_store::Store;

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

/// Every reading the commands make; true if the store opened.
fn read_everything(path: &Path) -> bool {
    let Ok(store) = Store::open_for_reading(path) else {
        return false;
    };
    let _ = store.game();
    let _ = store.summary();
    let _ = store.runs();
    let _ = store.check_integrity();
    let _ = store.for_each(|_| {});
    let _ = store.nodes_under("0");
    let _ = store.get(0);
    true
}

#[test]
fn damaged_stores_give_errors_not_panics() {
    let seed = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/store/small.sqlite"),
    )
    .unwrap();
    let directory = tempfile::tempdir().unwrap();
    let mut random = Random(0x5709E);
    let mut opened = 0;
    for k in 0..300 {
        let mut bytes = seed.clone();
        match k % 3 {
            0 => {
                for _ in 0..=random.below(16) {
                    let at = random.below(bytes.len());
                    bytes[at] = random.below(256) as u8;
                }
            }
            1 => bytes.truncate(random.below(bytes.len())),
            _ => {
                bytes = (0..random.below(8192))
                    .map(|_| random.below(256) as u8)
                    .collect()
            }
        }
        let path = directory.path().join(format!("damaged-{k}.sqlite"));
        std::fs::write(&path, &bytes).unwrap();
        opened += usize::from(read_everything(&path));
    }
    eprintln!("{opened} of 300 damaged files opened; every reading answered");
}
