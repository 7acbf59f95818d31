//! The arithmetic of `explain`: from measured runs to the lost time split into causes.
//!
//! With `T1` the sequential wall time and `N` threads, the ideal parallel time is `T1 / N`
//! and the lost time is `TN - T1 / N`. Each cause is a measured quantity turned into wall
//! time on the same scale:
//!
//! - parallel overhead: `(T_par1 - T1) / N`, the cost of the parallel machinery seen at one
//!   thread, spread over `N` workers;
//! - search overhead: `(nodes_N / nodes_1 - 1) * T1 / N`, extra nodes (first-solution
//!   searches only; an exhaustive search with a ratio other than 1 is a bug);
//! - per-node cost: `(cpu_ns_per_node_N - cpu_ns_per_node_par1) * nodes_N / N`, work that got
//!   dearer per node with more threads (cache lines moving between cores, locks);
//! - idle: `idle_share * TN`, capacity lost while workers waited for work;
//! - oversubscription: `TN - T_at_cpus`, when `N` exceeds the available CPUs;
//! - contention and allocation: `TN - TN_with_padded_counters` and `TN - TN_with_undo`,
//!   A/B reruns that apply only when the run uses a shared or unpadded counter or clones
//!   its state.
//!
//! What the causes do not cover is reported as unexplained, never hidden.

use serde::Serialize;

/// The measurements one explanation needs (medians of repeated runs, nanoseconds).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Measurements {
    /// Threads of the parallel run.
    pub threads: usize,
    /// CPUs available to the process.
    pub available_cpus: usize,
    /// Whether the search was exhaustive (all solutions).
    pub exhaustive: bool,
    /// Sequential wall time.
    pub sequential_ns: f64,
    /// Sequential nodes.
    pub sequential_nodes: u64,
    /// Sequential CPU time (user + system).
    pub sequential_cpu_ns: f64,
    /// The parallel strategy at one thread: wall time.
    pub one_thread_ns: f64,
    /// The parallel strategy at one thread: CPU time.
    pub one_thread_cpu_ns: f64,
    /// The parallel strategy at one thread: nodes.
    pub one_thread_nodes: u64,
    /// The parallel run at `threads`: wall time.
    pub parallel_ns: f64,
    /// Its nodes.
    pub parallel_nodes: u64,
    /// Its CPU time (user + system).
    pub parallel_cpu_ns: f64,
    /// Share of worker time spent idle (0..1).
    pub idle_share: f64,
    /// Busiest worker's busy time over the mean.
    pub imbalance: f64,
    /// Median task duration.
    pub task_ns_median: f64,
    /// Subproblems made per worker.
    pub subproblems_per_worker: f64,
    /// Steals.
    pub steals: u64,
    /// Wall time of the same run at `available_cpus` threads, when `threads` exceeds them.
    pub at_available_cpus_ns: Option<f64>,
    /// Wall time of the same run with padded per-worker counters, when it used others.
    pub with_padded_counters_ns: Option<f64>,
    /// Wall time of the same run restoring state by undo, when it cloned state.
    pub with_undo_ns: Option<f64>,
}

/// One cause of lost time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cause {
    /// Short name (`idle`, `per-node cost`, ...).
    pub name: &'static str,
    /// Wall time this cause accounts for (may be negative: a gain).
    pub lost_ns: f64,
    /// Its share of the lost time (`lost_ns / total lost`), 0 when nothing was lost.
    pub share: f64,
    /// The measured evidence, in words with numbers.
    pub evidence: String,
    /// What to do about it.
    pub advice: &'static str,
}

/// The ranked explanation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// Speedup `T1 / TN`.
    pub speedup: f64,
    /// Ideal time `T1 / N`.
    pub ideal_ns: f64,
    /// Lost time `TN - T1 / N`.
    pub lost_ns: f64,
    /// Whether the parallel run was slower than the sequential one.
    pub slower_than_sequential: bool,
    /// Causes, largest share first; the last entry is what remained unexplained.
    pub causes: Vec<Cause>,
    /// Problems found in the measurements themselves (an exhaustive node ratio other than 1).
    pub bugs: Vec<String>,
}

/// The 30-100 subproblems per worker of the Embarrassingly Parallel Search papers.
pub const SUBPROBLEMS_PER_WORKER_GUIDE: (f64, f64) = (30.0, 100.0);

/// Splits the lost time of `m` into causes.
pub fn decompose(m: &Measurements) -> Verdict {
    let threads = m.threads.max(1) as f64;
    let ideal_ns = m.sequential_ns / threads;
    let lost_ns = m.parallel_ns - ideal_ns;
    let per_node = |cpu: f64, nodes: u64| if nodes == 0 { 0.0 } else { cpu / nodes as f64 };
    let node_ratio = if m.sequential_nodes == 0 { 1.0 } else { m.parallel_nodes as f64 / m.sequential_nodes as f64 };
    let sequential_per_node = per_node(m.sequential_cpu_ns, m.sequential_nodes);
    let one_thread_per_node = per_node(m.one_thread_cpu_ns, m.one_thread_nodes);
    let parallel_per_node = per_node(m.parallel_cpu_ns, m.parallel_nodes);
    let mut causes = vec![
        Cause {
            name: "parallel overhead",
            lost_ns: (m.one_thread_ns - m.sequential_ns) / threads,
            share: 0.0,
            evidence: format!(
                "the strategy at 1 thread takes {:.2}x the sequential time ({:.1} vs {:.1} ns CPU per node)",
                ratio(m.one_thread_ns, m.sequential_ns),
                one_thread_per_node,
                sequential_per_node
            ),
            advice: "make tasks bigger (a shallower split depth, a larger budget) so that scheduling and path replay are paid less often",
        },
        Cause {
            name: "search overhead",
            lost_ns: (node_ratio - 1.0) * m.sequential_ns / threads,
            share: 0.0,
            evidence: format!("{} nodes in parallel vs {} sequentially (ratio {node_ratio:.3})", m.parallel_nodes, m.sequential_nodes),
            advice: "first-solution searches explore other branches while one worker is near a solution: order values better or accept it",
        },
        Cause {
            name: "per-node cost",
            lost_ns: (parallel_per_node - one_thread_per_node) * m.parallel_nodes as f64 / threads,
            share: 0.0,
            evidence: format!(
                "{parallel_per_node:.1} ns CPU per node at {} threads vs {one_thread_per_node:.1} at 1 thread",
                m.threads
            ),
            advice: "look for shared writes per node (counters, locks, an allocator): keep per-node state thread-local",
        },
        Cause {
            name: "idle workers",
            lost_ns: m.idle_share * m.parallel_ns,
            share: 0.0,
            evidence: format!(
                "{:.1}% of worker time idle, imbalance {:.2} (max/mean busy), {:.1} subproblems per worker (guide {}-{}), median task {:.0} ns, {} steals",
                m.idle_share * 100.0,
                m.imbalance,
                m.subproblems_per_worker,
                SUBPROBLEMS_PER_WORKER_GUIDE.0,
                SUBPROBLEMS_PER_WORKER_GUIDE.1,
                m.task_ns_median,
                m.steals
            ),
            advice: "split deeper (auto with more subproblems per worker) or use work stealing so that the last tasks do not run alone",
        },
    ];
    if let Some(at_cpus) = m.at_available_cpus_ns {
        causes.push(Cause {
            name: "oversubscription",
            lost_ns: m.parallel_ns - at_cpus,
            share: 0.0,
            evidence: format!(
                "{} threads on {} CPUs: {:.2}x the time at {} threads",
                m.threads,
                m.available_cpus,
                ratio(m.parallel_ns, at_cpus),
                m.available_cpus
            ),
            advice: "use at most as many threads as available CPUs",
        });
    }
    if let Some(padded) = m.with_padded_counters_ns {
        causes.push(Cause {
            name: "contention",
            lost_ns: m.parallel_ns - padded,
            share: 0.0,
            evidence: format!("{:.2}x the time with per-worker padded counters", ratio(m.parallel_ns, padded)),
            advice: "count per worker in cache-padded slots and add the counts up at the end",
        });
    }
    if let Some(undo) = m.with_undo_ns {
        causes.push(Cause {
            name: "allocation",
            lost_ns: m.parallel_ns - undo,
            share: 0.0,
            evidence: format!("{:.2}x the time with do/undo instead of cloning the state", ratio(m.parallel_ns, undo)),
            advice: "restore state by undoing moves; do not clone or allocate per node",
        });
    }
    let explained: f64 = causes.iter().map(|cause| cause.lost_ns).sum();
    causes.push(Cause {
        name: "unexplained",
        lost_ns: lost_ns - explained,
        share: 0.0,
        evidence: "lost time no measured cause accounts for (noise, frequency scaling, causes counted twice)"
            .to_string(),
        advice: "repeat the measurement; compare user and system CPU time",
    });
    for cause in &mut causes {
        cause.share = if lost_ns > 0.0 { cause.lost_ns / lost_ns } else { 0.0 };
    }
    let unexplained = causes.pop().expect("pushed above");
    causes.sort_by(|a, b| b.lost_ns.total_cmp(&a.lost_ns));
    causes.push(unexplained);
    let mut bugs = Vec::new();
    if m.exhaustive && m.parallel_nodes != m.sequential_nodes {
        bugs.push(format!(
            "exhaustive search visited {} nodes in parallel but {} sequentially: the parallel strategy loses or repeats work",
            m.parallel_nodes, m.sequential_nodes
        ));
    }
    Verdict {
        speedup: ratio(m.sequential_ns, m.parallel_ns),
        ideal_ns,
        lost_ns,
        slower_than_sequential: m.parallel_ns > m.sequential_ns,
        causes,
        bugs,
    }
}

fn ratio(numerator: f64, denominator: f64) -> f64 {
    if denominator > 0.0 {
        numerator / denominator
    } else {
        f64::NAN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Measurements {
        Measurements {
            threads: 2,
            available_cpus: 2,
            exhaustive: true,
            sequential_ns: 1000.0,
            sequential_nodes: 1000,
            sequential_cpu_ns: 1000.0,
            one_thread_ns: 1000.0,
            one_thread_cpu_ns: 1000.0,
            one_thread_nodes: 1000,
            parallel_ns: 500.0,
            parallel_nodes: 1000,
            parallel_cpu_ns: 1000.0,
            ..Measurements::default()
        }
    }

    fn share_of(verdict: &Verdict, name: &str) -> f64 {
        verdict.causes.iter().find(|cause| cause.name == name).map_or(0.0, |cause| cause.share)
    }

    #[test]
    fn a_perfect_speedup_loses_nothing() {
        let verdict = decompose(&base());
        assert_eq!(verdict.speedup, 2.0);
        assert_eq!(verdict.lost_ns, 0.0);
        assert!(verdict.causes.iter().all(|cause| cause.lost_ns.abs() < 1e-9));
        assert!(verdict.bugs.is_empty());
    }

    #[test]
    fn costlier_nodes_under_a_lock_rank_first() {
        // The naive strategy's story: 1 thread already 1.5x, and 2 threads pay 3 ns per
        // node instead of 1.5: slower than sequential, per-node cost first.
        let m = Measurements {
            one_thread_ns: 1500.0,
            one_thread_cpu_ns: 1500.0,
            parallel_ns: 1500.0,
            parallel_cpu_ns: 3000.0,
            ..base()
        };
        let verdict = decompose(&m);
        assert!(verdict.slower_than_sequential);
        assert_eq!(verdict.lost_ns, 1000.0);
        assert_eq!(verdict.causes[0].name, "per-node cost");
        assert_eq!(share_of(&verdict, "per-node cost"), 0.75);
        assert_eq!(share_of(&verdict, "parallel overhead"), 0.25);
        assert_eq!(verdict.causes.last().map(|cause| cause.lost_ns), Some(0.0));
    }

    #[test]
    fn idle_workers_and_oversubscription_are_measured_shares() {
        let m = Measurements {
            threads: 4,
            available_cpus: 2,
            parallel_ns: 500.0,
            idle_share: 0.3,
            at_available_cpus_ns: Some(400.0),
            ..base()
        };
        let verdict = decompose(&m);
        assert_eq!(verdict.lost_ns, 250.0);
        assert_eq!(share_of(&verdict, "idle workers"), 0.6);
        assert_eq!(share_of(&verdict, "oversubscription"), 0.4);
        assert_eq!(verdict.causes[0].name, "idle workers");
    }

    #[test]
    fn an_exhaustive_node_mismatch_is_reported_as_a_bug() {
        let m = Measurements { parallel_nodes: 1001, ..base() };
        assert_eq!(decompose(&m).bugs.len(), 1);
        let first_solution = Measurements { exhaustive: false, parallel_nodes: 1500, parallel_ns: 750.0, ..base() };
        let verdict = decompose(&first_solution);
        assert!(verdict.bugs.is_empty());
        assert_eq!(verdict.causes[0].name, "search overhead");
        assert_eq!(share_of(&verdict, "search overhead"), 1.0);
    }

    #[test]
    fn contention_and_allocation_come_from_their_ab_runs() {
        let m = Measurements {
            parallel_ns: 900.0,
            with_padded_counters_ns: Some(600.0),
            with_undo_ns: Some(800.0),
            ..base()
        };
        let verdict = decompose(&m);
        assert_eq!(verdict.lost_ns, 400.0);
        assert_eq!(share_of(&verdict, "contention"), 0.75);
        assert_eq!(share_of(&verdict, "allocation"), 0.25);
    }
}
