//! The long-format counts of each run: the rows of `<sweep>-counts.csv`.
//!
//! One row per (run, measure, rule, depth, worker) with one integer: per-rule checks and
//! prunes, nodes per depth, prunes per rule per depth, and per-worker nodes, tasks and idle
//! time. Tidy data, so a reader filters and pivots instead of splitting text, and a family
//! with other rules or a run with more workers needs no other columns. Columns that do not
//! apply to a measure are empty.

use crate::run::RunReport;
use serde::{Deserialize, Serialize};

/// The measures of the counts file (the `measure` column).
pub mod measure {
    /// How often a rule was evaluated (`rule` set).
    pub const RULE_CHECKS: &str = "rule_checks";
    /// How often a rule rejected a node (`rule` set).
    pub const RULE_PRUNES: &str = "rule_prunes";
    /// Nodes entered at a depth (`depth` set).
    pub const NODES_AT_DEPTH: &str = "nodes_at_depth";
    /// Prunes by a rule at a depth (`rule` and `depth` set; zero counts left out).
    pub const PRUNES_AT_DEPTH: &str = "prunes_at_depth";
    /// Nodes a worker searched (`worker` set).
    pub const WORKER_NODES: &str = "worker_nodes";
    /// Tasks a worker ran: the units of work it took, subproblems or stolen branches
    /// (`worker` set).
    pub const WORKER_TASKS: &str = "worker_tasks";
    /// Nanoseconds a worker was idle (`worker` set).
    pub const WORKER_IDLE_NS: &str = "worker_idle_ns";
}

/// One count of one run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CountRow {
    /// The sweep's name.
    pub sweep: String,
    /// The configuration's stable id.
    pub config_id: String,
    /// The run's repeat number.
    pub repeat: u32,
    /// What is counted (see [`measure`]).
    pub measure: String,
    /// The rule, for rule measures.
    pub rule: String,
    /// The depth, for depth measures.
    pub depth: Option<u32>,
    /// The worker's index, for worker measures.
    pub worker: Option<u32>,
    /// The count.
    pub count: u64,
}

impl CountRow {
    /// The CSV header line (no newline), derived from the field names.
    pub fn header() -> String {
        super::csv_log::header_of(&CountRow::default())
    }
}

/// The count rows of one finished run.
pub fn count_rows(sweep: &str, config_id: &str, repeat: u32, report: &RunReport) -> Vec<CountRow> {
    let row = |measure: &str, rule: &str, depth: Option<usize>, worker: Option<usize>, count: u64| CountRow {
        sweep: sweep.to_string(),
        config_id: config_id.to_string(),
        repeat,
        measure: measure.to_string(),
        rule: rule.to_string(),
        depth: depth.map(|depth| depth as u32),
        worker: worker.map(|worker| worker as u32),
        count,
    };
    let mut rows = Vec::new();
    for rule in &report.rules {
        rows.push(row(measure::RULE_CHECKS, &rule.name, None, None, rule.checks));
        rows.push(row(measure::RULE_PRUNES, &rule.name, None, None, rule.prunes));
    }
    for (depth, &nodes) in report.nodes_per_depth.iter().enumerate() {
        rows.push(row(measure::NODES_AT_DEPTH, "", Some(depth), None, nodes));
    }
    for (depth, per_rule) in report.prunes_per_depth.iter().enumerate() {
        for (rule, &prunes) in report.rules.iter().zip(per_rule).filter(|(_, &prunes)| prunes > 0) {
            rows.push(row(measure::PRUNES_AT_DEPTH, &rule.name, Some(depth), None, prunes));
        }
    }
    if report.workers.len() > 1 {
        for (index, worker) in report.workers.iter().enumerate() {
            rows.push(row(measure::WORKER_NODES, "", None, Some(index), worker.nodes));
            rows.push(row(measure::WORKER_TASKS, "", None, Some(index), worker.tasks));
            rows.push(row(measure::WORKER_IDLE_NS, "", None, Some(index), worker.idle_ns));
        }
    }
    rows
}

/// The nodes per depth of `config_id`'s first recorded run among `rows` (empty when none).
pub fn nodes_per_depth(rows: &[CountRow], config_id: &str) -> Vec<u64> {
    let mine = rows.iter().filter(|row| row.config_id == config_id && row.measure == measure::NODES_AT_DEPTH);
    let Some(first_repeat) = mine.clone().map(|row| row.repeat).min() else { return Vec::new() };
    let first_run: Vec<&CountRow> = mine.filter(|row| row.repeat == first_repeat).collect();
    // A run writes one row for every depth from 0 to its deepest, so a depth is below the
    // run's number of rows; one past it (an edited file) is left out rather than sizing
    // the vector to it (a depth of 4 billion would ask for 32 GiB).
    let mut per_depth: Vec<u64> = Vec::new();
    for row in &first_run {
        let depth = row.depth.unwrap_or(0) as usize;
        if depth >= first_run.len() {
            continue;
        }
        if per_depth.len() <= depth {
            per_depth.resize(depth + 1, 0);
        }
        per_depth[depth] = row.count;
    }
    per_depth
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned like the runs header: readers of older files depend on it.
    #[test]
    fn the_counts_header_is_pinned() {
        assert_eq!(CountRow::header(), "sweep,config_id,repeat,measure,rule,depth,worker,count");
    }

    #[test]
    fn nodes_per_depth_reads_back_the_first_run() {
        let row = |repeat: u32, depth: u32, count: u64| CountRow {
            config_id: "c".into(),
            repeat,
            measure: measure::NODES_AT_DEPTH.into(),
            depth: Some(depth),
            count,
            ..CountRow::default()
        };
        let rows = [row(1, 0, 9), row(0, 1, 4), row(0, 0, 1), row(1, 1, 9)];
        assert_eq!(nodes_per_depth(&rows, "c"), [1, 4]);
        assert!(nodes_per_depth(&rows, "other").is_empty());
        // An edited row far past the run's depths is left out instead of sized for.
        let edited = [row(0, 0, 1), row(0, 1, 4), row(0, u32::MAX, 7)];
        assert_eq!(nodes_per_depth(&edited, "c"), [1, 4]);
    }
}
