//! Byte sizes on the command line: `1GiB`, `512MiB`, `64KiB`, `4096B` or a bare number of bytes.

/// Parses a size such as `1GiB` into bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (expected a number and a unit, e.g. 1GiB)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "kib" => 10,
        "mib" => 20,
        "gib" => 30,
        "tib" => 40,
        _ => {
            return Err(format!(
                "unknown size unit {:?} in {text:?} (use B, KiB, MiB, GiB or TiB, e.g. 1GiB)",
                unit.trim()
            ))
        }
    };
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > (1u64 << 50) as f64 {
        return Err(format!("{text:?} is out of range (1 byte to 1024 TiB)"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert_eq!(parse_bytes("512mib"), Ok(512 << 20));
        assert_eq!(parse_bytes("0.5GiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64 KiB"), Ok(64 << 10));
        assert!(parse_bytes("1GB")
            .unwrap_err()
            .contains("unknown size unit"));
        assert!(parse_bytes("GiB").is_err());
        assert!(parse_bytes("0").is_err());
    }

    proptest::proptest! {
        /// Anything is a size or a message, never a panic; a size is in range and its byte
        /// count reads back as itself.
        #[test]
        fn any_text_is_a_size_or_an_error(text in "\\PC{0,24}") {
            if let Ok(bytes) = parse_bytes(&text) {
                proptest::prop_assert!((1..=1u64 << 50).contains(&bytes));
                proptest::prop_assert_eq!(parse_bytes(&format!("{bytes}B")), Ok(bytes));
            }
        }

        #[test]
        fn every_byte_count_reads_back(bytes in 1u64..=1 << 50) {
            proptest::prop_assert_eq!(parse_bytes(&bytes.to_string()), Ok(bytes));
            proptest::prop_assert_eq!(parse_bytes(&format!("{bytes} B")), Ok(bytes));
        }
    }
}
