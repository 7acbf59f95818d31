//! One run: (instance, knobs, strategy, limits) in, one [`RunReport`] out.
//!
//! This is where a family name becomes a model type and a strategy runs it: the only
//! module that sees puzzles and the parallel layer together. Everything after it (text,
//! JSON, CSV, reports) works on the flat report.

use crate::instance::Instance;
use crate::parallel::{
    self, CounterLayout, ParallelPlan, Pool, PoolError, StateRestore, Strategy, TaskSamples, ThreadAffinity,
    MAX_THREADS,
};
use crate::puzzles::knobs::{KnobError, KnobValues};
use crate::puzzles::{DataError, Puzzle, PuzzleVisitor};
use crate::search::{FullCounters, Limits, Model, NoCounters, RuleCounter, Stats, StopReason};
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// What to search for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchMode {
    /// Every solution (the whole tree).
    All,
    /// The first solution of each component.
    First,
}

/// How one run is set up, apart from the instance: the one typed run description.
///
/// Command-line flags (`cli::parallel_args`, `cli::knob_args`) and sweep-spec blocks
/// (`harness::sweeping::spec`) are parsed into these types where they enter, with the same
/// parsers (each knob's `FromStr`, [`parse_thread_count`]), so a bad value is refused at
/// the boundary (exit code 2) and never travels further as text.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSettings {
    /// Knob values as given (defaults fill the rest).
    pub knobs: KnobValues,
    /// All solutions or the first.
    pub mode: SearchMode,
    /// Stop each component after this many nodes (`u64::MAX`: no limit).
    pub node_limit: u64,
    /// Stop the run (all components together) once this much wall time has passed.
    pub time_limit: Option<std::time::Duration>,
    /// Keep per-rule and per-depth counts (off: those counters compile away).
    pub rule_counts: bool,
    /// How many solutions to keep per component for printing (all are counted).
    pub solutions_to_keep: usize,
    /// The parallel strategy.
    pub strategy: Strategy,
    /// Worker threads, from 1 to [`MAX_THREADS`] (1 for `sequential`).
    pub threads: usize,
    /// Counter layout across workers.
    pub counters: CounterLayout,
    /// State restoration.
    pub state: StateRestore,
    /// Where pool threads run.
    pub affinity: ThreadAffinity,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            knobs: KnobValues::new(),
            mode: SearchMode::All,
            node_limit: u64::MAX,
            time_limit: None,
            rule_counts: true,
            solutions_to_keep: 1000,
            strategy: Strategy::Sequential,
            threads: 1,
            counters: CounterLayout::default(),
            state: StateRestore::default(),
            affinity: ThreadAffinity::default(),
        }
    }
}

impl RunSettings {
    /// The run description's CSV columns (of the runs log, the summary and `sweep
    /// --dry-run`), in their order; the knobs have their own `knobs` column.
    pub const COLUMNS: [&'static str; 7] =
        ["mode", "strategy", "threads", "counters", "state", "affinity", "node_limit"];

    /// The values under [`RunSettings::COLUMNS`], as their flags and specs write them.
    pub fn column_values(&self) -> [String; 7] {
        [
            self.mode.name().to_string(),
            self.strategy.to_string(),
            self.threads.to_string(),
            self.counters.to_string(),
            self.state.to_string(),
            self.affinity.to_string(),
            self.node_limit.to_string(),
        ]
    }

    /// The strategy, counter layout and state mode the parallel layer runs with.
    pub fn parallel_plan(&self) -> ParallelPlan {
        ParallelPlan { strategy: self.strategy, counters: self.counters, state: self.state }
    }
}

impl SearchMode {
    /// `all` or `first`: the form flags, specs and CSV columns use.
    pub fn name(self) -> &'static str {
        match self {
            SearchMode::All => "all",
            SearchMode::First => "first",
        }
    }
}

impl std::str::FromStr for SearchMode {
    type Err = String;

    fn from_str(text: &str) -> Result<SearchMode, String> {
        [SearchMode::All, SearchMode::First]
            .into_iter()
            .find(|mode| mode.name() == text)
            .ok_or_else(|| format!("`{text}` is not a search mode; expected all or first"))
    }
}

/// Checks a thread count: the one rule every entry point (flags, sweep specs) applies.
pub fn check_thread_count(threads: usize) -> Result<usize, String> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(format!("`{threads}` threads: a thread count must be between 1 and {MAX_THREADS}"))
    }
}

/// Parses and checks a thread count given as text (`--threads 4`).
pub fn parse_thread_count(text: &str) -> Result<usize, String> {
    let threads = text
        .trim()
        .parse::<usize>()
        .map_err(|_| format!("`{text}` is not a thread count; a thread count must be between 1 and {MAX_THREADS}"))?;
    check_thread_count(threads)
}

/// Why a run could not start.
#[derive(Debug)]
pub enum RunError {
    /// A knob value the family does not accept.
    Knob(KnobError),
    /// The instance data is invalid (normally caught when loading).
    Data(DataError),
    /// The thread pool could not be built.
    Pool(PoolError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Knob(error) => write!(f, "{error}"),
            RunError::Data(error) => write!(f, "{error}"),
            RunError::Pool(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for RunError {}

/// One rule's counts.
#[derive(Debug, Clone, Serialize)]
pub struct RuleReport {
    /// The rule's name.
    pub name: String,
    /// How often it was evaluated.
    pub checks: u64,
    /// How often it rejected a node.
    pub prunes: u64,
}

/// One independent component (a grid) of a run.
#[derive(Debug, Clone, Serialize)]
pub struct ComponentReport {
    /// The component's name.
    pub name: String,
    /// Solutions found.
    pub solutions: u64,
    /// Nodes entered.
    pub nodes: u64,
    /// Wall time of its search.
    pub elapsed_ns: u64,
    /// Its solutions as text, sorted (at most `solutions_to_keep`).
    pub solution_texts: Vec<String>,
    /// Its first solutions drawn for a person (at most 4).
    #[serde(skip)]
    pub rendered: Vec<String>,
    /// Which rule, if any, the independent checker found broken in a kept solution.
    pub verify_failures: Vec<String>,
    /// Its nodes per depth (empty when rule counts were off); the run's are the sum.
    #[serde(skip)]
    pub nodes_per_depth: Vec<u64>,
    /// Its `prunes_per_depth[depth][rule]`; the run's are the sum.
    #[serde(skip)]
    pub prunes_per_depth: Vec<Vec<u64>>,
}

/// One worker's accounting in a run, summed over the components (the parallel layer's
/// per-component `WorkerReport`s added up by worker index).
#[derive(Debug, Clone, Default, Serialize)]
pub struct WorkerTotals {
    /// Worker index.
    pub worker: usize,
    /// Nodes this worker entered.
    pub nodes: u64,
    /// Tasks (subproblems) it ran.
    pub tasks: u64,
    /// Tasks it took from another worker.
    pub stolen: u64,
    /// Subproblems it split off its own open branches (`steal`, `budget`).
    pub split_off: u64,
    /// Tasks other workers took from its queue.
    pub given_away: u64,
    /// Time spent running tasks.
    pub busy_ns: u64,
    /// Time spent waiting for work.
    pub idle_ns: u64,
    /// Median task duration.
    pub task_ns_median: u64,
    /// Median task size in nodes.
    pub task_nodes_median: u64,
    /// Idle time before its first task (frontier listing, pool wake-up); part of `idle_ns`.
    pub before_first_task_ns: u64,
    /// Idle time after its last task while others were still busy (the tail); part of
    /// `idle_ns`.
    pub after_last_task_ns: u64,
}

/// The run-level accounting of a parallel strategy (zeros for `sequential`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ParallelSummary {
    /// Subproblems made (frontier size, or tasks created by splitting).
    pub subproblems: u64,
    /// Tasks taken by a worker from another.
    pub steals: u64,
    /// Busy time of the busiest worker over the mean busy time (1.0 = perfect balance).
    pub imbalance: f64,
    /// Share of worker time spent idle (0..1).
    pub idle_share: f64,
    /// User CPU time of the process during the search.
    pub user_cpu_ns: u64,
    /// System CPU time of the process during the search.
    pub system_cpu_ns: u64,
    /// Median task duration over all workers.
    pub task_ns_median: u64,
    /// 90th percentile of task duration.
    pub task_ns_p90: u64,
    /// Median task size in nodes.
    pub task_nodes_median: u64,
    /// First-solution mode: time from the start to the first solution.
    pub first_solution_ns: u64,
    /// First-solution mode: time from the first solution until every worker stopped.
    pub stop_latency_ns: u64,
    /// First-solution mode: nodes entered after the first solution was found.
    pub nodes_after_first: u64,
    /// Nodes `auto` spent on trial frontiers it did not use (not part of `nodes`).
    pub probe_nodes: u64,
    /// Nodes above the frontier, counted while listing it (part of `nodes`).
    pub frontier_nodes: u64,
    /// Time taken to wake every pool thread before the clock started (not in `elapsed_ns`).
    pub pool_wake_ns: u64,
}

/// Everything one run measured, as plain data.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// The family (`hooks`, ...).
    pub puzzle: String,
    /// The instance's id.
    pub instance: String,
    /// The instance as given (short name or path).
    pub source: String,
    /// Every knob of the family with its value (defaults included), in spec order.
    pub knobs: serde_json::Map<String, Value>,
    /// All solutions or the first.
    pub mode: SearchMode,
    /// Solutions of the instance: the product of the components' counts, saturated at
    /// `u64::MAX` (see [`RunReport::solutions_overflow`]).
    pub solutions: u64,
    /// True when the product of the components' counts does not fit in 64 bits, so
    /// `solutions` holds `u64::MAX` and only the per-component counts are exact.
    pub solutions_overflow: bool,
    /// The answer as the instance defines it (`null` when undefined).
    pub answer: Value,
    /// Nodes over all components.
    pub nodes: u64,
    /// Per-rule counts (empty when rule counts were off).
    pub rules: Vec<RuleReport>,
    /// Nodes per depth, summed over components (empty when rule counts were off).
    pub nodes_per_depth: Vec<u64>,
    /// `prunes_per_depth[depth][rule]`, summed over components.
    pub prunes_per_depth: Vec<Vec<u64>>,
    /// Wall time of the searches (no loading, no pool building, no printing).
    pub elapsed_ns: u64,
    /// Whether every component's tree was searched to the end (or to its first solution
    /// in first-solution mode); false when a limit cut a search short.
    pub complete: bool,
    /// Why the first component that stopped early stopped: `node-limit`, `time-limit`,
    /// `frontier-full` (a `depth:D` listing past the cap on subproblems), `first-solution`.
    pub stop: Option<&'static str>,
    /// The node limit, when one was set.
    pub node_limit: Option<u64>,
    /// The most nodes this run's strategy may enter past the node limit (0: exact; a
    /// parallel worker reports its count to the shared budget every 1024 nodes).
    pub node_limit_overshoot_max: u64,
    /// The wall-clock limit in seconds, when one was set.
    pub time_limit_s: Option<f64>,
    /// The components.
    pub components: Vec<ComponentReport>,
    /// The parallel strategy, as text.
    pub strategy: String,
    /// Worker threads.
    pub threads: usize,
    /// Counter layout across workers.
    pub counters: String,
    /// State restoration (`undo` or `clone`).
    pub state: String,
    /// Where pool threads ran (`pinned` or `free`).
    pub affinity: String,
    /// Run-level parallel accounting, summed or merged over components.
    pub parallel: ParallelSummary,
    /// Per-worker accounting, summed over components.
    pub workers: Vec<WorkerTotals>,
}

impl RunReport {
    /// The knobs as `name=value` pairs joined by commas.
    pub fn knob_text(&self) -> String {
        self.knobs
            .iter()
            .map(|(name, value)| format!("{name}={}", value.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Runs `instance` with `settings`.
///
/// The thread pool is built before any clock starts.
pub fn run(instance: &Instance, settings: &RunSettings) -> Result<RunReport, RunError> {
    let plan = settings.parallel_plan();
    // `sequential` runs on the calling thread: no thread is started for it.
    let pool = if plan.strategy == Strategy::Sequential {
        Pool::calling_thread()
    } else {
        Pool::with_affinity(settings.threads, settings.affinity).map_err(RunError::Pool)?
    };
    instance.family.solve(RunFamily { instance, settings, plan, pool: &pool })
}

/// One run of one instance, handed to its family's registered `solve` (see `registry`).
pub(crate) struct RunFamily<'a> {
    instance: &'a Instance,
    settings: &'a RunSettings,
    plan: ParallelPlan,
    pool: &'a Pool,
}

impl PuzzleVisitor for RunFamily<'_> {
    type Output = Result<RunReport, RunError>;

    fn visit<P: Puzzle>(self) -> Self::Output {
        let puzzle = P::parse(&self.instance.data).map_err(RunError::Data)?;
        let config = P::config(&self.settings.knobs).map_err(RunError::Knob)?;
        let run =
            ComponentRunner { instance: self.instance, settings: self.settings, plan: self.plan, pool: self.pool };
        if self.settings.rule_counts {
            Ok(run.run_puzzle::<P, FullCounters>(&puzzle, &config))
        } else {
            Ok(run.run_puzzle::<P, NoCounters>(&puzzle, &config))
        }
    }
}

/// Runs the components of one puzzle one after the other, each on the whole pool.
struct ComponentRunner<'a> {
    instance: &'a Instance,
    settings: &'a RunSettings,
    plan: ParallelPlan,
    pool: &'a Pool,
}

impl ComponentRunner<'_> {
    fn run_puzzle<P: Puzzle, C: RuleCounter + Send>(&self, puzzle: &P, config: &P::Config) -> RunReport {
        let settings = self.settings;
        let limits = Limits {
            first_solution: settings.mode == SearchMode::First,
            node_limit: settings.node_limit,
            solutions_to_keep: settings.solutions_to_keep,
            clone_state: false,
            deadline: settings.time_limit.and_then(|limit| std::time::Instant::now().checked_add(limit)),
        };
        let models = puzzle.models(config);
        let rule_names: Vec<String> = models
            .first()
            .map(|model| model.rule_names().iter().map(|name| name.to_string()).collect())
            .unwrap_or_default();
        let mut total = Stats::default();
        let mut components = Vec::new();
        let mut all_solutions = Vec::new();
        let mut complete = true;
        let mut stop = None;
        let mut workers = WorkerMerge::default();
        let mut summary = ParallelSummary::default();
        for (index, (model, name)) in models.into_iter().zip(puzzle.component_names()).enumerate() {
            let outcome = parallel::search::<P::Model, C>(model, &self.plan, self.pool, limits.clone());
            let elapsed_ns = nanos(outcome.run.wall);
            complete &= !outcome.stop.is_some_and(StopReason::cuts_search_short);
            stop = stop.or(outcome.stop.map(StopReason::name));
            summarize_component(&mut summary, &outcome.run, outcome.stop);
            workers.add(&outcome.workers);
            let solutions = outcome.solutions;
            total.merge(&outcome.stats);
            components.push(ComponentReport {
                name,
                solutions: outcome.stats.solutions,
                nodes: outcome.stats.nodes,
                elapsed_ns,
                solution_texts: solutions.iter().map(|solution| puzzle.solution_text(solution)).collect(),
                rendered: solutions.iter().take(4).map(|solution| puzzle.render(solution)).collect(),
                verify_failures: solutions.iter().filter_map(|solution| puzzle.verify(index, solution).err()).collect(),
                nodes_per_depth: outcome.stats.nodes_per_depth,
                prunes_per_depth: outcome.stats.prunes_per_depth,
            });
            all_solutions.push(solutions);
        }
        workers.finish(&mut summary);
        let solutions = product_of_counts(components.iter().map(|component| component.solutions));
        let knobs =
            P::describe(config).into_iter().map(|(name, value)| (name.to_string(), Value::String(value))).collect();
        RunReport {
            puzzle: P::FAMILY.to_string(),
            instance: self.instance.id.clone(),
            source: self.instance.source.clone(),
            knobs,
            mode: settings.mode,
            solutions: solutions.unwrap_or(u64::MAX),
            solutions_overflow: solutions.is_none(),
            answer: puzzle.answer(&all_solutions),
            nodes: total.nodes,
            rules: if total.counted {
                rule_names
                    .iter()
                    .enumerate()
                    .map(|(rule, name)| RuleReport {
                        name: name.clone(),
                        checks: total.rule_checks.get(rule).copied().unwrap_or(0),
                        prunes: total.rule_prunes.get(rule).copied().unwrap_or(0),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            nodes_per_depth: total.nodes_per_depth,
            prunes_per_depth: total.prunes_per_depth,
            elapsed_ns: components.iter().map(|component| component.elapsed_ns).sum(),
            complete,
            stop,
            node_limit: (settings.node_limit != u64::MAX).then_some(settings.node_limit),
            node_limit_overshoot_max: parallel::node_limit_overshoot_max(self.plan.strategy, self.pool.threads()),
            time_limit_s: settings.time_limit.map(|limit| limit.as_secs_f64()),
            components,
            strategy: self.plan.strategy.to_string(),
            threads: self.pool.threads(),
            counters: self.plan.counters.to_string(),
            state: self.plan.state.to_string(),
            affinity: self.settings.affinity.to_string(),
            parallel: summary,
            workers: workers.reports,
        }
    }
}

/// The product of independent components' solution counts, `None` when it overflows 64
/// bits (an instance of many grids can have more combinations than that).
fn product_of_counts(mut counts: impl Iterator<Item = u64>) -> Option<u64> {
    counts.try_fold(1u64, |product, count| product.checked_mul(count))
}

fn nanos(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// Adds one component's run-level accounting to the run's summary.
fn summarize_component(summary: &mut ParallelSummary, run: &parallel::RunAccounting, stop: Option<StopReason>) {
    summary.subproblems += run.subproblems;
    summary.steals += run.steals;
    summary.user_cpu_ns += nanos(run.cpu.user);
    summary.system_cpu_ns += nanos(run.cpu.system);
    summary.probe_nodes += run.probe_nodes;
    summary.frontier_nodes += run.frontier_nodes;
    summary.pool_wake_ns += nanos(run.pool_wake);
    summary.nodes_after_first += run.nodes_after_stop;
    if stop == Some(StopReason::FirstSolution) {
        // The stop is raised by the first solution, so the time to it is the wall time
        // less the time the workers took to notice the stop.
        let latency = run.stop_latency.unwrap_or_default();
        summary.first_solution_ns += nanos(run.wall.saturating_sub(latency));
        summary.stop_latency_ns += nanos(latency);
    }
}

#[derive(Default)]
/// Per-worker accounting summed over the components of a run (worker `i` of every
/// component's run adds into report `i`), and the task samples of all workers.
struct WorkerMerge {
    reports: Vec<WorkerTotals>,
    per_worker_durations: Vec<TaskSamples>,
    per_worker_sizes: Vec<TaskSamples>,
}

impl WorkerMerge {
    fn add(&mut self, workers: &[parallel::WorkerReport]) {
        for worker in workers {
            let index = worker.worker;
            while self.reports.len() < index {
                self.reports.push(WorkerTotals { worker: self.reports.len(), ..WorkerTotals::default() });
                self.per_worker_durations.push(TaskSamples::new());
                self.per_worker_sizes.push(TaskSamples::new());
            }
            if self.reports.len() == index {
                // A worker's first samples are copied as they are: adding a histogram into
                // empty samples would resize them and scan every bucket.
                self.reports.push(WorkerTotals { worker: index, ..WorkerTotals::default() });
                self.per_worker_durations.push(worker.task_durations_ns.clone());
                self.per_worker_sizes.push(worker.task_sizes_nodes.clone());
            } else {
                self.per_worker_durations[index].add(&worker.task_durations_ns);
                self.per_worker_sizes[index].add(&worker.task_sizes_nodes);
            }
            let report = &mut self.reports[index];
            report.nodes += worker.nodes;
            report.tasks += worker.tasks_run;
            report.stolen += worker.tasks_stolen;
            report.split_off += worker.tasks_split_off;
            report.given_away += worker.tasks_given_away;
            report.busy_ns += nanos(worker.busy);
            report.idle_ns += nanos(worker.idle);
            report.before_first_task_ns += nanos(worker.before_first_task);
            report.after_last_task_ns += nanos(worker.after_last_task);
        }
    }

    /// Fills the medians of each worker and the run's imbalance, idle share and task
    /// percentiles.
    fn finish(&mut self, summary: &mut ParallelSummary) {
        for ((report, durations), sizes) in
            self.reports.iter_mut().zip(&self.per_worker_durations).zip(&self.per_worker_sizes)
        {
            report.task_ns_median = durations.value_at_quantile(0.5);
            report.task_nodes_median = sizes.value_at_quantile(0.5);
        }
        let all_durations = parallel::merged_task_samples(&self.per_worker_durations);
        let all_sizes = parallel::merged_task_samples(&self.per_worker_sizes);
        summary.task_ns_median = all_durations.value_at_quantile(0.5);
        summary.task_ns_p90 = all_durations.value_at_quantile(0.9);
        summary.task_nodes_median = all_sizes.value_at_quantile(0.5);
        let busy: u64 = self.reports.iter().map(|report| report.busy_ns).sum();
        let idle: u64 = self.reports.iter().map(|report| report.idle_ns).sum();
        let busiest = self.reports.iter().map(|report| report.busy_ns).max().unwrap_or(0);
        summary.imbalance = if busy == 0 { 1.0 } else { busiest as f64 * self.reports.len() as f64 / busy as f64 };
        summary.idle_share = if busy + idle == 0 { 0.0 } else { idle as f64 / (busy + idle) as f64 };
    }
}
