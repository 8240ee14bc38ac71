//! `--book FILE`: a store of `score4 prove` as an opening book. A position whose value the store
//! decides (in the mode asked) is answered from it, with no search.

use std::path::Path;

use score4_engine::{Evaluation, Game, Mode, ScoreRange, SearchStats};
use score4_prove::store_key;
use score4_store::{Store, StoreError};

/// An open book.
pub struct Book {
    store: Store,
}

impl Book {
    /// Opens the store at `path` for reading; it must be of the game `game`.
    pub fn open(path: &Path, game: &str) -> Result<Book, StoreError> {
        let store = Store::open_for_reading(path)?;
        let found = store.game()?;
        if found != game {
            return Err(StoreError::OtherGame {
                path: path.to_owned(),
                found,
                expected: game.to_owned(),
            });
        }
        Ok(Book { store })
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
