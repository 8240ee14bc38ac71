//! Benchmark positions from random *reasonable* play, the protocol of docs/RULES.md, "The benchmark
//! protocol".
//!
//! At each ply the mover must block a single opening of the opponent (two or more: the game is
//! discarded), never plays directly below an opponent threat unless nothing else is left (then the
//! game is discarded), never completes a four (discarded if forced), and otherwise picks uniformly
//! among the remaining columns. A position is kept only if the side to move has no immediate win.
//!
//! The random stream is ChaCha8 from a 64-bit seed (value-stable across versions of the crate),
//! and a choice among `n` moves is `⌊n · r / 2^64⌋` for the next 64-bit output `r`, so a seed
//! gives the same positions on every machine. The choice is among the moves' cells in the
//! order of their bit indices, so the generator, generic over the game, gives the 3-D game the
//! stream that made the committed sets.

use std::marker::PhantomData;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use score4_board::{BitBoard, Cell, GameRecord};
use score4_engine::{Game, Record};

/// A source of positions with a fixed number of stones, of the game of `R` (by default the 3-D
/// game, whose benchmark sets it makes; the rules of reasonable play above are the same for
/// every game with gravity).
pub struct PositionGenerator<R: Record = GameRecord> {
    rng: ChaCha8Rng,
    stones: u32,
    /// Games thrown away so far (a rule forced a bad move, or the mover could win at once).
    pub discarded: u64,
    game: PhantomData<R>,
}

impl PositionGenerator<GameRecord> {
    /// 3-D positions with `stones` stones (`0..=63`) from the stream of `seed`.
    ///
    /// # Panics
    /// If `stones > 63`: a full board has no move to solve.
    pub fn new(stones: u32, seed: u64) -> PositionGenerator {
        PositionGenerator::for_game(stones, seed)
    }
}

impl<R: Record> PositionGenerator<R> {
    /// The most stones a position to solve can hold: one cell must stay empty.
    pub const MAX_STONES: u32 = <R::Position as Game>::CELLS as u32 - 1;

    /// Positions of the game of `R` with `stones` stones (at most [`Self::MAX_STONES`]) from
    /// the stream of `seed`. The 3-D game's stream is [`PositionGenerator::new`]'s.
    ///
    /// # Panics
    /// If `stones` is above [`Self::MAX_STONES`]: a full board has no move to solve.
    pub fn for_game(stones: u32, seed: u64) -> PositionGenerator<R> {
        assert!(
            stones <= Self::MAX_STONES,
            "a position to solve leaves a cell empty"
        );
        PositionGenerator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            stones,
            discarded: 0,
            game: PhantomData,
        }
    }

    /// A uniform choice among the cells of `cells` (not empty).
    fn pick(&mut self, cells: BitBoard) -> Cell {
        let n = cells.len() as u64;
        let k = ((self.rng.next_u64() as u128 * n as u128) >> 64) as usize;
        cells.iter().nth(k).expect("k < n")
    }

    /// The moves a reasonable player may choose, or `None` if every rule-abiding choice is gone.
    fn reasonable_moves(position: &R::Position) -> Option<BitBoard> {
        let me = position.mover();
        let playable = position.playable();
        let their_threats = position.threats(me.other());
        let their_openings = their_threats & playable;
        let mut moves = match their_openings.len() {
            0 => playable,
            1 => their_openings,
            _ => return None,
        };
        moves = moves & !<R::Position as Game>::below(their_threats) & !position.threats(me);
        (!moves.is_empty()).then_some(moves)
    }

    /// One game of `stones` reasonable moves, or `None` if it had to be discarded.
    fn try_game(&mut self) -> Option<R> {
        let mut game = R::default();
        for _ in 0..self.stones {
            let moves = Self::reasonable_moves(game.position())?;
            let cell = self.pick(moves);
            game.play_column(<R::Position as Game>::column(cell))
                .expect("a reasonable move is legal and does not win");
        }
        let position = game.position();
        let immediate_win = !(position.threats(position.mover()) & position.playable()).is_empty();
        (!immediate_win).then_some(game)
    }

    /// The next position (as the game reaching it).
    pub fn next_game(&mut self) -> R {
        loop {
            match self.try_game() {
                Some(game) => return game,
                None => self.discarded += 1,
            }
        }
    }
}

impl<R: Record> Iterator for PositionGenerator<R> {
    type Item = R;
    fn next(&mut self) -> Option<R> {
        Some(self.next_game())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use score4_board::Outcome;

    #[test]
    fn positions_follow_the_protocol_and_repeat_with_the_seed() {
        for stones in [0, 1, 20, 28, 41, 50] {
            let first: Vec<String> = PositionGenerator::new(stones, 7)
                .take(50)
                .map(|g| g.to_string())
                .collect();
            let again: Vec<String> = PositionGenerator::new(stones, 7)
                .take(50)
                .map(|g| g.to_string())
                .collect();
            assert_eq!(first, again);
            for moves in &first {
                let game: GameRecord = moves.parse().unwrap();
                assert_eq!(game.outcome(), Outcome::Ongoing);
                assert_eq!(game.position().count(), stones);
                let position = game.position();
                assert!(position.openings(position.mover()).is_empty());
            }
        }
        let other: Vec<String> = PositionGenerator::new(28, 8)
            .take(5)
            .map(|g| g.to_string())
            .collect();
        assert_ne!(
            other[0],
            PositionGenerator::new(28, 7).next_game().to_string()
        );
    }

    #[test]
    fn classic_positions_follow_the_same_rules() {
        use score4_classic::ClassicRecord;
        for stones in [0, 1, 12, 25, 41] {
            let first: Vec<ClassicRecord> =
                PositionGenerator::for_game(stones, 3).take(40).collect();
            let again: Vec<ClassicRecord> =
                PositionGenerator::for_game(stones, 3).take(40).collect();
            assert_eq!(first, again);
            for game in &first {
                assert_eq!(game.outcome(), Outcome::Ongoing, "{game}");
                let position = game.position();
                assert_eq!(position.count(), stones, "{game}");
                let mover = position.mover();
                assert!(
                    (position.threats(mover) & position.playable()).is_empty(),
                    "{game}"
                );
            }
        }
        assert_eq!(PositionGenerator::<ClassicRecord>::MAX_STONES, 41);
        assert_eq!(PositionGenerator::<GameRecord>::MAX_STONES, 63);
    }
}
