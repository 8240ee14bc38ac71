//! Move strings of the classic game: a game or an error, never a panic; a game prints as a
//! move string that reads back as the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use score4_classic::ClassicRecord;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<ClassicRecord>() {
        Ok(game) => {
            let printed = game.to_string();
            let again: ClassicRecord = printed.parse().expect("a printed game reads back");
            assert_eq!(again.moves(), game.moves());
            assert_eq!(again.to_string(), printed);
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
});
