//! Lines of a position file (docs/RULES.md): `MOVES [anything]`; blank lines and lines starting
//! with `#` hold no position.

/// The move string of `line` (its first word), or `None` for a blank or comment line.
///
/// ```
/// use score4_input::position_word;
/// assert_eq!(position_word("  0FC3484B7  won in 43 days? no "), Some("0FC3484B7"));
/// assert_eq!(position_word("# a comment"), None);
/// assert_eq!(position_word(" \t "), None);
/// ```
pub fn position_word(line: &str) -> Option<&str> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    trimmed.split_whitespace().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The word is a non-empty part of the line without whitespace, and the first one.
        #[test]
        fn the_word_is_the_lines_first(line in "\\PC{0,40}") {
            match position_word(&line) {
                Some(word) => {
                    proptest::prop_assert!(!word.is_empty());
                    proptest::prop_assert!(!word.contains(char::is_whitespace));
                    proptest::prop_assert!(!word.starts_with('#'));
                    proptest::prop_assert_eq!(line.split_whitespace().next(), Some(word));
                }
                None => proptest::prop_assert!(
                    line.trim().is_empty() || line.trim().starts_with('#')
                ),
            }
        }
    }
}
