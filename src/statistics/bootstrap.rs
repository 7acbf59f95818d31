//! Percentile bootstrap confidence intervals, seeded so that they are reproducible.
//!
//! Each group of samples is resampled with replacement on its own (the groups are
//! independent measurements, such as the sequential runs and the parallel runs of a
//! speedup), the statistic is computed on every resample, and the interval is the middle
//! `confidence` share of those values. The point estimate is the statistic on the samples
//! themselves.

use super::sample::{median, quantile_of_sorted};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// How intervals are computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapSettings {
    /// Share of the resampled statistics inside the interval (0.95: a 95% interval).
    pub confidence: f64,
    /// Resamples drawn.
    pub resamples: usize,
    /// Seed of the resampling generator.
    pub seed: u64,
}

impl Default for BootstrapSettings {
    /// 95% intervals from 2,000 resamples, as criterion's fast default; fixed seed.
    fn default() -> Self {
        BootstrapSettings { confidence: 0.95, resamples: 2_000, seed: 0x05ee_d0fb_0075 }
    }
}

/// A point estimate with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// The statistic of the samples themselves.
    pub estimate: f64,
    /// Upper bound.
    pub high: f64,
}

impl Interval {
    /// An interval of zero width (one sample, or a statistic that cannot vary).
    pub fn exact(value: f64) -> Interval {
        Interval { low: value, estimate: value, high: value }
    }

    /// Whether `value` lies inside the interval (bounds included).
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }

    /// Width over the estimate (0 for a zero estimate).
    pub fn relative_width(&self) -> f64 {
        if self.estimate == 0.0 {
            0.0
        } else {
            (self.high - self.low) / self.estimate.abs()
        }
    }

    /// The interval of `f` applied to the bounds, for a monotonic increasing `f`.
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Interval {
        Interval { low: f(self.low), estimate: f(self.estimate), high: f(self.high) }
    }
}

/// The bootstrap interval of `statistic` over independent `groups` of samples. A group
/// with fewer than two samples is not resampled; with every group that small the interval
/// has zero width.
pub fn bootstrap_interval(
    groups: &[&[f64]],
    statistic: impl Fn(&[&[f64]]) -> f64,
    settings: BootstrapSettings,
) -> Interval {
    bootstrap_intervals(groups, |views| vec![statistic(views)], settings)[0]
}

/// The bootstrap intervals of several statistics computed together from the same
/// resamples (the shares of one decomposition, say): `statistics` returns one value per
/// statistic, always as many. Cheaper than one [`bootstrap_interval`] per statistic when
/// they share their work, and the intervals come from the same resamples.
pub fn bootstrap_intervals(
    groups: &[&[f64]],
    statistics: impl Fn(&[&[f64]]) -> Vec<f64>,
    settings: BootstrapSettings,
) -> Vec<Interval> {
    let estimates = statistics(groups);
    if groups.iter().all(|group| group.len() < 2) || settings.resamples == 0 {
        return estimates.into_iter().map(Interval::exact).collect();
    }
    let mut generator = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut buffers: Vec<Vec<f64>> = groups.iter().map(|group| group.to_vec()).collect();
    let mut values: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.resamples); estimates.len()];
    for _ in 0..settings.resamples {
        for (buffer, group) in buffers.iter_mut().zip(groups) {
            if group.len() < 2 {
                continue;
            }
            for slot in buffer.iter_mut() {
                *slot = group[generator.gen_range(0..group.len())];
            }
        }
        let views: Vec<&[f64]> = buffers.iter().map(Vec::as_slice).collect();
        for (kept, value) in values.iter_mut().zip(statistics(&views)) {
            if value.is_finite() {
                kept.push(value);
            }
        }
    }
    let tail = (1.0 - settings.confidence.clamp(0.0, 1.0)) / 2.0;
    estimates
        .into_iter()
        .zip(values)
        .map(|(estimate, mut kept)| {
            if kept.is_empty() {
                return Interval::exact(estimate);
            }
            kept.sort_by(f64::total_cmp);
            Interval { low: quantile_of_sorted(&kept, tail), estimate, high: quantile_of_sorted(&kept, 1.0 - tail) }
        })
        .collect()
}

/// The median of `samples` with its bootstrap interval.
pub fn median_interval(samples: &[f64], settings: BootstrapSettings) -> Interval {
    bootstrap_interval(&[samples], |groups| median(groups[0]), settings)
}

/// `median(numerator) / median(denominator)` with its bootstrap interval, both samples
/// resampled independently (a speedup: sequential times over parallel times).
pub fn ratio_interval(numerator: &[f64], denominator: &[f64], settings: BootstrapSettings) -> Interval {
    bootstrap_interval(&[numerator, denominator], |groups| median(groups[0]) / median(groups[1]), settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_sample_gives_an_exact_interval() {
        let interval = median_interval(&[7.0], BootstrapSettings::default());
        assert_eq!(interval, Interval::exact(7.0));
    }

    #[test]
    fn the_median_interval_holds_the_median_and_stays_inside_the_sample() {
        let samples: Vec<f64> = (1..=31).map(f64::from).collect();
        let interval = median_interval(&samples, BootstrapSettings::default());
        assert_eq!(interval.estimate, 16.0);
        assert!(interval.low < 16.0 && interval.high > 16.0, "{interval:?}");
        assert!(interval.low >= 1.0 && interval.high <= 31.0);
    }

    #[test]
    fn the_same_seed_gives_the_same_interval() {
        let samples = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let settings = BootstrapSettings::default();
        assert_eq!(median_interval(&samples, settings), median_interval(&samples, settings));
    }

    #[test]
    fn more_samples_narrow_the_interval() {
        let noisy = |count: usize| -> Vec<f64> { (0..count).map(|index| 100.0 + (index * 37 % 11) as f64).collect() };
        let settings = BootstrapSettings::default();
        let few = median_interval(&noisy(5), settings).relative_width();
        let many = median_interval(&noisy(200), settings).relative_width();
        assert!(many < few, "{many} vs {few}");
    }

    #[test]
    fn statistics_bootstrapped_together_match_each_alone() {
        let samples = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let settings = BootstrapSettings::default();
        let together = bootstrap_intervals(&[&samples], |groups| vec![median(groups[0]), groups[0][0]], settings);
        assert_eq!(together[0], median_interval(&samples, settings));
        assert_eq!(together[1], bootstrap_interval(&[&samples], |groups| groups[0][0], settings));
    }

    #[test]
    fn a_ratio_of_constant_samples_is_exact() {
        let interval = ratio_interval(&[10.0, 10.0, 10.0], &[5.0, 5.0], BootstrapSettings::default());
        assert_eq!(interval, Interval::exact(2.0));
    }
}
