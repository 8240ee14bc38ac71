//! A question "does the first player's score reach the threshold?" in the store's terms:
//! bounds on the exact score for the side to move. The first-wins question is threshold 1.

use score4_store::Bounds;

/// The bounds that say the first player's exact score reaches `threshold` (`reaches`) or stays
/// below it, for a position whose side to move is white (`white_to_move`) or black.
///
/// With white to move the score is white's: reaching `t` is `lower = t`, staying below is
/// `upper = t - 1`. With black to move it is black's, the negative of white's: reaching `t` is
/// `upper = -t`, staying below is `lower = 1 - t`.
pub fn bounds_at(reaches: bool, white_to_move: bool, threshold: i32) -> Bounds {
    let unknown = Bounds::UNKNOWN;
    match (reaches, white_to_move) {
        (true, true) => Bounds {
            lower: threshold,
            ..unknown
        },
        (true, false) => Bounds {
            upper: -threshold,
            ..unknown
        },
        (false, true) => Bounds {
            upper: threshold - 1,
            ..unknown
        },
        (false, false) => Bounds {
            lower: 1 - threshold,
            ..unknown
        },
    }
}

/// Whether `bounds` decide that the first player's score reaches `threshold`, or that it does
/// not; `None` if they decide neither.
pub fn reaches(bounds: Bounds, white_to_move: bool, threshold: i32) -> Option<bool> {
    let (lower, upper) = if white_to_move {
        (bounds.lower, bounds.upper)
    } else {
        (-bounds.upper, -bounds.lower)
    };
    if lower >= threshold {
        Some(true)
    } else if upper < threshold {
        Some(false)
    } else {
        None
    }
}

/// [`bounds_at`] for the first-wins question (threshold 1).
pub fn bounds_of(first_player_wins: bool, white_to_move: bool) -> Bounds {
    bounds_at(first_player_wins, white_to_move, 1)
}

/// [`reaches`] for the first-wins question (threshold 1).
pub fn first_player_wins(bounds: Bounds, white_to_move: bool) -> Option<bool> {
    reaches(bounds, white_to_move, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_read_back_from_its_bounds_is_the_value() {
        for threshold in [-3, 0, 1, 5] {
            for value in [true, false] {
                for white in [true, false] {
                    let bounds = bounds_at(value, white, threshold);
                    assert_eq!(reaches(bounds, white, threshold), Some(value));
                }
            }
        }
        assert_eq!(first_player_wins(Bounds::UNKNOWN, true), None);
        // An exact draw: the first player reaches 0, not 1, whoever is to move.
        let draw = Bounds { lower: 0, upper: 0 };
        for white in [true, false] {
            assert_eq!(first_player_wins(draw, white), Some(false));
            assert_eq!(reaches(draw, white, 0), Some(true));
        }
    }
}
