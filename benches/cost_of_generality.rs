//! The cost of generality: the N-Queens tree (n = 12, every solution) searched by the engine
//! with the `nqueens` example's model and by three hand-written searches of the same tree
//! (`examples/nqueens/by_hand.rs`: a recursion passing the taken lines by value, one changing
//! a board in place, and a loop over an explicit stack of rows by value), with per-rule
//! counts and without. The searches count the same nodes, solutions, checks and prunes (the
//! `cost_of_generality` example's test asserts it, and this bench checks it before timing).
//! `scripts/cost-of-generality.sh` gives the instructions per node of each.
//!
//! `cargo bench --bench cost_of_generality`

#[path = "../examples/nqueens/by_engine.rs"]
mod by_engine;
#[path = "../examples/nqueens/by_hand.rs"]
mod by_hand;
#[path = "../examples/nqueens/family.rs"]
mod family;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// The board size: 10,103,869 nodes, a few tens of milliseconds a search.
const N: usize = 12;

fn cost_of_generality(c: &mut Criterion) {
    let hand = by_hand::count::<true>(N);
    assert_eq!(by_engine::by_engine(N, true), hand, "the engine and the hand-written recursion walk the same tree");
    assert_eq!(by_hand::count_in_place::<true>(N), hand, "both hand-written recursions walk the same tree");
    assert_eq!(by_hand::count_by_walk::<true>(N), hand, "the hand-written loop walks the same tree");
    let mut group = c.benchmark_group("cost-of-generality/nqueens-12");
    group.throughput(Throughput::Elements(hand.nodes));
    group.sample_size(20);
    group.bench_function("hand-written", |b| b.iter(|| by_hand::count::<true>(black_box(N))));
    group.bench_function("hand-written-in-place", |b| b.iter(|| by_hand::count_in_place::<true>(black_box(N))));
    group.bench_function("hand-written-walk", |b| b.iter(|| by_hand::count_by_walk::<true>(black_box(N))));
    group.bench_function("engine", |b| b.iter(|| by_engine::by_engine(black_box(N), true)));
    group.bench_function("hand-written/no-rule-counts", |b| b.iter(|| by_hand::count::<false>(black_box(N))));
    group.bench_function("hand-written-in-place/no-rule-counts", |b| {
        b.iter(|| by_hand::count_in_place::<false>(black_box(N)))
    });
    group.bench_function("hand-written-walk/no-rule-counts", |b| {
        b.iter(|| by_hand::count_by_walk::<false>(black_box(N)))
    });
    group.bench_function("engine/no-rule-counts", |b| b.iter(|| by_engine::by_engine(black_box(N), false)));
    group.finish();
}

criterion_group!(benches, cost_of_generality);
criterion_main!(benches);
