//! The fast solver against the plain reference solver (tests/plain), on hundreds of positions of
//! 40–52 stones, with every replacement scheme, with near-leaf areas large and small, with the
//! smallest tables shared by all positions (so that entries are replaced all the time), and on
//! the 8 symmetric images of positions; and the reference alone on the claim the wide keys rest
//! on, that positions differing only in their dead stones have one value.

mod plain;

use plain::PlainSolver;
use score4_bench::PositionGenerator;
use score4_board::CellCoordinates;
use score4_board::{GameRecord, Symmetry};
use score4_solver::table::{KEY_WIDTH_3D, LEAF_MIN_STONES};
use score4_solver::{
    BestFirst, Format, LeafArea, Replacement, Solver, TableConfig, TranspositionTable,
};
use std::sync::OnceLock;

const SCHEMES: [Replacement; 3] = [Replacement::TwoBig, Replacement::New, Replacement::Big];

/// Positions per stone count, 40..=52: fewer of the hardest, whose reference solve takes seconds
/// (17 million nodes at 40 stones against 3 million at 42 and 0.6 million at 44).
const PER_STONE_COUNT: [(u32, usize); 13] = [
    (40, 8),
    (41, 12),
    (42, 20),
    (43, 30),
    (44, 50),
    (45, 50),
    (46, 50),
    (47, 50),
    (48, 50),
    (49, 50),
    (50, 50),
    (51, 50),
    (52, 50),
];

/// The 520 test positions with their reference values, computed once on two threads.
fn reference_positions() -> &'static [(GameRecord, bool)] {
    static POSITIONS: OnceLock<Vec<(GameRecord, bool)>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let games: Vec<GameRecord> = PER_STONE_COUNT
            .iter()
            .flat_map(|&(stones, count)| {
                PositionGenerator::new(stones, 1_000 + stones as u64).take(count)
            })
            .collect();
        let solve = |game: &GameRecord| {
            let columns: Vec<u8> = game.moves().iter().map(|c| c.number()).collect();
            PlainSolver::new(&columns).first_player_wins()
        };
        // Interleave the two halves so that both threads get hard and easy positions.
        let values: Vec<bool> = std::thread::scope(|scope| {
            let odd = scope.spawn(|| {
                games
                    .iter()
                    .skip(1)
                    .step_by(2)
                    .map(solve)
                    .collect::<Vec<_>>()
            });
            let even: Vec<bool> = games.iter().step_by(2).map(solve).collect();
            let odd = odd.join().expect("reference thread");
            (0..games.len())
                .map(|i| if i % 2 == 0 { even[i / 2] } else { odd[i / 2] })
                .collect()
        });
        games.into_iter().zip(values).collect()
    })
}

fn check_scheme(positions: &[(GameRecord, bool)], table: &TranspositionTable) -> u64 {
    let mut solver = Solver::new(table);
    for (game, expected) in positions {
        let solution = solver.solve(game.position());
        assert_eq!(
            solution.first_player_wins,
            *expected,
            "{game}: fast solver ({}) disagrees with the reference",
            table.replacement()
        );
    }
    solver.stats().table.replacements
}

#[test]
fn fast_solver_agrees_with_plain_reference_for_every_scheme_and_a_tiny_table() {
    let positions = reference_positions();
    assert!(positions.len() >= 500);
    let wins = positions.iter().filter(|(_, win)| *win).count();
    assert!(
        wins > 50 && wins < positions.len() - 50,
        "a mix of values: {wins} wins"
    );
    for replacement in SCHEMES {
        let table = TranspositionTable::of_size(256 << 20, replacement).unwrap();
        check_scheme(positions, &table);
        // The smallest table, shared by all positions and never cleared: entries collide and are
        // replaced all the time.
        let tiny = TranspositionTable::of_size(
            TranspositionTable::minimum_bytes(replacement),
            replacement,
        )
        .unwrap();
        check_scheme(positions, &tiny);
        // The same large table with the smallest near-leaf area, and the smallest main area
        // beside the smallest near-leaf area (the test below puts both under heavy replacement).
        let leaf = TranspositionTable::minimum_leaf_bytes(replacement, Format::Binary);
        check_scheme(
            positions,
            &with_leaf_area(256 << 20, replacement, LeafArea::Bytes(leaf)),
        );
        check_scheme(positions, &smallest_with_leaf_area(replacement));
    }
}

/// The best-first driver over the top of the tree ([`score4_solver::best_first`]) with budgets
/// small enough that it takes over nearly every position and its tree grows deep: every
/// variant, on a large table and on the smallest one, agrees with the reference.
#[test]
fn best_first_driver_agrees_with_plain_reference() {
    let positions = reference_positions();
    let small = BestFirst {
        after: 64,
        black_to_move_budget: 24,
        white_to_move_budget: 16,
        sequential_black: false,
        driver_turn_shift: None,
    };
    let variants = [
        small,
        BestFirst {
            sequential_black: true,
            ..small
        },
        BestFirst {
            sequential_black: true,
            driver_turn_shift: Some(0),
            ..small
        },
        BestFirst {
            black_to_move_budget: 400,
            ..small
        },
    ];
    for (i, settings) in variants.into_iter().enumerate() {
        let bytes = if i % 2 == 0 {
            256 << 20
        } else {
            TranspositionTable::minimum_bytes(Replacement::TwoBig)
        };
        let table = TranspositionTable::of_size(bytes, Replacement::TwoBig).unwrap();
        let mut solver = Solver::new(&table).with_best_first(Some(settings));
        for (game, expected) in positions {
            assert_eq!(
                solver.solve(game.position()).first_player_wins,
                *expected,
                "{game}: the best-first driver ({settings:?}) disagrees with the reference"
            );
        }
    }
}

/// With budgets of two nodes a probe settles only what the search's head, its table and its
/// rules settle at once: the driver is then a plain proof-number search with those as its
/// leaf evaluation, and must still agree (positions of 48 stones or more, whose trees fit).
#[test]
fn proof_number_search_with_static_leaves_agrees_with_plain_reference() {
    let table = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
    let settings = BestFirst {
        after: 2,
        black_to_move_budget: 2,
        white_to_move_budget: 2,
        sequential_black: false,
        driver_turn_shift: None,
    };
    let mut solver = Solver::new(&table).with_best_first(Some(settings));
    let mut checked = 0;
    for (game, expected) in reference_positions() {
        if game.position().count() < 48 {
            continue;
        }
        table.clear(); // the tree, not the table, is under test
        assert_eq!(
            solver.solve(game.position()).first_player_wins,
            *expected,
            "{game}: proof-number search with static leaves disagrees with the reference"
        );
        checked += 1;
    }
    assert!(checked >= 200, "{checked} positions");
}

/// A binary-format table of `bytes` with the near-leaf area `leaf`.
fn with_leaf_area(bytes: u64, replacement: Replacement, leaf: LeafArea) -> TranspositionTable {
    let config = TableConfig::new(bytes, KEY_WIDTH_3D).replacement(replacement);
    TranspositionTable::new(&config.threads(2).leaf_area(leaf)).unwrap()
}

/// The smallest main area beside the smallest near-leaf area.
fn smallest_with_leaf_area(replacement: Replacement) -> TranspositionTable {
    let leaf = TranspositionTable::minimum_leaf_bytes(replacement, Format::Binary);
    let bytes = TranspositionTable::minimum_bytes(replacement) + leaf;
    let table = with_leaf_area(bytes, replacement, LeafArea::Bytes(leaf));
    assert_eq!(table.leaf_min_stones(), Some(LEAF_MIN_STONES));
    table
}

#[test]
fn every_table_of_the_3d_game_has_a_near_leaf_area() {
    let large = TranspositionTable::of_size(256 << 20, Replacement::TwoBig).unwrap();
    assert_eq!(large.leaf_min_stones(), Some(LEAF_MIN_STONES));
    assert!(large.leaf_bytes() <= (256 << 20) / score4_solver::table::LEAF_AREA_AUTO_PARTS);
    assert!(large.bytes() <= 256 << 20);
    let small = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
    assert_eq!(small.leaf_min_stones(), Some(LEAF_MIN_STONES));
    assert!(small.leaf_bytes() <= (128 << 20) / score4_solver::table::LEAF_AREA_AUTO_PARTS);
    let off = TableConfig::new(256 << 20, KEY_WIDTH_3D).leaf_area(LeafArea::Off);
    assert!(TranspositionTable::new(&off).is_err());
}

/// What the wide keys rest on, checked by the plain reference alone: a position and the position
/// with the colours of a dead white stone and a dead black stone swapped, when the swap leaves
/// the same stones dead (their wide keys agree), have one value, in win/draw/loss and in exact
/// scores; and when the swap revives a stone, the wide keys differ. One merging swap per
/// position, the first in cell order.
#[test]
fn positions_that_differ_only_in_dead_stones_have_one_value_by_the_reference() {
    use score4_board::key::wide_key;
    use score4_board::{BitBoard, Colour, Position};
    let (mut merged, mut apart) = (0, 0);
    let games =
        (46..=50).flat_map(|stones| PositionGenerator::new(stones, 4_046 + stones as u64).take(40));
    for game in games {
        let position = game.position();
        let dead = position.dead_stones().0;
        let white = position.stones(Colour::White).0;
        let black = position.stones(Colour::Black).0;
        let key = wide_key(white, black, dead);
        let cells = |set: u64| (0..64).map(|c| 1u64 << c).filter(move |bit| set & bit != 0);
        let swaps = cells(dead & white).flat_map(|w| cells(dead & black).map(move |b| (w, b)));
        let mut swapped_positions = swaps.map(|(w, b)| {
            let swapped =
                Position::from_stones(BitBoard((white ^ w) | b), BitBoard((black ^ b) | w));
            swapped.expect("a swap keeps gravity and the stone counts")
        });
        let same_class = swapped_positions.find(|swapped| {
            let (w, b) = (
                swapped.stones(Colour::White).0,
                swapped.stones(Colour::Black).0,
            );
            let same = wide_key(w, b, swapped.dead_stones().0) == key;
            if !same {
                // A revived stone: the swap made a line through it single-coloured.
                assert_ne!(swapped.dead_stones().0, dead, "{game}");
                apart += 1;
            }
            same
        });
        let Some(swapped) = same_class else {
            continue;
        };
        let (s_white, s_black) = (
            swapped.stones(Colour::White).0,
            swapped.stones(Colour::Black).0,
        );
        assert!(
            !swapped.has_four(Colour::White) && !swapped.has_four(Colour::Black),
            "{game}: dead stones complete no line"
        );
        for exact in [false, true] {
            let value = |w: u64, b: u64| {
                let mut plain = PlainSolver::from_stones(w, b, exact);
                if exact {
                    plain.value() as i32
                } else {
                    plain.first_player_wins() as i32
                }
            };
            assert_eq!(
                value(white, black),
                value(s_white, s_black),
                "{game}: the swap of two dead stones changed the value (exact scores: {exact})"
            );
        }
        merged += 1;
    }
    assert!(
        merged >= 40 && apart >= 40,
        "{merged} positions with a swap merged, {apart} apart"
    );
}

/// The smallest table (2^22 buckets: an entry is one word, so it cannot be smaller and exact) is
/// not small for positions of 40–52 stones. Positions of 24–30 stones fill it many times over:
/// there the fast solver with the smallest table, and with the smallest table beside the
/// smallest near-leaf area, must agree with itself on a large one (which the test above ties
/// to the reference). Positions are taken until the small table has had a
/// million replacements, so the test stays heavy however fast the search becomes.
#[test]
fn smallest_table_under_heavy_replacement_agrees_with_a_large_one() {
    const ENOUGH: u64 = 1_000_000;
    for replacement in SCHEMES {
        let large = TranspositionTable::of_size(256 << 20, replacement).unwrap();
        let tiny_bytes = TranspositionTable::minimum_bytes(replacement);
        let tiny = TranspositionTable::of_size(tiny_bytes, replacement).unwrap();
        let tiny_with_leaves = smallest_with_leaf_area(replacement);
        let (mut on_large, mut on_tiny) = (Solver::new(&large), Solver::new(&tiny));
        let mut on_tiny_with_leaves = Solver::new(&tiny_with_leaves);
        let mut games = (0..).flat_map(|round: u64| {
            (24..=30).rev().flat_map(move |stones| {
                PositionGenerator::new(stones, 77 + stones as u64 + 100 * round).take(2)
            })
        });
        let mut solved = 0;
        let replaced = |solver: &Solver| solver.stats().table.replacements;
        while replaced(&on_tiny) < ENOUGH || replaced(&on_tiny_with_leaves) < ENOUGH {
            assert!(
                solved < 400,
                "{replacement}: {solved} positions never replaced enough"
            );
            let game = games.next().expect("endless");
            let expected = on_large.solve(game.position()).first_player_wins;
            assert_eq!(
                on_tiny.solve(game.position()).first_player_wins,
                expected,
                "{game} ({replacement})"
            );
            assert_eq!(
                on_tiny_with_leaves.solve(game.position()).first_player_wins,
                expected,
                "{game} ({replacement}, smallest near-leaf area)"
            );
            solved += 1;
        }
    }
}

#[test]
fn every_symmetric_image_has_the_same_value() {
    let table = TranspositionTable::of_size(128 << 20, Replacement::TwoBig).unwrap();
    let mut solver = Solver::new(&table);
    // Every 8th test position (65 of them, all stone counts).
    for (i, (game, expected)) in reference_positions().iter().step_by(8).enumerate() {
        let expected = *expected;
        for sym in Symmetry::ALL {
            let image = game.position().transformed(sym);
            table.clear(); // each image is solved from scratch, not read back from the table
            assert_eq!(
                solver.first_player_wins(&image),
                expected,
                "{game} under {sym:?}"
            );
            if i % 8 == 0 {
                // The reference too, on the image's own stones (no symmetry in the reference).
                let moves = moves_reaching(&image);
                assert_eq!(
                    PlainSolver::new(&moves).first_player_wins(),
                    expected,
                    "{game} under {sym:?}"
                );
            }
        }
    }
}

/// A move sequence reaching `position` (gravity lets any column order of the stones work as long
/// as colours alternate; search for one greedily with backtracking).
fn moves_reaching(position: &score4_board::Position) -> Vec<u8> {
    use score4_board::Position;
    fn extend(current: &Position, target: &Position, moves: &mut Vec<u8>) -> bool {
        if current.count() == target.count() {
            return true;
        }
        let mover = current.mover();
        for cell in current.playable() & target.stones(mover) {
            if current.wins_with(cell) {
                continue;
            }
            moves.push(cell.column().number());
            if extend(&current.after(cell), target, moves) {
                return true;
            }
            moves.pop();
        }
        false
    }
    let mut moves = Vec::new();
    assert!(
        extend(&Position::EMPTY, position, &mut moves),
        "no move order reaches the image"
    );
    moves
}
