//! Order statistics and moments of one sample.

/// The median: the middle value, or the mean of the two middle values of an even count
/// (NaN for an empty sample).
pub fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

/// The `q`-quantile (0..=1) by linear interpolation between order statistics (the
/// "type 7" definition of R and numpy's default); NaN for an empty sample.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    quantile_of_sorted(&sorted, q)
}

/// [`quantile`] of an already sorted sample.
pub(crate) fn quantile_of_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let position = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let weight = position - below as f64;
    sorted[below] + (sorted[above] - sorted[below]) * weight
}

/// The arithmetic mean (NaN for an empty sample).
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// Sample standard deviation over the mean; 0 for fewer than two values or a zero mean.
pub fn relative_standard_deviation(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let average = mean(values);
    if average == 0.0 {
        return 0.0;
    }
    let variance = values.iter().map(|value| (value - average).powi(2)).sum::<f64>() / (values.len() - 1) as f64;
    variance.sqrt() / average
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let values = [10.0, 20.0, 30.0, 40.0, 50.0];
        assert_eq!(quantile(&values, 0.0), 10.0);
        assert_eq!(quantile(&values, 0.25), 20.0);
        assert_eq!(quantile(&values, 0.9), 46.0);
        assert_eq!(quantile(&values, 1.0), 50.0);
    }

    #[test]
    fn relative_standard_deviation_uses_the_sample_variance() {
        // mean 5, sample variance 32/7 over 8 values.
        let values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let expected = (32.0f64 / 7.0).sqrt() / 5.0;
        assert!((relative_standard_deviation(&values) - expected).abs() < 1e-12);
        assert_eq!(relative_standard_deviation(&[3.0]), 0.0);
    }
}
