//! What `explain` decomposes: the medians of the explained run and of the runs beside it
//! (sequential, one thread, the A/B reruns), with the few derived figures every part of
//! the explanation reads the same way. [`super::measure`] fills them from runs.

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
    /// `depth:D`, `auto`, `auto:K`, `replicable`: a frontier listed on one thread, then its
    /// subproblems.
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

    /// Whether the explained run had more threads than CPUs.
    pub(super) fn oversubscribed(&self) -> bool {
        self.threads > self.available_cpus.max(1)
    }

    /// The sequential run's wall time per node (0 without nodes).
    pub(super) fn sequential_ns_per_node(&self) -> f64 {
        ratio_or_zero(self.sequential.wall_ns, self.sequential.nodes)
    }

    /// The parallel run's idle worker time by when it happened, and whether it was
    /// measured so: without a split, all idle time (`threads * wall - busy`) counts as
    /// between tasks.
    pub(super) fn idle_split(&self) -> (IdleSplit, bool) {
        match self.idle {
            Some(split) => (split, true),
            None => (
                IdleSplit {
                    between_tasks_ns: (self.threads.max(1) as f64 * self.parallel.wall_ns - self.parallel.busy_ns)
                        .max(0.0),
                    ..IdleSplit::default()
                },
                false,
            ),
        }
    }

    /// The wall times at `threads` of the run's own counter layout and of padded counters,
    /// when the run used a layout that shares cache lines (`shared`, `unpadded`) and the
    /// counter A/B measured it.
    pub(super) fn contended_and_padded_ns(&self) -> Option<(f64, f64)> {
        let ab = self.counters_ab.as_ref()?;
        let used_ns = match self.counters.as_str() {
            "shared" => ab.shared_ns,
            "unpadded" => ab.unpadded_ns,
            _ => None,
        }?;
        Some((used_ns, ab.padded_ns))
    }

    /// The undo/clone A/B, when the explained run cloned its state (otherwise cloning cost
    /// it nothing).
    pub(super) fn cloning_ab(&self) -> Option<&StateComparison> {
        self.state_ab.as_ref().filter(|_| self.state == "clone")
    }
}

/// `numerator / denominator`, NaN without a denominator (a ratio that cannot be told).
pub(super) fn ratio(numerator: f64, denominator: f64) -> f64 {
    if denominator > 0.0 {
        numerator / denominator
    } else {
        f64::NAN
    }
}

/// `numerator / denominator`, 0 without a denominator (a per-node cost without nodes).
pub(super) fn ratio_or_zero(numerator: f64, denominator: f64) -> f64 {
    if denominator > 0.0 {
        numerator / denominator
    } else {
        0.0
    }
}
