//! The verdict of `explain`: the decomposition of the medians, a bootstrap interval on
//! every share (each configuration's runs resampled on their own, the decomposition
//! recomputed), ranks by the rule of [`super::ranks`], the times and speedup with
//! their intervals, the advice, beside `naive` the good strategy's figure, and whether
//! every run counted the sequential run's tree.

use super::advice::{advice, Advice};
use super::causes::CauseKind;
use super::count_check::{count_mismatch, CountMismatch};
use super::decompose::{decompose, Cause, Decomposition, Gain, Outcome};
use super::measure::{all_runs, measurements, ConfigRuns, ExplainPlan, MachineDuringRuns, Role};
use super::measurements::Measurements;
pub use super::ranks::Rank;
use super::ranks::{cause_pairs, rank_confidence, ranks, MIN_ROUNDS_TO_RANK, TIE_MARGIN};
use crate::machine_guard::OTHER_CPU_LIMIT;
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
    /// Why no single cause is named first, when none is: the machine was busy or fewer than
    /// [`MIN_ROUNDS_TO_RANK`] rounds were measured (then no cause has a rank), or the
    /// leading causes are within the margin of each other or their difference's interval
    /// reaches 0.
    pub cannot_rank: Option<String>,
    /// For an optimising search (branch and bound): the anomaly with its numbers (search
    /// overhead with its sign, time to the best solution and to the proof); `None` for
    /// other searches.
    pub branch_and_bound: Option<String>,
}

impl Verdict {
    /// The causes that share rank 1 (one when the top cause's interval separates).
    pub fn leading_causes(&self) -> Vec<&RankedCause> {
        self.causes.iter().filter(|cause| cause.rank.is_some_and(|rank| rank.best == 1)).collect()
    }
}

/// Resamples drawn for the shares' intervals (each recomputes the decomposition).
const RESAMPLES: usize = 1_000;

/// Resamples drawn for the difference intervals that decide ranks. More than for the
/// shares: at 6 rounds a rank reads the outer 0.25% of the resamples on each side (see
/// [`rank_confidence`]), which 1,000 resamples would leave to 2 or 3 values.
const RANK_RESAMPLES: usize = 4_000;

/// The verdict on the runs of `configs`.
pub fn verdict(plan: &ExplainPlan, configs: &[ConfigRuns], stopped: String, machine: MachineDuringRuns) -> Verdict {
    let runs = all_runs(configs);
    let groups: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
    let point_measurements = measurements(plan, configs, &groups);
    let point = decompose(&point_measurements);
    let settings = BootstrapSettings { resamples: RESAMPLES, ..BootstrapSettings::default() };
    let kinds: Vec<CauseKind> = point.causes.iter().map(|cause| cause.kind).collect();
    let shares_of = |resample: &[&[f64]]| -> Vec<f64> {
        let decomposition = decompose(&measurements(plan, configs, resample));
        kinds.iter().map(|kind| decomposition.share_of(*kind)).collect()
    };
    let share_intervals = bootstrap_intervals(&groups, shares_of, settings);
    let rounds = configs[0].reports.len();
    let (ranks, cannot_rank) = match withheld_ranks(&machine, rounds) {
        Some(reason) => (vec![None; kinds.len()], Some(reason)),
        None => {
            // Every difference between two shares from the same resample (paired: the two
            // shares move together), read at the confidence the rounds allow.
            let pairs = cause_pairs(kinds.len());
            let rank_settings =
                BootstrapSettings { resamples: RANK_RESAMPLES, confidence: rank_confidence(rounds), ..settings };
            let differences = bootstrap_intervals(
                &groups,
                |resample| {
                    let shares = shares_of(resample);
                    pairs.iter().map(|&(first, second)| shares[first] - shares[second]).collect()
                },
                rank_settings,
            );
            let ranks = ranks(&point.causes, &pairs, &differences);
            let tie = tie_text(&point.causes, &ranks);
            (ranks, tie)
        }
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
            .zip(share_intervals)
            .zip(ranks)
            .map(|((cause, share_interval), rank)| RankedCause { cause, share_interval, rank })
            .collect(),
        gains,
        bugs,
        counts_differ,
        branch_and_bound: super::anomaly::anomaly_line(configs),
        advice,
        alternative,
        runs: rounds,
        stopped,
        measurements: point_measurements,
        machine,
        cannot_rank,
    }
}

/// Why the verdict ranks no cause, when it ranks none: the machine was busy, or fewer than
/// [`MIN_ROUNDS_TO_RANK`] rounds were measured.
fn withheld_ranks(machine: &MachineDuringRuns, rounds: usize) -> Option<String> {
    if machine.busy() {
        // The scatter of these runs is the other processes', not the search's: a rank
        // drawn from it would not hold on the next batch, so none is given.
        Some(busy_machine_text(machine))
    } else if rounds < MIN_ROUNDS_TO_RANK {
        Some(too_few_rounds_text(rounds))
    } else {
        None
    }
}

/// Why a verdict of too few rounds ranks nothing.
fn too_few_rounds_text(rounds: usize) -> String {
    format!(
        "too few rounds to rank the causes ({rounds}; a rank needs at least {MIN_ROUNDS_TO_RANK}, the fewest \
         runs a 95% interval of a median can come from); rerun with `--repeats {MIN_ROUNDS_TO_RANK}` or more, \
         or without `--repeats`"
    )
}

/// Why a verdict measured on a busy machine ranks nothing.
fn busy_machine_text(machine: &MachineDuringRuns) -> String {
    let share = machine.other_cpu_share.map_or(String::new(), |share| {
        format!("other processes used {:.1}% of the CPUs over the runs, and ", share * 100.0)
    });
    // The rounds' figure apart: a short burst makes a round busy while the share over all
    // the runs stays small ("0%" beside "1 of 2 rounds busy" read as a contradiction).
    format!(
        "the machine was busy ({share}more than {:.0}% for a second or more in {} of {} rounds); \
         rerun `explain` with nothing else running",
        OTHER_CPU_LIMIT * 100.0,
        machine.busy_rounds,
        machine.rounds
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(kind: CauseKind, share: f64) -> Cause {
        Cause::with_share(kind, share)
    }

    #[test]
    fn a_busy_machine_withholds_the_ranks_and_a_tie_says_why() {
        let busy = MachineDuringRuns { rounds: 8, busy_rounds: 3, other_cpu_share: Some(0.05) };
        assert!(busy.busy(), "3 of 8 rounds busy is more than a quarter");
        let quiet = MachineDuringRuns { rounds: 8, busy_rounds: 2, other_cpu_share: Some(0.05) };
        assert!(!quiet.busy());
        let loaded = MachineDuringRuns { rounds: 8, busy_rounds: 0, other_cpu_share: Some(0.4) };
        assert!(loaded.busy(), "40% of the CPUs over the runs");
        assert!(busy_machine_text(&loaded).contains("40.0% of the CPUs over the runs"));
        assert_eq!(withheld_ranks(&loaded, 8), Some(busy_machine_text(&loaded)));
        let causes = [cause(CauseKind::WaitingForFirstTask, 0.44), cause(CauseKind::PerNodeCost, 0.41)];
        let tied = [Some(Rank { best: 1, worst: 2 }), Some(Rank { best: 1, worst: 2 })];
        let text = tie_text(&causes, &tied).expect("two causes share rank 1");
        assert!(text.contains(&CauseKind::WaitingForFirstTask.to_string()), "{text}");
        assert!(text.contains(&CauseKind::PerNodeCost.to_string()), "{text}");
        let separated = [Some(Rank { best: 1, worst: 1 }), Some(Rank { best: 2, worst: 2 })];
        assert_eq!(tie_text(&causes, &separated), None);
    }

    #[test]
    fn fewer_than_six_quiet_rounds_withhold_the_ranks_and_say_how_many_to_run() {
        let quiet = |rounds| MachineDuringRuns { rounds, busy_rounds: 0, other_cpu_share: Some(0.01) };
        for rounds in 1..MIN_ROUNDS_TO_RANK {
            let reason = withheld_ranks(&quiet(rounds), rounds).expect("too few rounds rank nothing");
            assert!(reason.starts_with(&format!("too few rounds to rank the causes ({rounds};")), "{reason}");
            assert!(reason.contains("--repeats 6"), "{reason}");
        }
        assert_eq!(withheld_ranks(&quiet(MIN_ROUNDS_TO_RANK), MIN_ROUNDS_TO_RANK), None);
        // A busy machine is the reason given first, whatever the rounds.
        let busy = MachineDuringRuns { rounds: 3, busy_rounds: 3, other_cpu_share: Some(0.8) };
        assert!(withheld_ranks(&busy, 3).is_some_and(|reason| reason.starts_with("the machine was busy")));
    }
}
