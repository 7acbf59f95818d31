//! The run layer's side of an optimisation: what the settings ask of a model that declares
//! an objective ([`Goal`]), an incumbent per component, and the kept solutions ranked so
//! that only the best-valued ones are reported ([`ComponentOptimum`]).

use super::error::RunError;
use super::report::ObjectiveReport;
use super::settings::{RunSettings, SearchMode, Target};
use crate::puzzles::Puzzle;
use crate::search::{Incumbent, Model, Objective};
use std::sync::Arc;
use std::time::Instant;

/// What a run looks for in an optimising model, checked against the settings once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Goal {
    objective: Option<Objective>,
    mode: SearchMode,
    target: Option<Target>,
}

impl Goal {
    /// The goal of running `model` (the first component's: every component of an instance
    /// has the same objective) with `settings`; an error when the settings ask for an
    /// optimisation the model does not declare, or a target of the other sense.
    pub(crate) fn of<P: Puzzle>(model: Option<&P::Model>, settings: &RunSettings) -> Result<Goal, RunError> {
        let objective = match model {
            Some(model) if <P::Model as Model>::OPTIMISES => model.objective(),
            _ => None,
        };
        let goal = Goal { objective, mode: settings.mode, target: settings.target };
        let family = P::FAMILY;
        match (objective, settings.mode, settings.target) {
            (None, SearchMode::Best, _) => Err(RunError::Objective(format!(
                "--best needs an objective, and the family `{family}` declares none for this instance and these knobs; use --all or \
                 --first"
            ))),
            (None, _, Some(target)) => Err(RunError::Objective(format!(
                "{} needs an objective, and the family `{family}` declares none for this instance and these knobs",
                target.flag()
            ))),
            (Some(objective), _, Some(target)) if target.sense() != objective.sense => {
                let (flag, verb) = match objective.sense {
                    crate::search::Sense::Maximise => ("--at-least", "maximises"),
                    crate::search::Sense::Minimise => ("--at-most", "minimises"),
                };
                Err(RunError::Objective(format!(
                    "{} does not fit: the family `{family}` {verb} its objective; use {flag}",
                    target.flag()
                )))
            }
            _ => Ok(goal),
        }
    }

    /// Whether the run optimises (the model declares an objective).
    pub(crate) fn optimises(&self) -> bool {
        self.objective.is_some()
    }

    /// A fresh incumbent for one component, when the run optimises: empty, or, for a
    /// decision run, just short of the target, so that only a solution reaching it is
    /// recorded and every subtree that cannot reach it is cut.
    pub(crate) fn incumbent(&self) -> Option<Arc<Incumbent>> {
        let objective = self.objective?;
        Some(match self.target {
            Some(target) => {
                let short_of_target = objective.sense.score(target.value()).saturating_sub(1);
                Incumbent::seeded_above(short_of_target, short_of_target)
            }
            None => Incumbent::new(),
        })
    }

    /// The run's objective report from its components' optima (`None` for a run that did
    /// not optimise). `complete`: every component searched to its end; `wall_ns`: the
    /// searches' time; `components`: how many the instance has.
    pub(crate) fn report(
        &self,
        optima: &[ComponentOptimum],
        complete: bool,
        wall_ns: u64,
        components: usize,
    ) -> Option<ObjectiveReport> {
        let objective = self.objective?;
        let all_searched = optima.len() == components;
        let best = match all_searched {
            true => optima.iter().try_fold(0i64, |sum, optimum| optimum.best.and_then(|best| sum.checked_add(best))),
            false => None,
        };
        let proven = complete && all_searched && self.mode != SearchMode::First && self.target.is_none();
        let time_to_best_ns = optima
            .iter()
            .map(|optimum| optimum.improved_at_ns)
            .try_fold(0u64, |sum, at| at.map(|at| sum.saturating_add(at)));
        Some(ObjectiveReport {
            sense: objective.sense.name(),
            best,
            proven,
            time_to_best_ns: time_to_best_ns.filter(|_| best.is_some()),
            time_to_proof_ns: proven.then_some(wall_ns),
            improvements: optima.iter().map(|optimum| optimum.improvements).sum(),
            optimal_solutions_kept: optima.iter().map(|optimum| optimum.kept).sum(),
            target: self.target.map(Target::value),
            // Not reached is a finding only when the whole tree was searched: a search cut
            // short by a limit says nothing either way (`None`).
            reached: self.target.and_then(|target| {
                let reached = all_searched
                    && optima
                        .iter()
                        .all(|optimum| optimum.best.is_some_and(|best| objective.sense.reaches(best, target.value())));
                (reached || complete).then_some(reached)
            }),
            seed: None,
        })
    }
}

/// One component's optimum: its best value and the incumbent's history.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ComponentOptimum {
    best: Option<i64>,
    improved_at_ns: Option<u64>,
    improvements: u64,
    kept: u64,
}

impl ComponentOptimum {
    /// The optimum of a component whose search kept `best` (the parallel layer keeps
    /// only the best-valued solutions of an optimising model, best first), read with
    /// `ranker`'s objective, and the incumbent's history, its last improvement timed from
    /// `search_started` (as the time to proof is: the incumbent is made before the search
    /// starts, and a time to best counted from then came out later than the proof).
    pub(crate) fn of<M: Model>(
        ranker: &M,
        best: &[M::Solution],
        incumbent: &Incumbent,
        search_started: Instant,
    ) -> ComponentOptimum {
        ComponentOptimum {
            best: best.first().map(|solution| ranker.solution_value(solution)),
            improved_at_ns: incumbent
                .improved_at()
                .map(|at| u64::try_from(at.saturating_duration_since(search_started).as_nanos()).unwrap_or(u64::MAX)),
            improvements: incumbent.improvements(),
            kept: best.len() as u64,
        }
    }
}
