//! `report --baseline FILE`: compares the current summaries with an older summary file and
//! flags the configurations whose time changed by more than the measured noise, or whose
//! node count changed at all (node counts are exact).
//!
//! The rule: with `noise = sqrt(rsd_old² + rsd_new²)` (the two relative standard
//! deviations), a median that moved by more than `max(3 x noise, MIN_CHANGE)` is flagged,
//! unless the two [min, max] ranges overlap (then the runs themselves disagree).
//!
//! Node counts are compared only where they are reproducible: a parallel first-solution
//! search stops wherever its workers happen to be, so its count varies from run to run.
//! A *regression* (what `--fail-on-change` fails on) is a configuration slower beyond the
//! noise or with a different node count; a faster one is reported but is no regression.

use crate::harness::storing::record::status;
use crate::harness::storing::summary::SummaryRow;
use std::collections::HashMap;

/// Time changes below this share are never flagged (timer and scheduling jitter).
pub const MIN_CHANGE: f64 = 0.03;

/// What happened to one configuration between the baseline and now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Faster beyond the noise.
    Faster,
    /// Slower beyond the noise.
    Slower,
    /// Within the noise.
    Unchanged,
}

/// One configuration present (and completed) in both summaries.
#[derive(Debug, Clone)]
pub struct Change {
    /// The current row.
    pub current: SummaryRow,
    /// The baseline's median time.
    pub baseline_ns: u64,
    /// The baseline's node count.
    pub baseline_nodes: u64,
    /// Current median / baseline median.
    pub ratio: f64,
    /// The threshold the change was held against.
    pub threshold: f64,
    /// Faster, slower or unchanged.
    pub verdict: Verdict,
}

impl Change {
    /// Whether the node count differs where counts are reproducible (see
    /// [`nodes_are_reproducible`]).
    pub fn nodes_changed(&self) -> bool {
        nodes_are_reproducible(&self.current) && self.current.nodes != self.baseline_nodes
    }

    /// Whether the change is flagged (time beyond the noise either way, or nodes differ).
    pub fn flagged(&self) -> bool {
        self.verdict != Verdict::Unchanged || self.nodes_changed()
    }

    /// Whether the change is a regression: slower beyond the noise, or nodes differ.
    pub fn regression(&self) -> bool {
        self.verdict == Verdict::Slower || self.nodes_changed()
    }
}

/// Whether a configuration's node count is the same on every run: true except for parallel
/// first-solution searches, which stop wherever their workers happen to be.
pub fn nodes_are_reproducible(row: &SummaryRow) -> bool {
    row.mode != "first" || row.is_sequential()
}

/// Matches configurations by id and compares those completed in both.
pub fn compare(baseline: &[SummaryRow], current: &[SummaryRow]) -> Vec<Change> {
    let old: HashMap<&str, &SummaryRow> =
        baseline.iter().filter(|row| completed(row)).map(|row| (row.config_id.as_str(), row)).collect();
    current
        .iter()
        .filter(|row| completed(row))
        .filter_map(|row| {
            let before = old.get(row.config_id.as_str())?;
            let ratio = row.wall_ns_median as f64 / before.wall_ns_median as f64;
            let noise = (before.wall_rsd.powi(2) + row.wall_rsd.powi(2)).sqrt();
            let threshold = (3.0 * noise).max(MIN_CHANGE);
            let ranges_overlap = row.wall_ns_min <= before.wall_ns_max && before.wall_ns_min <= row.wall_ns_max;
            let beyond = (ratio - 1.0).abs() > threshold && !ranges_overlap;
            let verdict = match (beyond, ratio < 1.0) {
                (false, _) => Verdict::Unchanged,
                (true, true) => Verdict::Faster,
                (true, false) => Verdict::Slower,
            };
            Some(Change {
                current: row.clone(),
                baseline_ns: before.wall_ns_median,
                baseline_nodes: before.nodes,
                ratio,
                threshold,
                verdict,
            })
        })
        .collect()
}

fn completed(row: &SummaryRow) -> bool {
    row.status == status::OK && row.wall_ns_median > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, times: [u64; 3], rsd: f64, nodes: u64) -> SummaryRow {
        SummaryRow {
            config_id: id.into(),
            status: status::OK.into(),
            wall_ns_min: times[0],
            wall_ns_median: times[1],
            wall_ns_max: times[2],
            wall_rsd: rsd,
            nodes,
            ..SummaryRow::default()
        }
    }

    #[test]
    fn changes_beyond_the_noise_are_flagged_and_others_not() {
        let before = [
            row("a", [95, 100, 105], 0.02, 10),
            row("b", [95, 100, 105], 0.02, 10),
            row("c", [90, 100, 110], 0.05, 10),
        ];
        let after =
            [row("a", [140, 150, 160], 0.02, 10), row("b", [99, 101, 104], 0.02, 10), row("c", [70, 80, 95], 0.05, 11)];
        let changes = compare(&before, &after);
        let verdicts: Vec<(Verdict, bool)> =
            changes.iter().map(|change| (change.verdict, change.nodes_changed())).collect();
        assert_eq!(verdicts, [(Verdict::Slower, false), (Verdict::Unchanged, false), (Verdict::Unchanged, true)]);
        assert!(changes[0].flagged() && !changes[1].flagged() && changes[2].flagged());
        assert!(changes[0].regression() && !changes[1].regression() && changes[2].regression());
    }

    #[test]
    fn faster_is_flagged_but_no_regression() {
        let changes = compare(&[row("a", [95, 100, 105], 0.02, 10)], &[row("a", [45, 50, 55], 0.02, 10)]);
        assert_eq!(changes[0].verdict, Verdict::Faster);
        assert!(changes[0].flagged() && !changes[0].regression());
    }

    #[test]
    fn parallel_first_solution_node_counts_are_not_compared() {
        let with = |mode: &str, strategy: &str, nodes: u64| SummaryRow {
            mode: mode.into(),
            strategy: strategy.into(),
            ..row("a", [95, 100, 105], 0.02, nodes)
        };
        let changes = compare(&[with("first", "auto", 10)], &[with("first", "auto", 17)]);
        assert!(!changes[0].nodes_changed() && !changes[0].regression());
        let changes = compare(&[with("first", "sequential", 10)], &[with("first", "sequential", 17)]);
        assert!(changes[0].nodes_changed() && changes[0].regression());
        let changes = compare(&[with("all", "auto", 10)], &[with("all", "auto", 17)]);
        assert!(changes[0].regression());
    }

    #[test]
    fn configurations_missing_from_either_side_are_left_out() {
        assert!(compare(&[row("a", [1, 1, 1], 0.0, 1)], &[row("b", [1, 1, 1], 0.0, 1)]).is_empty());
    }
}
