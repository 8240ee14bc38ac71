//! An opening book the search reads: proven bounds on the first player's score for positions of
//! at most [`Book::max_stones`] stones, looked up when the table does not know a node.
//!
//! A book is filled by a front-end (for instance from a store of proof runs) and then only read,
//! by any number of searchers at once. A lookup costs a key under the position's own symmetries
//! and a hash probe, so the search makes it only at nodes of at most `max_stones` stones, where a
//! hit saves a subtree worth far more; below that depth a book says nothing.
//!
//! Keys are [`Book::key_of`]: the position's key under its own
//! [`Game::transposing_symmetries`], the same for a position and its images, whatever the
//! root of the search — never another position's.

use std::collections::HashMap;

use score4_game::Game;

/// Proven bounds on the first player's score, by position, down to a stone count.
pub struct Book {
    /// `(lower, upper)` bounds on the first player's exact score, by [`Book::key_of`].
    entries: HashMap<u128, (i32, i32)>,
    max_stones: i32,
}

impl Book {
    /// An empty book whose positions have at most `max_stones` stones.
    pub fn new(max_stones: i32) -> Book {
        Book {
            entries: HashMap::new(),
            max_stones,
        }
    }

    /// The key under which a book holds `position`: its key under its own transposing
    /// symmetries.
    pub fn key_of<G: Game>(position: &G) -> u128 {
        position.key(position.transposing_symmetries())
    }

    /// Records that the first player's score in the position of key `key` (of `stones`
    /// stones) lies in `lower..=upper`, meeting any bounds already recorded. A position of more
    /// than [`Self::max_stones`] stones is left out (`Ok(false)`).
    ///
    /// Fails, recording nothing, if the bounds are empty or contradict those recorded (two
    /// proofs of one position that disagree, which only a bug or a damaged file can cause),
    /// with the bounds recorded before.
    pub fn insert(
        &mut self,
        key: u128,
        stones: i32,
        lower: i32,
        upper: i32,
    ) -> Result<bool, (i32, i32)> {
        if stones > self.max_stones {
            return Ok(false);
        }
        let before = self.entries.get(&key).copied();
        let (old_lower, old_upper) = before.unwrap_or((i32::MIN, i32::MAX));
        let met = (old_lower.max(lower), old_upper.min(upper));
        if met.0 > met.1 {
            return Err(before.unwrap_or((lower, upper)));
        }
        self.entries.insert(key, met);
        Ok(true)
    }

    /// The deepest positions the book holds, in stones.
    pub fn max_stones(&self) -> i32 {
        self.max_stones
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bounds on the first player's score in `position`, if the book holds it.
    pub fn bounds<G: Game>(&self, position: &G) -> Option<(i32, i32)> {
        if position.stone_count() > self.max_stones {
            return None;
        }
        self.entries.get(&Self::key_of(position)).copied()
    }
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("positions", &self.entries.len())
            .field("max_stones", &self.max_stones)
            .finish()
    }
}
