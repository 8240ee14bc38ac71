//! Move strings of Connect Four 3D: a game or an error, never a panic; a game prints as a move
//! string that reads back as the same game, with one stone per move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use score4_board::GameRecord;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<GameRecord>() {
        Ok(game) => {
            let printed = game.to_string();
            let again: GameRecord = printed.parse().expect("a printed game reads back");
            assert_eq!(again.moves(), game.moves());
            assert_eq!(again.position(), game.position());
            assert_eq!(again.to_string(), printed);
            let stones = text.chars().filter(|c| !c.is_whitespace()).count();
            assert_eq!(game.moves().len(), stones);
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
});
