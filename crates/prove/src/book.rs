//! A store read as an opening book for the search ([`score4_solver::Book`]).

use score4_solver::Book;
use score4_store::{Store, StoreError};

/// The positions of `store` of at most `max_stones` stones (`None`: as many as its deepest
/// position has) with proven bounds, as a book the search reads: each row's bounds (on the
/// score of the side to move) turned into bounds on the first player's score. Rows that bound
/// nothing (split records) are left out.
pub fn search_book(store: &Store, max_stones: Option<i32>) -> Result<Book, StoreError> {
    let mut records = Vec::new();
    store.for_each(|record| {
        if !record.bounds.is_unknown() && max_stones.is_none_or(|most| record.stones as i32 <= most)
        {
            records.push(record);
        }
    })?;
    let deepest = records.iter().map(|record| record.stones as i32).max();
    let mut book = Book::new(max_stones.or(deepest).unwrap_or(0));
    let mut contradiction = None;
    for record in records {
        // The first player moves when the stone count is even.
        let (lower, upper) = if record.stones % 2 == 0 {
            (record.bounds.lower, record.bounds.upper)
        } else {
            (-record.bounds.upper, -record.bounds.lower)
        };
        if book
            .insert(record.key, record.stones as i32, lower, upper)
            .is_err()
        {
            contradiction = Some(record.moves);
            break;
        }
    }
    match contradiction {
        Some(moves) => Err(StoreError::Damaged {
            path: store.path().to_owned(),
            reason: format!("the bounds of the position {moves} contradict each other"),
        }),
        None => Ok(book),
    }
}
