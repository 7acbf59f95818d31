//! The arithmetic of `explain`: from measured runs to the lost time split into causes that
//! partition it. Pure arithmetic over [`Measurements`]; it knows no runs, threads or files.
//!
//! With `T1` the sequential wall time, `TN` the wall time at `N` threads, the ideal time is
//! `T1 / N` and the lost time `L = TN - T1 / N`. Everything is computed in worker time
//! first (`N * L = N * TN - T1`), where the workers' own clocks give an exact identity:
//! each worker is busy (in a task) or idle for the whole wall time, so
//! `N * TN = busy + before + between + after`, the idle time split by when it happened.
//! With `s = T1 / nodes_seq` the sequential cost of a node, `b1` and `bN` the busy time per
//! node entered in tasks at 1 and at `N` threads, `wN` the nodes entered in tasks at `N`
//! threads and `fN = nodes_N - wN` the nodes of the frontier listed before the tasks:
//!
//! ```text
//! N * TN - T1 = (nodes_N - nodes_seq) * s       search overhead: extra nodes
//!             + wN * (b1 - s)                    per-node cost, already at one thread
//!             + wN * (bN - b1)                   per-node cost, growth with N threads
//!             + (before - fN * s)                waiting for the first task, less the
//!                                                listing's own (sequential) work
//!             + between                          idle between tasks
//!             + after                            tail: idle after a worker's last task
//! ```
//!
//! The growth of the per-node cost is split further, each piece clamped to what is left of
//! it: time busy but not on a CPU (`busy - process CPU`, a lower bound: named
//! oversubscription when `N` exceeds the CPUs, descheduled otherwise), contention (the
//! counter layout A/B, `N * (TN - TN_padded)`, when the run used shared or unpadded
//! counters), allocation (the clone/undo A/B, `N * (TN_clone - TN_undo) - (T1_clone -
//! T1_undo)`, when the run cloned), and the rest (slower nodes with more threads running:
//! shared cache lines, locks, memory bandwidth, a lower clock).
//!
//! Every term is a difference of measured quantities. A negative term is a gain (fewer
//! nodes than sequentially in a first-solution search, cheaper nodes) and is listed apart
//! from the causes, never as a negative share. The causes are the positive terms; they sum
//! to the gross loss `N * L + gains`. The measured medians do not add up exactly (each is
//! the median of its own quantity), so what is left, `N * L + gains - causes`, is listed as
//! `unexplained` when positive; when negative (the causes over-explain), every cause is
//! scaled down by the same factor so that they sum to the gross loss, and the factor is
//! reported. The shares are the causes over the gross loss: each is >= 0 and they sum to 1.
//! Times are reported in wall time, the worker time divided by `N`.

use crate::format;
use serde::Serialize;

/// One configuration's typical run (medians over its repeats).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunMeasure {
    /// Wall time.
    pub wall_ns: f64,
    /// CPU time of the process (user + system).
    pub cpu_ns: f64,
    /// Nodes entered in all.
    pub nodes: f64,
    /// Nodes entered inside tasks (all nodes for a sequential run; the nodes less those of
    /// the frontier listed before any task for `depth`, `auto` and `naive`).
    pub task_nodes: f64,
    /// Worker time in tasks, summed over the workers (the wall time for a sequential run).
    pub busy_ns: f64,
}

impl RunMeasure {
    /// A sequential run: busy for its whole wall time, every node in its one task.
    pub fn sequential(wall_ns: f64, cpu_ns: f64, nodes: f64) -> RunMeasure {
        RunMeasure { wall_ns, cpu_ns, nodes, task_nodes: nodes, busy_ns: wall_ns }
    }

    /// Busy time per node entered in tasks (0 without nodes).
    pub fn busy_per_node(&self) -> f64 {
        if self.task_nodes > 0.0 {
            self.busy_ns / self.task_nodes
        } else {
            0.0
        }
    }
}

/// When the parallel run's idle worker time happened (worker time, summed over workers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct IdleSplit {
    /// Before each worker's first task: the frontier listing, the pool waking up.
    pub before_first_task_ns: f64,
    /// Between tasks: taking the next task, waiting for a steal.
    pub between_tasks_ns: f64,
    /// After each worker's last task while others were still busy.
    pub after_last_task_ns: f64,
}

/// The counter layouts at `threads`, run A/B (median wall times).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterComparison {
    /// Wall time with per-worker padded counters.
    pub padded_ns: f64,
    /// Wall time with one shared atomic counter (not measured: `None`).
    pub shared_ns: Option<f64>,
    /// Wall time with per-worker counters on shared cache lines.
    pub unpadded_ns: Option<f64>,
}

/// Restoring state by undo and by cloning, sequentially and at `threads` (median wall times).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateComparison {
    /// Sequential, undo.
    pub sequential_undo_ns: f64,
    /// Sequential, clone.
    pub sequential_clone_ns: f64,
    /// At `threads`, undo.
    pub parallel_undo_ns: f64,
    /// At `threads`, clone.
    pub parallel_clone_ns: f64,
}

/// The measurements one explanation needs (nanoseconds; medians over the repeats).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Measurements {
    /// The strategy as given (`naive`, `auto:64`, `steal`, ...).
    pub strategy: String,
    /// Threads of the parallel run.
    pub threads: usize,
    /// CPUs available to the process.
    pub available_cpus: usize,
    /// The counter layout of the explained run (`padded`, `shared`, `unpadded`).
    pub counters: String,
    /// The state restoration of the explained run (`undo`, `clone`).
    pub state: String,
    /// Whether the search was exhaustive (all solutions).
    pub exhaustive: bool,
    /// The sequential run.
    pub sequential: RunMeasure,
    /// The strategy at one thread.
    pub one_thread: RunMeasure,
    /// The strategy at `threads`.
    pub parallel: RunMeasure,
    /// When the parallel run's idle time happened; `None` when not measured (then all
    /// idle time, `threads * wall - busy`, is counted between tasks and says so).
    pub idle: Option<IdleSplit>,
    /// Tasks per worker: units of work a worker took (a subproblem, a stolen branch, a
    /// batch of leaves for `naive`), summed over the workers and divided by `threads`.
    pub tasks_per_worker: Option<f64>,
    /// Median task duration; `None` when not measured.
    pub task_ns_median: Option<f64>,
    /// Tasks taken from another worker.
    pub steals: f64,
    /// Busy time of the busiest worker over the mean.
    pub imbalance: f64,
    /// Wall time at `available_cpus` threads, when `threads` exceeds them and it was run.
    pub at_available_cpus_ns: Option<f64>,
    /// The counter layouts A/B; `None` when not measured.
    pub counters_ab: Option<CounterComparison>,
    /// Undo against clone A/B; `None` when not measured.
    pub state_ab: Option<StateComparison>,
}

/// How strategies hand out work, which decides what idle time and advice mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StrategyKind {
    /// `naive`: every leaf listed on one thread, batches behind one lock.
    Naive,
    /// `depth:D`, `auto`, `auto:K`: a frontier listed on one thread, then its subproblems.
    Frontier,
    /// `steal`, `budget:B`: workers split their open branches on demand.
    Splitting,
}

impl StrategyKind {
    /// The kind of strategy `text` (`auto:64` is a frontier strategy).
    pub fn of(text: &str) -> StrategyKind {
        match text.split(':').next().unwrap_or_default() {
            "naive" => StrategyKind::Naive,
            "steal" | "budget" => StrategyKind::Splitting,
            _ => StrategyKind::Frontier,
        }
    }
}

impl Measurements {
    /// The kind of the explained strategy.
    pub fn strategy_kind(&self) -> StrategyKind {
        StrategyKind::of(&self.strategy)
    }

    fn oversubscribed(&self) -> bool {
        self.threads > self.available_cpus.max(1)
    }
}

/// One measured term of the lost time (worker time, signed: negative is a gain).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part {
    /// Its name (`at one thread`, `descheduled`, ...; the cause's name when it is the
    /// cause's only part).
    pub name: &'static str,
    /// Lost wall time (after scaling, see the module doc); a part of a cause is >= 0.
    pub lost_ns: f64,
    /// What was measured, in words with numbers.
    pub evidence: String,
}

/// One cause of lost time: a share of the gross loss.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cause {
    /// Short name (`per-node cost`, `tail`, ...).
    pub name: &'static str,
    /// Lost wall time it accounts for (>= 0).
    pub lost_ns: f64,
    /// Its share of the gross loss (>= 0; the shares of all causes sum to 1).
    pub share: f64,
    /// Whether the measurement behind it was taken.
    pub measured: bool,
    /// The number behind it, short (`266 vs 96 ns per node`).
    pub number: String,
    /// The measured evidence, in words with numbers.
    pub evidence: String,
    /// Its parts, when it has more than one (`per-node cost`), largest first.
    pub parts: Vec<Part>,
}

/// A measured term that made the run faster (listed apart, never as a negative share).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gain {
    /// What gained (`search overhead`, `per-node cost at N threads`).
    pub name: &'static str,
    /// Wall time gained (> 0).
    pub gained_ns: f64,
    /// What was measured.
    pub evidence: String,
}

/// How the run compares with the ideal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// At least [`CLOSE_TO_IDEAL`] of the ideal speedup: nothing worth curing.
    CloseToIdeal,
    /// Faster than sequential, but short of the ideal by more than that.
    SlowerThanIdeal,
    /// Slower than the sequential run.
    SlowerThanSequential,
}

/// A run reaching this share of the ideal speedup (`speedup / threads`) is not called slow.
pub const CLOSE_TO_IDEAL: f64 = 0.85;

/// The lost time split into causes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decomposition {
    /// Speedup `T1 / TN`.
    pub speedup: f64,
    /// Ideal time `T1 / N`.
    pub ideal_ns: f64,
    /// Lost time `TN - T1 / N` (net of the gains).
    pub lost_ns: f64,
    /// The lost time before the gains: what the causes sum to.
    pub gross_ns: f64,
    /// The factor every cause was scaled by so that they sum to the gross loss (1 unless
    /// the measured parts over-explained it).
    pub scale: f64,
    /// How the run compares with the ideal.
    pub outcome: Outcome,
    /// Every cause, largest first; `unexplained` last.
    pub causes: Vec<Cause>,
    /// The gains, largest first.
    pub gains: Vec<Gain>,
    /// Problems found in the measurements themselves (an exhaustive node ratio other than 1).
    pub bugs: Vec<String>,
}

impl Decomposition {
    /// The cause named `name`.
    pub fn cause(&self, name: &str) -> Option<&Cause> {
        self.causes.iter().find(|cause| cause.name == name)
    }

    /// The share of the cause named `name` (0 when absent).
    pub fn share_of(&self, name: &str) -> f64 {
        self.cause(name).map_or(0.0, |cause| cause.share)
    }
}

/// The 30-100 tasks per worker of the Embarrassingly Parallel Search papers.
pub const TASKS_PER_WORKER_GUIDE: (f64, f64) = (30.0, 100.0);

/// Tasks shorter than this pay a scheduling cost of the same order as their work.
const FINE_TASK_NS: f64 = 20_000.0;

/// The name of every cause, in a fixed order (`unexplained` last).
pub const CAUSE_NAMES: [&str; 6] =
    ["search overhead", "per-node cost", "waiting for first task", "idle between tasks", "tail", "unexplained"];

const NOT_MEASURED: &str = "not measured";

/// A signed term before the split into causes and gains.
struct Term {
    cause: &'static str,
    part: &'static str,
    worker_ns: f64,
    measured: bool,
    evidence: String,
}

/// Splits the lost time of `m` into causes (see the module doc for the arithmetic).
pub fn decompose(m: &Measurements) -> Decomposition {
    let threads = m.threads.max(1) as f64;
    let sequential_ns = m.sequential.wall_ns;
    let ideal_ns = sequential_ns / threads;
    let lost_ns = m.parallel.wall_ns - ideal_ns;
    let speedup = ratio(sequential_ns, m.parallel.wall_ns);
    let outcome = if speedup / threads >= CLOSE_TO_IDEAL {
        Outcome::CloseToIdeal
    } else if m.parallel.wall_ns > sequential_ns {
        Outcome::SlowerThanSequential
    } else {
        Outcome::SlowerThanIdeal
    };
    let terms = terms(m);
    let positive: f64 = terms.iter().map(|term| term.worker_ns.max(0.0)).sum();
    let gained: f64 = terms.iter().map(|term| (-term.worker_ns).max(0.0)).sum();
    let net_worker = threads * lost_ns;
    // What the parts leave over (unexplained) or over-explain (scaled away).
    let left = net_worker + gained - positive;
    let (scale, unexplained) = if net_worker <= 0.0 {
        // Nothing lost: no cause has a share, only the gains are listed.
        (0.0, 0.0)
    } else if left >= 0.0 {
        (1.0, left)
    } else {
        ((positive + left) / positive, 0.0)
    };
    let gross_worker = if net_worker <= 0.0 { 0.0 } else { positive * scale + unexplained };
    let share = |worker_ns: f64| if gross_worker > 0.0 { worker_ns / gross_worker } else { 0.0 };
    let mut causes = Vec::new();
    for name in CAUSE_NAMES.iter().filter(|name| **name != "unexplained") {
        let of_cause: Vec<&Term> = terms.iter().filter(|term| term.cause == *name).collect();
        let mut parts: Vec<Part> = of_cause
            .iter()
            .filter(|term| term.worker_ns > 0.0 && scale > 0.0)
            .map(|term| Part {
                name: term.part,
                lost_ns: term.worker_ns * scale / threads,
                evidence: term.evidence.clone(),
            })
            .collect();
        parts.sort_by(|a, b| b.lost_ns.total_cmp(&a.lost_ns));
        let worker: f64 = of_cause.iter().map(|term| term.worker_ns.max(0.0) * scale).sum();
        let (number, evidence) = describe(name, m);
        causes.push(Cause {
            name,
            lost_ns: worker / threads,
            share: share(worker),
            measured: of_cause.iter().all(|term| term.measured),
            number,
            evidence,
            parts: if of_cause.len() > 1 { parts } else { Vec::new() },
        });
    }
    causes.sort_by(|a, b| b.lost_ns.total_cmp(&a.lost_ns));
    causes.push(Cause {
        name: "unexplained",
        lost_ns: unexplained / threads,
        share: share(unexplained),
        measured: true,
        number: format::duration(unexplained / threads),
        evidence: if scale > 0.0 && scale < 1.0 {
            format!(
                "the measured parts over-explained the loss; every cause is scaled by {scale:.3} (medians of separate quantities do not add up exactly)"
            )
        } else {
            "lost time the medians of the measured parts do not cover (they are medians of separate quantities)"
                .to_string()
        },
        parts: Vec::new(),
    });
    let mut gains: Vec<Gain> = terms
        .iter()
        .filter(|term| term.worker_ns < 0.0)
        .map(|term| Gain { name: term.part, gained_ns: -term.worker_ns / threads, evidence: term.evidence.clone() })
        .collect();
    gains.sort_by(|a, b| b.gained_ns.total_cmp(&a.gained_ns));
    Decomposition {
        speedup,
        ideal_ns,
        lost_ns,
        gross_ns: gross_worker / threads,
        scale,
        outcome,
        causes,
        gains,
        bugs: bugs(m),
    }
}

/// The signed terms of `N * TN - T1` (worker time).
fn terms(m: &Measurements) -> Vec<Term> {
    let threads = m.threads.max(1) as f64;
    let sequential_per_node = ratio_or_zero(m.sequential.wall_ns, m.sequential.nodes);
    let one_per_node = m.one_thread.busy_per_node();
    let parallel_per_node = m.parallel.busy_per_node();
    let task_nodes = m.parallel.task_nodes;
    let listed_nodes = m.parallel.nodes - task_nodes;
    let mut terms = vec![
        Term {
            cause: "search overhead",
            part: "search overhead",
            worker_ns: (m.parallel.nodes - m.sequential.nodes) * sequential_per_node,
            measured: true,
            evidence: format!(
                "{} nodes at {} threads, {} sequentially, at {} per node",
                count(m.parallel.nodes),
                m.threads,
                count(m.sequential.nodes),
                format::duration(sequential_per_node)
            ),
        },
        Term {
            cause: "per-node cost",
            part: "at one thread",
            worker_ns: task_nodes * (one_per_node - sequential_per_node),
            measured: true,
            evidence: format!(
                "a node in a task costs {} at 1 thread vs {} sequentially (path replay, per-task setup)",
                format::duration(one_per_node),
                format::duration(sequential_per_node)
            ),
        },
    ];
    terms.extend(growth_terms(m, task_nodes * (parallel_per_node - one_per_node)));
    let (idle, measured) = match m.idle {
        Some(split) => (split, true),
        None => (
            IdleSplit {
                between_tasks_ns: (threads * m.parallel.wall_ns - m.parallel.busy_ns).max(0.0),
                ..IdleSplit::default()
            },
            false,
        ),
    };
    terms.push(Term {
        cause: "waiting for first task",
        part: "waiting for first task",
        worker_ns: idle.before_first_task_ns - listed_nodes * sequential_per_node,
        measured,
        evidence: format!(
            "{} of worker time before the first task, less the {} nodes of the frontier listing at the sequential cost",
            format::duration(idle.before_first_task_ns),
            count(listed_nodes)
        ),
    });
    terms.push(Term {
        cause: "idle between tasks",
        part: "idle between tasks",
        worker_ns: idle.between_tasks_ns,
        measured: true,
        evidence: format!(
            "{} of worker time between tasks{}",
            format::duration(idle.between_tasks_ns),
            if measured { "" } else { " (idle not split by time: all of it counted here)" }
        ),
    });
    terms.push(Term {
        cause: "tail",
        part: "tail",
        worker_ns: idle.after_last_task_ns,
        measured,
        evidence: format!("{} of worker time after a worker's last task", format::duration(idle.after_last_task_ns)),
    });
    terms
}

/// The growth of the per-node cost from 1 to `N` threads, split into what the CPU clock
/// and the A/B reruns attribute, each clamped to what is left.
fn growth_terms(m: &Measurements, growth: f64) -> Vec<Term> {
    let threads = m.threads.max(1) as f64;
    let term = |part, worker_ns, evidence| Term { cause: "per-node cost", part, worker_ns, measured: true, evidence };
    if growth <= 0.0 {
        return vec![term(
            "cheaper nodes at N threads",
            growth,
            format!(
                "a node in a task costs {} at {} threads vs {} at 1 thread",
                format::duration(m.parallel.busy_per_node()),
                m.threads,
                format::duration(m.one_thread.busy_per_node())
            ),
        )];
    }
    let mut left = growth;
    let mut take = |wanted: f64| {
        let taken = wanted.clamp(0.0, left);
        left -= taken;
        taken
    };
    let off_cpu = take(m.parallel.busy_ns - m.parallel.cpu_ns);
    let mut terms = vec![term(
        if m.oversubscribed() { "oversubscription" } else { "descheduled" },
        off_cpu,
        format!(
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
    )];
    if let Some(ab) = &m.counters_ab {
        let used = match m.counters.as_str() {
            "shared" => ab.shared_ns,
            "unpadded" => ab.unpadded_ns,
            _ => None,
        };
        if let Some(used_ns) = used {
            terms.push(term(
                "contention",
                take(threads * (used_ns - ab.padded_ns)),
                format!(
                    "{} counters take {} vs {} padded at {} threads",
                    m.counters,
                    format::duration(used_ns),
                    format::duration(ab.padded_ns),
                    m.threads
                ),
            ));
        }
    }
    if let (Some(ab), "clone") = (&m.state_ab, m.state.as_str()) {
        terms.push(term(
            "allocation",
            take(
                threads * (ab.parallel_clone_ns - ab.parallel_undo_ns)
                    - (ab.sequential_clone_ns - ab.sequential_undo_ns),
            ),
            format!(
                "cloning costs {} sequentially and {} at {} threads",
                format::factor(ratio(ab.sequential_clone_ns, ab.sequential_undo_ns)),
                format::factor(ratio(ab.parallel_clone_ns, ab.parallel_undo_ns)),
                m.threads
            ),
        ));
    }
    terms.push(term(
        "more threads",
        left,
        format!(
            "a node in a task costs {} at {} threads vs {} at 1 thread (shared cache lines, locks, memory bandwidth, a lower clock)",
            format::duration(m.parallel.busy_per_node()),
            m.threads,
            format::duration(m.one_thread.busy_per_node())
        ),
    ));
    terms
}

/// The short number and the evidence line of a cause.
fn describe(name: &str, m: &Measurements) -> (String, String) {
    match name {
        "search overhead" => (
            format!("node ratio {:.3}", ratio(m.parallel.nodes, m.sequential.nodes)),
            format!(
                "{} nodes at {} threads, {} at 1 thread, {} sequentially",
                count(m.parallel.nodes),
                m.threads,
                count(m.one_thread.nodes),
                count(m.sequential.nodes)
            ),
        ),
        "per-node cost" => (
            format!(
                "{} vs {} per node",
                format::duration(m.parallel.busy_per_node()),
                format::duration(ratio_or_zero(m.sequential.wall_ns, m.sequential.nodes))
            ),
            format!(
                "busy time per node in tasks: {} sequential, {} at 1 thread, {} at {} threads",
                format::duration(ratio_or_zero(m.sequential.wall_ns, m.sequential.nodes)),
                format::duration(m.one_thread.busy_per_node()),
                format::duration(m.parallel.busy_per_node()),
                m.threads
            ),
        ),
        "waiting for first task" => match m.idle {
            Some(split) => (
                format!("{} per worker", format::duration(split.before_first_task_ns / m.threads.max(1) as f64)),
                "workers wait while the frontier is listed on one thread and the pool wakes up".to_string(),
            ),
            None => (NOT_MEASURED.to_string(), NOT_MEASURED.to_string()),
        },
        "idle between tasks" => {
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
        "tail" => match m.idle {
            Some(split) => (
                format!("{} per worker", format::duration(split.after_last_task_ns / m.threads.max(1) as f64)),
                format!(
                    "the last tasks ran while other workers had none left; imbalance {:.2} (max/mean busy)",
                    m.imbalance
                ),
            ),
            None => (NOT_MEASURED.to_string(), NOT_MEASURED.to_string()),
        },
        _ => (String::new(), String::new()),
    }
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

fn bugs(m: &Measurements) -> Vec<String> {
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

/// The short text of the harness's "why slower" column: the outcome and the causes at or
/// above 10% of the gross loss, with their numbers.
pub fn why_slower_text(m: &Measurements) -> String {
    let verdict = decompose(m);
    let mut parts: Vec<String> = verdict.bugs.iter().map(|bug| format!("BUG: {bug}")).collect();
    if verdict.outcome == Outcome::CloseToIdeal {
        parts.push(format!(
            "not slow: {} of the ideal speedup",
            format::percent(verdict.speedup / m.threads.max(1) as f64)
        ));
        return parts.join("; ");
    }
    parts.extend(
        verdict
            .causes
            .iter()
            .filter(|cause| cause.share >= 0.10)
            .map(|cause| format!("{} {} ({})", cause.name, format::percent(cause.share), cause.number)),
    );
    if parts.is_empty() {
        parts.push("no cause above 10% of the lost time".to_string());
    }
    let not_measured: Vec<&str> =
        verdict.causes.iter().filter(|cause| !cause.measured).map(|cause| cause.name).collect();
    if not_measured.is_empty() {
        parts.join(", ")
    } else {
        format!("{}; not measured here: {}", parts.join(", "), not_measured.join(", "))
    }
}

fn ratio(numerator: f64, denominator: f64) -> f64 {
    if denominator > 0.0 {
        numerator / denominator
    } else {
        f64::NAN
    }
}

fn ratio_or_zero(numerator: f64, denominator: f64) -> f64 {
    if denominator > 0.0 {
        numerator / denominator
    } else {
        0.0
    }
}

/// A (median) count as a whole number with thousands separators.
fn count(value: f64) -> String {
    format::count(value.max(0.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(wall_ns: f64, busy_ns: f64, cpu_ns: f64, nodes: f64) -> RunMeasure {
        RunMeasure { wall_ns, cpu_ns, nodes, task_nodes: nodes, busy_ns }
    }

    /// 1000 nodes in 1000 ns sequentially, the same at 1 thread, a perfect 2 threads.
    fn base() -> Measurements {
        Measurements {
            strategy: "auto".into(),
            threads: 2,
            available_cpus: 2,
            counters: "padded".into(),
            state: "undo".into(),
            exhaustive: true,
            sequential: RunMeasure::sequential(1000.0, 1000.0, 1000.0),
            one_thread: run(1000.0, 1000.0, 1000.0, 1000.0),
            parallel: run(500.0, 1000.0, 1000.0, 1000.0),
            idle: Some(IdleSplit::default()),
            imbalance: 1.0,
            task_ns_median: Some(50_000.0),
            tasks_per_worker: Some(50.0),
            ..Measurements::default()
        }
    }

    fn lost(verdict: &Decomposition, name: &str) -> f64 {
        verdict.cause(name).map_or(f64::NAN, |cause| cause.lost_ns)
    }

    fn assert_close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
    }

    /// The invariants every decomposition keeps.
    fn assert_partition(verdict: &Decomposition) {
        assert!(verdict.causes.iter().all(|cause| cause.share >= 0.0 && cause.lost_ns >= 0.0), "{verdict:#?}");
        assert!(verdict.gains.iter().all(|gain| gain.gained_ns > 0.0), "{verdict:#?}");
        let shares: f64 = verdict.causes.iter().map(|cause| cause.share).sum();
        if verdict.lost_ns > 0.0 {
            assert_close(shares, 1.0);
            let summed: f64 = verdict.causes.iter().map(|cause| cause.lost_ns).sum();
            let gained: f64 = verdict.gains.iter().map(|gain| gain.gained_ns).sum();
            assert!((summed - verdict.gross_ns).abs() < 1e-6, "{summed} vs {}", verdict.gross_ns);
            assert!((summed - gained - verdict.lost_ns).abs() < 1e-6, "{summed} - {gained} vs {}", verdict.lost_ns);
        } else {
            assert_eq!(shares, 0.0);
        }
        for cause in &verdict.causes {
            let parts: f64 = cause.parts.iter().map(|part| part.lost_ns).sum();
            assert!(cause.parts.is_empty() || (parts - cause.lost_ns).abs() < 1e-6, "{cause:#?}");
        }
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
    fn a_perfect_speedup_loses_nothing_and_is_close_to_ideal() {
        let verdict = decompose(&base());
        assert_eq!(verdict.speedup, 2.0);
        assert_eq!(verdict.lost_ns, 0.0);
        assert_eq!(verdict.outcome, Outcome::CloseToIdeal);
        assert!(verdict.causes.iter().all(|cause| cause.lost_ns == 0.0), "{verdict:#?}");
        assert_partition(&verdict);
        assert!(why_slower_text(&base()).starts_with("not slow: 100.0% of the ideal speedup"));
    }

    #[test]
    fn the_naive_story_partitions_into_nonnegative_shares() {
        // Sequential 1000 nodes in 1000 ns. At 1 thread tasks cost 1.5 ns a node; at 2
        // threads 2 ns a node (2000 ns busy), 600 ns waiting for the first task (of which
        // 100 listed nodes at 1 ns are the listing's own work), 400 ns between tasks.
        let m = Measurements {
            strategy: "naive".into(),
            one_thread: RunMeasure {
                wall_ns: 1800.0,
                cpu_ns: 1800.0,
                nodes: 1000.0,
                task_nodes: 900.0,
                busy_ns: 1350.0,
            },
            parallel: RunMeasure { wall_ns: 1500.0, cpu_ns: 3000.0, nodes: 1000.0, task_nodes: 900.0, busy_ns: 1800.0 },
            idle: Some(IdleSplit { before_first_task_ns: 700.0, between_tasks_ns: 500.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_eq!(verdict.outcome, Outcome::SlowerThanSequential);
        assert_close(verdict.lost_ns, 1000.0);
        assert_partition(&verdict);
        // Worker time: at one thread 900 x 0.5 = 450, growth 450, waiting 700 - 100 = 600,
        // between 500: 2000 = 2 x 1000.
        assert_close(lost(&verdict, "per-node cost"), 450.0);
        assert_close(lost(&verdict, "waiting for first task"), 300.0);
        assert_close(lost(&verdict, "idle between tasks"), 250.0);
        assert_close(lost(&verdict, "unexplained"), 0.0);
        assert_eq!(verdict.causes[0].name, "per-node cost");
        let parts: Vec<&str> = verdict.causes[0].parts.iter().map(|part| part.name).collect();
        assert_eq!(parts, ["at one thread", "more threads"], "a busy time under the CPU time is no descheduling");
        assert!(verdict.gains.is_empty());
    }

    #[test]
    fn fewer_nodes_in_a_first_solution_search_are_a_gain_not_a_negative_share() {
        let m = Measurements {
            exhaustive: false,
            one_thread: run(1000.0, 1000.0, 1000.0, 1000.0),
            parallel: run(450.0, 600.0, 600.0, 600.0),
            idle: Some(IdleSplit { before_first_task_ns: 300.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_close(verdict.lost_ns, -50.0);
        assert_eq!(verdict.outcome, Outcome::CloseToIdeal);
        assert_partition(&verdict);
        let slower = Measurements {
            parallel: run(700.0, 600.0, 600.0, 600.0),
            idle: Some(IdleSplit { before_first_task_ns: 800.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..m
        };
        let verdict = decompose(&slower);
        assert_partition(&verdict);
        assert_eq!(verdict.gains.len(), 1, "{verdict:#?}");
        assert_eq!(verdict.gains[0].name, "search overhead");
        assert_close(verdict.gains[0].gained_ns, 200.0);
        assert_close(lost(&verdict, "waiting for first task"), 400.0);
        assert_close(verdict.gross_ns, 400.0);
        assert_close(verdict.lost_ns, 200.0);
    }

    #[test]
    fn parts_that_over_explain_the_loss_are_scaled_alike() {
        // Busy and idle medians that add up to more than 2 x wall: 1200 + 400 = 1600 > 1400.
        let m = Measurements {
            parallel: run(700.0, 1200.0, 1200.0, 1000.0),
            idle: Some(IdleSplit { before_first_task_ns: 400.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        // Parts 200 (per node) + 400 (waiting) = 600 worker ns for a loss of 400: x 2/3.
        assert_close(verdict.scale, 400.0 / 600.0);
        assert_close(lost(&verdict, "waiting for first task"), 400.0 / 3.0);
        assert_close(lost(&verdict, "unexplained"), 0.0);
        assert!(verdict.cause("unexplained").is_some_and(|cause| cause.evidence.contains("scaled by 0.667")));
    }

    #[test]
    fn parts_that_under_explain_leave_an_unexplained_line() {
        let m = Measurements {
            parallel: run(700.0, 1000.0, 1000.0, 1000.0),
            idle: Some(IdleSplit { before_first_task_ns: 200.0, between_tasks_ns: 0.0, after_last_task_ns: 0.0 }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        assert_close(lost(&verdict, "waiting for first task"), 100.0);
        assert_close(lost(&verdict, "unexplained"), 100.0);
        assert_close(verdict.cause("unexplained").map_or(0.0, |cause| cause.share), 0.5);
    }

    #[test]
    fn busy_time_without_cpu_is_descheduled_or_oversubscription() {
        let m = Measurements { parallel: run(700.0, 1400.0, 1000.0, 1000.0), ..base() };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        let parts = &verdict.causes[0].parts;
        assert_eq!(verdict.causes[0].name, "per-node cost");
        assert_eq!(parts[0].name, "descheduled");
        assert_close(parts[0].lost_ns, 200.0);
        let over = Measurements { threads: 4, parallel: run(700.0, 2800.0, 1400.0, 1000.0), ..base() };
        let verdict = decompose(&over);
        assert_partition(&verdict);
        assert_eq!(verdict.causes[0].parts[0].name, "oversubscription");
    }

    #[test]
    fn contention_and_allocation_come_from_their_ab_runs_when_used() {
        let m = Measurements {
            counters: "shared".into(),
            parallel: run(900.0, 1800.0, 1800.0, 1000.0),
            counters_ab: Some(CounterComparison { padded_ns: 600.0, shared_ns: Some(900.0), unpadded_ns: Some(650.0) }),
            ..base()
        };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        // Growth 800 worker ns; the shared counters cost 2 x 300 = 600 of it.
        let parts = &verdict.causes[0].parts;
        assert_eq!((parts[0].name, parts[1].name), ("contention", "more threads"));
        assert_close(parts[0].lost_ns, 300.0);
        assert_close(parts[1].lost_ns, 100.0);
        let padded = Measurements { counters: "padded".into(), ..m };
        assert!(decompose(&padded).causes[0].parts.iter().all(|part| part.name != "contention"));
    }

    #[test]
    fn idle_without_a_split_counts_between_tasks_and_says_not_measured() {
        let m = Measurements { idle: None, parallel: run(600.0, 1000.0, 1000.0, 1000.0), ..base() };
        let verdict = decompose(&m);
        assert_partition(&verdict);
        assert_close(lost(&verdict, "idle between tasks"), 100.0);
        for name in ["waiting for first task", "tail"] {
            let cause = verdict.cause(name).expect("listed");
            assert!(!cause.measured && cause.number == "not measured", "{cause:?}");
        }
        assert!(
            why_slower_text(&m).ends_with("not measured here: waiting for first task, tail"),
            "{}",
            why_slower_text(&m)
        );
    }

    #[test]
    fn an_exhaustive_node_mismatch_is_reported_as_a_bug() {
        let m = Measurements { parallel: run(500.0, 1001.0, 1001.0, 1001.0), ..base() };
        let verdict = decompose(&m);
        assert_eq!(verdict.bugs.len(), 1);
        assert!(verdict.bugs[0].contains("node ratio 1.001000"), "{}", verdict.bugs[0]);
    }

    #[test]
    fn granularity_is_judged_against_the_guideline() {
        assert_eq!(granularity_judgement(Some(4.0), Some(1e6)), "too coarse: few tasks per worker, expect a tail");
        assert!(granularity_judgement(Some(900.0), Some(9_000.0)).starts_with("too fine"));
        assert_eq!(granularity_judgement(Some(50.0), Some(50_000.0)), "within the guideline");
        assert_eq!(granularity_judgement(None, None), "not measured");
    }
}
