//! One run: (instance, knobs, strategy, limits) in, one [`RunReport`] out.
//!
//! This is where a family name becomes a model type and a strategy runs it: the only
//! module that sees puzzles and the parallel layer together. Everything after it (text,
//! JSON, CSV, reports) works on the flat report.

use crate::instance::Instance;
use crate::puzzles::knobs::{KnobError, KnobValues};
use crate::puzzles::{with_puzzle, DataError, Puzzle, PuzzleVisitor};
use crate::search::{search_sequentially, FullCounters, Limits, Model, NoCounters, RuleCounter, Stats};
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::time::Instant;

/// What to search for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchMode {
    /// Every solution (the whole tree).
    All,
    /// The first solution of each component.
    First,
}

/// How one run is set up, apart from the instance.
#[derive(Debug, Clone)]
pub struct RunSettings {
    /// Knob values as given (defaults fill the rest).
    pub knobs: KnobValues,
    /// All solutions or the first.
    pub mode: SearchMode,
    /// Stop each component after this many nodes (`u64::MAX`: no limit).
    pub node_limit: u64,
    /// Keep per-rule and per-depth counts (off: those counters compile away).
    pub rule_counts: bool,
    /// How many solutions to keep per component for printing (all are counted).
    pub solutions_to_keep: usize,
    /// The parallel strategy, as text (`sequential`, `depth:4`, `auto`, `steal`, ...).
    pub strategy: String,
    /// Worker threads (1 for `sequential`).
    pub threads: usize,
    /// Counter layout across workers: `padded` (default), `shared`, `unpadded`.
    pub counters: String,
    /// State restoration: `undo` (default) or `clone` (clone the state at every node).
    pub state: String,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            knobs: KnobValues::new(),
            mode: SearchMode::All,
            node_limit: u64::MAX,
            rule_counts: true,
            solutions_to_keep: 1000,
            strategy: "sequential".to_string(),
            threads: 1,
            counters: "padded".to_string(),
            state: "undo".to_string(),
        }
    }
}

/// Why a run could not start.
#[derive(Debug)]
pub enum RunError {
    /// A knob value the family does not accept.
    Knob(KnobError),
    /// The instance data is invalid (normally caught when loading).
    Data(DataError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Knob(error) => write!(f, "{error}"),
            RunError::Data(error) => write!(f, "{error}"),
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
}

/// One worker's accounting in a parallel run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct WorkerReport {
    /// Worker index.
    pub worker: usize,
    /// Nodes this worker entered.
    pub nodes: u64,
    /// Tasks (subproblems) it ran.
    pub tasks: u64,
    /// Tasks it took from another worker.
    pub stolen: u64,
    /// Tasks it gave away.
    pub given_away: u64,
    /// Time spent running tasks.
    pub busy_ns: u64,
    /// Time spent waiting for work.
    pub idle_ns: u64,
    /// Median task duration.
    pub task_ns_median: u64,
    /// Median task size in nodes.
    pub task_nodes_median: u64,
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
    /// Solutions of the instance: the product of the components' counts.
    pub solutions: u64,
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
    /// in first-solution mode); false when a node limit cut a search short.
    pub complete: bool,
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
    /// Run-level parallel accounting, summed or merged over components.
    pub parallel: ParallelSummary,
    /// Per-worker accounting, summed over components.
    pub workers: Vec<WorkerReport>,
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
pub fn run(instance: &Instance, settings: &RunSettings) -> Result<RunReport, RunError> {
    with_puzzle(instance.family, RunFamily { instance, settings })
}

struct RunFamily<'a> {
    instance: &'a Instance,
    settings: &'a RunSettings,
}

impl PuzzleVisitor for RunFamily<'_> {
    type Output = Result<RunReport, RunError>;

    fn visit<P: Puzzle>(self) -> Self::Output {
        let puzzle = P::parse(&self.instance.data).map_err(RunError::Data)?;
        let config = P::config(&self.settings.knobs).map_err(RunError::Knob)?;
        if self.settings.rule_counts {
            Ok(run_puzzle::<P, FullCounters>(&puzzle, &config, self.instance, self.settings))
        } else {
            Ok(run_puzzle::<P, NoCounters>(&puzzle, &config, self.instance, self.settings))
        }
    }
}

fn run_puzzle<P: Puzzle, C: RuleCounter>(
    puzzle: &P,
    config: &P::Config,
    instance: &Instance,
    settings: &RunSettings,
) -> RunReport {
    let limits = Limits {
        first_solution: settings.mode == SearchMode::First,
        node_limit: settings.node_limit,
        solutions_to_keep: settings.solutions_to_keep,
        clone_state: false,
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
    for (index, (model, name)) in models.into_iter().zip(puzzle.component_names()).enumerate() {
        let started = Instant::now();
        let result = search_sequentially::<P::Model, C>(model, limits.clone());
        let elapsed_ns = started.elapsed().as_nanos() as u64;
        complete &= result.stop != Some(crate::search::StopReason::NodeLimit);
        let mut solutions = result.solutions;
        solutions.sort();
        components.push(ComponentReport {
            name,
            solutions: result.stats.solutions,
            nodes: result.stats.nodes,
            elapsed_ns,
            solution_texts: solutions.iter().map(|solution| puzzle.solution_text(solution)).collect(),
            rendered: solutions.iter().take(4).map(|solution| puzzle.render(solution)).collect(),
            verify_failures: solutions.iter().filter_map(|solution| puzzle.verify(index, solution).err()).collect(),
        });
        total.merge(&result.stats);
        all_solutions.push(solutions);
    }
    let solutions = components.iter().map(|component| component.solutions).product();
    let knobs = P::describe(config).into_iter().map(|(name, value)| (name.to_string(), Value::String(value))).collect();
    RunReport {
        puzzle: P::FAMILY.to_string(),
        instance: instance.id.clone(),
        source: instance.source.clone(),
        knobs,
        mode: settings.mode,
        solutions,
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
        components,
        strategy: settings.strategy.clone(),
        threads: settings.threads,
        counters: settings.counters.clone(),
        state: settings.state.clone(),
        parallel: ParallelSummary::default(),
        workers: Vec::new(),
    }
}
