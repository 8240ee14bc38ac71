//! Positions to work on, from arguments, a file or standard input, each with where it came from.
//!
//! In a file (or on standard input) a position is the first word of its line (`MOVES [anything]`);
//! blank lines and lines starting with `#` are skipped. An argument is a whole move string, in
//! which whitespace is ignored (`"0 F C 3"`).

use std::fmt;
use std::io::{BufRead, IsTerminal};
use std::ops::ControlFlow;
use std::path::PathBuf;

use score4_engine::{Outcome, Record};

/// Where a position came from: a line of a file or stdin, or a command-line argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Line `n` (1-based) of a file or of standard input.
    Line(usize),
    /// Argument `n` (1-based) among the positions given.
    Argument(usize),
}

impl Origin {
    /// The line number, for JSON output (arguments count as lines).
    pub fn number(&self) -> usize {
        match *self {
            Origin::Line(n) | Origin::Argument(n) => n,
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Line(n) => write!(f, "line {n}"),
            Origin::Argument(n) => write!(f, "argument {n}"),
        }
    }
}

/// What is wrong with one input position.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The move string breaks the notation or the rules.
    #[error("{0}")]
    Notation(String),
    /// The game is already over: there is nothing to solve.
    #[error("the game is already over ({0})")]
    Finished(Outcome),
}

/// One input position: where it came from, the text as given, and the game or what is wrong.
pub struct Entry<G, E = InputError> {
    /// Where it came from.
    pub origin: Origin,
    /// The move string as written (trimmed).
    pub text: String,
    /// The game, or why the text is not one.
    pub game: Result<G, E>,
}

/// A failure to read the input at all (as opposed to one bad position in it).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {path}: {source}")]
pub struct ReadError {
    /// What could not be read.
    pub path: String,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

/// Where to read positions from.
pub enum Source {
    /// Move strings given on the command line.
    Arguments(Vec<String>),
    /// A file, one position per line.
    File(PathBuf),
    /// Standard input, one position per line.
    Stdin,
}

impl Source {
    /// Chooses the source from the command line: arguments, else `--file`, else stdin.
    pub fn choose(arguments: Vec<String>, file: Option<PathBuf>) -> Source {
        match file {
            _ if !arguments.is_empty() => Source::Arguments(arguments),
            Some(path) => Source::File(path),
            None => Source::Stdin,
        }
    }

    /// Whether positions will be typed at a terminal (standard input is read and is one), so
    /// that a prompt should say so.
    pub fn is_interactive(&self) -> bool {
        matches!(self, Source::Stdin) && std::io::stdin().is_terminal()
    }

    /// Calls `each` for every position in order until it breaks; a bad position is passed on
    /// as an error entry, a read failure stops the reading and is returned.
    pub fn for_each<R: Record>(
        self,
        each: impl FnMut(Entry<R>) -> ControlFlow<()>,
    ) -> Result<(), ReadError> {
        self.for_each_parsed(parse_game::<R>, each)
    }

    /// [`Self::for_each`] with positions read by `parse`.
    fn for_each_parsed<G, E>(
        self,
        parse: impl Fn(&str) -> Result<G, E>,
        mut each: impl FnMut(Entry<G, E>) -> ControlFlow<()>,
    ) -> Result<(), ReadError> {
        match self {
            Source::Arguments(arguments) => {
                for (i, text) in arguments.into_iter().enumerate() {
                    let game = parse(&text);
                    let entry = Entry {
                        origin: Origin::Argument(i + 1),
                        text: text.trim().into(),
                        game,
                    };
                    if each(entry).is_break() {
                        break;
                    }
                }
                Ok(())
            }
            Source::File(path) => {
                let name = path.display().to_string();
                let file = std::fs::File::open(&path).map_err(|source| ReadError {
                    path: name.clone(),
                    source,
                })?;
                read_lines(std::io::BufReader::new(file), &name, parse, each)
            }
            Source::Stdin => read_lines(std::io::stdin().lock(), "standard input", parse, each),
        }
    }
}

/// Parses a move string of a position to work on: a game that is not over.
pub fn parse_game<R: Record>(text: &str) -> Result<R, InputError> {
    let game: R = text
        .parse()
        .map_err(|error: <R as std::str::FromStr>::Err| InputError::Notation(error.to_string()))?;
    match game.outcome() {
        Outcome::Ongoing => Ok(game),
        finished => Err(InputError::Finished(finished)),
    }
}

fn read_lines<G, E>(
    reader: impl BufRead,
    name: &str,
    parse: impl Fn(&str) -> Result<G, E>,
    mut each: impl FnMut(Entry<G, E>) -> ControlFlow<()>,
) -> Result<(), ReadError> {
    // Lines are split on bytes so that one line of bad UTF-8 is one bad position, not the end.
    for (i, line) in reader.split(b'\n').enumerate() {
        let line = line.map_err(|source| ReadError {
            path: name.to_string(),
            source,
        })?;
        let line = String::from_utf8_lossy(&line);
        let Some(moves) = score4_input::position_word(&line) else {
            continue;
        };
        let entry = Entry {
            origin: Origin::Line(i + 1),
            text: moves.to_string(),
            game: parse(moves),
        };
        if each(entry).is_break() {
            break;
        }
    }
    Ok(())
}

/// Ends a run over positions: prints the summary (to standard error beside JSON lines, else as
/// the last line of the table), reports a failure to read, and gives the exit code — 2 if the
/// input could not be read or held a bad position.
pub fn finish_run(
    command: &str,
    summary: &str,
    json: bool,
    read: Result<(), ReadError>,
    bad: u64,
) -> std::process::ExitCode {
    if json {
        eprintln!("{command}: {summary}");
    } else {
        println!("summary: {summary}");
    }
    let bad_input = std::process::ExitCode::from(crate::EXIT_BAD_INPUT);
    if let Err(error) = read {
        eprintln!("{command}: {error}");
        return bad_input;
    }
    if bad > 0 {
        bad_input
    } else {
        std::process::ExitCode::SUCCESS
    }
}

/// A position that could not be read, as a JSON line (docs/RULES.md, "The JSON line").
#[derive(serde::Serialize)]
struct JsonError<'a> {
    game: &'static str,
    position: &'a str,
    line: usize,
    error: String,
}

/// Reports a position that could not be read: a JSON line on `out` with `json`, else a message
/// naming `command`, where the position came from and why on standard error. `game` is the
/// game's name in the JSON line, as in the lines of solved positions.
pub fn report_bad_entry(
    out: &mut impl std::io::Write,
    command: &str,
    game: &'static str,
    json: bool,
    origin: &Origin,
    text: &str,
    error: impl fmt::Display,
) {
    if json {
        let line = JsonError {
            game,
            position: text,
            line: origin.number(),
            error: error.to_string(),
        };
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(&line).expect("serialisable")
        );
    } else {
        eprintln!("{command}: {origin}: {text:?}: {error}");
    }
}
