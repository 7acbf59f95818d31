//! The run dimensions of a sweep block: the plan's cross product of the run knobs a block
//! lists values for (`modes`, `strategies`, `affinities`, ...). The knobs themselves, their
//! spec keys and parsers, are the run settings' table `RUN_DIMENSIONS`; thread counts are
//! not in it: they are expressions of the core count, overridable by `--threads`, and
//! depend on the strategy.

use crate::parallel::Strategy;
pub(crate) use crate::run::settings::{RunDimension, Scope, RUN_DIMENSIONS};
use crate::run::RunSettings;

/// The run descriptions of one block from `base` (knobs, node limit and the like already
/// set): its `EveryRun` dimensions crossed in table order, then per strategy its thread
/// counts (`sequential`: one thread), then its `PoolThreads` dimensions (`sequential`: the
/// first value only). `values` holds each dimension's listed values, parallel to
/// `RUN_DIMENSIONS` (empty: the default); `thread_counts` the block's resolved counts.
pub fn cross_runs(base: RunSettings, values: &[Vec<String>], thread_counts: &[usize]) -> Vec<RunSettings> {
    let dimensions = || RUN_DIMENSIONS.iter().zip(values);
    let mut runs = vec![base];
    for (dimension, values) in dimensions().filter(|(dimension, _)| dimension.scope == Scope::EveryRun) {
        runs = runs.iter().flat_map(|run| with_each(run, dimension, values)).collect();
    }
    runs = runs
        .into_iter()
        .flat_map(|run| {
            let counts = if run.strategy == Strategy::Sequential { &[1][..] } else { thread_counts };
            counts.iter().map(move |&threads| RunSettings { threads, ..run.clone() })
        })
        .collect();
    for (dimension, values) in dimensions().filter(|(dimension, _)| dimension.scope == Scope::PoolThreads) {
        runs = runs
            .iter()
            .flat_map(|run| {
                let values = if run.strategy == Strategy::Sequential { &values[..values.len().min(1)] } else { values };
                with_each(run, dimension, values)
            })
            .collect();
    }
    runs
}

/// `run` once per value of `dimension` (unchanged when there are none).
fn with_each(run: &RunSettings, dimension: &RunDimension, values: &[String]) -> Vec<RunSettings> {
    if values.is_empty() {
        return vec![run.clone()];
    }
    values
        .iter()
        .map(|text| {
            let mut run = run.clone();
            (dimension.set)(&mut run, text).expect("run dimension values are checked when the spec is parsed");
            run
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::{CounterLayout, ThreadAffinity};

    #[test]
    fn every_run_dimensions_come_before_pool_ones() {
        let first_pool = RUN_DIMENSIONS.iter().position(|dimension| dimension.scope == Scope::PoolThreads);
        let last_every = RUN_DIMENSIONS.iter().rposition(|dimension| dimension.scope == Scope::EveryRun);
        assert!(last_every < first_pool);
    }

    #[test]
    fn sequential_runs_once_with_the_first_pool_values() {
        let listed = |list: &[&str]| list.iter().map(|text| text.to_string()).collect::<Vec<_>>();
        let lists: Vec<Vec<String>> = RUN_DIMENSIONS
            .iter()
            .map(|dimension| match dimension.key {
                "strategies" => listed(&["sequential", "auto"]),
                "counters" => listed(&["shared", "padded"]),
                "affinities" => listed(&["free", "pinned"]),
                _ => Vec::new(),
            })
            .collect();
        let runs = cross_runs(RunSettings::default(), &lists, &[2, 4]);
        let shapes: Vec<(Strategy, usize, CounterLayout, ThreadAffinity)> =
            runs.iter().map(|run| (run.strategy, run.threads, run.counters, run.affinity)).collect();
        assert_eq!(shapes.len(), 1 + 2 * 2 * 2);
        assert_eq!(shapes[0], (Strategy::Sequential, 1, CounterLayout::Shared, ThreadAffinity::Free));
        assert_eq!(shapes[1].1, 2);
        assert_eq!(shapes[8].1, 4);
        assert_eq!((shapes[8].2, shapes[8].3), (CounterLayout::Padded, ThreadAffinity::Pinned));
    }
}
