//! A worker that panics ends the parallel solve with its panic, instead of leaving the
//! coordinator waiting for ever for a root value (a debug assertion firing in a worker once hung
//! a test this way).

use std::sync::mpsc;
use std::time::Duration;

use score4_board::{BitBoard, Cell, Colour, GameRecord, Position};
use score4_game::OrderedMoves;
use score4_parallel::{solve, Config};
use score4_solver::{Game, Replacement, TranspositionTable};

/// The 3-D game, except that a search in a worker thread (the scoped workers have no name)
/// panics as soon as it plays a child. The coordinator's thread, which is named, is unharmed.
#[derive(Clone, Copy)]
struct Fragile(Position);

impl Game for Fragile {
    const NAME: &'static str = "fragile";
    const CELLS: i32 = <Position as Game>::CELLS;
    const KEY_WIDTH: u32 = <Position as Game>::KEY_WIDTH;
    type Symmetries = <Position as Game>::Symmetries;

    fn white_to_move(&self) -> bool {
        self.0.white_to_move()
    }
    fn stone_count(&self) -> i32 {
        Game::stone_count(&self.0)
    }
    fn playable(&self) -> BitBoard {
        Game::playable(&self.0)
    }
    fn threats(&self, colour: Colour) -> BitBoard {
        Game::threats(&self.0, colour)
    }
    fn column_of(cell: Cell) -> u32 {
        <Position as Game>::column_of(cell)
    }
    fn above(cells: BitBoard) -> BitBoard {
        <Position as Game>::above(cells)
    }
    fn below(cells: BitBoard) -> BitBoard {
        <Position as Game>::below(cells)
    }
    fn after(&self, cell: Cell) -> Fragile {
        Fragile(Game::after(&self.0, cell))
    }
    fn transposing_symmetries(&self) -> Self::Symmetries {
        Game::transposing_symmetries(&self.0)
    }
    fn key(&self, symmetries: Self::Symmetries) -> u128 {
        Game::key(&self.0, symmetries)
    }
    fn key_after(&self, cell: Cell, symmetries: Self::Symmetries) -> u128 {
        Game::key_after(&self.0, cell, symmetries)
    }
    type ChildKeys = <Position as Game>::ChildKeys;
    fn child_keys(&self, symmetries: Self::Symmetries) -> Self::ChildKeys {
        Game::child_keys(&self.0, symmetries)
    }
    fn key_after_with(&self, cell: Cell, keys: &Self::ChildKeys) -> u128 {
        Game::key_after_with(&self.0, cell, keys)
    }
    fn order(&self, moves: BitBoard) -> OrderedMoves {
        Game::order(&self.0, moves)
    }
    fn play_ordered(&mut self, order: &OrderedMoves, i: usize) {
        assert!(
            std::thread::current().name().is_some(),
            "a worker's search breaks on purpose"
        );
        Game::play_ordered(&mut self.0, order, i)
    }
    fn cannot_win(&self, colour: Colour) -> bool {
        Game::cannot_win(&self.0, colour)
    }
    fn second_player_holds(&self) -> bool {
        Game::second_player_holds(&self.0)
    }
    fn first_player_wins_statically(&self) -> bool {
        Game::first_player_wins_statically(&self.0)
    }
    type Column = <Position as Game>::Column;
    fn columns() -> impl Iterator<Item = Self::Column> {
        <Position as Game>::columns()
    }
    fn drop_cell(&self, column: Self::Column) -> Option<Cell> {
        Game::drop_cell(&self.0, column)
    }
    fn column(cell: Cell) -> Self::Column {
        <Position as Game>::column(cell)
    }
    fn column_char(index: u32) -> char {
        <Position as Game>::column_char(index)
    }
    fn wins_with(&self, cell: Cell) -> bool {
        Game::wins_with(&self.0, cell)
    }
    fn is_full(&self) -> bool {
        Game::is_full(&self.0)
    }
    fn evaluate(&self) -> i32 {
        Game::evaluate(&self.0)
    }
}

#[test]
fn a_panicking_worker_ends_the_solve_with_its_panic() {
    // The first position of bench/positions/d28.txt: the workers' tasks need real searches.
    let game: GameRecord = "4DA0AA54A557742B1758F9B4D6E7".parse().expect("a position");
    let position = Fragile(*game.position());
    let table = TranspositionTable::of_size(
        TranspositionTable::minimum_bytes(Replacement::TwoBig),
        Replacement::TwoBig,
    )
    .expect("the smallest table");
    let (sender, receiver) = mpsc::channel();
    let solving = std::thread::Builder::new()
        .name("solving".into())
        .spawn(move || {
            let config = Config {
                threads: 2,
                ..Config::default()
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                solve(&position, &table, &config, |_| {}).map(|s| s.first_player_wins)
            }));
            sender.send(result.is_err()).expect("the test waits");
        })
        .expect("a thread");
    let panicked = receiver
        .recv_timeout(Duration::from_secs(120))
        .expect("the solve ends within two minutes instead of waiting for ever");
    assert!(panicked, "the worker's panic reaches the caller");
    solving
        .join()
        .expect("the solving thread itself ends cleanly");
}
