//! Move strings and game records: printing and parsing round-trip, whitespace and case do not
//! matter, bad input gives the documented `NotationError` with the right move number and never
//! panics, and playing on copies leaves the original untouched.
//!
//! The reference for what a string means is [`referee`], a from-scratch implementation of the rules
//! of docs/RULES.md (the game, cells and columns, move strings) on raw `u64`s (its own digit
//! parsing, column heights and line scan).

mod common;

use proptest::prelude::*;
use score4_board::geometry::LINES;
use score4_board::CellCoordinates;
use score4_board::{Colour, Column, GameRecord, NotationError, Outcome, Position};

/// What a move string should give: the stones, the columns played and the outcome.
#[derive(Debug, PartialEq)]
struct Record {
    white: u64,
    black: u64,
    columns: Vec<u8>,
    outcome: Outcome,
}

/// The rules, from scratch: every character is checked first (a bad character anywhere makes the
/// whole string unreadable, numbered by the digits before it), then the moves are played in turn.
fn referee(text: &str) -> Result<Record, NotationError> {
    // Moves are read and played one at a time: the first fault in reading order is reported.
    let mut columns = Vec::new();
    let mut stones = [0u64; 2];
    let mut heights = [0u8; 16];
    let mut outcome = Outcome::Ongoing;
    for character in text.chars().filter(|c| !c.is_whitespace()) {
        let k = columns.len();
        let move_number = k + 1;
        let Some(c) = character.to_digit(16).map(|d| d as u8) else {
            return Err(NotationError::BadCharacter {
                move_number,
                character,
            });
        };
        columns.push(c);
        let column = Column::new(c).unwrap();
        if outcome != Outcome::Ongoing {
            return Err(NotationError::GameOver {
                move_number,
                column,
                outcome,
            });
        }
        if heights[c as usize] == 4 {
            return Err(NotationError::ColumnFull {
                move_number,
                column,
            });
        }
        let colour = if k % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        stones[colour.index()] |= 1 << (16 * heights[c as usize] + c);
        heights[c as usize] += 1;
        let own = stones[colour.index()];
        outcome = if LINES.iter().any(|&line| line & !own == 0) {
            Outcome::Won(colour)
        } else if move_number == 64 {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
    }
    Ok(Record {
        white: stones[0],
        black: stones[1],
        columns,
        outcome,
    })
}

/// What `GameRecord`'s parser makes of `text`, in the referee's terms.
fn parsed(text: &str) -> Result<Record, NotationError> {
    let game: GameRecord = text.parse()?;
    Ok(Record {
        white: game.position().stones(Colour::White).0,
        black: game.position().stones(Colour::Black).0,
        columns: game.moves().iter().map(|c| c.number()).collect(),
        outcome: game.outcome(),
    })
}

/// A legal game: each choice picks one of the columns still open (modulo their number); the game
/// stops at its end (four or full board) or when the choices run out.
fn legal_game(choices: &[u8]) -> GameRecord {
    let mut game = GameRecord::new();
    for &choice in choices {
        if game.outcome() != Outcome::Ongoing {
            break;
        }
        let open: Vec<Column> = Column::all()
            .filter(|&c| game.position().drop_cell(c).is_some())
            .collect();
        let column = open[choice as usize % open.len()];
        game.play(column).expect("a legal move");
    }
    game
}

/// Legal games, finished or not.
fn legal_games() -> impl Strategy<Value = GameRecord> {
    prop::collection::vec(any::<u8>(), 0..=64).prop_map(|choices| legal_game(&choices))
}

/// Legal games that are not over: a finished game loses its last move.
fn ongoing_games() -> impl Strategy<Value = GameRecord> {
    prop::collection::vec(any::<u8>(), 0..=64).prop_map(|mut choices| {
        let game = legal_game(&choices);
        if game.outcome() == Outcome::Ongoing {
            return game;
        }
        choices.truncate(game.moves().len() - 1);
        legal_game(&choices)
    })
}

/// The move number a `NotationError` message starts with (`"move 12: ..."`, `"move 12 (...`).
fn number_in_message(error: &NotationError) -> usize {
    let message = error.to_string();
    let digits: String = message
        .strip_prefix("move ")
        .expect("the message starts with the move")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a move number")
}

/// Whitespace the notation must ignore.
const WHITESPACE: [&str; 6] = [" ", "  ", "\t", "\n", "\r\n", " \t "];

/// `text` with each character possibly lower-cased and followed by whitespace, and whitespace in
/// front: `decorations[i] = (lower-case?, whitespace index or none)`.
fn decorate(text: &str, lead: Option<usize>, decorations: &[(bool, Option<usize>)]) -> String {
    let mut out = String::new();
    if let Some(w) = lead {
        out.push_str(WHITESPACE[w]);
    }
    for (ch, &(lower, space)) in text.chars().zip(decorations.iter().cycle()) {
        out.push(if lower { ch.to_ascii_lowercase() } else { ch });
        if let Some(w) = space {
            out.push_str(WHITESPACE[w]);
        }
    }
    out
}

fn decorations() -> impl Strategy<Value = (Option<usize>, Vec<(bool, Option<usize>)>)> {
    (
        prop::option::of(0..WHITESPACE.len()),
        prop::collection::vec(
            (
                any::<bool>(),
                prop::option::weighted(0.3, 0..WHITESPACE.len()),
            ),
            1..=16,
        ),
    )
}

/// Move strings that hit every rule: digits from a few columns (so columns fill and lines form),
/// upper or lower case, whitespace, and sometimes one bad character somewhere; sometimes cut
/// where the game ends.
fn move_strings() -> impl Strategy<Value = String> {
    let columns = prop::sample::subsequence((0u8..16).collect::<Vec<_>>(), 1..=16);
    let bad = prop::sample::select(vec![
        'G', 'g', 'x', 'X', '-', '+', '.', '\0', 'é', '🎲', 'Ａ',
    ]);
    (
        columns,
        prop::collection::vec(any::<u8>(), 0..=80),
        decorations(),
        prop::option::weighted(0.3, (any::<prop::sample::Index>(), bad)),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(columns, picks, (lead, decorations), bad, stop_at_end)| {
            let mut digits: String = picks
                .iter()
                .map(|&p| {
                    Column::new(columns[p as usize % columns.len()])
                        .unwrap()
                        .to_char()
                })
                .collect();
            if stop_at_end {
                // Cut the string where the game ends, so that won games parse.
                if let Err(NotationError::GameOver { move_number, .. }) = referee(&digits) {
                    digits.truncate(move_number - 1);
                }
            }
            let mut text = decorate(&digits, lead, &decorations);
            if let Some((at, character)) = bad {
                let positions: Vec<usize> = text
                    .char_indices()
                    .map(|(i, _)| i)
                    .chain([text.len()])
                    .collect();
                text.insert(*at.get(&positions), character);
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Guards printing: a game prints as upper-case hex digits, one per move, and parses back to
    /// the same game (position, moves and outcome).
    #[test]
    fn printed_games_parse_back_to_the_same_game(game in legal_games()) {
        let text = game.to_string();
        prop_assert_eq!(text.len(), game.moves().len());
        prop_assert!(text.chars().all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c)));
        prop_assert_eq!(text.parse::<GameRecord>(), Ok(game));
    }

    /// Guards docs/RULES.md, "Move strings and position files": whitespace anywhere and lower-case
    /// digits do not change the game.
    #[test]
    fn whitespace_and_case_do_not_change_the_parse(
        game in legal_games(),
        (lead, decorations) in decorations(),
    ) {
        let text = decorate(&game.to_string(), lead, &decorations);
        let reparsed: GameRecord = text.parse().unwrap();
        prop_assert_eq!(reparsed.to_string(), game.to_string());
        prop_assert_eq!(reparsed, game);
    }

    /// Guards the parser against the rules: on strings that hit full columns, finished games and
    /// bad characters, `GameRecord`'s result (stones, moves, outcome, or the error with its move
    /// number) is the referee's.
    #[test]
    fn parsing_agrees_with_the_referee(text in move_strings()) {
        let expected = referee(&text);
        let actual = parsed(&text);
        prop_assert_eq!(&actual, &expected, "{:?}", text);
        if let Err(error) = actual {
            prop_assert_eq!(number_in_message(&error), error.move_number());
        }
    }

    /// Guards `ColumnFull`: after any unfinished game, dropping stones into one column until it
    /// overflows fails at the 5th stone in it, unless a four ends the game first (`GameOver` at the
    /// next move).
    #[test]
    fn a_fifth_stone_in_a_column_is_column_full(game in ongoing_games(), c in 0u8..16) {
        let column = Column::new(c).unwrap();
        let height = (game.position().occupied() & column.cells()).len() as usize;
        let text = format!("{game}{}", column.to_string().repeat(5 - height));
        let error = text.parse::<GameRecord>().unwrap_err();
        prop_assert_eq!(Err(error), referee(&text));
        match error {
            NotationError::ColumnFull { move_number, column: full } => {
                prop_assert_eq!(move_number, game.moves().len() + 5 - height);
                prop_assert_eq!(full, column);
            }
            NotationError::GameOver { move_number, outcome, .. } => {
                prop_assert!(move_number <= game.moves().len() + 5 - height);
                prop_assert!(matches!(outcome, Outcome::Won(_)));
            }
            NotationError::BadCharacter { .. } => prop_assert!(false, "{:?}", error),
        }
    }

    /// Guards `GameOver`: any move after a won game is refused with the winner and move number.
    #[test]
    fn a_move_after_a_win_is_game_over(game in legal_games(), c in 0u8..16) {
        let Outcome::Won(winner) = game.outcome() else {
            return Ok(());
        };
        let column = Column::new(c).unwrap();
        let text = format!("{game}{column}");
        prop_assert_eq!(
            text.parse::<GameRecord>(),
            Err(NotationError::GameOver {
                move_number: game.moves().len() + 1,
                column,
                outcome: Outcome::Won(winner),
            })
        );
        // The winner made the last move.
        prop_assert_eq!(game.position().mover(), winner.other());
    }

    /// Guards `GameRecord::play`: a refused move leaves the game exactly as it was.
    #[test]
    fn a_refused_move_leaves_the_game_unchanged(game in legal_games()) {
        for column in Column::all() {
            let mut copy = game.clone();
            if copy.play(column).is_err() {
                prop_assert_eq!(&copy, &game);
            }
        }
    }

    /// Guards play and undo by copying: `after` leaves its position unchanged and equals `play`
    /// on a copy; a line played on a copy and dropped restores the original exactly; and the
    /// position reached equals the one rebuilt from its stones.
    #[test]
    fn playing_on_copies_and_dropping_them_restores_the_position(
        game in ongoing_games(),
        choices in prop::collection::vec(any::<u8>(), 1..=8),
    ) {
        let original = *game.position();
        let mut position = original;
        for choice in choices {
            let playable: Vec<_> = position.playable().iter().collect();
            if playable.is_empty() {
                break;
            }
            let cell = playable[choice as usize % playable.len()];
            let wins = position.wins_with(cell);
            let before = position;
            let next = position.after(cell);
            prop_assert_eq!(position, before, "after changed its position");
            position.play(cell);
            prop_assert_eq!(position, next);
            if wins {
                break;
            }
            let rebuilt = Position::from_stones(
                position.stones(Colour::White),
                position.stones(Colour::Black),
            );
            prop_assert_eq!(Ok(position), rebuilt);
        }
        let saved = original;
        position = saved;
        prop_assert_eq!(position, *game.position());
    }

    /// Guards "never crashes": any text at all gives a game or an error, without panicking.
    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = text.parse::<GameRecord>();
        let _ = score4_board::notation::parse_columns(&text);
    }
}

/// Guards each error variant on a hand-written example (docs/RULES.md, "Move strings and position
/// files").
#[test]
fn each_bad_input_gives_its_documented_error() {
    let column = |c: u8| Column::new(c).unwrap();
    let cases: [(&str, NotationError); 8] = [
        (
            "G",
            NotationError::BadCharacter {
                move_number: 1,
                character: 'G',
            },
        ),
        (
            "01x",
            NotationError::BadCharacter {
                move_number: 3,
                character: 'x',
            },
        ),
        (
            "0 1 -2",
            NotationError::BadCharacter {
                move_number: 3,
                character: '-',
            },
        ),
        // Moves are checked in reading order: the full column comes before the bad character.
        (
            "00000 x",
            NotationError::ColumnFull {
                move_number: 5,
                column: Column::new(0).unwrap(),
            },
        ),
        (
            "00000",
            NotationError::ColumnFull {
                move_number: 5,
                column: column(0),
            },
        ),
        (
            "0FF1 FFF",
            NotationError::ColumnFull {
                move_number: 7,
                column: column(15),
            },
        ),
        (
            "0102 030 4",
            NotationError::GameOver {
                move_number: 8,
                column: column(4),
                outcome: Outcome::Won(Colour::White),
            },
        ),
        (
            // O makes four in the bottom row 4567 on move 8.
            "4 0 5 1 6 2 8 3 9",
            NotationError::GameOver {
                move_number: 9,
                column: column(9),
                outcome: Outcome::Won(Colour::Black),
            },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(text.parse::<GameRecord>(), Err(error), "{text:?}");
        assert_eq!(referee(text), Err(error), "referee on {text:?}");
        assert_eq!(number_in_message(&error), error.move_number(), "{error}");
    }
}

/// Guards the end of a full board: a drawn 64-move game (found by a seeded depth-first search in
/// which nobody completes a line) parses as a draw, and a 65th move is `GameOver` with the draw,
/// not `ColumnFull`. (With this seed the search finds, at once,
/// `604842AE64BACBBBFCA72AC42709DDEC25801536D86E77FF558DE3F330111999`.)
#[test]
fn a_move_after_a_full_board_is_game_over() {
    let cells = common::find_drawn_game(0xD2A, 10_000)
        .expect("a drawn game within the search budget (seed 0xD2A)");
    let text: String = cells.iter().map(|cell| cell.column().to_char()).collect();
    let game: GameRecord = text.parse().unwrap();
    assert_eq!(game.outcome(), Outcome::Draw, "{text}");
    assert!(game.position().is_full());
    assert!(!game.position().has_four(Colour::White) && !game.position().has_four(Colour::Black));
    for column in Column::all() {
        assert_eq!(
            format!("{text}{column}").parse::<GameRecord>(),
            Err(NotationError::GameOver {
                move_number: 65,
                column,
                outcome: Outcome::Draw,
            }),
            "{text}{column}"
        );
    }
    assert_eq!(referee(&text).map(|r| r.outcome), Ok(Outcome::Draw));
}

/// Guards the generator of `parsing_agrees_with_the_referee`: its strings reach every kind of
/// result (ongoing and won games, and each error), so that property tests all of them.
#[test]
fn generated_move_strings_reach_every_kind_of_result() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRng, TestRunner};
    let config = Config::default();
    let rng = TestRng::deterministic_rng(config.rng_algorithm);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let strategy = move_strings();
    let mut kinds = [0u32; 6];
    for _ in 0..2_000 {
        let text = strategy.new_tree(&mut runner).unwrap().current();
        let kind = match referee(&text) {
            Ok(Record {
                outcome: Outcome::Ongoing,
                ..
            }) => 0,
            Ok(Record {
                outcome: Outcome::Won(_),
                ..
            }) => 1,
            Ok(Record {
                outcome: Outcome::Draw,
                ..
            }) => 2,
            Err(NotationError::BadCharacter { .. }) => 3,
            Err(NotationError::ColumnFull { .. }) => 4,
            Err(NotationError::GameOver { .. }) => 5,
        };
        kinds[kind] += 1;
    }
    println!("ongoing, won, drawn, bad character, column full, game over: {kinds:?}");
    for (kind, &count) in kinds.iter().enumerate() {
        // Random strings do not fill the board without a four: draws are tested on their own.
        if kind != 2 {
            assert!(count >= 25, "kind {kind} reached {count} times: {kinds:?}");
        }
    }
}
