//! What `Position::play` keeps up to date, checked after every move of many seeded random games
//! against definitions computed from scratch: threats, openings, live lines, the lines through each
//! empty cell holding 0, 1 or 2 of a player's stones, the threats a move creates, wins, the 8
//! symmetric keys, the keys within each group of symmetries (the canonical key among them), the
//! table keys (injective, the children of a node on one page), the dead stones and the wide keys
//! of positions of 44 stones or more, the transposing symmetries, and the compact and table keys'
//! decoding.

mod common;

use score4_board::CellCoordinates;
use std::collections::HashSet;

use common::{has_four, XorShift};
use score4_board::geometry::{CELLS, LINES};
use score4_board::key::{
    compact_key, decode_compact, decode_table_key, is_wide_key, least_image_wide_key, table_key,
    table_key_stones, wide_key, WIDE_KEY_MIN_STONES,
};
use score4_board::symmetry::SymmetryGroup;
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
    // The keys within a group: the least key over its members' images.
    let transposing = position.transposing_symmetries();
    for group in groups().into_iter().chain([transposing]) {
        let least = group
            .iter()
            .map(|sym| compact_key(sym.apply_bits(white), sym.apply_bits(black)))
            .min()
            .expect("a group holds the identity");
        assert_eq!(position.key_within(group), least, "{group:?}: {context}");
    }
    assert_eq!(
        position.key_within(SymmetryGroup::TRIVIAL),
        compact_key(white, black)
    );
    // The table keys within a group: the least table key over its members' images, each the
    // key of the image's own stones (decoded back to them: the key is injective).
    for group in groups().into_iter().chain([transposing]) {
        let least = group
            .iter()
            .map(|sym| {
                let (w, b) = (sym.apply_bits(white), sym.apply_bits(black));
                let mover = if position.mover() == Colour::White {
                    w
                } else {
                    b
                };
                let key = table_key(mover, w | b);
                assert_eq!(decode_table_key(key), Some((w, b)), "{sym:?}: {context}");
                assert_eq!(
                    table_key_stones(key),
                    position.count(),
                    "{sym:?}: {context}"
                );
                key
            })
            .min()
            .expect("a group holds the identity");
        // From 44 stones on the search keys by wide keys instead (checked with the dead stones).
        if position.count() < WIDE_KEY_MIN_STONES {
            assert_eq!(
                position.table_key_within(group),
                least,
                "{group:?}: {context}"
            );
        }
    }
    // Every symmetry whose image never puts a stone on a stone of the other colour is in the
    // transposing group (checked cell by cell).
    for sym in Symmetry::ALL {
        let agrees = CELLS.iter().all(|&cell| {
            let image = sym.cell(cell);
            COLOURS.iter().all(|&colour| {
                !(position.stones(colour).has(cell) && position.stones(colour.other()).has(image))
            })
        });
        if agrees {
            assert!(transposing.contains(sym), "{sym:?} agrees: {context}");
        }
    }
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

/// The dead stones by their definition: stones every line through which holds a stone of the
/// other player.
fn dead_stones_by_definition(position: &Position) -> u64 {
    let mut dead = 0;
    for colour in COLOURS {
        let (own, opp) = (position.stones(colour).0, position.stones(colour.other()).0);
        for cell in 0..64 {
            let through = LINES.iter().filter(|&&line| line >> cell & 1 != 0);
            if own >> cell & 1 != 0 && through.clone().all(|&line| line & opp != 0) {
                dead |= 1 << cell;
            }
        }
    }
    dead
}

/// The dead stones and the table key of a position: from [`WIDE_KEY_MIN_STONES`] stones on, the
/// wide key of its stones and dead stones (told apart from the narrow keys), under every group
/// the least over the images.
fn check_dead_stones_and_wide_keys(position: &Position, context: &str) {
    let dead = dead_stones_by_definition(position);
    assert_eq!(position.dead_stones().0, dead, "dead stones: {context}");
    let (white, black) = (
        position.stones(Colour::White).0,
        position.stones(Colour::Black).0,
    );
    let key = position.table_key_within(SymmetryGroup::TRIVIAL);
    if position.count() < WIDE_KEY_MIN_STONES {
        assert!(!is_wide_key(key), "a narrow key below 44 stones: {context}");
        return;
    }
    assert_eq!(key, wide_key(white, black, dead), "{context}");
    assert!(is_wide_key(key), "{context}");
    // The wide key of each image, its dead stones found afresh.
    let image_keys: Vec<(Symmetry, u128)> = Symmetry::ALL
        .into_iter()
        .map(|sym| {
            let image = position.transformed(sym);
            let (w, b) = (image.stones(Colour::White).0, image.stones(Colour::Black).0);
            (sym, wide_key(w, b, dead_stones_by_definition(&image)))
        })
        .collect();
    for group in groups() {
        let least = image_keys
            .iter()
            .filter(|(sym, _)| group.iter().any(|member| member == *sym))
            .map(|&(_, key)| key)
            .min()
            .unwrap();
        assert_eq!(
            position.table_key_within(group),
            least,
            "{group:?}: {context}"
        );
        assert_eq!(least_image_wide_key(white, black, dead, group), least);
    }
}

/// Everything about a position in which nobody has four.
fn check_open_position(position: &Position, context: &str) {
    check_dead_stones_and_wide_keys(position, context);
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
    let first_child_page = playable.first().map(|cell| {
        position
            .after(cell)
            .table_key_within(SymmetryGroup::TRIVIAL)
            >> 64
    });
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
        for group in groups() {
            assert_eq!(
                position.table_key_after_within(cell, group),
                next.table_key_within(group),
                "table_key_after_within {group:?}, cell {}: {context}",
                cell.index()
            );
        }
        // The children share the page of their table keys: it depends only on the stones of
        // the player to move after the move, who does not move now. (Wide keys have no pages.)
        if next.count() >= WIDE_KEY_MIN_STONES {
            continue;
        }
        assert_eq!(
            Some(next.table_key_within(SymmetryGroup::TRIVIAL) >> 64),
            first_child_page,
            "page of cell {}: {context}",
            cell.index()
        );
    }
}

/// Every subgroup of the 8 symmetries generated by at most two of them (all 10 subgroups).
fn groups() -> Vec<SymmetryGroup> {
    let mut groups: Vec<SymmetryGroup> = Vec::new();
    for a in Symmetry::ALL {
        for b in Symmetry::ALL {
            let group = SymmetryGroup::generated_by([a, b]);
            if !groups.contains(&group) {
                groups.push(group);
            }
        }
    }
    assert_eq!(
        groups.len(),
        10,
        "the dihedral group of order 8 has 10 subgroups"
    );
    groups
}

/// Guards `Position::play` and the keys against their definitions, after every move
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
    let game: score4_board::GameRecord = "596A".parse().unwrap();
    let keys = game.position().keys();
    let mirror_in_x = Symmetry::new(1).unwrap();
    assert_eq!(keys.image(mirror_in_x), keys.image(Symmetry::IDENTITY));
    let distinct: HashSet<u128> = Symmetry::ALL.iter().map(|&sym| keys.image(sym)).collect();
    assert_eq!(distinct.len(), 4);
}

/// Guards `decode_table_key`: a full board round-trips (every column's marker in the "full"
/// layer), and keys that are no table key are refused — anything above bit 80, and a page
/// putting a stone of the mover on the bottom of an empty column.
#[test]
fn decode_table_key_round_trips_a_full_board_and_rejects_non_keys() {
    let white = 0x5555_AAAA_5555_AAAA;
    let black = !white;
    let key = table_key(white, white | black);
    assert_eq!(key as u64 >> 48, 0xFFFF, "every column full");
    assert_eq!(decode_table_key(key), Some((white, black)));
    assert_eq!(decode_table_key(1 << 80), None);
    // The empty board's key is 0; page bit 3 would put a stone on column 3's empty bottom.
    assert_eq!(decode_table_key(0), Some((0, 0)));
    assert_eq!(decode_table_key(1 << 67), None);
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

/// Guards the promise of `Position::transposing_symmetries`: below a position `R` (positions
/// holding its stones in place), a symmetry outside the group never maps one position onto
/// another that also holds `R`, so that keys within the group find every transposition of a
/// search below `R`. A position `Q` below `R` whose image `s(Q)` also holds `R` must hold `R`
/// and `s⁻¹(R)`: for each symmetry the test builds that union, and checks that it is
/// impossible (an X and an O on one cell) for every symmetry outside the group, and that for
/// the others it is a position below `R` whose image is below `R` too. Then random positions
/// below `R` never meet their image there. 2,000 seeded random `R` of 4–30 stones.
#[test]
fn no_symmetry_outside_the_transposing_group_meets_two_positions_below_the_root() {
    let mut rng = XorShift::new(77);
    let (mut inside, mut outside) = (0, 0);
    for _ in 0..2_000 {
        let root_plies = 4 + rng.below(27) as usize;
        let mut root = Position::EMPTY;
        for cell in common::random_game(&mut rng, 64)
            .into_iter()
            .take(root_plies)
        {
            root.play(cell);
        }
        let group = root.transposing_symmetries();
        let (white, black) = (root.stones(Colour::White), root.stones(Colour::Black));
        let holds_root = |w: BitBoard, b: BitBoard| (w & white) == white && (b & black) == black;
        for sym in Symmetry::ALL {
            let undo = sym.inverse();
            let (w, b) = (white | undo.apply(white), black | undo.apply(black));
            if group.contains(sym) {
                inside += 1;
                if (w & b).is_empty() {
                    // The union is below R, and so is its image (gravity holds: every symmetry
                    // keeps layers and maps columns onto columns).
                    assert!(
                        holds_root(sym.apply(w), sym.apply(b)),
                        "{sym:?} below {root}"
                    );
                }
            } else {
                outside += 1;
                assert!(
                    !(w & b).is_empty(),
                    "{sym:?} can meet two positions below {root}"
                );
            }
        }
        for _ in 0..20 {
            let mut below = root;
            for _ in 0..rng.below(64 - root.count() as u64 + 1) {
                if below.is_full() {
                    break;
                }
                below.play(rng.pick(below.playable()));
            }
            let (w, b) = (below.stones(Colour::White), below.stones(Colour::Black));
            for sym in Symmetry::ALL
                .into_iter()
                .filter(|&sym| !group.contains(sym))
            {
                let (image_w, image_b) = (sym.apply(w), sym.apply(b));
                let same = (image_w, image_b) == (w, b);
                assert!(
                    same || !holds_root(image_w, image_b),
                    "{sym:?} below {root}"
                );
            }
        }
    }
    assert!(
        inside > 2_000 && outside > 2_000,
        "{inside} inside, {outside} outside"
    );
}
