//! Checks for a family's own tests: its published count under every parallel strategy and
//! thread count, with exactly the sequential search's nodes, solutions and prune counts;
//! and, when they differ, which run differed and what that usually means.
//!
//! A parallel run replays each subproblem's moves from the root on another copy of the
//! model, in another order than the sequential search visits them. A model whose `branch`
//! or `apply` reads anything besides the moves applied (a global counter, a clock, a
//! random number, a cache shared between copies) builds another tree when replayed: the
//! counts then differ between strategies, often only on some runs. This check runs every
//! strategy at several thread counts and names the first run that differs.

use crate::format;
use crate::parallel::StateRestore;
use crate::puzzles::Puzzle;
use crate::run::instance;
use crate::run::{self, RunReport, RunSettings, SearchMode};
use crate::workbench::knob_values;
use std::fmt;

pub use crate::search::{assert_same_as_default_contract, DefaultContract};

/// A split search adds up to the sequential one: for each part count, the differences
/// between the report merged from that many parts and the sequential run's (empty when
/// equal). Its error says what kind of failure it is (bad input, a failure while running,
/// the family's panic) and what was wrong.
pub use crate::cluster::check::merged_against_sequential;
pub use crate::cluster::{ClusterError, ClusterFailure};

/// Every parallel strategy, with split parameters small enough to split small trees.
pub const STRATEGIES: [&str; 7] = ["depth:2", "depth:3", "auto", "steal", "budget:64", "naive", "replicable"];

/// The most threads the default thread counts reach: each count runs every strategy, so
/// 1 to 64 on a large machine would multiply a family's test time by twenty.
pub const MAX_DEFAULT_THREADS: usize = 8;

/// The thread counts the parity helpers ran at before they took them as a parameter.
#[deprecated(
    since = "0.2.0",
    note = "the parity helpers take their thread counts: use `default_thread_counts()` or pass them to `assert_parity_across_strategies_at`"
)]
pub const THREAD_COUNTS: [usize; 3] = [1, 2, 3];

/// The thread counts each strategy runs at unless the caller names them: every count from
/// 1 up to the CPUs available to this process, at least 2 (so a one-CPU box still runs two
/// workers side by side) and at most [`MAX_DEFAULT_THREADS`].
pub fn default_thread_counts() -> Vec<usize> {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    (1..=cpus.clamp(2, MAX_DEFAULT_THREADS)).collect()
}

/// What a model whose counts differ between runs should be checked for.
const REPLAY_HINT: &str = "a parallel run replays each subproblem's moves from the root on another copy of the \
     model, in another order: `branch` and `apply` must depend only on the moves applied, not on a global, a \
     clock, a random number or anything shared between copies";

/// One instance of a family and the count it must reach.
#[derive(Debug, Clone, Copy)]
pub struct ParityCase<'a> {
    /// The instance as the command line names it: a short argument, a built-in name or a file.
    pub argument: &'a str,
    /// The knob settings to run, each as `name=value` pairs; none (`&[]`) runs the defaults
    /// once, as `&[&[]]`.
    pub knob_settings: &'a [&'a [(&'a str, &'a str)]],
    /// The published number of solutions; for a family with an objective, the number of
    /// optimal solutions (what `--all` lists, not the solutions it reaches on the way).
    pub solutions: u64,
}

/// Why [`check_parity_across_strategies`] failed: the run that failed or differed, and
/// what went wrong, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParityFailure {
    /// The run that failed or differed, as `steal x2` (`sequential` for the reference).
    pub run: String,
    /// What went wrong: the run's error, or what it found against what was expected.
    pub message: String,
}

impl fmt::Display for ParityFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParityFailure {}

/// What an exhaustive run finds and counts, apart from times.
#[derive(Debug, PartialEq)]
struct Findings {
    solutions: u64,
    nodes: u64,
    solution_texts: Vec<Vec<String>>,
    rules: Vec<(String, u64, u64)>,
    nodes_per_depth: Vec<u64>,
    /// For a family with an objective: the best value (every run of `--all` lists the
    /// same optimal solutions, but its nodes depend on the schedule).
    objective_best: Option<Option<i64>>,
}

impl Findings {
    /// What `self` (the run named `run`) found unlike `expected` (the run named
    /// `reference`), in words; `None` when it found the same. For a family with an
    /// objective, the best value and the optimal solutions listed are compared; the
    /// nodes and the solutions reached on the way depend on when the incumbent improved
    /// (search overhead, with either sign), so they are not.
    fn difference(&self, run: &str, expected: &Findings, reference: &str) -> Option<String> {
        if let Some(best) = expected.objective_best {
            return match (self.objective_best == Some(best), self.solution_texts == expected.solution_texts) {
                (true, true) => None,
                (false, _) => Some(format!(
                    "{run} found the best value {:?}, {reference} {best:?}",
                    self.objective_best.flatten()
                )),
                (true, false) => Some(format!("{run} listed other optimal solutions than {reference}")),
            };
        }
        self.counts_difference(run, expected, reference)
    }

    /// [`Findings::difference`] for two runs that must count alike whatever the objective:
    /// two sequential searches of one tree (a sequential branch and bound raises its
    /// incumbent at the same nodes every time, so its counts are exact too).
    fn counts_difference(&self, run: &str, expected: &Findings, reference: &str) -> Option<String> {
        if (self.solutions, self.nodes) != (expected.solutions, expected.nodes) {
            return Some(format!(
                "{run} found {} solutions in {} nodes, {reference} {} in {}",
                format::count(self.solutions),
                format::count(self.nodes),
                format::count(expected.solutions),
                format::count(expected.nodes),
            ));
        }
        let differing = [
            (self.solution_texts != expected.solution_texts, "solutions"),
            (self.rules != expected.rules, "rule counts"),
            (self.nodes_per_depth != expected.nodes_per_depth, "nodes per depth"),
        ];
        let what: Vec<&str> = differing.iter().filter(|(differs, _)| *differs).map(|(_, what)| *what).collect();
        (!what.is_empty()).then(|| {
            let counts = format!("{} solutions in {} nodes", format::count(self.solutions), format::count(self.nodes));
            format!("{run} found the same {counts} as {reference} but other {}", what.join(" and "))
        })
    }
}

/// The findings of an exhaustive, complete run whose kept solutions all pass `verify`.
fn findings(report: &RunReport) -> Result<Findings, String> {
    if !report.complete {
        return Err(format!("stopped early ({})", report.stop.unwrap_or("unknown reason")));
    }
    if let Some(failure) = report.components.iter().flat_map(|component| &component.verify_failures).next() {
        return Err(format!("a solution fails the family's own check: {failure}"));
    }
    Ok(Findings {
        solutions: report.solutions,
        nodes: report.nodes,
        solution_texts: report.components.iter().map(|component| component.solution_texts.clone()).collect(),
        rules: report.rules.iter().map(|rule| (rule.name.clone(), rule.checks, rule.prunes)).collect(),
        nodes_per_depth: report.nodes_per_depth.clone(),
        objective_best: report.objective.as_ref().map(|objective| objective.best),
    })
}

/// [`check_parity_across_strategies_at`] at [`default_thread_counts`].
pub fn check_parity_across_strategies<P: Puzzle + 'static>(case: ParityCase<'_>) -> Result<(), ParityFailure> {
    check_parity_across_strategies_at::<P>(case, &default_thread_counts())
}

/// Registers `P`, checks that `case.argument` is an instance of `P`, then for each knob
/// setting of `case`: runs the sequential search twice (the same counts both times) and
/// once with the state cloned at every node instead of undone (the same counts: `undo`
/// restores what `apply` changed), checks the published count, and checks that every
/// strategy of [`STRATEGIES`] at every count of `thread_counts` finds the same
/// solutions with the same node, check and prune counts (for a family with an objective:
/// the same best value and optimal solutions, the sequential runs' counts exact). The
/// first failure names the run: one that failed (a model's panic, with where it
/// happened), or one whose counts differ, with what that usually means (`moves do not
/// replay: steal x2 found 93 solutions in ... nodes, sequential 92 in ...`).
pub fn check_parity_across_strategies_at<P: Puzzle + 'static>(
    case: ParityCase<'_>,
    thread_counts: &[usize],
) -> Result<(), ParityFailure> {
    run::register::<P>();
    let context = |knobs: &[(&str, &str)]| format!("{} {knobs:?}", case.argument);
    let instance = instance::load(case.argument)
        .map_err(|error| ParityFailure { run: "sequential".into(), message: format!("{}: {error}", case.argument) })?;
    if instance.family.name() != P::FAMILY {
        let message = format!(
            "{}: an instance of the family `{}`, not `{}` (a family registered earlier takes this argument): name \
             an instance file of `{}`, or give the families short arguments of their own",
            case.argument,
            instance.family.name(),
            P::FAMILY,
            P::FAMILY
        );
        return Err(ParityFailure { run: "sequential".into(), message });
    }
    // No knob settings is the defaults once, not no run at all: a check that runs nothing
    // would pass a broken model.
    let defaults: &[&[(&str, &str)]] = &[&[]];
    let knob_settings = if case.knob_settings.is_empty() { defaults } else { case.knob_settings };
    for knobs in knob_settings {
        let run_with_state = |strategy: &str, threads: usize, state: StateRestore| {
            let mut name =
                if strategy == "sequential" { strategy.to_string() } else { format!("{strategy} x{threads}") };
            if state == StateRestore::Clone {
                name.push_str(" --state clone");
            }
            let failed = |message: String| ParityFailure {
                message: format!("{}: {name}: {message}", context(knobs)),
                run: name.clone(),
            };
            let settings = RunSettings {
                knobs: knob_values(knobs),
                mode: SearchMode::All,
                solutions_to_keep: 20_000,
                rule_counts: true,
                strategy: strategy.parse().map_err(|error| failed(format!("{error}")))?,
                threads,
                state,
                ..RunSettings::default()
            };
            let report = run::solve(&instance, &settings).map_err(|error| failed(error.to_string()))?;
            // `naive` lists every leaf first; past the cap on listed subproblems it stops
            // before any work and says so, which is its documented answer on big trees.
            if strategy == "naive" && report.stop == Some("frontier-full") {
                return Ok(None);
            }
            findings(&report).map(Some).map_err(failed)
        };
        let run = |strategy: &str, threads: usize| run_with_state(strategy, threads, StateRestore::Undo);
        let sequential = run("sequential", 1)?.expect("a sequential run lists nothing");
        let again = run("sequential", 1)?.expect("a sequential run lists nothing");
        if let Some(difference) = again.counts_difference("a second sequential run", &sequential, "the first") {
            let message = format!("{}: the model is not deterministic: {difference}; {REPLAY_HINT}", context(knobs));
            return Err(ParityFailure { run: "sequential".into(), message });
        }
        // A state cloned at every node and put back needs no `undo`: where the counts
        // differ, `undo` does not restore what `apply` changed.
        let cloned = run_with_state("sequential", 1, StateRestore::Clone)?.expect("a sequential run lists nothing");
        if let Some(difference) =
            sequential.counts_difference("sequential", &cloned, "the same search with --state clone")
        {
            let message =
                format!("{}: `undo` does not restore the state `apply` changed: {difference}", context(knobs));
            return Err(ParityFailure { run: "sequential".into(), message });
        }
        // For a family with an objective, the published count is that of the optimal
        // solutions (`--all` lists every one).
        let counted = match sequential.objective_best {
            Some(_) => sequential.solution_texts.iter().map(|texts| texts.len() as u64).product(),
            None => sequential.solutions,
        };
        if counted != case.solutions {
            let message = format!(
                "{}: sequential found {} solutions; the published count is {}",
                context(knobs),
                format::count(counted),
                format::count(case.solutions)
            );
            return Err(ParityFailure { run: "sequential".into(), message });
        }
        for strategy in STRATEGIES {
            for &threads in thread_counts {
                let name = format!("{strategy} x{threads}");
                let Some(parallel) = run(strategy, threads)? else { continue };
                if let Some(difference) = parallel.difference(&name, &sequential, "sequential") {
                    let message = format!("{}: moves do not replay: {difference}; {REPLAY_HINT}", context(knobs));
                    return Err(ParityFailure { run: name, message });
                }
            }
        }
    }
    Ok(())
}

/// [`check_parity_across_strategies`], for a test: panics with the failure's message.
///
/// # Panics
/// On the first failure, naming the instance, knobs, strategy and threads.
pub fn assert_parity_across_strategies<P: Puzzle + 'static>(case: ParityCase<'_>) {
    assert_parity_across_strategies_at::<P>(case, &default_thread_counts());
}

/// [`check_parity_across_strategies_at`], for a test: panics with the failure's message.
/// Name the thread counts to fit the CI box (`&[1, 2]` on two cores) or to reach past it.
///
/// # Panics
/// On the first failure, naming the instance, knobs, strategy and threads.
pub fn assert_parity_across_strategies_at<P: Puzzle + 'static>(case: ParityCase<'_>, thread_counts: &[usize]) {
    if let Err(failure) = check_parity_across_strategies_at::<P>(case, thread_counts) {
        panic!("{failure}");
    }
}

#[cfg(test)]
mod tests {
    use super::Findings;

    fn optimised(nodes: u64, solutions: u64) -> Findings {
        Findings {
            solutions,
            nodes,
            solution_texts: vec![vec!["best".to_string()]],
            rules: Vec::new(),
            nodes_per_depth: Vec::new(),
            objective_best: Some(Some(21)),
        }
    }

    #[test]
    fn a_branch_and_bound_run_must_count_as_its_sequential_repeat_does_though_strategies_need_not() {
        let (first, second) = (optimised(6_257, 14), optimised(3_596, 7));
        // Another schedule may reach the same optimum through other nodes.
        assert_eq!(second.difference("steal x2", &first, "sequential"), None);
        // The same sequential search twice may not.
        let difference = second.counts_difference("a second sequential run", &first, "the first");
        assert_eq!(
            difference.as_deref(),
            Some("a second sequential run found 7 solutions in 3,596 nodes, the first 14 in 6,257")
        );
        assert_eq!(first.counts_difference("a second sequential run", &optimised(6_257, 14), "the first"), None);
    }

    #[test]
    fn the_default_thread_counts_start_at_one_and_reach_two_at_least() {
        let counts = super::default_thread_counts();
        assert_eq!(counts[0], 1);
        assert!(counts.len() >= 2 && counts.len() <= super::MAX_DEFAULT_THREADS);
        assert!(counts.windows(2).all(|pair| pair[1] == pair[0] + 1));
    }
}
