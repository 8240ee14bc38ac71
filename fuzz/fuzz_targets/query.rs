//! The analysis API's query string (`pos=…&time=…`): read, or refused with 400 or 413; what is
//! read is a game that goes on and a time within the cap.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use score4_engine::Outcome;
use score4_serve::{parse_query, ApiError, ServeConfig};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let config = ServeConfig {
        max_analyses: 1,
        max_time: Duration::from_secs(30),
        default_time: Duration::from_secs(1),
    };
    match parse_query(text, &config) {
        Ok(query) => {
            assert!(query.time > Duration::ZERO && query.time <= config.max_time);
            assert_eq!(query.game.outcome(), Outcome::Ongoing);
        }
        Err(ApiError(status, message)) => {
            assert!(matches!(status.as_u16(), 400 | 413), "{status}");
            assert!(!message.is_empty());
        }
    }
});
