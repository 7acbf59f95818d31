//! Whether every run `explain` made counted the same tree. An exhaustive search enters the
//! same nodes and finds the same solutions under every strategy, thread count and A/B
//! setting, so a run that counted others says the tree depends on the schedule: the
//! model's moves do not replay (its `branch`, `apply` or `undo` reads something besides
//! the moves from the root, such as a global counter), or a strategy loses or repeats
//! work. Every run is compared, not the medians: such a model differs in some runs only,
//! and often in its solutions alone (the same nodes are entered, other ones are dead ends).

use super::measure::{ConfigRuns, Role};
use crate::format;
use crate::run::SearchMode;
use serde::Serialize;

/// What one run counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// Nodes entered.
    pub nodes: u64,
    /// Solutions found.
    pub solutions: u64,
}

/// The first run whose counts differ from the sequential run's, and how many differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountMismatch {
    /// The configuration it belongs to (`steal at 2 threads`).
    pub configuration: String,
    /// Its run, from 1.
    pub run: usize,
    /// The nodes it entered.
    pub nodes: u64,
    /// The solutions it found.
    pub solutions: u64,
    /// The nodes of the first sequential run.
    pub sequential_nodes: u64,
    /// The solutions of the first sequential run.
    pub sequential_solutions: u64,
    /// Runs, of every configuration, whose counts differ from the sequential run's.
    pub runs_differing: usize,
    /// Runs compared.
    pub runs_compared: usize,
    /// The finding in one line, as the text and the report print it.
    pub line: String,
}

/// The first run of `configs` (in their order, the explained run first) whose counts
/// differ from the first sequential run's; `None` when every run agrees, or when the
/// search was not exhaustive (a first-solution search stops where its schedule finds one)
/// or a run was cut short by a limit.
pub fn count_mismatch(configs: &[ConfigRuns]) -> Option<CountMismatch> {
    // An optimising search (a family with an objective) is not exhaustive: what it cuts
    // depends on when the incumbent improved, so its counts vary with the schedule.
    let exhaustive = configs.iter().all(|config| {
        config.settings.mode == SearchMode::All && !config.reports.iter().any(|report| report.optimises())
    });
    let complete = configs.iter().flat_map(|config| &config.reports).all(|report| report.complete);
    if !exhaustive || !complete {
        return None;
    }
    let sequential = configs.iter().find(|config| config.role == Role::Sequential)?.reports.first()?;
    let reference = Counted { nodes: sequential.nodes, solutions: sequential.solutions };
    let runs = configs.iter().flat_map(|config| {
        config.reports.iter().enumerate().map(|(index, report)| {
            (config.label.as_str(), index + 1, Counted { nodes: report.nodes, solutions: report.solutions })
        })
    });
    first_mismatch(reference, runs)
}

/// The first of `runs` (configuration, run from 1, counts) that differs from `sequential`.
fn first_mismatch<'a>(
    sequential: Counted,
    runs: impl Iterator<Item = (&'a str, usize, Counted)>,
) -> Option<CountMismatch> {
    let mut first: Option<(&str, usize, Counted)> = None;
    let (mut differing, mut compared) = (0, 0);
    for (configuration, run, counted) in runs {
        compared += 1;
        if counted != sequential {
            differing += 1;
            first.get_or_insert((configuration, run, counted));
        }
    }
    let (configuration, run, counted) = first?;
    let line = format!(
        "{configuration} counted {} nodes and {} solutions in its run {run}, where sequential counted {} nodes and {} \
         solutions ({differing} of {compared} runs differ): the counts depend on the schedule, so the model's moves do \
         not replay (its `branch`, `apply` or `undo` reads something besides the moves from the root, such as a \
         global counter) or the strategy loses or repeats work; no figure here can be trusted",
        format::count(counted.nodes),
        format::count(counted.solutions),
        format::count(sequential.nodes),
        format::count(sequential.solutions),
    );
    Some(CountMismatch {
        configuration: configuration.to_string(),
        run,
        nodes: counted.nodes,
        solutions: counted.solutions,
        sequential_nodes: sequential.nodes,
        sequential_solutions: sequential.solutions,
        runs_differing: differing,
        runs_compared: compared,
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEQUENTIAL: Counted = Counted { nodes: 35_539, solutions: 724 };

    #[test]
    fn runs_that_all_count_the_sequential_tree_show_no_mismatch() {
        let runs = [("sequential", 1, SEQUENTIAL), ("steal at 2 threads", 1, SEQUENTIAL)];
        assert_eq!(first_mismatch(SEQUENTIAL, runs.into_iter()), None);
    }

    #[test]
    fn other_solutions_alone_name_the_first_differing_run_and_say_the_moves_do_not_replay() {
        let fewer = Counted { solutions: 719, ..SEQUENTIAL };
        let more = Counted { nodes: 35_600, ..SEQUENTIAL };
        let runs = [
            ("steal at 2 threads", 1, SEQUENTIAL),
            ("steal at 2 threads", 2, fewer),
            ("sequential", 1, SEQUENTIAL),
            ("steal at 2 threads, counters shared", 1, more),
        ];
        let mismatch = first_mismatch(SEQUENTIAL, runs.into_iter()).expect("two runs differ");
        assert_eq!((mismatch.configuration.as_str(), mismatch.run), ("steal at 2 threads", 2));
        assert_eq!((mismatch.nodes, mismatch.solutions), (35_539, 719));
        assert_eq!((mismatch.runs_differing, mismatch.runs_compared), (2, 4));
        assert!(
            mismatch.line.starts_with(
                "steal at 2 threads counted 35,539 nodes and 719 solutions in its run 2, where sequential counted \
                 35,539 nodes and 724 solutions (2 of 4 runs differ)"
            ),
            "{}",
            mismatch.line
        );
        assert!(mismatch.line.contains("the model's moves do not replay"), "{}", mismatch.line);
        assert_eq!(mismatch.line.lines().count(), 1);
    }
}
