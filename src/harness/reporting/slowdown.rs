//! EXPLAIN HOOK: why more threads were slower. Its answer fills the "why slower" column of
//! the threads tables in `results/README.md`.
//!
//! `tables` calls [`why_slower`] for every completed configuration with more than one
//! thread. It answers only for configurations that were slower than the sequential run or
//! than fewer threads of the same strategy, by feeding the summary rows of the group into
//! the `explain` decomposition (`explain::decompose`) and naming the largest
//! causes. This is the one place to change when the analysis grows (A/B reruns, per-depth
//! data): keep the signature.

use crate::explain::{why_slower_text, CounterComparison, Measurements, RunMeasure};
use crate::harness::storing::summary::SummaryRow;

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
    let measure = |other: &SummaryRow| {
        let wall_ns = other.wall_ns_median as f64;
        RunMeasure {
            wall_ns,
            cpu_ns: other.user_cpu_ns_median as f64 + other.system_cpu_ns_median as f64,
            nodes: other.nodes as f64,
            // The summary keeps no per-worker nodes: every node counted as in a task.
            task_nodes: other.nodes as f64,
            busy_ns: other.threads.max(1) as f64 * wall_ns * (1.0 - other.idle_share),
        }
    };
    let cores = row.available_parallelism;
    let at_threads = |counters: &str| {
        group
            .iter()
            .find(|other| {
                other.strategy == row.strategy
                    && other.threads == row.threads
                    && other.counters == counters
                    && other.runs > 0
            })
            .map(|other| other.wall_ns_median as f64)
    };
    let measurements = Measurements {
        strategy: row.strategy.clone(),
        threads: row.threads,
        available_cpus: cores,
        counters: row.counters.clone(),
        state: row.state.clone(),
        // An optimising search's nodes depend on when the incumbent improved: its count
        // differences are search overhead, not lost or repeated work.
        exhaustive: row.mode == "all" && row.objective_best.is_none(),
        sequential: RunMeasure::sequential(
            sequential.wall_ns_median as f64,
            sequential.user_cpu_ns_median as f64 + sequential.system_cpu_ns_median as f64,
            sequential.nodes as f64,
        ),
        one_thread: measure(one_thread),
        parallel: measure(row),
        // The summary keeps neither per-worker timing nor task durations: not measured.
        idle: None,
        tasks_per_worker: row.subproblems_per_worker,
        task_ns_median: None,
        steals: row.steals as f64,
        imbalance: row.imbalance,
        at_available_cpus_ns: (row.threads > cores)
            .then(|| group.iter().filter(same_strategy).find(|other| other.threads == cores))
            .flatten()
            .map(|other| other.wall_ns_median as f64),
        counters_ab: at_threads("padded").map(|padded_ns| CounterComparison {
            padded_ns,
            shared_ns: at_threads("shared"),
            unpadded_ns: at_threads("unpadded"),
        }),
        // Undo and clone runs fall into different groups: the A/B is not in `group`.
        state_ab: None,
    };
    let scope = if slower_than_sequential { "slower than sequential" } else { "slower than fewer threads" };
    format!("{scope}: {}", why_slower_text(&measurements))
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
        // Idle 60% of 2 x 1200 ns, not split by time in a summary: all between tasks.
        // Idle 60% of 2 x 1200 ns, not split by time in a summary: all between tasks.
        assert!(why.starts_with("slower than sequential: idle between tasks"), "{why}");
        assert!(why.ends_with("not measured here: waiting for first task, tail"), "{why}");
    }
}
