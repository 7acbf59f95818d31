//! criterion benches of the solve call: each seed instance in its baseline configuration
//! (the most naive knobs, from the `quick` preset's `[baselines]`) and in its defaults (the
//! best), with throughput in nodes; sequential against `auto` on an enumeration workload;
//! and the cost of per-rule counting on the 24/7 seed instance (counters compiled in against
//! compiled out, in the defaults).
//!
//! Bench names are stable across machines and code changes (no core counts, no
//! completeness in them), so that `--baseline` always finds its counterpart; what varies is
//! printed instead.
//!
//! One untimed run first measures the node count (the throughput) and the time, which sets
//! the sample size so that the whole `cargo bench` stays within about five minutes. The
//! whole `run::solve` call is timed: `prepare` (instance data and knob text into the
//! family's types), the thread pool, the models, the search and the report (solution
//! texts, rendering, verification, answer). A sweep's `wall_ns` is the searches alone
//! (`RunReport.elapsed_ns`), so short calls read much faster there; the README's table
//! "`cargo bench` and `sweep` time different things" sets the two side by side. Compare with
//! an earlier state:
//! `cargo bench --bench solve -- --save-baseline before`, then `-- --baseline before`.

use backtrack_bench::knobs::KnobValues;
use backtrack_bench::run::instance::{self, Instance};
use backtrack_bench::run::{self, RunSettings};
use backtrack_bench::unstable::harness::sweeping::spec::SweepSpec;
use criterion::measurement::WallTime;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode, Throughput};
use std::time::{Duration, Instant};

/// The seed instances, by short name.
const SEED_INSTANCES: [&str; 4] = ["rings", "prime-grid", "hooks7", "247"];

/// Enumeration workloads to compare sequential and `auto` on, the first that loads.
const ENUMERATION_WORKLOADS: [&str; 3] = [
    "instances/twenty_four_seven_enumeration.json",
    "instances/hooks_enumeration.json",
    "instances/prime_grid_enumeration.json",
];

/// Node limit of a benched run: a naive baseline that would run for minutes is timed over
/// its first this-many nodes (its throughput in nodes per second is still meaningful).
const BENCH_NODE_LIMIT: u64 = 20_000_000;

/// Loads an instance by short name or by a path relative to the crate.
fn load(source: &str) -> Result<Instance, instance::InstanceError> {
    instance::load(source)
        .or_else(|error| instance::load(&format!("{}/{source}", env!("CARGO_MANIFEST_DIR"))).map_err(|_| error))
}

fn settings(knobs: KnobValues, strategy: &str, threads: usize) -> RunSettings {
    RunSettings {
        knobs,
        node_limit: BENCH_NODE_LIMIT,
        rule_counts: false,
        solutions_to_keep: 1,
        strategy: strategy.parse().expect("a strategy"),
        threads,
        ..RunSettings::default()
    }
}

/// Times `settings` on `instance` as benchmark `name` of `group`, after one untimed run
/// that gives the node count and sizes the sample.
fn bench_run(group: &mut BenchmarkGroup<WallTime>, name: &str, instance: &Instance, settings: &RunSettings) {
    let started = Instant::now();
    let report = match run::solve(instance, settings) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("bench: skipping {}/{name}: {error}", instance.source);
            return;
        }
    };
    let once = started.elapsed();
    if !report.complete {
        eprintln!("bench: {}/{name} is timed over its first {BENCH_NODE_LIMIT} nodes per component", instance.source);
    }
    group.throughput(Throughput::Elements(report.nodes.max(1)));
    // Fast cases: 50 samples in 2 s. Slow ones: 10 samples of one run each (flat sampling;
    // the default linear sampling would run 1 + 2 + ... + 10 = 55 times).
    if once < Duration::from_millis(20) {
        group.sampling_mode(SamplingMode::Auto);
        group.sample_size(50).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    } else {
        group.sampling_mode(SamplingMode::Flat);
        let measurement = (once * 11).clamp(Duration::from_secs(2), Duration::from_secs(60));
        group.sample_size(10).warm_up_time(Duration::from_millis(1)).measurement_time(measurement);
    }
    group.bench_function(name, |bencher| bencher.iter(|| run::solve(black_box(instance), black_box(settings))));
}

fn seed_instances(criterion: &mut Criterion) {
    let baselines = SweepSpec::preset("quick").map(|spec| spec.baselines).unwrap_or_default();
    for source in SEED_INSTANCES {
        let instance = match load(source) {
            Ok(instance) => instance,
            Err(error) => {
                eprintln!("bench: skipping {source}: {error}");
                continue;
            }
        };
        let mut group = criterion.benchmark_group(source);
        if let Some(baseline) = baselines.get(instance.family.name()) {
            bench_run(&mut group, "baseline", &instance, &settings(baseline.clone(), "sequential", 1));
        } else {
            eprintln!("bench: no baseline knobs for {} in scripts/sweeps/quick.toml", instance.family.name());
        }
        bench_run(&mut group, "defaults", &instance, &settings(KnobValues::new(), "sequential", 1));
        group.finish();
    }
}

fn enumeration(criterion: &mut Criterion) {
    let Some(instance) = ENUMERATION_WORKLOADS.iter().find_map(|source| load(source).ok()) else {
        eprintln!("bench: none of {ENUMERATION_WORKLOADS:?} loads; skipping sequential vs auto");
        return;
    };
    let threads = std::thread::available_parallelism().map_or(2, |count| count.get()).max(2);
    eprintln!("bench: enumeration/auto-all-cores runs {threads} threads on {}", instance.id);
    let mut group = criterion.benchmark_group("enumeration");
    bench_run(&mut group, "sequential", &instance, &settings(KnobValues::new(), "sequential", 1));
    bench_run(&mut group, "auto-all-cores", &instance, &settings(KnobValues::new(), "auto", threads));
    group.finish();
}

/// The cost of per-rule counting (issue 2 allows at most 3%): the 24/7 seed instance in its
/// defaults (the best configuration), sequential, with the counters compiled in
/// (`rule_counts: true`, a monomorphized search that counts) and compiled out.
fn rule_counting(criterion: &mut Criterion) {
    let instance = match load("247") {
        Ok(instance) => instance,
        Err(error) => {
            eprintln!("bench: skipping rule-counts: {error}");
            return;
        }
    };
    let mut group = criterion.benchmark_group("rule-counts-247");
    for (name, rule_counts) in [("counters-compiled-out", false), ("counters-compiled-in", true)] {
        let settings = RunSettings { rule_counts, ..settings(KnobValues::new(), "sequential", 1) };
        bench_run(&mut group, name, &instance, &settings);
    }
    group.finish();
}

/// Twenty Four Seven's branchings side by side, sequential: cell by cell
/// (`most-constrained`), `shape-first` and the default `adaptive` (per grid, one of the
/// two), on the seed and on the enumeration workload.
fn twenty_four_seven_branching(criterion: &mut Criterion) {
    for source in ["247", "instances/twenty_four_seven_enumeration.json"] {
        let instance = match load(source) {
            Ok(instance) => instance,
            Err(error) => {
                eprintln!("bench: skipping 24/7 branching on {source}: {error}");
                continue;
            }
        };
        let mut group = criterion.benchmark_group(format!("branching-{}", instance.id));
        for order in ["most-constrained", "shape-first", "adaptive"] {
            let knobs: KnobValues = [("order".to_string(), order.to_string())].into_iter().collect();
            bench_run(&mut group, order, &instance, &settings(knobs, "sequential", 1));
        }
        group.finish();
    }
}

criterion_group!(benches, seed_instances, enumeration, rule_counting, twenty_four_seven_branching);
criterion_main!(benches);
