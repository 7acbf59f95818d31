//! The arithmetic of `explain`: from measured runs to the lost time split into causes.
//!
//! With `T1` the sequential wall time and `N` threads, the ideal parallel time is `T1 / N`
//! and the lost time is `TN - T1 / N`. Over the `N` workers of the parallel run, worker time
//! is `N * TN = busy + idle`, so `lost = (busy - T1) / N + idle / N`, and each cause takes
//! one measured part of that sum, in wall time on the same scale:
//!
//! - parallel overhead: `(busy_1 - T1) / N`, task time the strategy adds at one thread
//!   (path replay, per-task setup), spread over `N` workers;
//! - search overhead: `(nodes_N - nodes_1) * busy_1 / nodes_1 / N`, extra nodes (first-solution
//!   searches only; an exhaustive search with a node ratio other than 1 is a bug);
//! - per-node cost: the growth of CPU time per node with more threads (cache lines moving,
//!   locks), less what the A/B reruns below attribute to contention or allocation;
//! - descheduled: the rest of the growth of busy time per node, time a worker was in a
//!   task but not on a CPU (a loaded machine), less what the oversubscription A/B explains;
//! - waiting for the first task, granularity or steals (idle between tasks), tail: the idle
//!   worker time split by when it happened;
//! - oversubscription, contention, allocation: from A/B reruns (at the available CPUs, with
//!   padded counters, restoring by undo), carved out of the per-node and descheduled time
//!   they inflate.
//!
//! Every cause is always listed, marked when it could not be measured. What the causes do
//! not cover is reported as unexplained, never hidden, so the causes sum to the lost time.

use serde::Serialize;

/// One configuration's measured run (the run with the median wall time of its repeats).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunMeasure {
    /// Wall time.
    pub wall_ns: f64,
    /// CPU time of the process (user + system).
    pub cpu_ns: f64,
    /// Nodes entered.
    pub nodes: u64,
    /// Share of worker time spent idle (0..1; 0 for the sequential run).
    pub idle_share: f64,
}

impl RunMeasure {
    /// Worker time spent running tasks, per worker on average times the workers:
    /// `threads * wall * (1 - idle_share)`.
    fn busy_ns(&self, threads: f64) -> f64 {
        threads * self.wall_ns * (1.0 - self.idle_share)
    }

    /// CPU nanoseconds per node (0 without nodes).
    pub fn cpu_ns_per_node(&self) -> f64 {
        if self.nodes == 0 {
            0.0
        } else {
            self.cpu_ns / self.nodes as f64
        }
    }
}

/// When the parallel run's idle worker time happened (shares of all worker time).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct IdleTiming {
    /// Before each worker's first task: the frontier listing, the pool waking up.
    pub before_first_task_share: f64,
    /// After each worker's last task while others were still busy.
    pub after_last_task_share: f64,
    /// Wall time at the end of the run with fewer than all workers busy (the longest
    /// wait after a last task).
    pub tail_ns: f64,
}

/// The counter layouts at `threads`, run A/B (wall times).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterComparison {
    /// The layout the explained run used (`padded`, `shared`, `unpadded`).
    pub used: String,
    /// Wall time with per-worker padded counters.
    pub padded_ns: f64,
    /// Wall time with one shared atomic counter (not measured: `None`).
    pub shared_ns: Option<f64>,
    /// Wall time with per-worker counters on shared cache lines.
    pub unpadded_ns: Option<f64>,
}

/// Restoring state by undo and by cloning, sequentially and at `threads` (wall times).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateComparison {
    /// Whether the explained run cloned its state.
    pub used_clone: bool,
    /// Sequential, undo.
    pub sequential_undo_ns: f64,
    /// Sequential, clone.
    pub sequential_clone_ns: f64,
    /// At `threads`, undo.
    pub parallel_undo_ns: f64,
    /// At `threads`, clone.
    pub parallel_clone_ns: f64,
}

/// The measurements one explanation needs (nanoseconds).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Measurements {
    /// Threads of the parallel run.
    pub threads: usize,
    /// CPUs available to the process.
    pub available_cpus: usize,
    /// Whether the search was exhaustive (all solutions).
    pub exhaustive: bool,
    /// Whether the strategy hands out work by splitting on demand (`steal`, `budget`), so
    /// that idle time between tasks is waiting for a steal rather than scheduling cost.
    pub splits_on_demand: bool,
    /// The sequential run.
    pub sequential: RunMeasure,
    /// The parallel strategy at one thread.
    pub one_thread: RunMeasure,
    /// The parallel strategy at `threads`.
    pub parallel: RunMeasure,
    /// When the parallel run's idle time happened; `None` when not measured.
    pub idle_timing: Option<IdleTiming>,
    /// Busiest worker's busy time over the mean.
    pub imbalance: f64,
    /// Median task duration; `None` when not measured.
    pub task_ns_median: Option<f64>,
    /// Subproblems made per worker; `None` when not measured.
    pub subproblems_per_worker: Option<f64>,
    /// Tasks taken from another worker.
    pub steals: u64,
    /// Wall time at `available_cpus` threads, when `threads` exceeds them and it was run.
    pub at_available_cpus_ns: Option<f64>,
    /// The counter layouts A/B; `None` when not measured.
    pub counters: Option<CounterComparison>,
    /// Undo against clone A/B; `None` when not measured.
    pub state: Option<StateComparison>,
}

/// One cause of lost time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cause {
    /// Short name (`tail`, `per-node cost`, ...).
    pub name: &'static str,
    /// Wall time this cause accounts for (negative: a gain; 0 when not measured).
    pub lost_ns: f64,
    /// Its share of the lost time (`lost_ns / total lost`), 0 when nothing was lost.
    pub share: f64,
    /// Whether the measurement behind it was taken.
    pub measured: bool,
    /// The number behind it, short (`2.71x at 1 thread`, `ratio 1.000`).
    pub number: String,
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
    /// Every cause, largest lost time first; the last entry is what remained unexplained.
    pub causes: Vec<Cause>,
    /// Problems found in the measurements themselves (an exhaustive node ratio other than 1).
    pub bugs: Vec<String>,
}

impl Verdict {
    /// The cause named `name`.
    pub fn cause(&self, name: &str) -> Option<&Cause> {
        self.causes.iter().find(|cause| cause.name == name)
    }
}

/// The 30-100 subproblems per worker of the Embarrassingly Parallel Search papers.
pub const SUBPROBLEMS_PER_WORKER_GUIDE: (f64, f64) = (30.0, 100.0);

/// Tasks shorter than this pay a scheduling cost of the same order as their work.
const FINE_TASK_NS: f64 = 20_000.0;

/// The name of every cause, in the order they are computed (`unexplained` last).
pub const CAUSE_NAMES: [&str; 12] = [
    "parallel overhead",
    "search overhead",
    "per-node cost",
    "descheduled",
    "waiting for first task",
    "granularity",
    "steals",
    "tail",
    "oversubscription",
    "contention",
    "allocation",
    "unexplained",
];

const NOT_MEASURED: &str = "not measured";

/// Splits the lost time of `m` into causes.
pub fn decompose(m: &Measurements) -> Verdict {
    let threads = m.threads.max(1) as f64;
    let sequential_ns = m.sequential.wall_ns;
    let ideal_ns = sequential_ns / threads;
    let parallel_ns = m.parallel.wall_ns;
    let lost_ns = parallel_ns - ideal_ns;
    let busy_one = m.one_thread.busy_ns(1.0);
    let busy_parallel = m.parallel.busy_ns(threads);
    let busy_per_node_one = if m.one_thread.nodes == 0 { 0.0 } else { busy_one / m.one_thread.nodes as f64 };
    let extra_nodes = m.parallel.nodes as f64 - m.one_thread.nodes as f64;
    let search_lost = extra_nodes * busy_per_node_one / threads;
    let oversubscription = oversubscription(m, ideal_ns);
    let contention = contention(m);
    let allocation = allocation(m, threads);
    // Busy time per node grew by `busy_growth`; the CPU clock says how much of that the
    // nodes really cost, the rest is time a busy worker was not on a CPU.
    let busy_growth = (busy_parallel - m.one_thread.nodes as f64 * busy_per_node_one) / threads - search_lost;
    let cpu_growth =
        (m.parallel.cpu_ns_per_node() - m.one_thread.cpu_ns_per_node()) * m.parallel.nodes as f64 / threads;
    let per_node_lost = cpu_growth - contention.lost_ns - allocation.lost_ns;
    let descheduled_lost = busy_growth - cpu_growth - oversubscription.lost_ns;
    let mut causes = vec![
        Cause {
            name: "parallel overhead",
            lost_ns: (busy_one - sequential_ns) / threads,
            share: 0.0,
            measured: true,
            number: format!("{:.2}x at 1 thread", ratio(m.one_thread.wall_ns, sequential_ns)),
            evidence: format!(
                "the strategy at 1 thread takes {} vs {} sequentially ({} of it in tasks)",
                millis(m.one_thread.wall_ns),
                millis(sequential_ns),
                millis(busy_one)
            ),
            advice: "make tasks bigger (a shallower split depth, a larger budget) so that scheduling, path replay and per-task setup are paid less often",
        },
        search_overhead(m, search_lost),
        Cause {
            name: "per-node cost",
            lost_ns: per_node_lost,
            share: 0.0,
            measured: true,
            number: format!(
                "{:.0} vs {:.0} ns CPU per node",
                m.parallel.cpu_ns_per_node(),
                m.one_thread.cpu_ns_per_node()
            ),
            evidence: format!(
                "CPU per node: {:.1} ns sequential, {:.1} ns at 1 thread, {:.1} ns at {} threads",
                m.sequential.cpu_ns_per_node(),
                m.one_thread.cpu_ns_per_node(),
                m.parallel.cpu_ns_per_node(),
                m.threads
            ),
            advice: "look for shared writes per node (counters, locks, an allocator): keep per-node state thread-local",
        },
        Cause {
            name: "descheduled",
            lost_ns: descheduled_lost,
            share: 0.0,
            measured: true,
            number: format!("busy {} vs CPU {}", millis(busy_parallel), millis(m.parallel.cpu_ns)),
            evidence: format!(
                "worker busy time grew by {} per worker more than the CPU time per node explains: time in tasks without a CPU (other processes, more threads than CPUs)",
                millis(busy_growth - cpu_growth)
            ),
            advice: "measure on a quiet machine; use no more threads than free CPUs",
        },
    ];
    causes.extend(idle_causes(m));
    causes.extend([oversubscription, contention, allocation]);
    let explained: f64 = causes.iter().map(|cause| cause.lost_ns).sum();
    causes.push(Cause {
        name: "unexplained",
        lost_ns: lost_ns - explained,
        share: 0.0,
        measured: true,
        number: millis(lost_ns - explained),
        evidence: "lost time no measured cause accounts for (noise, frequency scaling, runs of different medians)"
            .to_string(),
        advice: "repeat the measurement with more repeats on a quiet machine; compare user and system CPU time",
    });
    for cause in &mut causes {
        cause.share = if lost_ns > 0.0 { cause.lost_ns / lost_ns } else { 0.0 };
    }
    let unexplained = causes.pop().expect("pushed above");
    causes.sort_by(|a, b| b.lost_ns.total_cmp(&a.lost_ns));
    causes.push(unexplained);
    Verdict {
        speedup: ratio(sequential_ns, parallel_ns),
        ideal_ns,
        lost_ns,
        slower_than_sequential: parallel_ns > sequential_ns,
        causes,
        bugs: bugs(m),
    }
}

fn search_overhead(m: &Measurements, lost_ns: f64) -> Cause {
    let node_ratio = ratio(m.parallel.nodes as f64, m.sequential.nodes as f64);
    Cause {
        name: "search overhead",
        lost_ns,
        share: 0.0,
        measured: true,
        number: format!("node ratio {node_ratio:.3}"),
        evidence: format!(
            "{} nodes at {} threads, {} at 1 thread, {} sequentially",
            m.parallel.nodes, m.threads, m.one_thread.nodes, m.sequential.nodes
        ),
        advice: if m.exhaustive {
            "an exhaustive search must visit exactly the sequential nodes: a ratio other than 1 is a bug in the strategy"
        } else {
            "first-solution searches explore other branches while one worker is near a solution: order values better, or accept it (it can also be a gain)"
        },
    }
}

/// The idle worker time split by when it happened: before the first task, between tasks
/// (granularity or steals, by strategy), after the last task (tail).
fn idle_causes(m: &Measurements) -> [Cause; 4] {
    let wall = m.parallel.wall_ns;
    let idle_ns = m.parallel.idle_share * wall;
    let (before, after) = match m.idle_timing {
        Some(timing) => (timing.before_first_task_share * wall, timing.after_last_task_share * wall),
        None => (0.0, 0.0),
    };
    let between = idle_ns - before - after;
    let per_worker = m.subproblems_per_worker;
    let task_median = m.task_ns_median;
    let granularity_text = format!(
        "median task {}, {} subproblems per worker (guide {}-{}): {}",
        task_median.map_or(NOT_MEASURED.to_string(), micros),
        per_worker.map_or(NOT_MEASURED.to_string(), |count| format!("{count:.1}")),
        SUBPROBLEMS_PER_WORKER_GUIDE.0,
        SUBPROBLEMS_PER_WORKER_GUIDE.1,
        granularity_judgement(per_worker, task_median)
    );
    let idle_split = if m.idle_timing.is_some() { "" } else { " (idle not split by time: not measured)" };
    let between_text = format!("{:.1}% of worker time idle between tasks{idle_split}", ratio(between, wall) * 100.0);
    let (granularity_lost, steals_lost) = if m.splits_on_demand { (0.0, between) } else { (between, 0.0) };
    let before_cause = match m.idle_timing {
        Some(timing) => Cause {
            name: "waiting for first task",
            lost_ns: before,
            share: 0.0,
            measured: true,
            number: format!("{:.1}% of worker time", timing.before_first_task_share * 100.0),
            evidence: format!(
                "workers waited {} on average before their first task (frontier listing on one thread, pool wake-up)",
                millis(before)
            ),
            advice: "list a smaller frontier (a shallower depth) or let workers start before the listing ends (steal)",
        },
        None => not_measured(
            "waiting for first task",
            "list a smaller frontier (a shallower depth) or let workers start before the listing ends (steal)",
        ),
    };
    let tail_cause = match m.idle_timing {
        Some(timing) => Cause {
            name: "tail",
            lost_ns: after,
            share: 0.0,
            measured: true,
            number: format!("last {} with fewer than {} busy", millis(timing.tail_ns), m.threads),
            evidence: format!(
                "{:.1}% of worker time after a worker's last task; imbalance {:.2} (max/mean busy)",
                timing.after_last_task_share * 100.0,
                m.imbalance
            ),
            advice: "split deeper (auto with more subproblems per worker) or use work stealing so that the last tasks do not run alone",
        },
        None => not_measured(
            "tail",
            "split deeper (auto with more subproblems per worker) or use work stealing so that the last tasks do not run alone",
        ),
    };
    [
        before_cause,
        Cause {
            name: "granularity",
            lost_ns: granularity_lost,
            share: 0.0,
            measured: true,
            number: format!(
                "{} per task, {} per worker",
                task_median.map_or(NOT_MEASURED.to_string(), micros),
                per_worker.map_or(NOT_MEASURED.to_string(), |count| format!("{count:.0}"))
            ),
            evidence: if m.splits_on_demand {
                format!("{granularity_text}; idle between tasks is counted under steals for this strategy")
            } else {
                format!("{granularity_text}; {between_text}")
            },
            advice: "aim for 30-100 subproblems per worker of at least tens of microseconds each (auto:K, depth:D)",
        },
        Cause {
            name: "steals",
            lost_ns: steals_lost,
            share: 0.0,
            measured: true,
            number: format!("{} steals", m.steals),
            evidence: if m.splits_on_demand {
                format!("{} steals; {between_text} waiting for a busy worker to split", m.steals)
            } else {
                format!("{} steals: this strategy hands out a fixed frontier, idle between tasks is granularity", m.steals)
            },
            advice: "steal bigger pieces (the shallowest open branches) and fewer times; a budget split pays even when nobody is hungry",
        },
        tail_cause,
    ]
}

fn oversubscription(m: &Measurements, ideal_ns: f64) -> Cause {
    let advice = "use at most as many threads as available CPUs";
    if m.threads <= m.available_cpus {
        return Cause {
            name: "oversubscription",
            lost_ns: 0.0,
            share: 0.0,
            measured: true,
            number: format!("{} threads on {} CPUs", m.threads, m.available_cpus),
            evidence: "not oversubscribed".to_string(),
            advice,
        };
    }
    let Some(at_cpus) = m.at_available_cpus_ns else {
        return not_measured("oversubscription", advice);
    };
    // The loss at N threads beyond the loss already seen at as many threads as CPUs.
    let ideal_at_cpus = m.sequential.wall_ns / m.available_cpus.max(1) as f64;
    let lost = (m.parallel.wall_ns - ideal_ns) - (at_cpus - ideal_at_cpus);
    Cause {
        name: "oversubscription",
        lost_ns: lost,
        share: 0.0,
        measured: true,
        number: format!("{} threads on {} CPUs", m.threads, m.available_cpus),
        evidence: format!(
            "{} at {} threads vs {} at {} threads",
            millis(m.parallel.wall_ns),
            m.threads,
            millis(at_cpus),
            m.available_cpus
        ),
        advice,
    }
}

fn contention(m: &Measurements) -> Cause {
    let advice = "count per worker in cache-padded slots and add the counts up at the end";
    let Some(counters) = &m.counters else {
        return not_measured("contention", advice);
    };
    let factor =
        |time: Option<f64>| time.map_or(NOT_MEASURED.to_string(), |t| format!("{:.2}x", ratio(t, counters.padded_ns)));
    let comparison = format!(
        "at {} threads, shared counters take {} and unpadded {} the padded time ({})",
        m.threads,
        factor(counters.shared_ns),
        factor(counters.unpadded_ns),
        millis(counters.padded_ns)
    );
    let used_time = match counters.used.as_str() {
        "shared" => counters.shared_ns,
        "unpadded" => counters.unpadded_ns,
        _ => None,
    };
    match used_time {
        Some(_) => Cause {
            name: "contention",
            lost_ns: m.parallel.wall_ns - counters.padded_ns,
            share: 0.0,
            measured: true,
            number: format!("{} counters {}", counters.used, factor(Some(m.parallel.wall_ns))),
            evidence: comparison,
            advice,
        },
        None => Cause {
            name: "contention",
            lost_ns: 0.0,
            share: 0.0,
            measured: true,
            number: "padded counters".to_string(),
            evidence: format!("this run uses padded counters; {comparison}"),
            advice,
        },
    }
}

fn allocation(m: &Measurements, threads: f64) -> Cause {
    let advice = "restore state by undoing moves; do not clone or allocate per node";
    let Some(state) = &m.state else {
        return not_measured("allocation", advice);
    };
    let sequential_factor = ratio(state.sequential_clone_ns, state.sequential_undo_ns);
    let parallel_factor = ratio(state.parallel_clone_ns, state.parallel_undo_ns);
    let evidence = format!(
        "cloning the state costs {sequential_factor:.2}x sequentially and {parallel_factor:.2}x at {} threads",
        m.threads
    );
    // What cloning costs the parallel run beyond its own sequential cost, spread over the
    // workers: the part that is about threads (a shared allocator), not about cloning.
    let (lost, number) = if state.used_clone {
        (
            (state.parallel_clone_ns - state.parallel_undo_ns)
                - (state.sequential_clone_ns - state.sequential_undo_ns) / threads,
            format!("clone {parallel_factor:.2}x at {} threads", m.threads),
        )
    } else {
        (0.0, "undo".to_string())
    };
    let evidence = if state.used_clone { evidence } else { format!("this run restores by undo; {evidence}") };
    Cause { name: "allocation", lost_ns: lost, share: 0.0, measured: true, number, evidence, advice }
}

fn not_measured(name: &'static str, advice: &'static str) -> Cause {
    Cause {
        name,
        lost_ns: 0.0,
        share: 0.0,
        measured: false,
        number: NOT_MEASURED.to_string(),
        evidence: NOT_MEASURED.to_string(),
        advice,
    }
}

/// Whether tasks are too coarse, too fine or within the guideline.
pub fn granularity_judgement(subproblems_per_worker: Option<f64>, task_ns_median: Option<f64>) -> &'static str {
    match (subproblems_per_worker, task_ns_median) {
        (Some(count), _) if count < SUBPROBLEMS_PER_WORKER_GUIDE.0 => "too coarse: few tasks per worker, expect a tail",
        (_, Some(task)) if task < FINE_TASK_NS => "too fine: tasks this short pay scheduling as often as work",
        (Some(count), _) if count > SUBPROBLEMS_PER_WORKER_GUIDE.1 => "finer than the guideline",
        (Some(_), _) => "within the guideline",
        (None, _) => NOT_MEASURED,
    }
}

fn bugs(m: &Measurements) -> Vec<String> {
    let mut bugs = Vec::new();
    if m.exhaustive {
        let at_threads = format!("at {} threads", m.threads);
        for (label, nodes) in [("at 1 thread", m.one_thread.nodes), (at_threads.as_str(), m.parallel.nodes)] {
            if nodes != m.sequential.nodes {
                bugs.push(format!(
                    "exhaustive search visited {nodes} nodes {label} but {} sequentially (node ratio {:.6}): the parallel strategy loses or repeats work",
                    m.sequential.nodes,
                    ratio(nodes as f64, m.sequential.nodes as f64)
                ));
            }
        }
    }
    bugs
}

fn ratio(numerator: f64, denominator: f64) -> f64 {
    if denominator > 0.0 {
        numerator / denominator
    } else {
        f64::NAN
    }
}

/// Nanoseconds as milliseconds, for evidence text.
pub fn millis(ns: f64) -> String {
    format!("{:.2} ms", ns / 1e6)
}

fn micros(ns: f64) -> String {
    format!("{:.1} µs", ns / 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(wall_ns: f64, cpu_ns: f64, nodes: u64, idle_share: f64) -> RunMeasure {
        RunMeasure { wall_ns, cpu_ns, nodes, idle_share }
    }

    /// 1000 nodes in 1000 ns sequentially, the same at 1 thread, a perfect 2 threads.
    fn base() -> Measurements {
        Measurements {
            threads: 2,
            available_cpus: 2,
            exhaustive: true,
            sequential: run(1000.0, 1000.0, 1000, 0.0),
            one_thread: run(1000.0, 1000.0, 1000, 0.0),
            parallel: run(500.0, 1000.0, 1000, 0.0),
            idle_timing: Some(IdleTiming::default()),
            imbalance: 1.0,
            task_ns_median: Some(50_000.0),
            subproblems_per_worker: Some(50.0),
            ..Measurements::default()
        }
    }

    fn lost(verdict: &Verdict, name: &str) -> f64 {
        verdict.cause(name).map_or(f64::NAN, |cause| cause.lost_ns)
    }

    fn share(verdict: &Verdict, name: &str) -> f64 {
        verdict.cause(name).map_or(f64::NAN, |cause| cause.share)
    }

    fn assert_close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
    }

    #[test]
    fn every_cause_is_listed_once_and_unexplained_is_last() {
        let verdict = decompose(&base());
        let mut names: Vec<&str> = verdict.causes.iter().map(|cause| cause.name).collect();
        assert_eq!(names.last(), Some(&"unexplained"));
        names.sort_unstable();
        let mut expected = CAUSE_NAMES.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected);
    }

    #[test]
    fn a_perfect_speedup_loses_nothing() {
        let verdict = decompose(&base());
        assert_eq!(verdict.speedup, 2.0);
        assert_eq!(verdict.lost_ns, 0.0);
        assert!(verdict.causes.iter().all(|cause| cause.lost_ns.abs() < 1e-9), "{verdict:#?}");
        assert!(verdict.bugs.is_empty());
    }

    #[test]
    fn costlier_nodes_under_a_lock_rank_first() {
        // The naive strategy's story: 1 thread already 1.5x in its tasks, and at 2 threads
        // 1500 ns per worker all busy: slower than sequential, per-node cost first.
        let m = Measurements {
            one_thread: run(1500.0, 1500.0, 1000, 0.0),
            parallel: run(1500.0, 3000.0, 1000, 0.0),
            ..base()
        };
        let verdict = decompose(&m);
        assert!(verdict.slower_than_sequential);
        assert_eq!(verdict.lost_ns, 1000.0);
        assert_eq!(verdict.causes[0].name, "per-node cost");
        assert_close(share(&verdict, "per-node cost"), 0.75);
        assert_close(share(&verdict, "parallel overhead"), 0.25);
        assert_close(lost(&verdict, "unexplained"), 0.0);
        assert_eq!(verdict.cause("per-node cost").map(|cause| cause.number.as_str()), Some("3 vs 2 ns CPU per node"));
    }

    #[test]
    fn idle_time_splits_into_start_between_and_tail() {
        // 2 threads, 800 ns wall, 40% of worker time idle: 10% before the first task, 25%
        // after the last, so 5% between tasks. Busy 960 ns: 40 ns more than sequential.
        let m = Measurements {
            parallel: run(800.0, 1000.0, 1000, 0.4),
            idle_timing: Some(IdleTiming { before_first_task_share: 0.1, after_last_task_share: 0.25, tail_ns: 400.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_close(verdict.lost_ns, 300.0);
        assert_close(lost(&verdict, "waiting for first task"), 80.0);
        assert_close(lost(&verdict, "tail"), 200.0);
        assert_close(lost(&verdict, "granularity"), 40.0);
        assert_close(lost(&verdict, "steals"), 0.0);
        assert_close(lost(&verdict, "per-node cost"), 0.0);
        assert_close(lost(&verdict, "descheduled"), -20.0);
        assert_close(lost(&verdict, "unexplained"), 0.0);
        assert_eq!(verdict.causes[0].name, "tail");
        assert!(verdict.causes[0].number.contains("last 0.00 ms with fewer than 2 busy"));
    }

    #[test]
    fn idle_between_tasks_is_steals_for_a_stealing_strategy() {
        let m = Measurements {
            splits_on_demand: true,
            steals: 12,
            parallel: run(600.0, 1000.0, 1000, 1.0 / 6.0),
            ..base()
        };
        let verdict = decompose(&m);
        assert_close(lost(&verdict, "steals"), 100.0);
        assert_close(lost(&verdict, "granularity"), 0.0);
        assert_eq!(verdict.causes[0].name, "steals");
        assert_eq!(verdict.causes[0].number, "12 steals");
    }

    #[test]
    fn busy_time_without_cpu_time_is_descheduled_not_per_node_cost() {
        // 2 threads, all busy for 700 ns each, but the nodes cost the same CPU as at 1
        // thread: the 200 ns lost were spent in tasks without a CPU.
        let m = Measurements { parallel: run(700.0, 1000.0, 1000, 0.0), ..base() };
        let verdict = decompose(&m);
        assert_close(lost(&verdict, "descheduled"), 200.0);
        assert_close(lost(&verdict, "per-node cost"), 0.0);
        assert_eq!(verdict.causes[0].name, "descheduled");
        assert_eq!(verdict.causes[0].number, "busy 0.00 ms vs CPU 0.00 ms");
    }

    #[test]
    fn granularity_is_judged_against_the_guideline() {
        assert_eq!(granularity_judgement(Some(4.0), Some(1e6)), "too coarse: few tasks per worker, expect a tail");
        assert!(granularity_judgement(Some(900.0), Some(9_000.0)).starts_with("too fine"));
        assert_eq!(granularity_judgement(Some(50.0), Some(50_000.0)), "within the guideline");
        assert_eq!(granularity_judgement(None, None), "not measured");
        let coarse = Measurements { subproblems_per_worker: Some(3.0), ..base() };
        assert!(decompose(&coarse).cause("granularity").is_some_and(|cause| cause.evidence.contains("too coarse")));
    }

    #[test]
    fn missing_measurements_say_not_measured_instead_of_zero() {
        let m = Measurements {
            idle_timing: None,
            task_ns_median: None,
            parallel: run(600.0, 1000.0, 1000, 1.0 / 6.0),
            ..base()
        };
        let verdict = decompose(&m);
        for name in ["waiting for first task", "tail", "contention", "allocation"] {
            let cause = verdict.cause(name).expect("listed");
            assert!(!cause.measured && cause.evidence == "not measured", "{cause:?}");
        }
        // Unsplit idle time goes to the between-tasks cause, and says so.
        assert_close(lost(&verdict, "granularity"), 100.0);
        assert!(verdict.cause("granularity").is_some_and(|cause| cause.evidence.contains("not split")));
        assert!(verdict.cause("granularity").is_some_and(|cause| cause.number.starts_with("not measured per task")));
    }

    #[test]
    fn an_exhaustive_node_mismatch_is_reported_as_a_bug() {
        let m = Measurements { parallel: run(500.0, 1000.0, 1001, 0.0), ..base() };
        let verdict = decompose(&m);
        assert_eq!(verdict.bugs.len(), 1);
        assert!(verdict.bugs[0].contains("node ratio 1.001000"), "{}", verdict.bugs[0]);
        let first_solution = Measurements { exhaustive: false, parallel: run(750.0, 1500.0, 1500, 0.0), ..base() };
        let verdict = decompose(&first_solution);
        assert!(verdict.bugs.is_empty());
        assert_eq!(verdict.causes[0].name, "search overhead");
        assert_close(share(&verdict, "search overhead"), 1.0);
        assert_eq!(verdict.causes[0].number, "node ratio 1.500");
    }

    #[test]
    fn oversubscription_is_the_loss_beyond_the_run_at_the_cpu_count() {
        // 4 threads on 2 CPUs: 700 ns; at 2 threads 550 ns (ideal 500). Lost at 4 threads
        // 450 ns, of which 450 - 50 = 400 is oversubscription, carved out of per-node cost.
        let m = Measurements {
            threads: 4,
            parallel: run(700.0, 1000.0, 1000, 0.0),
            at_available_cpus_ns: Some(550.0),
            ..base()
        };
        let verdict = decompose(&m);
        assert_close(verdict.lost_ns, 450.0);
        assert_close(lost(&verdict, "oversubscription"), 400.0);
        assert_close(lost(&verdict, "descheduled"), 50.0);
        assert_eq!(verdict.causes[0].name, "oversubscription");
        let sum: f64 = verdict.causes.iter().map(|cause| cause.lost_ns).sum();
        assert_close(sum, verdict.lost_ns);
    }

    #[test]
    fn contention_and_allocation_come_from_their_ab_runs() {
        let m = Measurements {
            parallel: run(900.0, 1800.0, 1000, 0.0),
            counters: Some(CounterComparison {
                used: "shared".into(),
                padded_ns: 600.0,
                shared_ns: Some(900.0),
                unpadded_ns: Some(650.0),
            }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_close(verdict.lost_ns, 400.0);
        assert_close(share(&verdict, "contention"), 0.75);
        assert!(verdict.cause("contention").is_some_and(|cause| cause.evidence.contains("unpadded 1.08x")));
        let cloned = Measurements {
            parallel: run(800.0, 1600.0, 1000, 0.0),
            state: Some(StateComparison {
                used_clone: true,
                sequential_undo_ns: 800.0,
                sequential_clone_ns: 1000.0,
                parallel_undo_ns: 500.0,
                parallel_clone_ns: 800.0,
            }),
            ..base()
        };
        // Cloning costs the parallel run 300 ns, of which 200 / 2 is its sequential cost.
        assert_close(lost(&decompose(&cloned), "allocation"), 200.0);
        let undo =
            Measurements { state: cloned.state.clone().map(|s| StateComparison { used_clone: false, ..s }), ..base() };
        let verdict = decompose(&undo);
        assert_close(lost(&verdict, "allocation"), 0.0);
        assert!(verdict
            .cause("allocation")
            .is_some_and(|cause| cause.evidence.contains("1.25x sequentially and 1.60x")));
    }
}
