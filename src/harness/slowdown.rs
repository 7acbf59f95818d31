//! EXPLAIN HOOK: why more threads were slower. Its answer fills the `why_slower` column of
//! `<sweep>-summary.csv` and the "why slower" column of the threads tables in
//! `results/README.md`.
//!
//! `summary` calls [`why_slower`] for every completed configuration with more than one
//! thread. It answers only for configurations that were slower than the sequential run or
//! than fewer threads of the same strategy, by feeding the summary rows of the group into
//! the `explain` decomposition ([`crate::explain::decompose`]) and naming the largest
//! causes. This is the one place to change when the analysis grows (A/B reruns, per-depth
//! data): keep the signature.

use super::summary::SummaryRow;
use crate::explain::{decompose, Measurements};

/// Causes below this share of the lost time are not named.
const MIN_SHARE_NAMED: f64 = 0.10;

/// Why `row` (more than one thread) was slower, given every row of its group (same
/// instance, knobs, mode and state: the sequential row and each strategy and thread
/// count). Empty when it was not slower or the group lacks its sequential row.
pub fn why_slower(row: &SummaryRow, group: &[&SummaryRow]) -> String {
    let Some(sequential) = group.iter().find(|other| other.is_sequential() && other.runs > 0) else {
        return String::new();
    };
    let same_strategy =
        |other: &&&SummaryRow| other.strategy == row.strategy && other.counters == row.counters && other.runs > 0;
    let slower_than_fewer_threads = group
        .iter()
        .filter(same_strategy)
        .any(|other| other.threads < row.threads && other.wall_ns_median < row.wall_ns_median);
    let slower_than_sequential = row.wall_ns_median > sequential.wall_ns_median;
    if !slower_than_sequential && !slower_than_fewer_threads {
        return String::new();
    }
    let one_thread = group.iter().filter(same_strategy).find(|other| other.threads == 1).copied().unwrap_or(sequential);
    let cpu = |other: &SummaryRow| (other.user_cpu_ns_median + other.system_cpu_ns_median) as f64;
    let cores = row.available_parallelism;
    let measurements = Measurements {
        threads: row.threads,
        available_cpus: cores,
        exhaustive: row.mode == "all",
        sequential_ns: sequential.wall_ns_median as f64,
        sequential_nodes: sequential.nodes,
        sequential_cpu_ns: cpu(sequential),
        one_thread_ns: one_thread.wall_ns_median as f64,
        one_thread_cpu_ns: cpu(one_thread),
        one_thread_nodes: one_thread.nodes,
        parallel_ns: row.wall_ns_median as f64,
        parallel_nodes: row.nodes,
        parallel_cpu_ns: cpu(row),
        idle_share: row.idle_share,
        imbalance: row.imbalance,
        task_ns_median: 0.0,
        subproblems_per_worker: row.subproblems_per_worker.unwrap_or(0.0),
        steals: row.steals,
        at_available_cpus_ns: (row.threads > cores)
            .then(|| group.iter().filter(same_strategy).find(|other| other.threads == cores))
            .flatten()
            .map(|other| other.wall_ns_median as f64),
        with_padded_counters_ns: (row.counters != "padded")
            .then(|| {
                group.iter().find(|other| {
                    other.strategy == row.strategy
                        && other.threads == row.threads
                        && other.counters == "padded"
                        && other.runs > 0
                })
            })
            .flatten()
            .map(|other| other.wall_ns_median as f64),
        with_undo_ns: None,
    };
    let verdict = decompose(&measurements);
    let mut parts: Vec<String> = verdict.bugs.iter().map(|bug| format!("BUG: {bug}")).collect();
    parts.extend(
        verdict
            .causes
            .iter()
            .filter(|cause| cause.share >= MIN_SHARE_NAMED)
            .map(|cause| format!("{} {:.0}%", cause.name, cause.share * 100.0)),
    );
    if parts.is_empty() {
        parts.push("no cause above 10% of the lost time".to_string());
    }
    let scope = if slower_than_sequential { "slower than sequential" } else { "slower than fewer threads" };
    format!("{scope}: {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(strategy: &str, threads: usize, wall_ns: u64, idle_share: f64) -> SummaryRow {
        SummaryRow {
            strategy: strategy.into(),
            threads,
            counters: "padded".into(),
            mode: "all".into(),
            runs: 3,
            nodes: 1000,
            wall_ns_median: wall_ns,
            user_cpu_ns_median: wall_ns * threads as u64,
            idle_share,
            available_parallelism: 2,
            ..SummaryRow::default()
        }
    }

    #[test]
    fn a_faster_run_needs_no_explanation() {
        let (sequential, two) = (row("sequential", 1, 1000, 0.0), row("auto", 2, 600, 0.1));
        assert_eq!(why_slower(&two, &[&sequential, &two]), "");
    }

    #[test]
    fn a_slower_run_names_its_largest_cause() {
        let sequential = row("sequential", 1, 1000, 0.0);
        let one = row("auto", 1, 1000, 0.0);
        let two = row("auto", 2, 1200, 0.6);
        let why = why_slower(&two, &[&sequential, &one, &two]);
        assert!(why.starts_with("slower than sequential: idle workers"), "{why}");
    }
}
