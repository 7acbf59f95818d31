//! The verdict of `explain`: the decomposition of the medians, a bootstrap interval on
//! every share (each configuration's runs resampled on their own, the decomposition
//! recomputed), ranks given only where intervals separate, the times and speedup with
//! their intervals, the advice, and beside `naive` the good strategy's figure.

use super::advice::{advice, Advice};
use super::decompose::{decompose, Cause, Decomposition, Gain, Measurements, Outcome};
use super::measure::{all_runs, measurements, ConfigRuns, ExplainPlan, Role};
use crate::statistics::{bootstrap_intervals, median_interval, ratio_interval, BootstrapSettings, Interval};
use serde::Serialize;

/// A cause with its interval and rank.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedCause {
    /// The cause (shares of the medians).
    #[serde(flatten)]
    pub cause: Cause,
    /// The share's bootstrap interval.
    pub share_interval: Interval,
    /// Its rank; `None` for `unexplained` and for causes with nothing lost.
    pub rank: Option<Rank>,
}

/// A rank that may be shared: `best..=worst`, a tie when they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rank {
    /// The best rank the intervals allow.
    pub best: usize,
    /// The worst rank the intervals allow.
    pub worst: usize,
}

impl Rank {
    /// Whether the intervals leave the order with other causes open.
    pub fn tied(&self) -> bool {
        self.best != self.worst
    }

    /// `2`, or `1-2 (tied)`.
    pub fn text(&self) -> String {
        if self.tied() {
            format!("{}-{} (tied)", self.best, self.worst)
        } else {
            self.best.to_string()
        }
    }
}

/// Another strategy's figure at the same threads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Alternative {
    /// The strategy (`auto`).
    pub strategy: String,
    /// Its median wall time with interval.
    pub wall_ns: Interval,
    /// Its speedup over the sequential run with interval.
    pub speedup: Interval,
}

/// Everything `explain` concluded.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// The explained strategy.
    pub strategy: String,
    /// Its threads.
    pub threads: usize,
    /// How the run compares with the ideal.
    pub outcome: Outcome,
    /// Median wall time of the explained run.
    pub parallel_ns: Interval,
    /// Median wall time of the sequential run.
    pub sequential_ns: Interval,
    /// Speedup (ratio of the medians).
    pub speedup: Interval,
    /// Ideal time `T1 / N` (of the medians).
    pub ideal_ns: f64,
    /// Lost time, net of the gains (of the medians).
    pub lost_ns: f64,
    /// Lost time before the gains: what the causes sum to.
    pub gross_ns: f64,
    /// The factor the causes were scaled by (1 unless the parts over-explained the loss).
    pub scale: f64,
    /// The causes, largest first, `unexplained` last; shares >= 0 summing to 1.
    pub causes: Vec<RankedCause>,
    /// What made the run faster, listed apart.
    pub gains: Vec<Gain>,
    /// Problems found in the measurements themselves.
    pub bugs: Vec<String>,
    /// What to do (empty when the run was close to the ideal).
    pub advice: Vec<Advice>,
    /// The good strategy's figure, beside `naive`.
    pub alternative: Option<Alternative>,
    /// Runs per configuration.
    pub runs: usize,
    /// Why the repeats stopped.
    pub stopped: String,
    /// The medians the decomposition used.
    pub measurements: Measurements,
}

impl Verdict {
    /// The largest cause, and whether the intervals tie it with another.
    pub fn top_cause(&self) -> Option<&RankedCause> {
        self.causes.first().filter(|cause| cause.rank.is_some())
    }

    /// The causes that share rank 1 (one when the top cause's interval separates).
    pub fn leading_causes(&self) -> Vec<&RankedCause> {
        self.causes.iter().filter(|cause| cause.rank.is_some_and(|rank| rank.best == 1)).collect()
    }
}

/// Resamples drawn for the shares' intervals (each recomputes the decomposition).
const RESAMPLES: usize = 1_000;

/// The verdict on the runs of `configs`.
pub fn verdict(plan: &ExplainPlan, configs: &[ConfigRuns], stopped: String) -> Verdict {
    let runs = all_runs(configs);
    let groups: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
    let point_measurements = measurements(plan, configs, &groups);
    let point = decompose(&point_measurements);
    let settings = BootstrapSettings { resamples: RESAMPLES, ..BootstrapSettings::default() };
    let names: Vec<&'static str> = point.causes.iter().map(|cause| cause.name).collect();
    let intervals = bootstrap_intervals(
        &groups,
        |resample| {
            let shares = decompose(&measurements(plan, configs, resample));
            names.iter().map(|name| shares.share_of(name)).collect()
        },
        settings,
    );
    let ranks = ranks(&point.causes, &intervals);
    let walls = |role: Role| configs.iter().find(|config| config.role == role).map(ConfigRuns::walls);
    let sequential = walls(Role::Sequential).unwrap_or_default();
    let parallel = walls(Role::Explained).unwrap_or_default();
    let alternative = configs.iter().find(|config| config.role == Role::Alternative).map(|config| {
        let times = config.walls();
        Alternative {
            strategy: config.settings.strategy.to_string(),
            wall_ns: median_interval(&times, settings),
            speedup: ratio_interval(&sequential, &times, settings),
        }
    });
    let advice = advice(&point, &point_measurements, plan.run.affinity.name());
    let Decomposition { ideal_ns, lost_ns, gross_ns, scale, outcome, causes, gains, bugs, .. } = point;
    Verdict {
        strategy: plan.run.strategy.to_string(),
        threads: plan.run.threads,
        outcome,
        parallel_ns: median_interval(&parallel, settings),
        sequential_ns: median_interval(&sequential, settings),
        speedup: ratio_interval(&sequential, &parallel, settings),
        ideal_ns,
        lost_ns,
        gross_ns,
        scale,
        causes: causes
            .into_iter()
            .zip(intervals)
            .zip(ranks)
            .map(|((cause, share_interval), rank)| RankedCause { cause, share_interval, rank })
            .collect(),
        gains,
        bugs,
        advice,
        alternative,
        runs: configs[0].reports.len(),
        stopped,
        measurements: point_measurements,
    }
}

/// The ranks the intervals allow: a cause ranks below every cause whose interval lies
/// wholly above its own, and ties with those whose intervals overlap it. `unexplained`
/// and causes with nothing lost get no rank.
pub fn ranks(causes: &[Cause], intervals: &[Interval]) -> Vec<Option<Rank>> {
    let rankable: Vec<bool> = causes.iter().map(|cause| cause.name != "unexplained" && cause.share > 0.0).collect();
    (0..causes.len())
        .map(|index| {
            if !rankable[index] {
                return None;
            }
            let own = intervals[index];
            let others = (0..causes.len()).filter(|&other| other != index && rankable[other]);
            let above = others
                .clone()
                .filter(|&other| own.separated_from(&intervals[other]) && intervals[other].low > own.high);
            let not_below =
                others.filter(|&other| !(own.separated_from(&intervals[other]) && intervals[other].high < own.low));
            Some(Rank { best: 1 + above.count(), worst: 1 + not_below.count() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(name: &'static str, share: f64) -> Cause {
        Cause {
            name,
            lost_ns: share,
            share,
            measured: true,
            number: String::new(),
            evidence: String::new(),
            parts: Vec::new(),
        }
    }

    fn interval(low: f64, estimate: f64, high: f64) -> Interval {
        Interval { low, estimate, high }
    }

    #[test]
    fn overlapping_intervals_tie_and_separated_ones_rank() {
        let causes = [cause("a", 0.45), cause("b", 0.40), cause("c", 0.15), cause("d", 0.0), cause("unexplained", 0.0)];
        let intervals = [
            interval(0.38, 0.45, 0.52),
            interval(0.33, 0.40, 0.47),
            interval(0.10, 0.15, 0.20),
            interval(0.0, 0.0, 0.0),
            interval(0.0, 0.0, 0.0),
        ];
        let ranks = ranks(&causes, &intervals);
        let texts: Vec<String> = ranks.iter().map(|rank| rank.map_or("-".to_string(), |rank| rank.text())).collect();
        assert_eq!(texts, ["1-2 (tied)", "1-2 (tied)", "3", "-", "-"]);
    }

    #[test]
    fn a_dominant_cause_ranks_first_alone() {
        let causes = [cause("a", 0.7), cause("b", 0.2), cause("c", 0.1)];
        let intervals = [interval(0.6, 0.7, 0.8), interval(0.1, 0.2, 0.3), interval(0.05, 0.1, 0.15)];
        let texts: Vec<String> = ranks(&causes, &intervals).iter().flatten().map(Rank::text).collect();
        assert_eq!(texts, ["1", "2-3 (tied)", "2-3 (tied)"]);
    }
}
