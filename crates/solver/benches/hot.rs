//! Micro-benchmarks of the hot path: play (with the threat update), the canonical keys of a
//! position and of its children, move ordering, the static rule, and a fixed small search.
//!
//! `cargo bench -p score4-solver` (add `-- NAME` to run one). Each input set is fixed (generator
//! seeds), so runs compare; whole-search speed is measured by `score4 bench`, not here.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use score4_bench::PositionGenerator;
use score4_board::ordering::order_moves;
use score4_board::rules::follow_up_holds;
use score4_board::symmetry::SymmetryGroup;
use score4_board::{Cell, Colour, Position};
use score4_solver::{Replacement, Solver, TranspositionTable};

/// 256 positions of 24–40 stones, with their playable cells.
fn positions() -> Vec<(Position, Vec<Cell>)> {
    (24..=40)
        .step_by(4)
        .flat_map(|stones| PositionGenerator::new(stones, 99).take(52))
        .take(256)
        .map(|game| {
            let position = *game.position();
            let cells = position.playable().iter().collect();
            (position, cells)
        })
        .collect()
}

fn board(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("play every playable cell (256 positions)", |b| {
        b.iter(|| {
            for (position, cells) in &positions {
                for &cell in cells {
                    black_box(position.after(black_box(cell)));
                }
            }
        })
    });
    c.bench_function("canonical key (256 positions)", |b| {
        b.iter(|| {
            for (position, _) in &positions {
                black_box(black_box(position).canonical_key());
            }
        })
    });
    for (name, group) in [
        ("canonical", SymmetryGroup::ALL),
        ("plain", SymmetryGroup::TRIVIAL),
    ] {
        c.bench_function(
            &format!("{name} table keys of all children (256 positions)"),
            |b| {
                b.iter(|| {
                    for (position, cells) in &positions {
                        for &cell in cells {
                            black_box(position.table_key_after_within(cell, black_box(group)));
                        }
                    }
                })
            },
        );
    }
}

fn search_parts(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("order moves (256 positions)", |b| {
        b.iter(|| {
            for (position, _) in &positions {
                black_box(order_moves(position, position.playable()));
            }
        })
    });
    let white_to_move: Vec<Position> = positions
        .iter()
        .map(|(position, _)| *position)
        .filter(|position| position.mover() == Colour::White)
        .collect();
    c.bench_function(
        "static rule, white to move (positions of 24-40 stones)",
        |b| {
            b.iter(|| {
                for position in &white_to_move {
                    black_box(follow_up_holds(black_box(position)));
                }
            })
        },
    );
}

fn small_search(c: &mut Criterion) {
    let games: Vec<_> = PositionGenerator::new(40, 7).take(20).collect();
    let table = TranspositionTable::of_size(
        TranspositionTable::minimum_bytes(Replacement::TwoBig),
        Replacement::TwoBig,
    )
    .expect("the smallest table");
    let mut group = c.benchmark_group("search");
    group.sample_size(20);
    group.bench_function("20 positions of 40 stones, cleared 67 MiB table", |b| {
        b.iter_batched(
            || table.clear(),
            |()| {
                let mut solver = Solver::new(&table);
                for game in &games {
                    black_box(solver.first_player_wins(game.position()));
                }
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, board, search_parts, small_search);
criterion_main!(benches);
