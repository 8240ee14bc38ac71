//! A store read as a book inside the search ([`score4_prove::search_book`]): the exact and
//! win/draw/loss scores of positions whose subtrees a proof stored are the same with the book
//! as without it, the book is read (it answers nodes, and a false entry would be believed), and
//! its bounds are turned to the first player's side correctly for both movers.

use std::time::Duration;

use score4_board::GameRecord;
use score4_game::Game;
mod common;
use common::prove_to_the_end;
use score4_prove::search_book;
use score4_solver::{
    examine_at_least, Book, Examined, Format, Mode, Replacement, Solver, TableConfig,
    TranspositionTable,
};
use score4_store::Store;

/// The smallest kind of table of bounds that 3-D keys fit.
fn bounds_table() -> TranspositionTable {
    TranspositionTable::new(
        &TableConfig::new(288 << 20, 80)
            .replacement(Replacement::New)
            .format(Format::Bounds),
    )
    .unwrap()
}

#[test]
fn scores_with_a_book_of_proven_subtrees_are_the_scores_without() {
    let dir = tempfile::tempdir().unwrap();
    let table = bounds_table();
    let (mut compared, mut hits) = (0, 0);
    for stones in [27, 30, 33] {
        for (i, game) in score4_bench::PositionGenerator::new(stones, 91)
            .take(6)
            .enumerate()
        {
            let game: GameRecord = game;
            let path = dir.path().join(format!("d{stones}-{i}.db"));
            let mut store = Store::open_for_writing(&path, "3d").unwrap();
            let moves = game.to_string();
            prove_to_the_end(&game, &mut store, Duration::from_millis(2));
            let book = search_book(&store, None).unwrap();
            assert!(!book.is_empty());
            for mode in [Mode::Wdl, Mode::Exact] {
                table.clear();
                let plain = Solver::new(&table).evaluate(game.position(), mode);
                table.clear();
                let mut reader = Solver::new(&table).with_book(Some(&book));
                let read = reader.evaluate(game.position(), mode);
                assert_eq!(read.value, plain.value, "{moves} in {mode:?}");
                hits += read.stats.book_hits;
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 36);
    assert!(hits > 0, "the book answered no node");
}

#[test]
fn a_book_is_believed_and_is_keyed_for_both_movers() {
    // An entry that says the opposite of the truth settles the position as it says: the search
    // reads the book (and trusts it, which is why only proven bounds may go in).
    let table = bounds_table();
    let mut checked = 0;
    for stones in [28, 29] {
        for game in score4_bench::PositionGenerator::new(stones, 5).take(8) {
            let game: GameRecord = game;
            let position = game.position();
            // The book is read at nodes with a choice that the head of the search leaves open.
            match examine_at_least(position, 1) {
                Examined::Moves(moves) if moves.has_several() => checked += 1,
                _ => continue,
            }
            table.clear();
            let truth = Solver::new(&table).score_at_least(position, 1);
            let mut lie = Book::new(64);
            let (lower, upper) = if truth { (-64, 0) } else { (1, 64) };
            let stones = position.stone_count();
            assert_eq!(
                lie.insert(Book::key_of(position), stones, lower, upper),
                Ok(true)
            );
            table.clear();
            let believed = Solver::new(&table)
                .with_book(Some(&lie))
                .score_at_least(position, 1);
            assert_eq!(believed, !truth, "{game}");
            // Below its depth a book says nothing.
            let shallow = {
                let mut book = Book::new(stones - 1);
                assert_eq!(
                    book.insert(Book::key_of(position), stones, lower, upper),
                    Ok(false)
                );
                book
            };
            table.clear();
            let searched = Solver::new(&table)
                .with_book(Some(&shallow))
                .score_at_least(position, 1);
            assert_eq!(searched, truth, "{game}");
        }
    }
    assert!(checked >= 8, "{checked} positions checked");
}

#[test]
fn contradicting_bounds_are_refused() {
    let mut book = Book::new(20);
    assert_eq!(book.insert(7, 10, 1, 30), Ok(true));
    assert_eq!(book.insert(7, 10, 3, 40), Ok(true));
    assert_eq!(book.insert(7, 10, -30, 0), Err((3, 30)));
    assert_eq!(book.insert(8, 10, 2, 1), Err((2, 1)));
    assert_eq!(book.len(), 1);
}
