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
//! gives the same positions on every machine.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use score4_board::CellCoordinates;
use score4_board::Layers;
use score4_board::{BitBoard, GameRecord, Position};

/// A source of benchmark positions with a fixed number of stones.
pub struct PositionGenerator {
    rng: ChaCha8Rng,
    stones: u32,
    /// Games thrown away so far (a rule forced a bad move, or the mover could win at once).
    pub discarded: u64,
}

impl PositionGenerator {
    /// Positions with `stones` stones (`0..=63`) from the stream of `seed`.
    ///
    /// # Panics
    /// If `stones > 63`: a full board has no move to solve.
    pub fn new(stones: u32, seed: u64) -> PositionGenerator {
        assert!(stones <= 63, "a position to solve has at most 63 stones");
        PositionGenerator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            stones,
            discarded: 0,
        }
    }

    /// A uniform choice among the cells of `cells` (not empty).
    fn pick(&mut self, cells: BitBoard) -> score4_board::Cell {
        let n = cells.len() as u64;
        let k = ((self.rng.next_u64() as u128 * n as u128) >> 64) as usize;
        cells.iter().nth(k).expect("k < n")
    }

    /// The moves a reasonable player may choose, or `None` if every rule-abiding choice is gone.
    fn reasonable_moves(position: &Position) -> Option<BitBoard> {
        let me = position.mover();
        let playable = position.playable();
        let their_threats = position.threats(me.other());
        let their_openings = their_threats & playable;
        let mut moves = match their_openings.len() {
            0 => playable,
            1 => their_openings,
            _ => return None,
        };
        moves = moves & !their_threats.down() & !position.threats(me);
        (!moves.is_empty()).then_some(moves)
    }

    /// One game of `stones` reasonable moves, or `None` if it had to be discarded.
    fn try_game(&mut self) -> Option<GameRecord> {
        let mut game = GameRecord::new();
        for _ in 0..self.stones {
            let moves = Self::reasonable_moves(game.position())?;
            let cell = self.pick(moves);
            game.play(cell.column())
                .expect("a reasonable move is legal and does not win");
        }
        let position = game.position();
        let immediate_win = !position.openings(position.mover()).is_empty();
        (!immediate_win).then_some(game)
    }

    /// The next position (as the game reaching it).
    pub fn next_game(&mut self) -> GameRecord {
        loop {
            match self.try_game() {
                Some(game) => return game,
                None => self.discarded += 1,
            }
        }
    }
}

impl Iterator for PositionGenerator {
    type Item = GameRecord;
    fn next(&mut self) -> Option<GameRecord> {
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
}
