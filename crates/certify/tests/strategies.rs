//! Strategy leaves against the search's static rules: at every position of random games where
//! a rule of `score4_board::rules` settles the node (O's follow-up for a hold, X's zugzwang for
//! a win), the certificate writer finds a strategy leaf, and both checkers (`score4-verify` and
//! `tools/verify_certificate.py`) accept it as a one-node certificate. The rules are asked
//! without their verticals, for which the format has no change yet (docs/CERTIFICATE.md, "What
//! is not there yet"); the positions only the verticals settle are counted. The rules' code and the checker share nothing, so this checks each
//! against the other: a rule that claimed a position wrongly would leave no strategy the
//! checker accepts.

use std::path::{Path, PathBuf};
use std::process::Command;

use score4_bench::PositionGenerator;
use score4_board::geometry::Column;
use score4_board::rules::{
    follow_up_holds, follow_up_holds_without_verticals, zugzwang_on_odd_threat,
    zugzwang_without_verticals,
};
use score4_board::{GameRecord, Position};
use score4_certify::pairs::{find_pairs, find_zugzwang, Change, Strategy};
use score4_game::{Colour, Outcome};
use score4_verify::verify;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A certificate whose root is `game` and whose only node is `strategy`.
fn one_leaf(game: &GameRecord, strategy: &Strategy) -> String {
    let position = game.position();
    let claim = if strategy.threat.is_some() {
        "win"
    } else {
        "hold"
    };
    format!(
        "score4-certificate 1\ngame 3d\nroot {game}\nclaim {claim}\n0 {:016x} {:016x} {strategy}\nend 1\n",
        position.stones(Colour::White).0,
        position.stones(Colour::Black).0,
    )
}

/// Positions the rules may be asked about: nobody has four, the board is not full, and (for
/// the zugzwang, whose contract asks it) O to move has no opening.
fn in_contract(position: &Position) -> bool {
    match position.mover() {
        Colour::White => true,
        Colour::Black => position.openings(Colour::Black).0 == 0,
    }
}

#[test]
fn every_position_a_rule_settles_has_a_strategy_leaf_the_checker_accepts() {
    let (mut holds, mut wins, mut mirrors, mut tempos) = (0, 0, 0, 0);
    let mut by_verticals_only = 0;
    let mut missing = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for stones in (14..=44).step_by(2) {
        for start in PositionGenerator::new(stones, 4_000 + stones as u64).take(5_000) {
            // The generated position, then a random game on from it.
            let mut game = start;
            while game.outcome() == Outcome::Ongoing {
                let position = *game.position();
                if in_contract(&position) {
                    let (settled, with_verticals, found) = match position.mover() {
                        Colour::White => (
                            follow_up_holds_without_verticals(&position),
                            follow_up_holds(&position),
                            find_pairs(&position),
                        ),
                        Colour::Black => (
                            zugzwang_without_verticals(&position),
                            zugzwang_on_odd_threat(&position),
                            find_zugzwang(&position),
                        ),
                    };
                    by_verticals_only += (with_verticals && !settled) as u32;
                    if let Some(strategy) = &found {
                        let text = one_leaf(&game, strategy);
                        if let Err(fault) = verify(text.as_bytes(), |_| ()) {
                            panic!("{game}: the checker rejects {strategy}: {fault}");
                        }
                        let path = dir.path().join(format!("{}.cert", files.len()));
                        std::fs::write(&path, text).unwrap();
                        files.push(path);
                        match strategy.change {
                            Some(Change::Mirror(..)) => mirrors += 1,
                            Some(Change::Tempo(..)) => tempos += 1,
                            None => {}
                        }
                    }
                    if settled {
                        match (position.mover(), found.is_some()) {
                            (_, false) => missing.push(game.to_string()),
                            (Colour::White, true) => holds += 1,
                            (Colour::Black, true) => wins += 1,
                        }
                    }
                }
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let columns: Vec<_> = (0..16u8)
                    .filter_map(Column::new)
                    .filter(|&column| position.drop_cell(column).is_some())
                    .collect();
                let column = columns[(state >> 33) as usize % columns.len()];
                game.play(column).unwrap();
            }
        }
    }
    println!(
        "rules settled {holds} holds and {wins} wins with a strategy leaf \
         ({mirrors} leaves with a mirror, {tempos} with a spare tempo); {} without; \
         {by_verticals_only} more settled only with verticals",
        missing.len()
    );
    assert!(holds > 1000 && wins > 100, "too few positions settled");
    assert!(mirrors > 0 && tempos > 0, "no mirror or no spare tempo");
    // The Python checker agrees, leaf by leaf (in batches, to keep command lines short).
    for batch in files.chunks(2_000) {
        let output = Command::new("python3")
            .arg(repository().join("tools/verify_certificate.py"))
            .args(batch)
            .output()
            .expect("python3 runs (CI installs it)");
        assert!(
            output.status.success(),
            "the Python checker rejects a strategy leaf: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert!(
        missing.is_empty(),
        "{} positions a rule settles have no strategy leaf, e.g. {:?}",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
}
