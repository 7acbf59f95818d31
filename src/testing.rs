//! Checks for a family's own tests: its published count under every parallel strategy and
//! thread count, with exactly the sequential search's nodes, solutions and prune counts.

use crate::puzzles::Puzzle;
use crate::run::instance;
use crate::run::{self, RunReport, RunSettings, SearchMode};
use crate::workbench::knob_values;

/// Every parallel strategy, with split parameters small enough to split small trees.
pub const STRATEGIES: [&str; 6] = ["depth:2", "depth:3", "auto", "steal", "budget:64", "naive"];

/// The thread counts each strategy runs at.
pub const THREAD_COUNTS: [usize; 3] = [1, 2, 3];

/// One instance of a family and the count it must reach.
#[derive(Debug, Clone, Copy)]
pub struct ParityCase<'a> {
    /// The instance as the command line names it: a short argument, a built-in name or a file.
    pub argument: &'a str,
    /// The knob settings to run, each as `name=value` pairs.
    pub knob_settings: &'a [&'a [(&'a str, &'a str)]],
    /// The published number of solutions.
    pub solutions: u64,
}

/// What an exhaustive run finds and counts, apart from times.
#[derive(Debug, PartialEq)]
struct Findings {
    solutions: u64,
    solution_texts: Vec<Vec<String>>,
    nodes: u64,
    rules: Vec<(String, u64, u64)>,
    nodes_per_depth: Vec<u64>,
}

fn findings(report: &RunReport) -> Findings {
    assert!(report.complete, "{} {}: stopped early", report.instance, report.strategy);
    for component in &report.components {
        assert!(component.verify_failures.is_empty(), "{}: {:?}", report.instance, component.verify_failures);
    }
    Findings {
        solutions: report.solutions,
        solution_texts: report.components.iter().map(|component| component.solution_texts.clone()).collect(),
        nodes: report.nodes,
        rules: report.rules.iter().map(|rule| (rule.name.clone(), rule.checks, rule.prunes)).collect(),
        nodes_per_depth: report.nodes_per_depth.clone(),
    }
}

/// Registers `P`, then for each knob setting of `case`: runs the sequential search, asserts
/// the published count, and asserts that every strategy of [`STRATEGIES`] at every count of
/// [`THREAD_COUNTS`] finds the same solutions with the same node, check and prune counts.
///
/// # Panics
/// On the first difference, naming the instance, knobs, strategy and threads.
pub fn assert_parity_across_strategies<P: Puzzle + 'static>(case: ParityCase<'_>) {
    run::register::<P>();
    let instance = instance::load(case.argument).unwrap_or_else(|error| panic!("{error}"));
    for knobs in case.knob_settings {
        let run = |strategy: &str, threads: usize| {
            let settings = RunSettings {
                knobs: knob_values(knobs),
                mode: SearchMode::All,
                solutions_to_keep: 20_000,
                rule_counts: true,
                strategy: strategy.parse().unwrap_or_else(|error| panic!("{error}")),
                threads,
                ..RunSettings::default()
            };
            let report = run::solve(&instance, &settings).unwrap_or_else(|error| panic!("{error}"));
            // `naive` lists every leaf first; past the cap on listed subproblems it stops
            // before any work and says so, which is its documented answer on big trees.
            let capped = strategy == "naive" && report.stop == Some("frontier-full");
            (!capped).then(|| findings(&report))
        };
        let sequential = run("sequential", 1).expect("a sequential run lists nothing");
        assert_eq!(sequential.solutions, case.solutions, "{} {knobs:?}: the published count", case.argument);
        for strategy in STRATEGIES {
            for threads in THREAD_COUNTS {
                if let Some(parallel) = run(strategy, threads) {
                    assert_eq!(parallel, sequential, "{} {knobs:?} {strategy} x{threads}", case.argument);
                }
            }
        }
    }
}
