//! Durations on the command line: a number of seconds (`90`, `2.5`) or humantime's forms
//! (`90s`, `1h30m`, `23h50m`, `500ms`).

use std::time::Duration;

/// Parses a positive duration.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let duration = match text.trim().parse::<f64>() {
        // At most about 31,700 years: beyond, from_secs_f64 would panic.
        Ok(seconds) if seconds.is_finite() && (0.0..1e12).contains(&seconds) => {
            Duration::from_secs_f64(seconds)
        }
        Ok(_) => return Err(format!("{text:?} is not a duration")),
        Err(_) => humantime::parse_duration(text).map_err(|error| format!("{text:?}: {error}"))?,
    };
    if duration.is_zero() {
        return Err("the duration must be positive".to_owned());
    }
    Ok(duration)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_humantime_forms() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert!(parse_duration("0").unwrap_err().contains("positive"));
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("1e300").is_err());
        assert!(parse_duration("soon").is_err());
    }

    proptest::proptest! {
        /// Anything is a positive duration or a message, never a panic.
        #[test]
        fn any_text_is_a_duration_or_an_error(text in "\\PC{0,24}") {
            if let Ok(duration) = parse_duration(&text) {
                proptest::prop_assert!(!duration.is_zero());
            }
        }

        /// Whole seconds and milliseconds read back as themselves.
        #[test]
        fn durations_read_back(millis in 1u64..10_000_000_000) {
            let duration = Duration::from_millis(millis);
            proptest::prop_assert_eq!(parse_duration(&format!("{millis}ms")), Ok(duration));
            let text = humantime::format_duration(duration).to_string();
            proptest::prop_assert_eq!(parse_duration(&text), Ok(duration));
        }
    }
}
