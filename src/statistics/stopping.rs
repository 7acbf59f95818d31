//! How many repeats are enough: the adaptive stopping rule of a sweep or an `explain`.
//!
//! Repeats go on until the median's confidence interval is narrow enough (relative width
//! at most the target) with at least the minimum count, or until the time budget or the
//! maximum count is spent, whichever comes first. hyperfine and criterion stop on time;
//! stopping on the interval's width as well means quiet, slow configurations stop early
//! and noisy ones get the runs they need.

use super::bootstrap::{median_interval, BootstrapSettings};
use std::time::Duration;

/// When to stop repeating one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StoppingRule {
    /// Never fewer measured runs than this.
    pub min_runs: u32,
    /// Never more measured runs than this.
    pub max_runs: u32,
    /// Stop once the median's interval is at most this wide, relative to the median
    /// (0.02: within about ±1%); 0 disables the test (run `max_runs` or to the budget).
    pub target_relative_width: f64,
    /// Stop once the measured runs took this long together (`None`: no budget).
    pub time_budget: Option<Duration>,
}

/// Why the rule said stop (or that it did not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoppingState {
    /// Keep going.
    Continue,
    /// The interval reached the target width.
    Precise,
    /// The maximum count was reached.
    MaxRuns,
    /// The time budget was spent (at least `min_runs` taken).
    Budget,
}

impl StoppingRule {
    /// A fixed count of runs (the old behaviour: no adaptivity).
    pub fn fixed(runs: u32) -> StoppingRule {
        StoppingRule { min_runs: runs, max_runs: runs, target_relative_width: 0.0, time_budget: None }
    }

    /// Whether to stop after `samples` (times of the measured runs) taking `spent` in all.
    pub fn state(&self, samples: &[f64], spent: Duration) -> StoppingState {
        let runs = samples.len() as u32;
        if runs >= self.max_runs.max(1) {
            return StoppingState::MaxRuns;
        }
        if runs < self.min_runs.max(1) {
            return StoppingState::Continue;
        }
        if self.time_budget.is_some_and(|budget| spent >= budget) {
            return StoppingState::Budget;
        }
        // Fewer resamples than a report's interval: the rule is asked after every run.
        let settings = BootstrapSettings { resamples: 500, ..BootstrapSettings::default() };
        if self.target_relative_width > 0.0
            && median_interval(samples, settings).relative_width() <= self.target_relative_width
        {
            return StoppingState::Precise;
        }
        StoppingState::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule() -> StoppingRule {
        StoppingRule {
            min_runs: 5,
            max_runs: 50,
            target_relative_width: 0.02,
            time_budget: Some(Duration::from_secs(10)),
        }
    }

    #[test]
    fn steady_runs_stop_at_the_minimum_count() {
        let samples = [100.0; 5];
        assert_eq!(rule().state(&samples[..4], Duration::ZERO), StoppingState::Continue);
        assert_eq!(rule().state(&samples, Duration::ZERO), StoppingState::Precise);
    }

    #[test]
    fn noisy_runs_continue_until_the_budget_or_the_maximum() {
        let noisy: Vec<f64> = (0..10).map(|index| if index % 2 == 0 { 100.0 } else { 150.0 }).collect();
        assert_eq!(rule().state(&noisy, Duration::from_secs(1)), StoppingState::Continue);
        assert_eq!(rule().state(&noisy, Duration::from_secs(11)), StoppingState::Budget);
        let many: Vec<f64> = (0..50).map(|index| 100.0 + f64::from(index % 2) * 50.0).collect();
        assert_eq!(rule().state(&many, Duration::ZERO), StoppingState::MaxRuns);
    }

    #[test]
    fn a_fixed_rule_runs_exactly_its_count() {
        let fixed = StoppingRule::fixed(3);
        assert_eq!(fixed.state(&[1.0, 1.0], Duration::ZERO), StoppingState::Continue);
        assert_eq!(fixed.state(&[1.0, 1.0, 1.0], Duration::ZERO), StoppingState::MaxRuns);
    }
}
