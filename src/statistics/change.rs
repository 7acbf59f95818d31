//! Did a configuration get slower or faster between two sets of runs?
//!
//! The ratio of medians (candidate over baseline) gets a bootstrap interval from both
//! samples resampled independently. A change is flagged only when the interval excludes
//! "no change" (1) and the estimate moved by more than the threshold: the first guards
//! against noise, the second against differences too small to matter.

use super::bootstrap::{ratio_interval, BootstrapSettings, Interval};
use serde::Serialize;

/// What happened between the two sets of runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeVerdict {
    /// Faster: the interval lies below 1 and the estimate below `1 - threshold`.
    Faster,
    /// Slower: the interval lies above 1 and the estimate above `1 + threshold`.
    Slower,
    /// No change that passes both tests.
    NoChange,
}

/// The comparison of one configuration's runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SampleChange {
    /// Candidate median time over baseline median time, with its interval.
    pub ratio: Interval,
    /// The smallest relative change that counts.
    pub threshold: f64,
    /// The verdict.
    pub verdict: ChangeVerdict,
}

/// Compares `candidate` times with `baseline` times.
pub fn compare_samples(
    baseline: &[f64],
    candidate: &[f64],
    threshold: f64,
    settings: BootstrapSettings,
) -> SampleChange {
    let ratio = ratio_interval(candidate, baseline, settings);
    let verdict = if ratio.low > 1.0 && ratio.estimate > 1.0 + threshold {
        ChangeVerdict::Slower
    } else if ratio.high < 1.0 && ratio.estimate < 1.0 - threshold {
        ChangeVerdict::Faster
    } else {
        ChangeVerdict::NoChange
    };
    SampleChange { ratio, threshold, verdict }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jittered(center: f64, count: usize) -> Vec<f64> {
        (0..count).map(|index| center * (1.0 + ((index * 7919) % 13) as f64 / 13.0 * 0.04 - 0.02)).collect()
    }

    #[test]
    fn a_twenty_percent_slowdown_is_flagged() {
        let change = compare_samples(&jittered(100.0, 15), &jittered(120.0, 15), 0.05, BootstrapSettings::default());
        assert_eq!(change.verdict, ChangeVerdict::Slower);
        assert!(change.ratio.contains(1.2), "{:?}", change.ratio);
    }

    #[test]
    fn the_same_distribution_is_no_change() {
        let runs = jittered(100.0, 15);
        let mut rerun = runs.clone();
        rerun.reverse();
        let change = compare_samples(&runs, &rerun, 0.05, BootstrapSettings::default());
        assert_eq!(change.verdict, ChangeVerdict::NoChange);
    }

    #[test]
    fn a_clear_but_tiny_change_stays_below_the_threshold() {
        let change = compare_samples(&[100.0; 10], &[101.0; 10], 0.05, BootstrapSettings::default());
        assert_eq!(change.ratio.low, change.ratio.high);
        assert_eq!(change.verdict, ChangeVerdict::NoChange);
    }

    #[test]
    fn a_faster_candidate_is_faster() {
        let change = compare_samples(&jittered(100.0, 10), &jittered(70.0, 10), 0.05, BootstrapSettings::default());
        assert_eq!(change.verdict, ChangeVerdict::Faster);
    }
}
