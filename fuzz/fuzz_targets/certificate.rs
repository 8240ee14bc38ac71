//! The certificate checker (`score4 verify`) on arbitrary bytes: a verdict or a fault, never a
//! panic or a hang. A certificate it accepts must say what is true: when its root is small
//! enough to solve here (40 stones or more), the solver agrees with the claim.
#![no_main]

use libfuzzer_sys::fuzz_target;
use score4_board::{GameRecord, Position};
use std::sync::OnceLock;

use score4_solver::table::{TableConfig, KEY_WIDTH_3D};
use score4_solver::{Solver, TranspositionTable};
use score4_verify::{verify, Claim};

fuzz_target!(|data: &[u8]| {
    let Ok(verdict) = verify(data, |_| {}) else {
        return;
    };
    if !verdict.parts.is_empty() {
        return; // complete only with the certificates of its parts
    }
    let game: GameRecord = verdict.root.parse().expect("an accepted root reads");
    if game.moves().len() < 40 {
        return;
    }
    static TABLE: OnceLock<TranspositionTable> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        TranspositionTable::new(&TableConfig::new(300 << 20, KEY_WIDTH_3D)).expect("a table")
    });
    let position: &Position = game.position();
    let wins = Solver::new(table).first_player_wins(position);
    assert_eq!(wins, verdict.claim == Claim::Win, "{}", verdict.root);
});
