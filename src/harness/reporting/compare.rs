//! `report --baseline RUNS`: compares the current runs with an earlier run log, one
//! configuration at a time, by a test on the resampled times.
//!
//! For each configuration (matched by its stable id) completed on both sides, the ratio of
//! median times (now over before) gets a 95% bootstrap interval from both samples
//! resampled (`statistics::compare_samples`). A change is flagged only when the
//! interval excludes 1 *and* the ratio moved by more than [`MIN_CHANGE`] ([`MIN_CHANGE_SHORT`]
//! for calls under [`SHORT_CALL_NS`]): the interval guards against noise within a sweep, the
//! threshold against differences too small to act on and against the drift of very short
//! calls between sweeps. Runs
//! measured while the machine was busy are left out of both samples when enough quiet ones
//! remain.
//!
//! Node counts are compared only where they are reproducible: a parallel first-solution
//! search stops wherever its workers happen to be, so its count varies from run to run.
//! A *regression* (what `--fail-on-change` fails on) is a configuration slower beyond the
//! noise or with a different node count; a faster one is reported but is no regression.
//!
//! Times are compared only between runs of one machine (the `machine_id` column): two
//! virtual machines with the same CPU model string differ by more than most changes (a
//! rerun on a fresh VM called 29 of 38 configurations faster with no code change). Where the
//! machines differ, or a side predates the column, the verdict is "other machine" or
//! "machine unknown" and the configuration counts as neither faster nor slower; its node
//! counts are still compared, as they do not depend on the machine.

use crate::harness::storing::record::{status, RunRecord};
use crate::statistics::{compare_samples, BootstrapSettings, ChangeVerdict, SampleChange};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Time changes below this share are never flagged, however clear: between two sweeps of
/// the same build on the 2-core development VM, millisecond-scale configurations moved by
/// up to 6% with intervals that excluded 1 (the interval measures the noise within a
/// sweep, not the drift between two).
pub const MIN_CHANGE: f64 = 0.10;

/// Calls shorter than this (per call, the median of both sides) are held to
/// [`MIN_CHANGE_SHORT`]: their time moves between two sweeps of the same build by more than
/// their runs vary within one sweep (cache and frequency state of a fresh process; a rerun
/// of the `quick` sweep on the same commit moved the sub-microsecond rings calls by 5-12%,
/// each with a tight interval), so the interval alone does not tell a change from a rerun.
pub const SHORT_CALL_NS: f64 = 10_000.0;

/// The smallest change that counts for calls under [`SHORT_CALL_NS`].
pub const MIN_CHANGE_SHORT: f64 = 0.15;

/// The threshold a configuration's change is held to, from its median times.
pub fn threshold_for(baseline_ns: f64, current_ns: f64) -> f64 {
    if baseline_ns.max(current_ns) < SHORT_CALL_NS {
        MIN_CHANGE_SHORT
    } else {
        MIN_CHANGE
    }
}

/// Fewer quiet runs than this and the busy ones are kept (with a mark in the table).
const MIN_QUIET_RUNS: usize = 3;

/// Fewer runs than this on either side and the times are not judged: the interval of one
/// run against one is a point, which called every rerun of a `repeats = 1` sweep that moved
/// by 10% (noise on this machine) a regression.
pub const MIN_RUNS_TO_JUDGE: usize = 3;

/// Whether both sides of a configuration ran on one machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MachineMatch {
    /// Every run on both sides names the same machine: times compare.
    Same,
    /// The sides name different machines (or one side several): times do not compare.
    Other,
    /// A run names no machine (written before the `machine_id` column): times do not
    /// compare, as nothing says the machine was the same.
    Unknown,
}

impl MachineMatch {
    /// The machines of the runs on both sides.
    pub fn of(before: &[&RunRecord], now: &[&RunRecord]) -> MachineMatch {
        let (before, now) = (machines(before), machines(now));
        if before.contains("") || now.contains("") {
            MachineMatch::Unknown
        } else if before.len() == 1 && before == now {
            MachineMatch::Same
        } else {
            MachineMatch::Other
        }
    }
}

/// The machines that ran `runs`.
fn machines<'a>(runs: &[&'a RunRecord]) -> BTreeSet<&'a str> {
    runs.iter().map(|run| run.machine_id.as_str()).collect()
}

/// One configuration present (and completed) on both sides.
#[derive(Debug, Clone)]
pub struct Change {
    /// A current run of the configuration (for its labels).
    pub current: RunRecord,
    /// The baseline's median time.
    pub baseline_ns: f64,
    /// The current median time.
    pub current_ns: f64,
    /// The baseline's node count (median).
    pub baseline_nodes: u64,
    /// The current node count (median).
    pub current_nodes: u64,
    /// The baseline's best value, for a run with an objective.
    pub baseline_best: Option<i64>,
    /// Runs compared on each side (baseline, current).
    pub runs: (usize, usize),
    /// Whether busy-machine runs had to be kept on either side.
    pub busy_runs_kept: bool,
    /// The ratio with its interval, and the verdict on time as if both sides ran on one
    /// machine; [`Change::time_verdict`] is the verdict that counts.
    pub time: SampleChange,
    /// Whether both sides ran on one machine.
    pub machine: MachineMatch,
    /// Whether a side has fewer than [`MIN_RUNS_TO_JUDGE`] runs: its time is not judged.
    pub few_runs: bool,
}

impl Change {
    /// Whether the node count differs where counts are reproducible (see
    /// [`nodes_are_reproducible`]).
    pub fn nodes_changed(&self) -> bool {
        nodes_are_reproducible(&self.current) && self.current_nodes != self.baseline_nodes
    }

    /// Whether a run with an objective found another best value than its baseline: the
    /// optimum, or the best of every solution, does not depend on the schedule, so this is a
    /// regression wherever the node counts of the run may vary. A parallel first-solution
    /// search's value is that of whichever solution came first, and is not compared.
    pub fn best_changed(&self) -> bool {
        best_is_reproducible(&self.current)
            && matches!((self.baseline_best, self.current.objective_best), (Some(before), Some(now)) if before != now)
    }

    /// The verdict on time, where times compare (both sides on one machine).
    pub fn time_verdict(&self) -> Option<ChangeVerdict> {
        (self.machine == MachineMatch::Same && !self.few_runs).then_some(self.time.verdict)
    }

    /// The verdict on time in words: `faster`, `slower`, `time within noise`, or why times
    /// were not compared (`other machine`, `machine unknown`, `too few runs`).
    pub fn verdict_text(&self) -> &'static str {
        match (self.machine, self.time.verdict) {
            (MachineMatch::Other, _) => "other machine",
            (MachineMatch::Unknown, _) => "machine unknown",
            (MachineMatch::Same, _) if self.few_runs => "too few runs",
            (MachineMatch::Same, ChangeVerdict::Faster) => "faster",
            (MachineMatch::Same, ChangeVerdict::Slower) => "slower",
            (MachineMatch::Same, ChangeVerdict::NoChange) => "time within noise",
        }
    }

    /// Whether the change is flagged (time beyond the noise either way on one machine, or
    /// nodes or the best value differ).
    pub fn flagged(&self) -> bool {
        self.time_verdict().is_some_and(|verdict| verdict != ChangeVerdict::NoChange)
            || self.nodes_changed()
            || self.best_changed()
    }

    /// Whether the change is a regression: slower beyond the noise on one machine, or
    /// nodes or the best value differ.
    pub fn regression(&self) -> bool {
        self.time_verdict() == Some(ChangeVerdict::Slower) || self.nodes_changed() || self.best_changed()
    }

    /// Whether the times moved beyond the noise between two machines (or unknown ones): a
    /// change the table shows as such rather than calling it faster or slower.
    pub fn moved_across_machines(&self) -> bool {
        self.machine != MachineMatch::Same && self.time.verdict != ChangeVerdict::NoChange
    }
}

/// Whether a configuration's node count is the same on every run: true except for parallel
/// first-solution searches, which stop wherever their workers happen to be, and parallel
/// branch and bound (a run with an objective), whose cuts depend on when the workers
/// improved the shared incumbent; `replicable` is made to repeat its counts.
pub fn nodes_are_reproducible(run: &RunRecord) -> bool {
    let parallel = run.strategy != "sequential";
    let optimising = run.objective_best.is_some();
    !(parallel && (run.mode == "first" || (optimising && !run.strategy.starts_with("replicable"))))
}

/// Whether a configuration's best value is the same on every run: true except for parallel
/// first-solution searches (a sequential one finds the same first solution every time).
pub fn best_is_reproducible(run: &RunRecord) -> bool {
    run.mode != "first" || run.strategy == "sequential"
}

/// Matches configurations by sweep and id and compares those with completed runs on both
/// sides, in the current runs' order of configurations. Two sweeps of one folder may list
/// the same configuration: matched by id alone, their runs were pooled into one row. A
/// sweep whose name the other side lacks (a baseline run under another name) is matched by
/// id alone.
pub fn compare(baseline: &[RunRecord], current: &[RunRecord]) -> Vec<Change> {
    let before_names: BTreeSet<&str> = baseline.iter().map(|record| record.sweep.as_str()).collect();
    let shared: BTreeSet<&str> =
        current.iter().map(|record| record.sweep.as_str()).filter(|name| before_names.contains(name)).collect();
    let before = completed_by_config(baseline, &shared);
    let now = completed_by_config(current, &shared);
    let mut changes: Vec<Change> = now
        .iter()
        .filter_map(|(id, now_runs)| {
            let before_runs = before.get(id)?;
            let (before_times, before_busy) = times(before_runs);
            let (now_times, now_busy) = times(now_runs);
            let baseline_ns = crate::statistics::median(&before_times);
            let current_ns = crate::statistics::median(&now_times);
            let threshold = threshold_for(baseline_ns, current_ns);
            let time = compare_samples(&before_times, &now_times, threshold, BootstrapSettings::default());
            Some(Change {
                current: now_runs[0].clone(),
                baseline_ns,
                current_ns,
                baseline_nodes: median_nodes(before_runs),
                current_nodes: median_nodes(now_runs),
                baseline_best: before_runs[0].objective_best,
                runs: (before_times.len(), now_times.len()),
                busy_runs_kept: before_busy || now_busy,
                time,
                machine: MachineMatch::of(before_runs, now_runs),
                few_runs: before_times.len().min(now_times.len()) < MIN_RUNS_TO_JUDGE,
            })
        })
        .collect();
    changes.sort_by(|a, b| (&a.current.sweep, a.current.config_index).cmp(&(&b.current.sweep, b.current.config_index)));
    changes
}

/// The completed runs of each configuration, by sweep (where both sides have it, `shared`)
/// and id.
fn completed_by_config<'a>(
    records: &'a [RunRecord],
    shared: &BTreeSet<&str>,
) -> BTreeMap<(&'a str, &'a str), Vec<&'a RunRecord>> {
    let mut by_config: BTreeMap<(&str, &str), Vec<&RunRecord>> = BTreeMap::new();
    for record in records.iter().filter(|record| record.status == status::OK && record.wall_ns > 0) {
        let sweep = if shared.contains(record.sweep.as_str()) { record.sweep.as_str() } else { "" };
        by_config.entry((sweep, record.config_id.as_str())).or_default().push(record);
    }
    by_config
}

/// The wall times to compare: the quiet runs when there are enough of them, else all
/// (and `true`: busy runs were kept).
fn times(runs: &[&RunRecord]) -> (Vec<f64>, bool) {
    let quiet: Vec<f64> = runs.iter().filter(|run| !run.machine_busy()).map(|run| run.wall_ns as f64).collect();
    if quiet.len() == runs.len() || quiet.len() >= MIN_QUIET_RUNS {
        (quiet, false)
    } else {
        (runs.iter().map(|run| run.wall_ns as f64).collect(), true)
    }
}

fn median_nodes(runs: &[&RunRecord]) -> u64 {
    let nodes: Vec<f64> = runs.iter().map(|run| run.nodes as f64).collect();
    crate::statistics::median(&nodes).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(id: &str, times: &[u64], nodes: u64) -> Vec<RunRecord> {
        times
            .iter()
            .enumerate()
            .map(|(repeat, &wall_ns)| RunRecord {
                config_id: id.into(),
                repeat: repeat as u32,
                status: status::OK.into(),
                mode: "all".into(),
                strategy: "sequential".into(),
                wall_ns,
                nodes,
                machine_id: "m1".into(),
                ..RunRecord::default()
            })
            .collect()
    }

    fn both(sides: &[(&str, &[u64], u64)]) -> Vec<RunRecord> {
        sides.iter().flat_map(|&(id, times, nodes)| runs(id, times, nodes)).collect()
    }

    #[test]
    fn a_clear_slowdown_is_flagged_and_noise_is_not() {
        let before = both(&[("a", &[100, 102, 98, 101, 99], 10), ("b", &[100, 102, 98, 101, 99], 10)]);
        let after = both(&[("a", &[121, 119, 122, 120, 118], 10), ("b", &[101, 97, 103, 100, 99], 10)]);
        let changes = compare(&before, &after);
        let verdicts: Vec<ChangeVerdict> = changes.iter().map(|change| change.time.verdict).collect();
        assert_eq!(verdicts, [ChangeVerdict::Slower, ChangeVerdict::NoChange]);
        assert!(changes[0].regression() && !changes[1].flagged());
    }

    #[test]
    fn two_sweeps_listing_one_configuration_are_compared_apart() {
        let in_sweep = |sweep: &str, times: &[u64]| -> Vec<RunRecord> {
            runs("a", times, 10).into_iter().map(|run| RunRecord { sweep: sweep.into(), ..run }).collect()
        };
        let before = [in_sweep("s", &[100, 101, 99]), in_sweep("t", &[100, 101, 99])].concat();
        let after = [in_sweep("s", &[100, 101, 99]), in_sweep("t", &[200, 201, 199])].concat();
        let changes = compare(&before, &after);
        let found: Vec<(&str, (usize, usize), ChangeVerdict)> =
            changes.iter().map(|change| (change.current.sweep.as_str(), change.runs, change.time.verdict)).collect();
        assert_eq!(found, [("s", (3, 3), ChangeVerdict::NoChange), ("t", (3, 3), ChangeVerdict::Slower)]);
        // A baseline run under another name is matched by id.
        let renamed = compare(&in_sweep("old", &[100, 101, 99]), &in_sweep("s", &[200, 201, 199]));
        assert_eq!(renamed.len(), 1);
        assert_eq!(renamed[0].time.verdict, ChangeVerdict::Slower);
    }

    #[test]
    fn fewer_than_three_runs_a_side_are_not_judged_on_time_but_on_nodes() {
        let changes = compare(&both(&[("a", &[100, 101], 10)]), &both(&[("a", &[200, 201], 11)]));
        assert_eq!((changes[0].time_verdict(), changes[0].verdict_text()), (None, "too few runs"));
        assert!(changes[0].nodes_changed() && changes[0].regression());
        let changes = compare(&both(&[("a", &[100, 101], 10)]), &both(&[("a", &[200, 201], 10)]));
        assert!(!changes[0].flagged());
    }

    #[test]
    fn short_calls_need_a_larger_change() {
        let before = both(&[("a", &[300, 302, 298, 301, 299], 10)]);
        let after = both(&[("a", &[336, 334, 337, 335, 333], 10)]);
        assert_eq!(compare(&before, &after)[0].time.verdict, ChangeVerdict::NoChange, "12% on a 300 ns call");
        let after = both(&[("a", &[361, 359, 362, 360, 358], 10)]);
        assert_eq!(compare(&before, &after)[0].time.verdict, ChangeVerdict::Slower, "20% on a 300 ns call");
    }

    #[test]
    fn overlapping_noisy_samples_are_no_change_even_when_medians_differ() {
        let before = both(&[("a", &[100, 140, 90, 130, 95], 10)]);
        let after = both(&[("a", &[110, 150, 100, 92, 135], 10)]);
        assert_eq!(compare(&before, &after)[0].time.verdict, ChangeVerdict::NoChange);
    }

    #[test]
    fn faster_is_flagged_but_no_regression_and_other_nodes_are() {
        let changes = compare(&both(&[("a", &[100, 101, 99], 10)]), &both(&[("a", &[50, 51, 49], 10)]));
        assert_eq!(changes[0].time.verdict, ChangeVerdict::Faster);
        assert!(changes[0].flagged() && !changes[0].regression());
        let changes = compare(&both(&[("a", &[100, 101, 99], 10)]), &both(&[("a", &[100, 101, 99], 11)]));
        assert!(changes[0].nodes_changed() && changes[0].regression());
    }

    #[test]
    fn a_parallel_branch_and_bound_may_count_other_nodes_but_not_find_another_best() {
        let with = |strategy: &str, best: i64, records: Vec<RunRecord>| -> Vec<RunRecord> {
            records
                .into_iter()
                .map(|run| RunRecord { strategy: strategy.into(), objective_best: Some(best), ..run })
                .collect()
        };
        let before = |strategy: &str| with(strategy, 12, both(&[("a", &[100, 101, 99], 130)]));
        let now = |strategy: &str, best: i64| with(strategy, best, both(&[("a", &[100, 101, 99], 132)]));
        // Which worker improved the incumbent when decides what the others cut.
        let steal = &compare(&before("steal"), &now("steal", 12))[0];
        assert!(!steal.nodes_changed() && !steal.regression() && !steal.flagged());
        // The sequential search and `replicable` repeat their counts: a difference is one.
        for strategy in ["sequential", "replicable:2"] {
            assert!(compare(&before(strategy), &now(strategy, 12))[0].regression(), "{strategy}");
        }
        // The optimum never depends on the schedule.
        let changes = compare(&before("steal"), &now("steal", 11));
        assert!(changes[0].best_changed() && changes[0].regression());
        let line = crate::harness::reporting::comparison_table::changed_line(&changes);
        assert!(line.ends_with("within noise; 1 with another best value"), "{line}");
    }

    #[test]
    fn parallel_first_solution_node_counts_are_not_compared() {
        let with = |strategy: &str, nodes: u64| {
            runs("a", &[100, 101, 99], nodes)
                .into_iter()
                .map(|run| RunRecord { mode: "first".into(), strategy: strategy.into(), ..run })
                .collect::<Vec<_>>()
        };
        assert!(!compare(&with("auto", 10), &with("auto", 17))[0].nodes_changed());
        assert!(compare(&with("sequential", 10), &with("sequential", 17))[0].nodes_changed());
    }

    #[test]
    fn a_parallel_first_solutions_value_is_not_compared() {
        let with = |strategy: &str, value: i64| {
            runs("a", &[100, 101, 99], 10)
                .into_iter()
                .map(|run| RunRecord {
                    mode: "first".into(),
                    strategy: strategy.into(),
                    objective_best: Some(value),
                    ..run
                })
                .collect::<Vec<_>>()
        };
        let parallel = &compare(&with("depth:1", 14), &with("depth:1", 16))[0];
        assert!(!parallel.best_changed() && !parallel.regression());
        let sequential = &compare(&with("sequential", 14), &with("sequential", 16))[0];
        assert!(sequential.best_changed() && sequential.regression());
    }

    /// `runs` measured on `machine`.
    fn on(machine: &str, runs: Vec<RunRecord>) -> Vec<RunRecord> {
        runs.into_iter().map(|run| RunRecord { machine_id: machine.into(), ..run }).collect()
    }

    #[test]
    fn times_of_other_machines_are_neither_faster_nor_slower() {
        let before = || on("m1", both(&[("a", &[100, 101, 99], 10)]));
        let now = |machine: &str| on(machine, both(&[("a", &[50, 51, 49], 10)]));
        // One machine: the normal verdict.
        let same = &compare(&before(), &now("m1"))[0];
        assert_eq!(
            (same.machine, same.time_verdict(), same.verdict_text()),
            (MachineMatch::Same, Some(ChangeVerdict::Faster), "faster")
        );
        assert!(same.flagged());
        // Two machines: the times moved, but that says nothing about the code.
        let other = &compare(&before(), &now("m2"))[0];
        assert_eq!(
            (other.machine, other.time_verdict(), other.verdict_text()),
            (MachineMatch::Other, None, "other machine")
        );
        assert!(!other.flagged() && !other.regression() && other.moved_across_machines());
        // Slower on another machine is no regression either; other nodes still are.
        let slower = compare(&on("m2", both(&[("a", &[50, 51, 49], 10)])), &before());
        assert_eq!(slower[0].time.verdict, ChangeVerdict::Slower);
        assert!(!slower[0].regression());
        let nodes = compare(&on("m2", both(&[("a", &[100, 101, 99], 11)])), &before());
        assert!(nodes[0].regression() && nodes[0].flagged());
        // A side written before the column: machine unknown.
        let unknown = &compare(&on("", both(&[("a", &[100, 101, 99], 10)])), &now("m1"))[0];
        assert_eq!((unknown.machine, unknown.verdict_text()), (MachineMatch::Unknown, "machine unknown"));
        assert!(!unknown.flagged());
        // A side measured on two machines (shards) does not compare with one.
        let mut mixed = before();
        mixed[0].machine_id = "m3".into();
        assert_eq!(compare(&mixed, &now("m1"))[0].machine, MachineMatch::Other);
    }

    #[test]
    fn configurations_missing_from_either_side_are_left_out() {
        assert!(compare(&runs("a", &[1], 1), &runs("b", &[1], 1)).is_empty());
    }
}
