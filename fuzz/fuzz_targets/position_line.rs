//! Lines of a position file, as the binary reads them: bytes to text (bad UTF-8 replaced), the
//! position word, then the move string of either game. The word is the line's first.
#![no_main]

use libfuzzer_sys::fuzz_target;
use score4_board::GameRecord;
use score4_classic::ClassicRecord;
use score4_input::position_word;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Some(word) = position_word(&line) {
        assert_eq!(line.split_whitespace().next(), Some(word));
        let _ = word.parse::<GameRecord>();
        let _ = word.parse::<ClassicRecord>();
    }
});
