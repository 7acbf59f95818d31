//! The words of a decomposition: each cause's short number and evidence line, each
//! measured term's evidence, the unexplained line, the granularity judgement and the bugs
//! found in the measurements. Text only; [`super::decompose`] does the arithmetic and calls
//! these for the strings it stores.

use super::causes::{CauseKind, TermKind};
use super::measurements::{ratio, Measurements, StrategyKind};
use crate::format;

/// The 30-100 tasks per worker of the Embarrassingly Parallel Search papers.
pub const TASKS_PER_WORKER_GUIDE: (f64, f64) = (30.0, 100.0);

/// Tasks shorter than this pay a scheduling cost of the same order as their work.
const FINE_TASK_NS: f64 = 20_000.0;

const NOT_MEASURED: &str = "not measured";

/// The short number and the evidence line of a measured cause (`unexplained` is worded by
/// [`unexplained_number_and_evidence`], from what the arithmetic left over).
pub(super) fn cause_number_and_evidence(cause: CauseKind, m: &Measurements) -> (String, String) {
    match cause {
        CauseKind::SearchOverhead => (
            format!("node ratio {:.3}", ratio(m.parallel.nodes, m.sequential.nodes)),
            format!(
                "{} nodes at {} threads, {} at 1 thread, {} sequentially",
                count(m.parallel.nodes),
                m.threads,
                count(m.one_thread.nodes),
                count(m.sequential.nodes)
            ),
        ),
        CauseKind::PerNodeCost => (
            format!(
                "{} vs {} per node",
                format::duration(m.parallel.busy_per_node()),
                format::duration(m.sequential_ns_per_node())
            ),
            format!(
                "busy time per node in tasks: {} sequential, {} at 1 thread, {} at {} threads",
                format::duration(m.sequential_ns_per_node()),
                format::duration(m.one_thread.busy_per_node()),
                format::duration(m.parallel.busy_per_node()),
                m.threads
            ),
        ),
        CauseKind::WaitingForFirstTask => match m.idle {
            Some(split) => (
                format!("{} per worker", format::duration(split.before_first_task_ns / m.threads.max(1) as f64)),
                "workers wait while the frontier is listed on one thread and the pool wakes up".to_string(),
            ),
            None => (NOT_MEASURED.to_string(), NOT_MEASURED.to_string()),
        },
        CauseKind::IdleBetweenTasks => idle_between_tasks(m),
        CauseKind::Tail => match m.idle {
            Some(split) => (
                format!("{} per worker", format::duration(split.after_last_task_ns / m.threads.max(1) as f64)),
                format!(
                    "the last tasks ran while other workers had none left; imbalance {:.2} (max/mean busy)",
                    m.imbalance
                ),
            ),
            None => (NOT_MEASURED.to_string(), NOT_MEASURED.to_string()),
        },
        CauseKind::Unexplained => (String::new(), String::new()),
    }
}

/// What idle time between tasks means for the strategy, with its task granularity.
fn idle_between_tasks(m: &Measurements) -> (String, String) {
    let tasks = m.tasks_per_worker.map_or(NOT_MEASURED.to_string(), count);
    let median = m.task_ns_median.map_or(NOT_MEASURED.to_string(), format::duration);
    let granularity = format!(
        "{tasks} tasks per worker, median task {median} (guide {}-{} tasks per worker): {}",
        TASKS_PER_WORKER_GUIDE.0,
        TASKS_PER_WORKER_GUIDE.1,
        granularity_judgement(m.tasks_per_worker, m.task_ns_median)
    );
    match m.strategy_kind() {
        StrategyKind::Splitting => (
            format!("{} steals, {tasks} tasks per worker", count(m.steals)),
            format!("waiting for a busy worker to split off a branch; {granularity}"),
        ),
        StrategyKind::Naive => (
            format!("{tasks} tasks per worker"),
            format!("taking the next batch of leaves from the one shared, locked iterator; {granularity}"),
        ),
        StrategyKind::Frontier => (
            match m.task_ns_median {
                Some(_) => format!("{tasks} tasks per worker, {median} each"),
                None => format!("{tasks} tasks per worker"),
            },
            granularity,
        ),
    }
}

/// What was measured for one term of the lost time, in words with numbers.
pub(super) fn term_evidence(term: TermKind, m: &Measurements) -> String {
    let (idle, idle_measured) = m.idle_split();
    match term {
        TermKind::SearchOverhead => format!(
            "{} nodes at {} threads, {} sequentially, at {} per node",
            count(m.parallel.nodes),
            m.threads,
            count(m.sequential.nodes),
            format::duration(m.sequential_ns_per_node())
        ),
        TermKind::AtOneThread => format!(
            "a node in a task costs {} at 1 thread vs {} sequentially (path replay, per-task setup)",
            format::duration(m.one_thread.busy_per_node()),
            format::duration(m.sequential_ns_per_node())
        ),
        TermKind::CheaperNodesAtThreads => format!(
            "a node in a task costs {} at {} threads vs {} at 1 thread",
            format::duration(m.parallel.busy_per_node()),
            m.threads,
            format::duration(m.one_thread.busy_per_node())
        ),
        TermKind::Descheduled | TermKind::Oversubscription => format!(
            "workers were in tasks {} and the process used {} of CPU: at least the difference was spent without a CPU{}",
            format::duration(m.parallel.busy_ns),
            format::duration(m.parallel.cpu_ns),
            match (m.oversubscribed(), m.at_available_cpus_ns) {
                (true, Some(at_cpus)) => format!(
                    " ({} threads on {} CPUs; {} at {} threads)",
                    m.threads,
                    m.available_cpus,
                    format::duration(at_cpus),
                    m.available_cpus
                ),
                (true, None) => format!(" ({} threads on {} CPUs)", m.threads, m.available_cpus),
                _ => " (another process, or a lower bound when spinning threads add CPU time)".to_string(),
            }
        ),
        // Without its A/B run there is no such term; the words say so should one be asked.
        TermKind::Contention => match m.contended_and_padded_ns() {
            Some((used_ns, padded_ns)) => format!(
                "{} counters take {} vs {} padded at {} threads",
                m.counters,
                format::duration(used_ns),
                format::duration(padded_ns),
                m.threads
            ),
            None => NOT_MEASURED.to_string(),
        },
        TermKind::Allocation => match m.cloning_ab() {
            Some(ab) => format!(
                "cloning costs {} sequentially and {} at {} threads",
                format::factor(ratio(ab.sequential_clone_ns, ab.sequential_undo_ns)),
                format::factor(ratio(ab.parallel_clone_ns, ab.parallel_undo_ns)),
                m.threads
            ),
            None => NOT_MEASURED.to_string(),
        },
        TermKind::MoreThreads => format!(
            "a node in a task costs {} at {} threads vs {} at 1 thread (shared cache lines, locks, memory bandwidth, a lower clock)",
            format::duration(m.parallel.busy_per_node()),
            m.threads,
            format::duration(m.one_thread.busy_per_node())
        ),
        TermKind::WaitingForFirstTask => format!(
            "{} of worker time before the first task, less the {} nodes of the frontier listing at the sequential cost",
            format::duration(idle.before_first_task_ns),
            count(m.parallel.nodes - m.parallel.task_nodes)
        ),
        TermKind::IdleBetweenTasks => format!(
            "{} of worker time between tasks{}",
            format::duration(idle.between_tasks_ns),
            if idle_measured { "" } else { " (idle not split by time: all of it counted here)" }
        ),
        TermKind::Tail => {
            format!("{} of worker time after a worker's last task", format::duration(idle.after_last_task_ns))
        }
    }
}

/// The number and evidence of `unexplained`: `unexplained_ns` of wall time left over, and
/// `scale`, the factor the causes were scaled by when they over-explained the loss.
pub(super) fn unexplained_number_and_evidence(unexplained_ns: f64, scale: f64) -> (String, String) {
    let evidence = if scale > 0.0 && scale < 1.0 {
        format!(
            "the measured parts over-explained the loss; every cause is scaled by {scale:.3} (medians of separate quantities do not add up exactly)"
        )
    } else {
        "lost time the medians of the measured parts do not cover (they are medians of separate quantities)".to_string()
    };
    (format::duration(unexplained_ns), evidence)
}

/// Whether tasks are too coarse, too fine or within the guideline.
pub fn granularity_judgement(tasks_per_worker: Option<f64>, task_ns_median: Option<f64>) -> &'static str {
    match (tasks_per_worker, task_ns_median) {
        (Some(count), _) if count < TASKS_PER_WORKER_GUIDE.0 => "too coarse: few tasks per worker, expect a tail",
        (_, Some(task)) if task < FINE_TASK_NS => "too fine: tasks this short pay scheduling as often as work",
        (Some(count), _) if count > TASKS_PER_WORKER_GUIDE.1 => "finer than the guideline",
        (Some(_), _) => "within the guideline",
        (None, _) => NOT_MEASURED,
    }
}

/// Problems in the measurements themselves: an exhaustive search must visit exactly the
/// sequential nodes at any thread count, so any other count is a bug in the strategy.
pub(super) fn bugs(m: &Measurements) -> Vec<String> {
    let mut bugs = Vec::new();
    if m.exhaustive {
        let at_threads = format!("at {} threads", m.threads);
        for (label, nodes) in [("at 1 thread", m.one_thread.nodes), (at_threads.as_str(), m.parallel.nodes)] {
            if nodes != m.sequential.nodes {
                bugs.push(format!(
                    "exhaustive search visited {} nodes {label} but {} sequentially (node ratio {:.6}): the parallel strategy loses or repeats work",
                    count(nodes),
                    count(m.sequential.nodes),
                    ratio(nodes, m.sequential.nodes)
                ));
            }
        }
    }
    bugs
}

/// A (median) count as a whole number with thousands separators.
fn count(value: f64) -> String {
    format::count(value.max(0.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn granularity_is_judged_against_the_guideline() {
        assert_eq!(granularity_judgement(Some(4.0), Some(1e6)), "too coarse: few tasks per worker, expect a tail");
        assert!(granularity_judgement(Some(900.0), Some(9_000.0)).starts_with("too fine"));
        assert_eq!(granularity_judgement(Some(50.0), Some(50_000.0)), "within the guideline");
        assert_eq!(granularity_judgement(None, None), "not measured");
    }
}
