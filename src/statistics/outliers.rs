//! Tukey's fences: which samples lie far outside the middle half.
//!
//! With `q1`, `q3` the quartiles and `iqr = q3 - q1`, a sample beyond 1.5 x iqr from the
//! quartiles is a mild outlier, beyond 3 x iqr a severe one (criterion's classification).

use super::sample::quantile_of_sorted;
use serde::Serialize;

/// Outlier counts of one sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Outliers {
    /// Samples below `q1 - 1.5 iqr` or above `q3 + 1.5 iqr`, severe ones included.
    pub mild: usize,
    /// Samples below `q1 - 3 iqr` or above `q3 + 3 iqr`.
    pub severe: usize,
    /// Of the outliers, those on the high side (slow runs: usually interference).
    pub high: usize,
    /// Samples looked at.
    pub samples: usize,
}

/// Classifies `values` by Tukey's fences; fewer than four samples have no outliers.
pub fn tukey_fences(values: &[f64]) -> Outliers {
    let mut outliers = Outliers { samples: values.len(), ..Outliers::default() };
    if values.len() < 4 {
        return outliers;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let first_quartile = quantile_of_sorted(&sorted, 0.25);
    let third_quartile = quantile_of_sorted(&sorted, 0.75);
    let spread = third_quartile - first_quartile;
    for &value in values {
        let low_distance = first_quartile - value;
        let high_distance = value - third_quartile;
        let distance = low_distance.max(high_distance);
        if distance > 1.5 * spread {
            outliers.mild += 1;
            outliers.high += usize::from(high_distance > low_distance);
            if distance > 3.0 * spread {
                outliers.severe += 1;
            }
        }
    }
    outliers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_slow_run_among_steady_ones_is_a_severe_high_outlier() {
        let outliers = tukey_fences(&[10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 25.0]);
        assert_eq!((outliers.mild, outliers.severe, outliers.high), (1, 1, 1));
    }

    #[test]
    fn an_evenly_spread_sample_has_none() {
        let values: Vec<f64> = (0..20).map(f64::from).collect();
        assert_eq!(tukey_fences(&values).mild, 0);
    }

    #[test]
    fn a_mild_outlier_is_not_severe() {
        // q1 = 2, q3 = 4 (iqr 2): 8 is 4 past q3 (mild, not past 6).
        let outliers = tukey_fences(&[1.0, 2.0, 3.0, 4.0, 5.0, 2.0, 3.0, 4.0, 8.0]);
        assert_eq!((outliers.mild, outliers.severe), (1, 0));
    }
}
