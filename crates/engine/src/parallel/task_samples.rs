//! Task durations and sizes as recorded by a worker: exact values while they are few, an
//! HDR histogram once they are many.
//!
//! A sequential run, or a grid of a few tasks, records one value per task: an
//! `hdrhistogram` for those costs more than the rest of the bookkeeping together (its
//! first value of a million nanoseconds allocates and clears tens of kilobytes, twice per
//! worker and again when the run merges them; about 2 M instructions of a 17 M instruction
//! `solve 247 --all`). So the first `EXACT_CAPACITY` values are kept as they are, and only
//! a worker that runs more tasks than that moves them into a histogram.

use hdrhistogram::Histogram;

/// Values kept exactly before the samples move into a histogram.
pub const EXACT_CAPACITY: usize = 256;

/// Significant figures kept by the histogram (values within 0.1%).
const HISTOGRAM_PRECISION: u8 = 3;

/// Recorded values: exact while few, a histogram once many.
#[derive(Debug, Clone)]
pub enum TaskSamples {
    /// Up to `EXACT_CAPACITY` values, in the order recorded.
    Exact(Vec<u64>),
    /// More values than that, with three significant figures.
    Histogram(Box<Histogram<u64>>),
}

impl Default for TaskSamples {
    fn default() -> Self {
        TaskSamples::Exact(Vec::new())
    }
}

impl TaskSamples {
    /// No values.
    pub fn new() -> TaskSamples {
        TaskSamples::default()
    }

    /// How many values were recorded.
    pub fn len(&self) -> u64 {
        match self {
            TaskSamples::Exact(values) => values.len() as u64,
            TaskSamples::Histogram(histogram) => histogram.len(),
        }
    }

    /// Whether no value was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records `value`.
    pub fn record(&mut self, value: u64) {
        match self {
            TaskSamples::Exact(values) if values.len() < EXACT_CAPACITY => values.push(value),
            TaskSamples::Exact(values) => {
                let mut histogram = histogram_of(values);
                record_growing(&mut histogram, value);
                *self = TaskSamples::Histogram(Box::new(histogram));
            }
            TaskSamples::Histogram(histogram) => record_growing(histogram, value),
        }
    }

    /// Adds every value of `other`.
    pub fn add(&mut self, other: &TaskSamples) {
        match other {
            TaskSamples::Exact(values) => values.iter().for_each(|&value| self.record(value)),
            TaskSamples::Histogram(theirs) => {
                let mut ours = match self {
                    TaskSamples::Exact(values) => histogram_of(values),
                    TaskSamples::Histogram(histogram) => std::mem::replace(histogram.as_mut(), empty_histogram()),
                };
                // Same precision on both sides and a histogram that grows, so adding cannot
                // fail; if it ever did, the other's values are left out rather than panic.
                let _ = ours.add(theirs.as_ref());
                *self = TaskSamples::Histogram(Box::new(ours));
            }
        }
    }

    /// The value at quantile `quantile` (0 to 1): the smallest recorded value with at least
    /// that share of the values at or below it, as `hdrhistogram` defines it (exact for
    /// exact samples, within 0.1% for a histogram); 0 when nothing was recorded.
    pub fn value_at_quantile(&self, quantile: f64) -> u64 {
        match self {
            TaskSamples::Exact(values) if values.is_empty() => 0,
            TaskSamples::Exact(values) => {
                let mut sorted = values.clone();
                sorted.sort_unstable();
                let rank = (quantile.clamp(0.0, 1.0) * sorted.len() as f64).ceil() as usize;
                sorted[rank.clamp(1, sorted.len()) - 1]
            }
            TaskSamples::Histogram(histogram) => histogram.value_at_quantile(quantile),
        }
    }
}

/// The sum of `samples` (empty when there is none).
pub fn merged<'a>(samples: impl IntoIterator<Item = &'a TaskSamples>) -> TaskSamples {
    let mut sum = TaskSamples::new();
    for one in samples {
        sum.add(one);
    }
    sum
}

/// An empty histogram that grows to fit any value.
fn empty_histogram() -> Histogram<u64> {
    Histogram::new(HISTOGRAM_PRECISION).expect("three significant figures are within the accepted 0..=5")
}

/// A histogram of `values`.
fn histogram_of(values: &[u64]) -> Histogram<u64> {
    let mut histogram = empty_histogram();
    for &value in values {
        record_growing(&mut histogram, value);
    }
    histogram
}

/// Records `value`, growing the histogram to fit it. (`saturating_record` clamps to the
/// current highest trackable value instead of growing, which on a fresh histogram is 2.)
fn record_growing(histogram: &mut Histogram<u64>, value: u64) {
    if histogram.record(value).is_err() {
        histogram.saturating_record(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(values: impl IntoIterator<Item = u64>) -> TaskSamples {
        let mut samples = TaskSamples::new();
        values.into_iter().for_each(|value| samples.record(value));
        samples
    }

    #[test]
    fn few_values_give_the_histograms_quantiles_exactly() {
        let values = [5_000_000, 7, 1_234_567, 42, 42];
        let exact = samples(values);
        let histogram = histogram_of(&values);
        assert!(matches!(exact, TaskSamples::Exact(_)));
        for quantile in [0.0, 0.25, 0.5, 0.9, 1.0] {
            let from_histogram = histogram.value_at_quantile(quantile);
            let exact_value = exact.value_at_quantile(quantile);
            // The histogram reports the highest value equivalent to the exact one (0.1%).
            assert_eq!(histogram.highest_equivalent(exact_value), from_histogram, "quantile {quantile}");
        }
        assert_eq!(exact.value_at_quantile(0.5), 42);
        assert_eq!(exact.len(), 5);
    }

    #[test]
    fn many_values_move_into_a_histogram_and_keep_their_count() {
        let many = samples(1..=(EXACT_CAPACITY as u64 + 10));
        assert!(matches!(many, TaskSamples::Histogram(_)));
        assert_eq!(many.len(), EXACT_CAPACITY as u64 + 10);
        assert_eq!(many.value_at_quantile(1.0), EXACT_CAPACITY as u64 + 10);
    }

    #[test]
    fn merging_exact_and_histogram_samples_counts_every_value() {
        let few = samples([1, 2, 3]);
        let many = samples(100..(100 + EXACT_CAPACITY as u64 * 2));
        let sum = merged([&few, &many, &few]);
        assert_eq!(sum.len(), 6 + EXACT_CAPACITY as u64 * 2);
        assert_eq!(sum.value_at_quantile(0.0), 1);
        assert!(merged([]).is_empty());
        assert_eq!(merged([&few, &few]).value_at_quantile(1.0), 3);
    }
}
