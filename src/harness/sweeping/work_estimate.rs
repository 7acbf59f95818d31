//! How much work a sweep has left, in expected nanoseconds, for the progress bar's ETA.
//!
//! Runs range from microseconds to seconds, so counting runs says little. Before the sweep,
//! each configuration's run is predicted from Knuth's tree-size estimate of its (instance,
//! knobs) times the cost of a node measured on a short search ([`crate::search::estimate_tree_size`]), capped by
//! the node limit and divided among the threads. As runs finish, a configuration's own
//! measured run time replaces its prediction, and the ratio of measured to predicted time of
//! the configurations seen so far corrects the predictions of those not yet run.

use super::plan::{Configuration, SweepPlan};
use crate::harness::storing::record::BATCH_TARGET_NS;
use crate::run::EstimateRequest;
use crate::search::EstimateMethod;
use std::collections::HashMap;

/// Random probes per (instance, knobs): cheap next to the timing search `probe` runs, and
/// the estimator is heavy-tailed, so more probes pay.
const PROBES: usize = 1000;

/// The probes' random seed (fixed, so that the same sweep gets the same prediction).
const PROBE_SEED: u64 = 1;

/// The prediction of a run that cannot be estimated (its instance or knobs fail).
const FALLBACK_RUN_NS: f64 = BATCH_TARGET_NS as f64;

/// Work left over a sweep's pending configurations, indexed by their position.
#[derive(Debug, Clone)]
pub struct WorkEstimate {
    configurations: Vec<Expected>,
    done_ns: f64,
    /// Measured and predicted time of the first runs seen, for the correction factor.
    measured_sum: f64,
    predicted_sum: f64,
}

#[derive(Debug, Clone)]
struct Expected {
    predicted_ns: f64,
    measured_ns: Option<f64>,
    runs_left: u64,
    /// Whether its measured time says something about the estimates of the others: not for
    /// first-solution searches (they stop early) nor for runs predicted at the batch length
    /// (their time is the batch's, not the estimate's).
    corrects_others: bool,
}

impl WorkEstimate {
    /// Every run counted as the same work (no estimate taken): `runs[i]` runs of
    /// configuration `i`.
    pub fn uniform(runs: &[u64]) -> WorkEstimate {
        WorkEstimate::from_predictions(runs.iter().map(|&runs| (FALLBACK_RUN_NS, runs, false)).collect())
    }

    /// Predicts each pending configuration (`(configuration, runs to do)`) from the tree-size
    /// estimate of its instance and knobs, on a machine with `cores` threads.
    pub fn from_tree_sizes(plan: &SweepPlan, pending: &[(&Configuration, u64)], cores: usize) -> WorkEstimate {
        let mut sequential_ns: HashMap<(String, String), f64> = HashMap::new();
        let predictions = pending
            .iter()
            .map(|&(config, runs)| {
                let key = (config.source.clone(), config.knob_text());
                let sequential = *sequential_ns
                    .entry(key)
                    .or_insert_with(|| predict_sequential_ns(plan, config).unwrap_or(FALLBACK_RUN_NS));
                let parallel_share = config.run.threads.clamp(1, cores.max(1)) as f64;
                let per_run = sequential / parallel_share;
                let batched = per_run < BATCH_TARGET_NS as f64;
                (per_run.max(BATCH_TARGET_NS as f64), runs, config.run.mode == crate::run::SearchMode::All && !batched)
            })
            .collect();
        WorkEstimate::from_predictions(predictions)
    }

    fn from_predictions(predictions: Vec<(f64, u64, bool)>) -> WorkEstimate {
        let configurations = predictions
            .into_iter()
            .map(|(predicted_ns, runs_left, corrects_others)| Expected {
                predicted_ns,
                measured_ns: None,
                runs_left,
                corrects_others,
            })
            .collect();
        WorkEstimate { configurations, done_ns: 0.0, measured_sum: 0.0, predicted_sum: 0.0 }
    }

    /// The expected time of the next run of configuration `index`.
    pub fn next_run_ns(&self, index: usize) -> u64 {
        self.expected_run_ns(&self.configurations[index]) as u64
    }

    /// Records a run of configuration `index` that took `elapsed_ns`.
    pub fn run_finished(&mut self, index: usize, elapsed_ns: u64) {
        let elapsed = elapsed_ns as f64;
        self.done_ns += elapsed;
        let expected = &mut self.configurations[index];
        expected.runs_left = expected.runs_left.saturating_sub(1);
        if expected.measured_ns.is_none() && expected.corrects_others {
            self.measured_sum += elapsed;
            self.predicted_sum += expected.predicted_ns;
        }
        // The latest run is the best guess for the next (warm-ups come first and are slower).
        expected.measured_ns = Some(elapsed);
    }

    /// Drops the runs of configuration `index` that will not happen (a failure, the node
    /// limit, the time budget, a warm-up made pointless).
    pub fn skip_rest(&mut self, index: usize) {
        self.configurations[index].runs_left = 0;
    }

    /// Drops `runs` runs of configuration `index`.
    pub fn skip(&mut self, index: usize, runs: u64) {
        let expected = &mut self.configurations[index];
        expected.runs_left = expected.runs_left.saturating_sub(runs);
    }

    /// Time spent on finished runs.
    pub fn done_ns(&self) -> u64 {
        self.done_ns as u64
    }

    /// Expected time of the runs left.
    pub fn remaining_ns(&self) -> u64 {
        self.configurations
            .iter()
            .map(|expected| expected.runs_left as f64 * self.expected_run_ns(expected))
            .sum::<f64>() as u64
    }

    fn expected_run_ns(&self, expected: &Expected) -> f64 {
        match expected.measured_ns {
            Some(measured) => measured,
            None => expected.predicted_ns * self.correction(),
        }
    }

    /// Measured over predicted time of the configurations run so far (1 before any).
    fn correction(&self) -> f64 {
        if self.predicted_sum > 0.0 && self.measured_sum > 0.0 {
            self.measured_sum / self.predicted_sum
        } else {
            1.0
        }
    }
}

/// Knuth's estimate of the tree of each component, capped by the node limit, times the
/// measured cost of a node there.
fn predict_sequential_ns(plan: &SweepPlan, config: &Configuration) -> Option<f64> {
    let instance = plan.instances.get(&config.source)?.as_ref().ok()?;
    let request = EstimateRequest {
        probes: PROBES,
        seed: PROBE_SEED,
        compare: false,
        method: EstimateMethod::default(),
        time_limit: None,
    };
    let components = crate::run::estimate(instance, &config.run.knobs, &request).ok()?;
    let total = components
        .iter()
        .map(|component| {
            let nodes = component.estimated_nodes.min(config.run.node_limit as f64).max(1.0);
            nodes * component.ns_per_node
        })
        .sum::<f64>();
    total.is_finite().then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_runs_replace_predictions_and_correct_the_others() {
        // Two configurations predicted at 1 ms and 4 ms a run, two runs each.
        let mut work = WorkEstimate::from_predictions(vec![(1e6, 2, true), (4e6, 2, true)]);
        assert_eq!(work.remaining_ns(), 10_000_000);
        // The first ran twice as slow as predicted: its next run is expected at 2 ms, and
        // the second configuration's runs at 8 ms.
        work.run_finished(0, 2_000_000);
        assert_eq!((work.done_ns(), work.next_run_ns(0), work.next_run_ns(1)), (2_000_000, 2_000_000, 8_000_000));
        assert_eq!(work.remaining_ns(), 18_000_000);
        work.skip_rest(0);
        work.skip(1, 1);
        assert_eq!(work.remaining_ns(), 8_000_000);
    }

    #[test]
    fn first_solution_runs_do_not_correct_the_others() {
        let mut work = WorkEstimate::from_predictions(vec![(1e9, 1, false), (1e6, 1, true)]);
        work.run_finished(0, 1_000);
        assert_eq!(work.remaining_ns(), 1_000_000);
    }
}
