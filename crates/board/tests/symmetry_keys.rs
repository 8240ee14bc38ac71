//! What `Position::play` keeps up to date, checked after every move of many seeded random games
//! against definitions computed from scratch: threats, openings, live lines, the lines through each
//! empty cell holding 0, 1 or 2 of a player's stones, the threats a move creates, wins, the 8 symmetric
//! keys, the canonical key, and the compact key's decoding.

mod common;

use std::collections::HashSet;

use common::{has_four, XorShift};
use score4_board::geometry::{CELLS, LINES};
use score4_board::key::{compact_key, decode_compact, SymmetricKeys};
use score4_board::{BitBoard, Cell, Colour, Column, Position, Symmetry};

const COLOURS: [Colour; 2] = [Colour::White, Colour::Black];

/// Threats of `colour` by their definition: empty cells `e` such that some line through `e`
/// holds exactly 3 stones of `colour` (its fourth cell being `e`).
fn threats_by_definition(position: &Position, colour: Colour) -> BitBoard {
    let own = position.stones(colour).0;
    CELLS
        .iter()
        .copied()
        .filter(|&cell| {
            let bit = 1u64 << cell.index();
            !position.occupied().has(cell)
                && LINES
                    .iter()
                    .any(|&line| line & bit != 0 && (line & own).count_ones() == 3)
        })
        .collect()
}

/// Live lines of `colour` by their definition: bit `l` iff `LINES[l]` has no stone of the other.
fn live_lines_by_definition(position: &Position, colour: Colour) -> u128 {
    let opp = position.stones(colour.other()).0;
    LINES
        .iter()
        .enumerate()
        .filter(|&(_, &line)| line & opp == 0)
        .fold(0, |set, (l, _)| set | 1 << l)
}

/// The lines through the empty `cell` free of the other's stones that hold exactly `stones` of
/// `colour`'s (or, for 2, three: then `cell` completes the line).
fn lines_through_holding_by_definition(
    position: &Position,
    cell: Cell,
    colour: Colour,
    stones: u32,
) -> u128 {
    let (own, opp) = (position.stones(colour).0, position.stones(colour.other()).0);
    let bit = 1u64 << cell.index();
    LINES
        .iter()
        .enumerate()
        .filter(|&(_, &line)| {
            let held = (line & own).count_ones();
            line & bit != 0 && line & opp == 0 && (held == stones || stones == 2 && held == 3)
        })
        .fold(0, |set, (l, _)| set | 1 << l)
}

/// The threats the mover creates by playing `cell`, by their definition: the empty fourth
/// cells of lines through `cell` that then hold three of the mover's stones and none of the
/// other's.
fn threats_created_by_definition(position: &Position, cell: Cell) -> BitBoard {
    let mover = position.mover();
    let own = position.stones(mover).0 | 1 << cell.index();
    let opp = position.stones(mover.other()).0;
    let created = LINES
        .iter()
        .filter(|&&line| line >> cell.index() & 1 != 0)
        .filter(|&&line| line & opp == 0 && (line & own).count_ones() == 3)
        .fold(0, |cells, &line| cells | line & !own);
    BitBoard(created)
}

/// Playable cells by their definition: the lowest empty cell of each column that is not full.
fn playable_by_definition(position: &Position) -> BitBoard {
    Column::all()
        .filter_map(|column| {
            (0..4)
                .map(|z| Cell::new(column.number() % 4, column.number() / 4, z))
                .find(|&cell| !position.occupied().has(cell))
        })
        .collect()
}

/// Everything about the keys of `position` (whatever it holds, a four included).
fn check_keys(position: &Position, context: &str) {
    let (white, black) = (
        position.stones(Colour::White).0,
        position.stones(Colour::Black).0,
    );
    assert_eq!(
        *position.keys(),
        SymmetricKeys::from_stones(white, black),
        "incremental keys differ from from_stones: {context}"
    );
    let mut least = u128::MAX;
    for sym in Symmetry::ALL {
        let (w, b) = (sym.apply_bits(white), sym.apply_bits(black));
        let key = compact_key(w, b);
        least = least.min(key);
        assert_eq!(position.keys().image(sym), key, "{sym:?} key: {context}");
        assert_eq!(
            decode_compact(key),
            Some((w, b)),
            "{sym:?} decode: {context}"
        );
        // Every image has the same canonical key, and sees our image keys permuted.
        let image = position.transformed(sym);
        assert_eq!(image.stones(Colour::White).0, w);
        assert_eq!(
            image.canonical_key(),
            position.canonical_key(),
            "{sym:?}: {context}"
        );
        assert_eq!(
            image.keys().image(Symmetry::IDENTITY),
            key,
            "{sym:?}: {context}"
        );
    }
    assert_eq!(position.canonical_key(), least, "canonical key: {context}");
    // Image keys are equal exactly when the images are (the position's stabiliser).
    let images: HashSet<(u64, u64)> = Symmetry::ALL
        .iter()
        .map(|sym| (sym.apply_bits(white), sym.apply_bits(black)))
        .collect();
    let image_keys: HashSet<u128> = Symmetry::ALL
        .iter()
        .map(|&sym| position.keys().image(sym))
        .collect();
    assert_eq!(image_keys.len(), images.len(), "distinct images: {context}");
}

/// Everything about a position in which nobody has four.
fn check_open_position(position: &Position, context: &str) {
    let (white, black) = (
        position.stones(Colour::White),
        position.stones(Colour::Black),
    );
    // The whole incremental state equals the state computed afresh.
    assert_eq!(
        *position,
        Position::from_stones(white, black).unwrap(),
        "incremental position differs from from_stones: {context}"
    );
    let playable = position.playable();
    assert_eq!(
        playable,
        playable_by_definition(position),
        "playable: {context}"
    );
    for column in Column::all() {
        assert_eq!(
            position.drop_cell(column),
            (playable & column.cells()).first(),
            "drop cell of column {column}: {context}"
        );
    }
    for colour in COLOURS {
        let threats = position.threats(colour);
        assert_eq!(
            threats,
            threats_by_definition(position, colour),
            "{colour:?} threats: {context}"
        );
        assert_eq!(
            position.openings(colour),
            threats & playable,
            "{colour:?} openings: {context}"
        );
        assert_eq!(
            position.live_lines(colour),
            live_lines_by_definition(position, colour),
            "{colour:?} live lines: {context}"
        );
        for cell in CELLS
            .iter()
            .copied()
            .filter(|&c| !position.occupied().has(c))
        {
            for stones in 0..3 {
                assert_eq!(
                    position.lines_through_holding(cell, colour, stones),
                    lines_through_holding_by_definition(position, cell, colour, stones as u32),
                    "{colour:?} lines through cell {} holding {stones}: {context}",
                    cell.index()
                );
            }
        }
        // Threats and playable cells commute with the symmetries (lines map onto lines).
        for sym in Symmetry::ALL {
            let image = position.transformed(sym);
            assert_eq!(
                image.threats(colour),
                sym.apply(threats),
                "{sym:?} {colour:?}: {context}"
            );
            assert_eq!(image.playable(), sym.apply(playable), "{sym:?}: {context}");
        }
    }
    // A move wins exactly when it makes four, and the canonical key after it can be foreseen.
    let mover = position.mover();
    for cell in playable {
        let next = position.after(cell);
        assert_eq!(
            position.wins_with(cell),
            has_four(next.stones(mover).0),
            "wins_with cell {}: {context}",
            cell.index()
        );
        if !position.wins_with(cell) {
            assert_eq!(
                position.threats_created_by(cell),
                threats_created_by_definition(position, cell),
                "threats created by cell {}: {context}",
                cell.index()
            );
        }
        assert_eq!(
            position
                .keys()
                .canonical_after(cell.index(), mover == Colour::White),
            next.canonical_key(),
            "canonical_after cell {}: {context}",
            cell.index()
        );
    }
}

/// Guards `Position::play` and `SymmetricKeys::play` against their definitions, after every move
/// of 3,000 seeded random games played to their end (first four or full board).
#[test]
fn incremental_state_matches_definitions_along_random_games() {
    let mut rng = XorShift::new(2024);
    let mut plies_checked = 0;
    for game in 0..3_000 {
        let mut position = Position::EMPTY;
        let mut moves = String::new();
        check_open_position(&position, "empty board");
        for cell in common::random_game(&mut rng, 64) {
            let mover = position.mover();
            let wins = position.wins_with(cell);
            let before = position;
            position.play(cell);
            moves.push(cell.column().to_char());
            let context = format!("game {game}, moves {moves}");
            assert_eq!(position.count(), before.count() + 1, "{context}");
            assert_eq!(position.mover(), mover.other(), "{context}");
            assert_eq!(position.stones(mover), before.stones(mover) | cell.into());
            assert_eq!(position.stones(mover.other()), before.stones(mover.other()));
            assert_eq!(position.has_four(mover), wins, "{context}");
            assert!(!position.has_four(mover.other()), "{context}");
            check_keys(&position, &context);
            if !wins {
                check_open_position(&position, &context);
            }
            plies_checked += 1;
        }
    }
    assert!(plies_checked > 50_000, "only {plies_checked} plies checked");
}

/// Guards image keys on positions that are their own images under some symmetries: `5 9 6 A`
/// (X on 5 and 6, O on 9 and A) is fixed by the mirror in x only, so its 8 images are 4 distinct
/// positions with 4 distinct keys, and the mirror's key is the identity's.
#[test]
fn a_mirror_symmetric_position_has_four_distinct_image_keys() {
    let game: score4_board::Game = "596A".parse().unwrap();
    let keys = game.position().keys();
    let mirror_in_x = Symmetry::new(1).unwrap();
    assert_eq!(keys.image(mirror_in_x), keys.image(Symmetry::IDENTITY));
    let distinct: HashSet<u128> = Symmetry::ALL.iter().map(|&sym| keys.image(sym)).collect();
    assert_eq!(distinct.len(), 4);
}

/// Guards `decode_compact` on inputs that are not compact keys: anything above bit 80, and a
/// column without its marker.
#[test]
fn decode_compact_rejects_non_keys() {
    assert_eq!(decode_compact(1 << 80), None);
    assert_eq!(decode_compact(u128::MAX), None);
    // The empty board without column 7's marker.
    assert_eq!(decode_compact(0xFFFF & !(1 << 7)), None);
    assert_eq!(decode_compact(0xFFFF), Some((0, 0)));
    // A full board: every marker in bits 64..80.
    let white = 0x5555_AAAA_5555_AAAA;
    let black = !white;
    assert_eq!(
        decode_compact(compact_key(white, black)),
        Some((white, black))
    );
    assert_eq!(compact_key(white, black) >> 64, 0xFFFF);
}

/// Guards `Symmetry` helpers used by the keys: `cell`, `column` and `apply` agree.
#[test]
fn symmetry_maps_cells_columns_and_sets_consistently() {
    let mut rng = XorShift::new(7);
    for sym in Symmetry::ALL {
        for cell in CELLS {
            assert_eq!(sym.apply(cell.into()), BitBoard::from(sym.cell(cell)));
            assert_eq!(sym.cell(cell).column(), sym.column(cell.column()));
            assert_eq!(sym.cell(cell).z(), cell.z(), "gravity fixes the layer");
        }
        for _ in 0..1_000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            assert_eq!(sym.apply_bits(a & b), sym.apply_bits(a) & sym.apply_bits(b));
            assert_eq!(sym.apply_bits(a | b), sym.apply_bits(a) | sym.apply_bits(b));
            assert_eq!(sym.apply_bits(a).count_ones(), a.count_ones());
            assert_eq!(sym.inverse().apply_bits(sym.apply_bits(a)), a);
        }
    }
}
