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
    /// Median nodes entered before the best solution was found, estimated from the run's
    /// node rate (nodes x time to best / wall: a steady rate assumed).
    pub nodes_to_best: f64,
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
            nodes_to_best: of_runs(&|report| {
                report.nodes as f64 * (to_best(report) / (report.elapsed_ns as f64).max(1.0)).min(1.0)
            }),
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
/// the time to the best solution and to the proof; `None` for a search without objective,
/// and for a first-solution search (no best, no proof: a first solution of an optimising
/// family is not its best).
pub fn anomaly_line(configs: &[ConfigRuns]) -> Option<String> {
    if configs.iter().any(|config| config.settings.mode == crate::run::SearchMode::First) {
        return None;
    }
    let (sequential, parallel) = pair(configs)?;
    let overhead = parallel.nodes.0 / sequential.nodes.0.max(1.0) - 1.0;
    let kind = if overhead > NO_ANOMALY_SHARE {
        format!(
            "detrimental anomaly: {} explored {:+.1}% nodes against sequential ({} vs {}), subtrees the sequential \
             search cut: where its incumbent was already better, or (for moves in bound order) siblings past a \
             bound cut that it left unentered and a split handed out to be entered and cut one by one",
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
    // Equal counts in every run (as `replicable` makes them) are said as such: "ranged
    // from 139 to 139 ... they depend on when the incumbent improved" read as a contradiction.
    let spread = if parallel.runs == 1 {
        format!("{} nodes in its one run", format::count(parallel.nodes.1))
    } else if parallel.nodes.1 == parallel.nodes.2 {
        format!("the same {} nodes in each of {} runs", format::count(parallel.nodes.1), parallel.runs)
    } else {
        format!(
            "nodes ranged from {} to {} over {} runs (they depend on when the incumbent improved: search overhead, \
             not a bug)",
            format::count(parallel.nodes.1),
            format::count(parallel.nodes.2),
            parallel.runs
        )
    };
    Some(format!(
        "branch and bound, {kind}; {}; the best solution ({}) after {} (sequential {}), the proof after it took {} \
         (sequential {}); {spread}",
        phase_split(&sequential, &parallel),
        parallel.best.map_or("none".to_string(), |best| best.to_string()),
        format::duration_ns(parallel.time_to_best_ns.round() as u64),
        format::duration_ns(sequential.time_to_best_ns.round() as u64),
        format::duration_ns(parallel.proof_phase_ns.round() as u64),
        format::duration_ns(sequential.proof_phase_ns.round() as u64),
    ))
}

/// The search overhead split between the two phases of branch and bound, estimated from
/// each run's node rate: the nodes entered before the best solution was found (more than
/// sequentially: workers searched under a worse incumbent than the sequential search had,
/// a detrimental share; fewer: a worker found the best early, an acceleration) and those of
/// the proof after it (more: subtrees searched in another order than the sequential cut
/// them in, or before the best reached every worker).
fn phase_split(sequential: &OptimisationRuns, parallel: &OptimisationRuns) -> String {
    let finding = parallel.nodes_to_best - sequential.nodes_to_best;
    let proving = (parallel.nodes.0 - parallel.nodes_to_best) - (sequential.nodes.0 - sequential.nodes_to_best);
    let name = |delta: f64, more: &str, fewer: &str| if delta >= 0.0 { more.to_string() } else { fewer.to_string() };
    format!(
        "of the node difference, {} before the best solution was found ({}; {} vs {}) and {} in the proof phase \
         ({}; {} vs {}), estimated from each run's node rate",
        signed_count(finding),
        name(
            finding,
            "a detrimental share: searched under a worse incumbent",
            "an acceleration: fewer nodes before the best"
        ),
        format::count(parallel.nodes_to_best.round() as u64),
        format::count(sequential.nodes_to_best.round() as u64),
        signed_count(proving),
        name(proving, "proof overhead", "a shorter proof"),
        format::count((parallel.nodes.0 - parallel.nodes_to_best).round().max(0.0) as u64),
        format::count((sequential.nodes.0 - sequential.nodes_to_best).round().max(0.0) as u64),
    )
}

/// A node difference with its sign (`+1,234`, `-56`).
fn signed_count(delta: f64) -> String {
    let sign = if delta < 0.0 { "-" } else { "+" };
    format!("{sign}{}", format::count(delta.abs().round() as u64))
}

/// The markdown section of an optimising search: the anomaly line and a table of every
/// configuration's best, nodes, time to best and proof phase; `None` without objective.
pub fn section(configs: &[ConfigRuns]) -> Option<String> {
    let line = anomaly_line(configs)?;
    let mut text = format!("## Branch and bound\n\n{line}.\n\n");
    text.push_str(
        "| configuration | runs | best | proven | nodes (median) | fewest | most | nodes to best (est.) | time to \
         best | proof phase | wall |\n|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for runs in configs.iter().filter_map(OptimisationRuns::of) {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            runs.label,
            runs.runs,
            runs.best.map_or("-".to_string(), |best| best.to_string()),
            if runs.proven { "yes" } else { "no" },
            format::count(runs.nodes.0.round() as u64),
            format::count(runs.nodes.1),
            format::count(runs.nodes.2),
            format::count(runs.nodes_to_best.round() as u64),
            format::duration_ns(runs.time_to_best_ns.round() as u64),
            format::duration_ns(runs.proof_phase_ns.round() as u64),
            format::duration_ns(runs.wall_ns.round() as u64)
        );
    }
    text.push_str(
        "\nThe time to best runs from the search's start to the last improvement of the incumbent; the proof phase \
         is the rest, in which every open subtree is shown unable to beat it. The nodes to best are estimated from \
         the run's node rate (nodes x time to best / wall). The search-overhead cause below is the node \
         difference priced at the one-thread cost per node.\n\n",
    );
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{self, RunSettings, SearchMode};

    /// A configuration of one run of the small knapsack, its nodes, wall time and time
    /// to best set to the given figures.
    fn runs(role: Role, label: &str, nodes: u64, wall_ns: u64, to_best_ns: u64) -> ConfigRuns {
        let instance = run::instance::load("instances/knapsack_small.json").expect("the small knapsack");
        let settings = RunSettings { mode: SearchMode::Best, ..RunSettings::default() };
        let mut report = run::solve(&instance, &settings).expect("it runs");
        report.nodes = nodes;
        report.elapsed_ns = wall_ns;
        report.objective.as_mut().expect("an objective").time_to_best_ns = Some(to_best_ns);
        ConfigRuns { role, label: label.to_string(), settings, reports: vec![report] }
    }

    #[test]
    fn the_node_difference_is_split_between_finding_the_best_and_proving_it() {
        let configs = [
            runs(Role::Sequential, "sequential", 1_000, 100, 10),
            runs(Role::Explained, "steal at 2 threads", 800, 50, 5),
        ];
        let line = anomaly_line(&configs).expect("an optimising search");
        assert!(line.contains("acceleration anomaly: steal at 2 threads explored -20.0% nodes"), "{line}");
        assert!(line.contains("-20 before the best solution was found (an acceleration"), "{line}");
        assert!(line.contains("-180 in the proof phase (a shorter proof; 720 vs 900)"), "{line}");
        let slower = [
            runs(Role::Sequential, "sequential", 1_000, 100, 10),
            runs(Role::Explained, "steal at 2 threads", 1_500, 100, 40),
        ];
        let line = anomaly_line(&slower).expect("an optimising search");
        assert!(line.contains("detrimental anomaly"), "{line}");
        assert!(line.contains("+500 before the best solution was found (a detrimental share"), "{line}");
        assert!(line.contains("+0 in the proof phase"), "{line}");
        let section = section(&slower).expect("a section");
        assert!(section.contains("| steal at 2 threads | 1 | "), "{section}");
        // One count in every run is said so, not as a range that depends on timing.
        assert!(line.contains("; 1,500 nodes in its one run"), "{line}");
        let mut varied = slower.clone();
        varied[1].reports.push(runs(Role::Explained, "", 1_600, 100, 40).reports.remove(0));
        let line = anomaly_line(&varied).expect("an optimising search");
        assert!(line.contains("nodes ranged from 1,500 to 1,600 over 2 runs (they depend on when"), "{line}");
        varied[1].reports[1].nodes = 1_500;
        let line = anomaly_line(&varied).expect("an optimising search");
        assert!(line.contains("; the same 1,500 nodes in each of 2 runs"), "{line}");
    }
}
