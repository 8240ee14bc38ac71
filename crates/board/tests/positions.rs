//! Distinct positions after `n` plies and their classes under the 8 symmetries, against
//! docs/RULES.md, "Counts to test against"; the canonical key against a recomputation from scratch;
//! and the compact key's injectivity on every position of the first six plies.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use common::{Layers, XorShift, DISTINCT_POSITIONS};
use score4_board::key::{compact_key, decode_compact};
use score4_board::{BitBoard, Colour, Position, Symmetry};

/// The positions of plies 0..=6, enumerated once and shared by the tests of this file.
fn six_plies() -> &'static Layers {
    static LAYERS: OnceLock<Layers> = OnceLock::new();
    LAYERS.get_or_init(|| common::layers(6))
}

fn check_counts(layers: &Layers, plies: usize) {
    for &(n, distinct, won, canonical) in &DISTINCT_POSITIONS[..plies] {
        assert_eq!(
            layers.distinct[n].len(),
            distinct,
            "distinct positions after {n} plies"
        );
        assert_eq!(layers.won[n], won, "won positions after {n} plies");
        assert_eq!(
            layers.canonical[n], canonical,
            "canonical keys after {n} plies"
        );
    }
}

/// Guards transpositions and the canonical key: distinct positions and distinct canonical keys
/// after 1..=6 plies equal docs/RULES.md, "Counts to test against".
#[test]
fn distinct_and_canonical_positions_up_to_six_plies_match_the_design_table() {
    check_counts(six_plies(), 6);
}

/// Guards `Position::canonical_key` (`key::least_image_key`) against a recomputation that shares
/// none of its code: for every position of plies 1..=6, the canonical key is the least
/// `compact_key` of the 8 images made with `Symmetry::apply`; and the number of orbits, found from
/// the least image's *stones* (no key involved), is the number of canonical keys.
#[test]
fn canonical_key_is_the_least_image_key_and_counts_the_orbits() {
    let layers = six_plies();
    for n in 1..=6 {
        let mut orbits: HashSet<(u64, u64)> = HashSet::new();
        for &(white, black) in &layers.distinct[n] {
            let position = Position::from_stones(BitBoard(white), BitBoard(black)).unwrap();
            let images = Symmetry::ALL
                .map(|sym| (sym.apply(BitBoard(white)).0, sym.apply(BitBoard(black)).0));
            let least_key = images.iter().map(|&(w, b)| compact_key(w, b)).min();
            assert_eq!(
                Some(position.canonical_key()),
                least_key,
                "canonical key of white {white:#x} black {black:#x}"
            );
            orbits.insert(*images.iter().min().unwrap());
        }
        assert_eq!(orbits.len(), layers.canonical[n], "orbits after {n} plies");
    }
}

/// Guards the orbit structure from the other side: every image of a reached position is itself
/// reached at the same ply (the game is symmetric), so each ply is a union of whole orbits.
#[test]
fn every_ply_is_closed_under_the_symmetries() {
    let layers = six_plies();
    for n in 1..=5 {
        let reached: HashSet<(u64, u64)> = layers.distinct[n].iter().copied().collect();
        for &(white, black) in &layers.distinct[n] {
            for sym in Symmetry::ALL {
                let image = (sym.apply_bits(white), sym.apply_bits(black));
                assert!(
                    reached.contains(&image),
                    "{sym:?} image missing after {n} plies"
                );
            }
        }
    }
}

/// Guards the 80-bit compact key: on all 1.24 million positions of plies 0..=6 (full columns
/// included), distinct positions have distinct keys and every key decodes to its stones.
#[test]
fn compact_keys_of_the_first_six_plies_are_injective_and_decode() {
    let layers = six_plies();
    let total: usize = layers.distinct.iter().map(Vec::len).sum();
    let mut by_key: HashMap<u128, (u64, u64)> = HashMap::with_capacity(total);
    for &(white, black) in layers.distinct.iter().flatten() {
        let key = compact_key(white, black);
        assert_eq!(decode_compact(key), Some((white, black)), "key {key:#x}");
        if let Some(other) = by_key.insert(key, (white, black)) {
            panic!("key {key:#x} for both {other:x?} and {:x?}", (white, black));
        }
    }
    assert_eq!(by_key.len(), total);
}

/// Guards injectivity deep in the game, where columns fill up and the full-column bits 64..80
/// are used: 300,000 positions from random games of every length, deduplicated by stones, have
/// as many distinct compact keys (and canonical keys never exceed positions).
#[test]
fn compact_keys_of_random_deep_positions_are_injective() {
    let mut rng = XorShift::new(0x5C04E);
    let mut positions: HashSet<(u64, u64)> = HashSet::new();
    while positions.len() < 300_000 {
        let mut position = Position::EMPTY;
        for cell in common::random_game(&mut rng, 64) {
            position.play(cell);
            positions.insert((
                position.stones(Colour::White).0,
                position.stones(Colour::Black).0,
            ));
        }
    }
    let keys: HashSet<u128> = positions.iter().map(|&(w, b)| compact_key(w, b)).collect();
    assert_eq!(keys.len(), positions.len());
    // The sample must reach the full-column bits, and games of 40 stones and more.
    let with_full_column = keys.iter().filter(|&&key| key >> 64 != 0).count();
    let deep = positions
        .iter()
        .filter(|&&(w, b)| (w | b).count_ones() >= 40)
        .count();
    assert!(
        with_full_column > 50_000,
        "{with_full_column} with a full column"
    );
    assert!(deep > 1_000, "{deep} positions of 40 stones or more");
    for &(white, black) in &positions {
        assert_eq!(
            decode_compact(compact_key(white, black)),
            Some((white, black))
        );
    }
}

/// Guards the counts of ply 7, the first with won positions: 5,869,840 distinct positions, 19,040
/// of them won, 736,407 up to symmetry (docs/RULES.md, "Counts to test against"). About 10 s and
/// 0.5 GB optimised.
#[test]
#[ignore = "5.9 million positions; run with --include-ignored in the optimised test profile"]
fn distinct_and_canonical_positions_at_seven_plies_match_the_design_table() {
    check_counts(&common::layers(7), 7);
}
