//! The first-wins question in the store's terms: bounds on the exact score for the side to
//! move.

use score4_store::Bounds;

/// The bounds that say the first player wins (`true`) or does not (`false`), for a position
/// whose side to move is white (`white_to_move`) or black.
///
/// A white win is a score of at least 1 for white, at most -1 for black; no white win is a
/// score of at most 0 for white, at least 0 for black.
pub fn bounds_of(first_player_wins: bool, white_to_move: bool) -> Bounds {
    let unknown = Bounds::UNKNOWN;
    match (first_player_wins, white_to_move) {
        (true, true) => Bounds {
            lower: 1,
            ..unknown
        },
        (true, false) => Bounds {
            upper: -1,
            ..unknown
        },
        (false, true) => Bounds {
            upper: 0,
            ..unknown
        },
        (false, false) => Bounds {
            lower: 0,
            ..unknown
        },
    }
}

/// Whether `bounds` decide that the first player wins, or does not; `None` if they decide
/// neither.
pub fn first_player_wins(bounds: Bounds, white_to_move: bool) -> Option<bool> {
    let (lower, upper) = if white_to_move {
        (bounds.lower, bounds.upper)
    } else {
        (-bounds.upper, -bounds.lower)
    };
    if lower >= 1 {
        Some(true)
    } else if upper <= 0 {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_read_back_from_its_bounds_is_the_value() {
        for wins in [true, false] {
            for white in [true, false] {
                assert_eq!(first_player_wins(bounds_of(wins, white), white), Some(wins));
            }
        }
        assert_eq!(first_player_wins(Bounds::UNKNOWN, true), None);
        // An exact draw decides first-wins either way round.
        let draw = Bounds { lower: 0, upper: 0 };
        assert_eq!(first_player_wins(draw, true), Some(false));
        assert_eq!(first_player_wins(draw, false), Some(false));
    }
}
