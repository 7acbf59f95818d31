//! How fast each CPU the runs use is, next to the one the costs were measured on: time
//! factors from per-CPU timings of the same search, what each virtual worker gets when the
//! pool pins its threads or the operating system places them, and the side-by-side slowdown
//! with the CPUs' own differences taken out. Pure arithmetic over times: the timings are
//! made by the caller (`scaling-check --per-cpu`, which pins a thread to each CPU in turn).

use super::costs::Slowdown;
use serde::{Deserialize, Serialize};

/// Where the predicted runs' worker threads run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Worker i on the i-th CPU (round robin past the last), as the pool pins them by default.
    Pinned,
    /// Placed and moved by the operating system.
    Moved,
}

/// The time factor of each CPU, in the order the pool pins workers to them: how much longer
/// the same search took there than on the first (the CPU the node cost is measured on, so
/// its factor is exactly 1.0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuFactors {
    /// The CPUs' numbers as the operating system names them.
    pub cpus: Vec<usize>,
    /// Each one's median time over the first one's.
    pub factors: Vec<f64>,
}

impl CpuFactors {
    /// The factors of `cpus` from each one's timings of the same search (nanoseconds, any
    /// number per CPU; the median is used); `None` when a CPU has no timing or the first
    /// CPU's median is zero.
    pub fn from_times(cpus: &[usize], times_ns: &[Vec<u64>]) -> Option<CpuFactors> {
        let medians: Option<Vec<u64>> = times_ns.iter().map(|times| lower_median(times)).collect();
        let medians = medians.filter(|medians| medians.len() == cpus.len())?;
        let first = *medians.first().filter(|&&first| first > 0)? as f64;
        Some(CpuFactors { cpus: cpus.to_vec(), factors: medians.iter().map(|&median| median as f64 / first).collect() })
    }

    /// What each virtual CPU runs at, for [`super::predict::predict_on`]: pinned, CPU c at
    /// its own factor. Moved by the operating system, every worker at the harmonic mean of
    /// the factors: the scheduler does not see that a CPU is slow (on a virtual machine the
    /// host takes the time), so over a run a moved thread spends about equal *time* on each
    /// CPU, and the work done in that time is the mean of the speeds (1 / factor). A thread
    /// that stays on one CPU for a whole short run is not modelled.
    pub fn for_workers(&self, placement: Placement) -> Vec<f64> {
        match placement {
            Placement::Pinned => self.factors.clone(),
            Placement::Moved => vec![self.harmonic_mean(); self.factors.len()],
        }
    }

    /// `len / sum(1 / factor)`.
    pub fn harmonic_mean(&self) -> f64 {
        let speeds: f64 = self.factors.iter().map(|factor| 1.0 / factor).sum();
        if speeds > 0.0 {
            self.factors.len() as f64 / speeds
        } else {
            1.0
        }
    }

    /// The side-by-side slowdown without the CPUs' own differences. The calibration times
    /// `copies` searches at once on the first `copies` CPUs and divides their median by the
    /// time alone on the first CPU, so its factor holds both the contention and the median
    /// CPU's own factor; the replay applies each CPU's factor itself, so that part is divided
    /// out (by the same lower median the calibration takes) rather than counted twice.
    pub fn contention_only(&self, slowdown: Slowdown) -> Slowdown {
        if slowdown.copies <= 1 {
            return slowdown;
        }
        Slowdown { factor: slowdown.factor / self.median_of_first(slowdown.copies), ..slowdown }
    }

    /// The lower median of the first `copies` CPUs' factors (1.0 for none).
    pub fn median_of_first(&self, copies: usize) -> f64 {
        let mut factors = self.factors[..copies.min(self.factors.len())].to_vec();
        factors.sort_unstable_by(f64::total_cmp);
        factors.get(factors.len().saturating_sub(1) / 2).copied().unwrap_or(1.0)
    }
}

/// The lower median, as the calibration takes it (`None` for no values).
fn lower_median(values: &[u64]) -> Option<u64> {
    let mut values = values.to_vec();
    values.sort_unstable();
    values.get(values.len().checked_sub(1)? / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_are_medians_over_the_first_cpus_median() {
        let factors = CpuFactors::from_times(&[0, 3, 5], &[vec![100, 90, 300], vec![150, 140, 160], vec![200]])
            .expect("every CPU timed");
        assert_eq!(factors.factors, [1.0, 1.5, 2.0]);
        assert_eq!(factors.cpus, [0, 3, 5]);
        assert_eq!(CpuFactors::from_times(&[0, 1], &[vec![100], vec![]]), None);
        assert_eq!(CpuFactors::from_times(&[0, 1], &[vec![0], vec![5]]), None);
    }

    #[test]
    fn moved_threads_run_at_the_mean_speed() {
        let factors = CpuFactors { cpus: vec![0, 1], factors: vec![1.0, 3.0] };
        // Speeds 1 and 1/3: mean 2/3, so each moved worker takes 1.5 times as long.
        assert_eq!(factors.for_workers(Placement::Moved), [1.5, 1.5]);
        assert_eq!(factors.for_workers(Placement::Pinned), [1.0, 3.0]);
    }

    #[test]
    fn the_slowdown_loses_the_median_cpus_own_factor() {
        let factors = CpuFactors { cpus: vec![0, 1, 2, 3], factors: vec![1.0, 1.6, 1.2, 1.9] };
        let measured = Slowdown { copies: 4, factor: 1.44 };
        // Sorted 1.0, 1.2, 1.6, 1.9: the lower median of four is 1.2.
        let contention = factors.contention_only(measured);
        assert_eq!(contention.copies, 4);
        assert!((contention.factor - 1.2).abs() < 1e-12, "{contention:?}");
        assert_eq!(factors.contention_only(Slowdown::NONE), Slowdown::NONE);
    }
}
