//! Branch and bound's own story in `explain`: how many nodes a parallel optimisation
//! explored against the sequential one (search overhead with its sign: a detrimental
//! anomaly when more, an acceleration anomaly when fewer, Lai & Sahni 1984), and how its
//! time divides between finding the best solution and proving it optimal.
//!
//! An optimising search's nodes depend on when the incumbent improved, so they vary from
//! run to run and strategy to strategy; that is the phenomenon measured here, never a bug.
//! Pure arithmetic over run reports: it knows no model and no thread.

use super::measure::{ConfigRuns, Role};
use crate::format;
use crate::run::RunReport;
use crate::statistics::median;
use std::fmt::Write;

/// Search overhead within this share of the sequential nodes is called no anomaly.
const NO_ANOMALY_SHARE: f64 = 0.005;

/// What the runs of one configuration of an optimising search found and took (medians).
#[derive(Debug, Clone, PartialEq)]
pub struct OptimisationRuns {
    /// The configuration (`steal at 2 threads`).
    pub label: String,
    /// Runs measured.
    pub runs: usize,
    /// Median, fewest and most nodes over the runs.
    pub nodes: (f64, u64, u64),
    /// The best value of the median run (`None`: none found).
    pub best: Option<i64>,
    /// Whether every run proved its best optimal.
    pub proven: bool,
    /// Median time from the start to the best solution.
    pub time_to_best_ns: f64,
    /// Median time after the best solution until the search ended (the proof phase).
    pub proof_phase_ns: f64,
    /// Median wall time.
    pub wall_ns: f64,
}

impl OptimisationRuns {
    /// The summary of `config`'s runs, `None` when they did not optimise.
    fn of(config: &ConfigRuns) -> Option<OptimisationRuns> {
        let objectives: Vec<_> = config.reports.iter().filter_map(|report| report.objective.as_ref()).collect();
        if objectives.is_empty() || objectives.len() != config.reports.len() {
            return None;
        }
        let of_runs =
            |quantity: &dyn Fn(&RunReport) -> f64| median(&config.reports.iter().map(quantity).collect::<Vec<_>>());
        let to_best = |report: &RunReport| {
            report.objective.as_ref().and_then(|objective| objective.time_to_best_ns).unwrap_or(0) as f64
        };
        let nodes = config.reports.iter().map(|report| report.nodes);
        Some(OptimisationRuns {
            label: config.label.clone(),
            runs: config.reports.len(),
            nodes: (of_runs(&|report| report.nodes as f64), nodes.clone().min().unwrap_or(0), nodes.max().unwrap_or(0)),
            best: config.median_run().objective.as_ref().and_then(|objective| objective.best),
            proven: objectives.iter().all(|objective| objective.proven),
            time_to_best_ns: of_runs(&to_best),
            proof_phase_ns: of_runs(&|report| (report.elapsed_ns as f64 - to_best(report)).max(0.0)),
            wall_ns: of_runs(&|report| report.elapsed_ns as f64),
        })
    }
}

/// The sequential and explained configurations of an optimising search, `None` when the
/// search did not optimise.
fn pair(configs: &[ConfigRuns]) -> Option<(OptimisationRuns, OptimisationRuns)> {
    let find = |role| configs.iter().find(|config| config.role == role && !config.reports.is_empty());
    Some((OptimisationRuns::of(find(Role::Sequential)?)?, OptimisationRuns::of(find(Role::Explained)?)?))
}

/// The anomaly in one line: the sign and size of the search overhead and what it means,
/// the time to the best solution and to the proof; `None` for a search without objective.
pub fn anomaly_line(configs: &[ConfigRuns]) -> Option<String> {
    let (sequential, parallel) = pair(configs)?;
    let overhead = parallel.nodes.0 / sequential.nodes.0.max(1.0) - 1.0;
    let kind = if overhead > NO_ANOMALY_SHARE {
        format!(
            "detrimental anomaly: {} explored {:+.1}% nodes against sequential ({} vs {}), subtrees the sequential \
             search cut because its incumbent was already better there",
            parallel.label,
            overhead * 100.0,
            format::count(parallel.nodes.0.round() as u64),
            format::count(sequential.nodes.0.round() as u64)
        )
    } else if overhead < -NO_ANOMALY_SHARE {
        format!(
            "acceleration anomaly: {} explored {:+.1}% nodes against sequential ({} vs {}), because a worker found a \
             good incumbent early and every worker cut more",
            parallel.label,
            overhead * 100.0,
            format::count(parallel.nodes.0.round() as u64),
            format::count(sequential.nodes.0.round() as u64)
        )
    } else {
        format!("no anomaly: {} explored the sequential number of nodes (within 0.5%)", parallel.label)
    };
    Some(format!(
        "branch and bound, {kind}; the best solution ({}) after {} (sequential {}), the proof after it took {} \
         (sequential {}); nodes ranged from {} to {} over {} runs (they depend on when the incumbent improved: \
         search overhead, not a bug)",
        parallel.best.map_or("none".to_string(), |best| best.to_string()),
        format::duration_ns(parallel.time_to_best_ns.round() as u64),
        format::duration_ns(sequential.time_to_best_ns.round() as u64),
        format::duration_ns(parallel.proof_phase_ns.round() as u64),
        format::duration_ns(sequential.proof_phase_ns.round() as u64),
        format::count(parallel.nodes.1),
        format::count(parallel.nodes.2),
        parallel.runs
    ))
}

/// The markdown section of an optimising search: the anomaly line and a table of every
/// configuration's best, nodes, time to best and proof phase; `None` without objective.
pub fn section(configs: &[ConfigRuns]) -> Option<String> {
    let line = anomaly_line(configs)?;
    let mut text = format!("## Branch and bound\n\n{line}.\n\n");
    text.push_str(
        "| configuration | runs | best | proven | nodes (median) | fewest | most | time to best | proof phase | \
         wall |\n|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for runs in configs.iter().filter_map(OptimisationRuns::of) {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            runs.label,
            runs.runs,
            runs.best.map_or("-".to_string(), |best| best.to_string()),
            if runs.proven { "yes" } else { "no" },
            format::count(runs.nodes.0.round() as u64),
            format::count(runs.nodes.1),
            format::count(runs.nodes.2),
            format::duration_ns(runs.time_to_best_ns.round() as u64),
            format::duration_ns(runs.proof_phase_ns.round() as u64),
            format::duration_ns(runs.wall_ns.round() as u64)
        );
    }
    text.push_str(
        "\nThe time to best runs from the search's start to the last improvement of the incumbent; the proof phase \
         is the rest, in which every open subtree is shown unable to beat it. The search-overhead cause below is \
         this node difference priced at the one-thread cost per node.\n\n",
    );
    Some(text)
}
