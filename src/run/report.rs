//! What one run measured, as plain data: [`RunReport`] and its parts. Everything after a
//! run (text, JSON, CSV rows, reports, `explain`) works on these types; they know no model.

use super::settings::SearchMode;
use serde::Serialize;
use serde_json::Value;

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
    /// Solutions kept (the smallest `solutions_to_keep`): the length of `solution_texts`.
    pub solutions_kept: u64,
    /// True when `solution_texts` is a sample: fewer were kept than were found. The answer
    /// is computed from every solution either way.
    pub sample: bool,
    /// Its kept solutions as text, sorted (at most `solutions_to_keep`; see `sample`).
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

/// What an optimisation search (a family whose model declares an objective) found: the
/// best value, whether it is proven, and when it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ObjectiveReport {
    /// `max` or `min`.
    pub sense: &'static str,
    /// The best value found (summed over the components, which are independent
    /// searches); `None` when no solution was found (or none reached the target).
    pub best: Option<i64>,
    /// Whether the best value is proven optimal: every component's tree was searched to
    /// the end under the bound (not a first-solution or decision run, no limit hit).
    pub proven: bool,
    /// From the start of the search to the last improvement of the incumbent, summed over
    /// components (the time to the best solution).
    pub time_to_best_ns: Option<u64>,
    /// The time to the proof: the searches' wall time, when `proven`.
    pub time_to_proof_ns: Option<u64>,
    /// How many times a solution improved the incumbent, over all components.
    pub improvements: u64,
    /// Optimal solutions kept (listed in the components' `solution_texts`; every optimal
    /// solution found with `--all`, up to the number of solutions kept).
    pub optimal_solutions_kept: u64,
    /// The decision target (`--at-least` / `--at-most`), when one was set.
    pub target: Option<i64>,
    /// With a target: whether a solution reached it in every component; `None` without a
    /// target, and when the search was cut short (a node or time limit) before reaching it.
    pub reached: Option<bool>,
    /// A split search seeded with a known value (`split --incumbent V`): only solutions
    /// better than it were looked for, so without one found, the optimum is the seed's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<i64>,
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
    /// Time taken to wake every pool thread, once per run before its clock started (not in
    /// `elapsed_ns`).
    pub pool_wake_ns: u64,
}

/// Everything one run measured, as plain data.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
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
    /// `u64::MAX` (see [`RunReport::solutions_overflow`]); 0 while a component was not
    /// started (`unsearched_components`).
    pub solutions: u64,
    /// True when the product of the components' counts does not fit in 64 bits, so
    /// `solutions` holds `u64::MAX` and only the per-component counts are exact.
    pub solutions_overflow: bool,
    /// The answer as the instance defines it, from every solution found, not from the kept
    /// sample (`null` when undefined, or when a grid was not started before the time
    /// limit). Several solutions give a histogram: `{"solutions", "distinct", "counts":
    /// [{"answer", "solutions"}, ...]}` (see `puzzles::answer_tally`).
    pub answer: Value,
    /// Nodes over all components.
    pub nodes: u64,
    /// Per-rule counts (empty when rule counts were off).
    pub rules: Vec<RuleReport>,
    /// Nodes per depth, summed over components (empty when rule counts were off).
    pub nodes_per_depth: Vec<u64>,
    /// `prunes_per_depth[depth][rule]`, summed over components.
    pub prunes_per_depth: Vec<Vec<u64>>,
    /// Wall time of the run, from the start of the first component's search to the end of
    /// the last one's (no loading, no pool building or waking, no printing); each
    /// component's own search time is in its `elapsed_ns`.
    pub elapsed_ns: u64,
    /// Whether every component's tree was searched to the end (or to its first solution
    /// in first-solution mode); false when a limit cut a search short.
    pub complete: bool,
    /// Components not searched at all because the time limit had passed before their turn
    /// (they are not listed in `components`).
    pub unsearched_components: u64,
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
    /// The parallel strategy, as text; a merged split search's is [`split_strategy`]'s.
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
    /// The optimisation's outcome, for a family whose model declares an objective (its
    /// node counts then vary with the schedule of a parallel run: search overhead, not a
    /// bug); `None` for an enumeration or first-solution search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<ObjectiveReport>,
}

/// How a merged split search names its strategy: `parts:N` (no pool of its own).
const SPLIT_STRATEGY_PREFIX: &str = "parts:";

/// The strategy text of a split search merged from `parts` parts ([`RunReport::split_parts`]).
pub fn split_strategy(parts: usize) -> String {
    format!("{SPLIT_STRATEGY_PREFIX}{parts}")
}

impl RunReport {
    /// Whether this run optimised: its node counts may differ from run to run and from a
    /// sequential run's (the incumbent's history decides what is cut), which reports call
    /// search overhead, never a bug.
    pub fn optimises(&self) -> bool {
        self.objective.is_some()
    }

    /// The part count of a merged split search (`merge`'s report), `None` for a run of its own.
    pub fn split_parts(&self) -> Option<usize> {
        self.strategy.strip_prefix(SPLIT_STRATEGY_PREFIX)?.parse().ok()
    }

    /// What the run searched for, in words: its mode's ([`SearchMode::words`]), or the
    /// decision form's where it had a target.
    pub fn search_words(&self) -> &'static str {
        match &self.objective {
            Some(objective) if objective.target.is_some() => {
                "reached by a branch and bound for a solution that reaches the target"
            }
            _ => self.mode.words(self.optimises()),
        }
    }

    /// The knobs as `name=value` pairs joined by commas.
    pub fn knob_text(&self) -> String {
        self.knobs
            .iter()
            .map(|(name, value)| format!("{name}={}", value.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The per-rule reports of a run: each rule's name with its checks and prunes (zero for a
/// rule the counts do not reach).
pub(crate) fn rule_reports(names: &[String], checks: &[u64], prunes: &[u64]) -> Vec<RuleReport> {
    names
        .iter()
        .enumerate()
        .map(|(rule, name)| RuleReport {
            name: name.clone(),
            checks: checks.get(rule).copied().unwrap_or(0),
            prunes: prunes.get(rule).copied().unwrap_or(0),
        })
        .collect()
}

/// The product of independent components' solution counts, `None` when it overflows 64
/// bits (an instance of many grids can have more combinations than that).
pub(crate) fn product_of_counts(mut counts: impl Iterator<Item = u64>) -> Option<u64> {
    counts.try_fold(1u64, |product, count| product.checked_mul(count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_of_solution_counts_saturates_to_none_past_64_bits() {
        assert_eq!(product_of_counts([3u64, 4, 5].into_iter()), Some(60));
        assert_eq!(product_of_counts([u64::MAX, 2].into_iter()), None);
        assert_eq!(product_of_counts(std::iter::empty()), Some(1));
    }
}
