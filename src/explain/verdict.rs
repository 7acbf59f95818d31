//! The verdict of `explain`: the decomposition of the medians, a bootstrap interval on
//! every share (each configuration's runs resampled on their own, the decomposition
//! recomputed), ranks given only where intervals separate, the times and speedup with
//! their intervals, the advice, beside `naive` the good strategy's figure, and whether
//! every run counted the sequential run's tree.

use super::advice::{advice, Advice};
use super::causes::CauseKind;
use super::count_check::{count_mismatch, CountMismatch};
use super::decompose::{decompose, Cause, Decomposition, Gain, Outcome};
use super::measure::{all_runs, measurements, ConfigRuns, ExplainPlan, MachineDuringRuns, Role};
use super::measurements::Measurements;
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
    /// Problems found in the measurements themselves, one line each.
    pub bugs: Vec<String>,
    /// The first run whose node or solution count differs from the sequential run's (an
    /// exhaustive search): the model's moves do not replay. Its line is in `bugs` too.
    pub counts_differ: Option<CountMismatch>,
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
    /// Other processes' use of the CPUs while the runs were measured.
    pub machine: MachineDuringRuns,
    /// Why no single cause is named first, when none is: the machine was busy (then no
    /// cause has a rank), or the leading causes are within the margin of each other.
    pub cannot_rank: Option<String>,
}

impl Verdict {
    /// The causes that share rank 1 (one when the top cause's interval separates).
    pub fn leading_causes(&self) -> Vec<&RankedCause> {
        self.causes.iter().filter(|cause| cause.rank.is_some_and(|rank| rank.best == 1)).collect()
    }
}

/// Resamples drawn for the shares' intervals (each recomputes the decomposition).
const RESAMPLES: usize = 1_000;

/// Two causes whose shares differ by less than this (a share of the lost time) are tied,
/// however narrow their intervals. A session's intervals only say how its own repeats
/// scatter; between sessions on the same machine the seed story's two leading causes
/// (about 41% and 44% each) swapped places while each session's intervals were a few
/// points wide. A gap smaller than ten points is not one a user can act on either, so the
/// same threshold decides ties as the baseline comparison uses for a change (10%).
pub const TIE_MARGIN: f64 = 0.10;

/// The verdict on the runs of `configs`.
pub fn verdict(plan: &ExplainPlan, configs: &[ConfigRuns], stopped: String, machine: MachineDuringRuns) -> Verdict {
    let runs = all_runs(configs);
    let groups: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
    let point_measurements = measurements(plan, configs, &groups);
    let point = decompose(&point_measurements);
    let settings = BootstrapSettings { resamples: RESAMPLES, ..BootstrapSettings::default() };
    let kinds: Vec<CauseKind> = point.causes.iter().map(|cause| cause.kind).collect();
    let pairs = cause_pairs(kinds.len());
    // One resampling gives each share's interval and, from the same resamples, the interval
    // of every difference between two shares (paired: the two shares move together).
    let intervals = bootstrap_intervals(
        &groups,
        |resample| {
            let decomposition = decompose(&measurements(plan, configs, resample));
            let shares: Vec<f64> = kinds.iter().map(|kind| decomposition.share_of(*kind)).collect();
            let differences = pairs.iter().map(|&(first, second)| shares[first] - shares[second]);
            shares.iter().copied().chain(differences).collect()
        },
        settings,
    );
    let (share_intervals, difference_intervals) = intervals.split_at(kinds.len());
    let mut ranks = ranks(&point.causes, &pairs, difference_intervals);
    let cannot_rank = if machine.busy() {
        // The scatter of these runs is the other processes', not the search's: a rank
        // drawn from it would not hold on the next batch, so none is given.
        ranks.iter_mut().for_each(|rank| *rank = None);
        Some(busy_machine_text(&machine))
    } else {
        tie_text(&point.causes, &ranks)
    };
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
    // Every run's counts against the sequential run's: this says what the medians' node
    // check says, run by run and with the solutions too, so its one line replaces it.
    let counts_differ = count_mismatch(configs);
    let bugs = counts_differ.as_ref().map_or(bugs, |mismatch| vec![mismatch.line.clone()]);
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
            .zip(share_intervals.iter().copied())
            .zip(ranks)
            .map(|((cause, share_interval), rank)| RankedCause { cause, share_interval, rank })
            .collect(),
        gains,
        bugs,
        counts_differ,
        advice,
        alternative,
        runs: configs[0].reports.len(),
        stopped,
        measurements: point_measurements,
        machine,
        cannot_rank,
    }
}

/// Why a verdict measured on a busy machine ranks nothing.
fn busy_machine_text(machine: &MachineDuringRuns) -> String {
    let share = machine.other_cpu_share.map_or(String::new(), |share| {
        format!("other processes used {:.0}% of the CPUs over the runs, ", share * 100.0)
    });
    format!(
        "the machine was busy ({share}{} of {} rounds busy); \
         rerun `explain` with nothing else running",
        machine.busy_rounds, machine.rounds
    )
}

/// Why the leading causes share rank 1, when more than one does.
fn tie_text(causes: &[Cause], ranks: &[Option<Rank>]) -> Option<String> {
    let leading: Vec<String> = causes
        .iter()
        .zip(ranks)
        .filter(|(_, rank)| rank.is_some_and(|rank| rank.best == 1))
        .map(|(cause, _)| cause.kind.to_string())
        .collect();
    (leading.len() > 1).then(|| {
        format!(
            "no single top cause: {} are within {:.0} points of each other or their \
             difference's interval reaches 0 (more rounds, `--repeats`, may separate them)",
            leading.join(" and "),
            TIE_MARGIN * 100.0
        )
    })
}

/// Every pair `(first, second)` of `count` causes with `first < second`, in a fixed order.
pub fn cause_pairs(count: usize) -> Vec<(usize, usize)> {
    (0..count).flat_map(|first| (first + 1..count).map(move |second| (first, second))).collect()
}

/// Whether the cause at `first` ranks above the one at `second`: their difference
/// `share[first] - share[second]` (one entry of `differences`, in the order of `pairs`) has
/// an interval wholly above zero and an estimate of at least [`TIE_MARGIN`].
fn ranks_above(pairs: &[(usize, usize)], differences: &[Interval], first: usize, second: usize) -> bool {
    let (index, sign) = match pairs.iter().position(|&pair| pair == (first, second)) {
        Some(index) => (index, 1.0),
        None => match pairs.iter().position(|&pair| pair == (second, first)) {
            Some(index) => (index, -1.0),
            None => return false,
        },
    };
    let difference = differences[index];
    let (low, estimate) =
        if sign > 0.0 { (difference.low, difference.estimate) } else { (-difference.high, -difference.estimate) };
    low > 0.0 && estimate >= TIE_MARGIN
}

/// The ranks the measurements allow: a cause ranks below every cause that ranks above it
/// (see [`ranks_above`]) and ties with the others. `unexplained` and causes with nothing
/// lost get no rank.
pub fn ranks(causes: &[Cause], pairs: &[(usize, usize)], differences: &[Interval]) -> Vec<Option<Rank>> {
    let rankable: Vec<bool> =
        causes.iter().map(|cause| cause.kind != CauseKind::Unexplained && cause.share > 0.0).collect();
    (0..causes.len())
        .map(|index| {
            if !rankable[index] {
                return None;
            }
            let others = (0..causes.len()).filter(|&other| other != index && rankable[other]);
            let above = others.clone().filter(|&other| ranks_above(pairs, differences, other, index));
            let not_below = others.filter(|&other| !ranks_above(pairs, differences, index, other));
            Some(Rank { best: 1 + above.count(), worst: 1 + not_below.count() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(kind: CauseKind, share: f64) -> Cause {
        Cause {
            kind,
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

    /// The difference intervals of every pair of `shares`, each `estimate ± half_width`.
    fn differences(shares: &[f64], half_width: f64) -> (Vec<(usize, usize)>, Vec<Interval>) {
        let pairs = cause_pairs(shares.len());
        let intervals = pairs
            .iter()
            .map(|&(first, second)| {
                let estimate = shares[first] - shares[second];
                interval(estimate - half_width, estimate, estimate + half_width)
            })
            .collect();
        (pairs, intervals)
    }

    fn rank_texts(causes: &[Cause], half_width: f64) -> Vec<String> {
        let shares: Vec<f64> = causes.iter().map(|cause| cause.share).collect();
        let (pairs, intervals) = differences(&shares, half_width);
        ranks(causes, &pairs, &intervals).iter().map(|rank| rank.map_or("-".to_string(), |rank| rank.text())).collect()
    }

    #[test]
    fn overlapping_differences_tie_and_separated_ones_rank() {
        let causes = [
            cause(CauseKind::SearchOverhead, 0.45),
            cause(CauseKind::PerNodeCost, 0.30),
            cause(CauseKind::IdleBetweenTasks, 0.15),
            cause(CauseKind::Tail, 0.0),
            cause(CauseKind::Unexplained, 0.0),
        ];
        // a - b = 15 points but its interval reaches below zero: tied; b - c likewise.
        assert_eq!(rank_texts(&causes, 0.16), ["1-2 (tied)", "1-3 (tied)", "2-3 (tied)", "-", "-"]);
        // Narrow intervals: every gap of 15 points separates.
        assert_eq!(rank_texts(&causes, 0.02), ["1", "2", "3", "-", "-"]);
    }

    #[test]
    fn causes_closer_than_the_margin_tie_however_narrow_their_intervals() {
        // The seed story's two leading causes: 44% and 41%, intervals two points wide.
        let causes = [
            cause(CauseKind::WaitingForFirstTask, 0.44),
            cause(CauseKind::PerNodeCost, 0.41),
            cause(CauseKind::IdleBetweenTasks, 0.15),
        ];
        assert_eq!(rank_texts(&causes, 0.01), ["1-2 (tied)", "1-2 (tied)", "3"]);
    }

    #[test]
    fn a_dominant_cause_ranks_first_alone() {
        let causes = [
            cause(CauseKind::PerNodeCost, 0.7),
            cause(CauseKind::WaitingForFirstTask, 0.17),
            cause(CauseKind::Tail, 0.13),
        ];
        assert_eq!(rank_texts(&causes, 0.05), ["1", "2-3 (tied)", "2-3 (tied)"]);
    }

    #[test]
    fn a_busy_machine_withholds_the_ranks_and_a_tie_says_why() {
        let busy = MachineDuringRuns { rounds: 8, busy_rounds: 3, other_cpu_share: Some(0.05) };
        assert!(busy.busy(), "3 of 8 rounds busy is more than a quarter");
        let quiet = MachineDuringRuns { rounds: 8, busy_rounds: 2, other_cpu_share: Some(0.05) };
        assert!(!quiet.busy());
        let loaded = MachineDuringRuns { rounds: 8, busy_rounds: 0, other_cpu_share: Some(0.4) };
        assert!(loaded.busy(), "40% of the CPUs over the runs");
        assert!(busy_machine_text(&loaded).contains("40%"));
        let causes = [cause(CauseKind::WaitingForFirstTask, 0.44), cause(CauseKind::PerNodeCost, 0.41)];
        let tied = [Some(Rank { best: 1, worst: 2 }), Some(Rank { best: 1, worst: 2 })];
        let text = tie_text(&causes, &tied).expect("two causes share rank 1");
        assert!(text.contains(&CauseKind::WaitingForFirstTask.to_string()), "{text}");
        assert!(text.contains(&CauseKind::PerNodeCost.to_string()), "{text}");
        let separated = [Some(Rank { best: 1, worst: 1 }), Some(Rank { best: 2, worst: 2 })];
        assert_eq!(tie_text(&causes, &separated), None);
    }

    #[test]
    fn pairs_cover_every_two_causes_once() {
        assert_eq!(cause_pairs(3), [(0, 1), (0, 2), (1, 2)]);
        assert!(cause_pairs(1).is_empty());
    }
}
