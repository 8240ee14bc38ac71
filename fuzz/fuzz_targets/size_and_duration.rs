//! The size and duration parsers of the command line: a value in range or a message; a size's
//! byte count reads back as itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use score4_input::{parse_bytes, parse_duration};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_bytes(text) {
        Ok(bytes) => {
            assert!((1..=1u64 << 50).contains(&bytes));
            assert_eq!(parse_bytes(&format!("{bytes}B")), Ok(bytes));
        }
        Err(message) => assert!(!message.is_empty()),
    }
    match parse_duration(text) {
        Ok(duration) => assert!(!duration.is_zero()),
        Err(message) => assert!(!message.is_empty()),
    }
});
