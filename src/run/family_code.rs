//! The family's own code called outside the search: reading its data, knobs and short
//! arguments, and building its models. Each call runs inside one catch ([`catch_family`]),
//! so a panic there is the family's bug, reported naming the family and what it was doing
//! ([`RunError::ModelPanicked`], exit code 3 on the command line), never the program's own
//! (the one-line internal error, exit code 101).

use super::error::{PanickedRun, RunError, BUILDING_MODELS};
use crate::parallel::catch_model_panic;
use crate::puzzles::Puzzle;
use crate::search::{Model, MAX_RULES};

/// Runs `work`, a call into family `P`'s own code, inside a catch: a panic in it comes back
/// as the family's, while `during`, run as `strategy` (empty before any run).
pub(super) fn catch_family<P: Puzzle, R>(
    during: &'static str,
    strategy: &str,
    work: impl FnOnce() -> R,
) -> Result<R, RunError> {
    catch_model_panic(work).map_err(|panic| PanickedRun::error::<P>(None, during, strategy, panic))
}

/// The models of an instance, with what the operations read of them beside the search.
pub(super) struct BuiltModels<M> {
    /// One model per component.
    pub(super) models: Vec<M>,
    /// The components' names, in the models' order.
    pub(super) names: Vec<String>,
    /// The rules' names, read from the first model (a family's models share its rules).
    pub(super) rule_names: Vec<String>,
    /// The largest `max_depth()` of the models (0 without any).
    pub(super) max_depth: usize,
}

/// Builds the models of `puzzle` with `config` for an operation run as `strategy`: every
/// call into the family's code this takes (`Puzzle::models`, `component_names`, the
/// models' `rule_names` and `max_depth`) inside one catch, so that a panic in any of them
/// names the family, not the program.
pub(super) fn build_models<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    strategy: &str,
) -> Result<BuiltModels<P::Model>, RunError> {
    let (built, most_rules, rules_in_order_with_objective) = catch_family::<P, _>(BUILDING_MODELS, strategy, || {
        let models = puzzle.models(config);
        let most_rules = models.iter().map(|model| model.rule_names().len()).max().unwrap_or(0);
        let rules_in_order_with_objective = <P::Model as Model>::RULES_IN_ORDER
            && <P::Model as Model>::OPTIMISES
            && models.iter().any(|model| model.objective().is_some());
        let rule_names = models.first().map(|model| model.rule_names().iter().map(|name| name.to_string()).collect());
        let max_depth = models.iter().map(Model::max_depth).max().unwrap_or(0);
        let built = BuiltModels {
            names: puzzle.component_names(),
            rule_names: rule_names.unwrap_or_default(),
            max_depth,
            models,
        };
        (built, most_rules, rules_in_order_with_objective)
    })?;
    // Refused here, before any search, rather than by the counters' assertion in the middle
    // of one (or the engine's when it is made), where it read as a panic at some node.
    if most_rules > MAX_RULES {
        return Err(too_many_rules::<P>(most_rules));
    }
    if rules_in_order_with_objective {
        return Err(RunError::ModelContract(format!(
            "the {} family's model declares RULES_IN_ORDER and has an objective: the checks derived from the \
             moves applied would leave out the bound's, whose cuts are not rule checks in order; drop \
             RULES_IN_ORDER (and count each rule's checks with `counters.check`) or search without the objective",
            P::FAMILY
        )));
    }
    Ok(built)
}

/// The refusal of a family whose models name `rules` rules, past [`MAX_RULES`].
pub(super) fn too_many_rules<P: Puzzle>(rules: usize) -> RunError {
    RunError::ModelContract(format!(
        "the {} family's models name {rules} rules, more than the {MAX_RULES} that the per-rule counters hold \
         (`Model::rule_names`): group related checks under one rule",
        P::FAMILY
    ))
}
