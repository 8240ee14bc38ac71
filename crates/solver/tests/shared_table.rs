//! The table shared by several threads: hammered with stores and probes of keys that collide
//! in their buckets, every hit must be the position stored under that key — never a torn entry,
//! never another position. Each key's value is a fixed function of the key, so a hit that
//! returned another position's entry would show a wrong value about half the time.

use score4_solver::{Replacement, TableStats, TranspositionTable};

/// The value "stored" for `key`: a bit no table layout could guess.
fn value_of(key: u128) -> bool {
    let mixed = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> 61) & 1 == 1
}

/// xorshift128+: a small deterministic stream per thread.
struct Stream(u64, u64);

impl Stream {
    fn next(&mut self) -> u64 {
        let (mut s1, s0) = (self.0, self.1);
        self.0 = s0;
        s1 ^= s1 << 23;
        self.1 = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
        self.1.wrapping_add(s0)
    }
}

fn hammer(replacement: Replacement) {
    let table =
        TranspositionTable::of_size(TranspositionTable::minimum_bytes(replacement), replacement)
            .expect("the smallest table");
    let block_buckets = table.block_buckets() as u128;
    // Keys are drawn from 8 per bucket of four pages' blocks (page,
    // and bucket + m·S in the low bits: the same bucket, different stored bits), so stores from
    // different threads keep replacing each other in the same words.
    let key_of = |draw: u64| {
        let bucket = (draw & 0x3FFF) as u128 % block_buckets;
        let lap = ((draw >> 14) & 7) as u128 + 1;
        let page = ((draw >> 17) & 3) as u128;
        (page << 64) + bucket + lap * block_buckets
    };
    let threads = 4;
    let totals: Vec<(u64, TableStats)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let table = &table;
                scope.spawn(move || {
                    let mut stream = Stream(0x1234_5678 + t, 0x9ABC_DEF0 ^ (t << 32));
                    let mut stats = TableStats::default();
                    let mut checked = 0u64;
                    for _ in 0..1_000_000 {
                        let draw = stream.next();
                        let key = key_of(draw);
                        let slot = table.slot(key);
                        if draw >> 63 == 0 {
                            let nodes = 1 + (draw >> 40) % 100_000;
                            table.store(slot, value_of(key), nodes, &mut stats);
                        } else if let Some(value) = table.probe(slot, &mut stats) {
                            assert_eq!(value, value_of(key), "a hit that is another position");
                            checked += 1;
                        }
                    }
                    (checked, stats)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let hits: u64 = totals.iter().map(|(checked, _)| checked).sum();
    let replacements: u64 = totals.iter().map(|(_, stats)| stats.replacements).sum();
    // The test means something only if threads really met in the same buckets.
    assert!(hits > 100_000, "{hits} hits");
    assert!(replacements > 100_000, "{replacements} replacements");
}

#[test]
fn four_threads_never_see_a_torn_entry_or_another_position_twobig() {
    hammer(Replacement::TwoBig);
}

#[test]
fn four_threads_never_see_a_torn_entry_or_another_position_new() {
    hammer(Replacement::New);
}

#[test]
fn four_threads_never_see_a_torn_entry_or_another_position_big() {
    hammer(Replacement::Big);
}
