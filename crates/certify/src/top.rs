//! The top of a long proof's certificate, from the store of a `score4 prove` run: the walk
//! follows the positions the store settles down to its jobs, which become `part` leaves, each
//! proven by a certificate of its own (docs/CERTIFICATE.md, "Certificates in parts").

use std::io::Write;

use score4_board::{Colour, Column, GameRecord, Position};
use score4_solver::Book;

use crate::write::{CertifyError, CertifySummary, Step, Walk};

/// A top certificate written: what it holds, and its `part` leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Top {
    /// What the top holds (its `part_leaves` are the parts).
    pub summary: CertifySummary,
    /// The `part` leaves, each as the moves from the empty board to it: each needs a
    /// certificate of its own with the same claim.
    pub parts: Vec<GameRecord>,
}

/// What `book` settles of `position`: whether the first player wins, if it says.
fn settled(book: &Book, position: &Position) -> Option<bool> {
    let (lower, upper) = book.bounds(position)?;
    match () {
        _ if lower > 0 => Some(true),
        _ if upper <= 0 => Some(false),
        _ => None,
    }
}

/// Writes to `out` the top of the certificate of `game`'s position from `book` (a store's
/// positions as first-player bounds, as `score4_prove::search_book` reads them), with at most
/// `max_nodes` node lines.
///
/// From the root, the claimant plays a move whose child the book proves keeps the claim, and
/// every move of the opponent is followed where the book proves every child; a node below the
/// root where the book goes no further (a job of the proof run) is a `part` leaf. Leaves that
/// need no part (a finished game, a move completing four, a strategy leaf) are used first.
/// The book is trusted only to choose: each part's own certificate proves its claim.
///
/// Fails with [`CertifyError::NotSettled`] if the book does not settle the root, and with
/// [`CertifyError::Unsplit`] if it settles too few of the root's children to take a step (the
/// root cannot be its own part): such a position is certified whole, with [`crate::certify`].
pub fn certify_top(
    game: &GameRecord,
    book: &Book,
    max_nodes: u64,
    out: &mut impl Write,
) -> Result<Top, CertifyError> {
    let first_player_wins = settled(book, game.position()).ok_or(CertifyError::NotSettled)?;
    let claimant = if first_player_wins {
        Colour::White
    } else {
        Colour::Black
    };
    let walk = Walk::start(game, first_player_wins, max_nodes, out)?;
    let (summary, parts) = walk.run(|position, is_root, known| {
        let children = || {
            Column::all()
                .filter_map(|column| position.drop_cell(column))
                .map(|cell| (cell, position.after(cell)))
        };
        let keeps = |child: &Position| settled(book, child) == Some(first_player_wins);
        let step = if position.mover() == claimant {
            children()
                .filter(|(_, child)| keeps(child))
                .min_by_key(|(_, child)| !known(child))
                .map(|(cell, _)| Step::Choose(cell))
        } else {
            children()
                .all(|(_, child)| keeps(&child))
                .then_some(Step::Every)
        };
        match (step, is_root) {
            (Some(step), _) => Ok(step),
            (None, false) => Ok(Step::Part),
            (None, true) => Err(CertifyError::Unsplit),
        }
    })?;
    let parts = parts
        .iter()
        .map(|moves| moves.parse().expect("moves the walk played are legal"))
        .collect();
    Ok(Top { summary, parts })
}
