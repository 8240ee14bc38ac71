//! `--book FILE`: a store of `score4 prove` as an opening book. A position whose value the store
//! decides (in the mode asked) is answered from it, with no search. Inside the search
//! ([`score4_engine::Book`]) the book is read at every position it could hold by `solve` in
//! first-wins mode, `analyze` and `play`, and by `solve` in wdl and exact mode only when
//! `--book-stones` asks for it: a first-wins proof stores only the bound at threshold 1,
//! weaker than the bound a search of the position proves, and the later questions of a score
//! can pay for that more than the book saves (docs/PERFORMANCE.md, "The store as a book").
//! `--book-stones` sets the depth in every case.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use score4_engine::{Evaluation, Game, Mode, ScoreRange, SearchStats};
use score4_prove::{search_book, store_key};
use score4_store::{Store, StoreError};

use crate::BookArgs;

/// An open book.
pub struct Book {
    store: Store,
    /// The store's positions of at most `--book-stones` stones, for the search, if it reads
    /// the book.
    for_search: Option<Arc<score4_engine::Book>>,
}

/// The book `args` name, if any, for `command`, read inside the search down to
/// `--book-stones` or, without it, at every depth if `in_search_by_default`; on an error, the
/// message is printed and the exit code returned.
pub fn open_book<G: Game>(
    command: &str,
    args: &BookArgs,
    in_search_by_default: bool,
) -> Result<Option<Book>, ExitCode> {
    let Some(path) = &args.book else {
        return Ok(None);
    };
    let in_search = match args.book_stones {
        Some(stones) => Some(Some(stones)),
        None => in_search_by_default.then_some(None),
    };
    Book::open(path, G::NAME, in_search)
        .map(Some)
        .map_err(|error| {
            eprintln!("{command}: --book: {error}");
            crate::prove::store_error_code(&error)
        })
}

impl Book {
    /// Opens the store at `path` for reading; it must be of the game `game`. With
    /// `in_search`, its positions of at most that many stones (`None`: all) are read into
    /// memory for the search.
    pub fn open(
        path: &Path,
        game: &str,
        in_search: Option<Option<i32>>,
    ) -> Result<Book, StoreError> {
        let store = Store::open_for_reading(path)?;
        let found = store.game()?;
        if found != game {
            return Err(StoreError::OtherGame {
                path: path.to_owned(),
                found,
                expected: game.to_owned(),
            });
        }
        let for_search = match in_search {
            Some(max_stones) => Some(Arc::new(search_book(&store, max_stones)?)),
            None => None,
        };
        Ok(Book { store, for_search })
    }

    /// The book the search reads, if it reads one.
    pub fn for_search(&self) -> Option<Arc<score4_engine::Book>> {
        self.for_search.clone()
    }

    /// `position`'s value in `mode` if the book decides it: an evaluation of no nodes.
    pub fn answer<G: Game>(
        &self,
        position: &G,
        mode: Mode,
    ) -> Result<Option<Evaluation>, StoreError> {
        let key = store_key(position);
        let Some(record) = self.store.get(key)? else {
            return Ok(None);
        };
        let possible = ScoreRange::possible(position);
        let range = ScoreRange {
            lower: record.bounds.lower.max(possible.lower),
            upper: record.bounds.upper.min(possible.upper),
        };
        Ok(range
            .value(mode, position.white_to_move())
            .map(|value| Evaluation {
                mode,
                value,
                range,
                stats: SearchStats::default(),
                seconds: 0.0,
                parallel: None,
            }))
    }
}
