//! Splitting: the frontier of every component at the shallowest depth that gives enough
//! subproblems, the counts and solutions of the nodes above it, and an estimate of each
//! subproblem's subtree by random probes. A panic of the family's code ends the split with
//! [`RunError::ModelPanicked`].

use super::paths::{undo_all, Finds, PathRecorder, RecordingEngine, RootCandidates};
use super::{ChildPath, ComponentShare, Counts, Subproblem};
use crate::parallel::{catch_model_panic, MAX_SUBPROBLEMS};
use crate::puzzles::Puzzle;
use crate::run::error::{PanickedRun, RunError, ON_THIS_THREAD, SPLITTING};
use crate::run::family_code::{build_models, BuiltModels};
use crate::search::{
    estimate_tree_size_with, Engine, EstimateMethod, Incumbent, Limits, Model, MovesDoNotReplay, NoCounters,
    NoSteering, Sense, Stats, StopReason,
};

/// What a split asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitRequest {
    /// The fewest subproblems wanted in all (over every component).
    pub wanted: usize,
    /// Solutions kept per component (the smallest), as a run keeps them.
    pub keep: usize,
    /// Random probes per subproblem for its estimate (0: no estimate, every subtree 1).
    pub probes: usize,
    /// Seed of the probes.
    pub seed: u64,
    /// For an optimising model: the value of a solution known beforehand (`split
    /// --incumbent V`), from which every component's incumbent starts.
    pub incumbent: Option<i64>,
}

/// A frontier, what listing it counted, and an estimate of each subproblem.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitListing {
    /// The depth of the frontier.
    pub depth: usize,
    /// Per component: the nodes above the frontier (counted once, here) and the paths of
    /// the smallest solutions among them.
    pub lister: Vec<ComponentShare>,
    /// The subproblems, component by component, each in the engine's visiting order.
    pub subproblems: Vec<Subproblem>,
    /// The estimated nodes of each subproblem's subtree (itself included).
    pub estimates: Vec<f64>,
    /// The objective's sense, when the model optimises (the parts then share an
    /// incumbent, and the lister's shares name their best value).
    pub sense: Option<Sense>,
}

/// The listing of every component at one depth.
struct DepthListing<K, M: Model> {
    depth: usize,
    stats: Vec<Stats>,
    finds: Vec<Finds<K, M>>,
    frontier: Vec<(usize, Vec<M::Move>)>,
    full: bool,
}

/// The error of `P`'s panic while splitting component `name`.
fn panicked<P: Puzzle>(name: Option<&str>, panic: crate::parallel::ModelPanic) -> RunError {
    PanickedRun::error::<P>(name, SPLITTING, ON_THIS_THREAD, panic)
}

/// How the frontier is listed: what the split asked, and the objective's incumbent.
struct ListingGoal<'a> {
    names: &'a [String],
    keep: usize,
    sense: Option<Sense>,
    /// The incumbent's starting score (`split --incumbent`).
    seed: Option<i64>,
}

fn list_at<P: Puzzle>(
    puzzle: &P,
    models: &[P::Model],
    goal: &ListingGoal<'_>,
    depth: usize,
) -> Result<DepthListing<P::AnswerKey, P::Model>, RunError> {
    let (names, keep) = (goal.names, goal.keep);
    let mut listing = DepthListing { depth, stats: Vec::new(), finds: Vec::new(), frontier: Vec::new(), full: false };
    for (component, model) in models.iter().enumerate() {
        let mut finds = Finds::new(keep);
        // Each component's listing has its incumbent: the solutions above the frontier
        // raise it, and the frontier's children it cuts are never handed out.
        let incumbent =
            goal.sense.map(|_| goal.seed.map_or_else(Incumbent::new, |seed| Incumbent::seeded_above(seed, seed)));
        let limits = Limits { solutions_to_keep: 0, incumbent, ..Limits::exhaustive() };
        let left = MAX_SUBPROBLEMS - listing.frontier.len();
        let key_of = |solution: &<P::Model as Model>::Solution| puzzle.answer_key(component, solution);
        let (frontier, stats, stop) = {
            let name = names.get(component).map(String::as_str);
            let recorder = PathRecorder::new(&[], &mut finds, &key_of);
            let mut engine: RecordingEngine<'_, P> =
                catch_model_panic(|| Engine::new(model.clone(), NoSteering, recorder, limits.clone()))
                    .map_err(|panic| panicked::<P>(name, panic))?;
            // The listing keeps the engine's path: a panic names its node.
            let frontier = catch_model_panic(|| engine.enumerate_frontier_capped(depth, left))
                .map_err(|panic| panicked::<P>(name, panic.at_path(engine.path())))?;
            (frontier, engine.stats(), engine.stop_reason())
        };
        listing.full |= stop == Some(StopReason::FrontierFull);
        listing.frontier.extend(frontier.into_iter().map(|moves| (component, moves)));
        listing.stats.push(stats);
        listing.finds.push(finds);
        if listing.full {
            break;
        }
    }
    Ok(listing)
}

/// Lists the frontier of `puzzle` with `config` as `request` says. Tries depths 1, 2, ...
/// and keeps the first whose frontier holds at least `request.wanted` subproblems; once a
/// frontier narrows (the trees end above it) or overflows the cap on subproblems, the
/// widest listing before it is kept. An error when even depth 1 overflows the cap.
pub(in crate::run) fn split_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    request: &SplitRequest,
) -> Result<SplitListing, RunError> {
    let BuiltModels { models, names, max_depth, .. } = build_models(puzzle, config, ON_THIS_THREAD)?;
    // An optimising model's split searches for the best solution: the parts share an
    // incumbent through the plan folder (the cluster layer's), merged as the best of all.
    let objective = match <P::Model as Model>::OPTIMISES {
        true => catch_model_panic(|| models.first().and_then(Model::objective))
            .map_err(|panic| panicked::<P>(None, panic))?,
        false => None,
    };
    let seed = match (request.incumbent, objective) {
        (None, _) => None,
        (Some(_), None) => {
            return Err(RunError::Objective(format!(
                "--incumbent needs an objective, and the family `{}` declares none for this instance and these knobs",
                P::FAMILY
            )))
        }
        (Some(_), Some(_)) if models.len() > 1 => {
            return Err(RunError::Objective(format!(
                "--incumbent is the value of one search's solution, and this instance of `{}` has {} components \
                 (independent searches whose values add up); split it without --incumbent",
                P::FAMILY,
                models.len()
            )))
        }
        (Some(value), Some(objective)) => Some(objective.sense.score(value)),
    };
    let sense = objective.map(|objective| objective.sense);
    let goal = ListingGoal { names: &names, keep: request.keep, sense, seed };
    let mut best: Option<DepthListing<P::AnswerKey, P::Model>> = None;
    for depth in 1..=max_depth.max(1) {
        let listing = list_at(puzzle, &models, &goal, depth)?;
        if listing.full {
            if best.is_some() {
                break;
            }
            return Err(RunError::Split(format!(
                "the first level of the tree already holds more than {MAX_SUBPROBLEMS} subproblems, the cap on \
                 listed subproblems"
            )));
        }
        let count = listing.frontier.len();
        if best.as_ref().is_some_and(|best| count < best.frontier.len()) {
            break;
        }
        let enough = count >= request.wanted || count == 0;
        best = Some(listing);
        if enough {
            break;
        }
    }
    let Some(best) = best else {
        return Err(RunError::Split("the tree has no level to split at".to_string()));
    };
    let mut roots = models;
    let mut caches: Vec<RootCandidates<P::Model>> = roots.iter().map(|_| RootCandidates::new()).collect();
    let lister =
        best.stats.iter().zip(best.finds).map(|(stats, finds)| finds.into_share(Counts::of(stats), sense)).collect();
    let mut subproblems = Vec::with_capacity(best.frontier.len());
    let mut estimates = Vec::with_capacity(best.frontier.len());
    for (index, (component, moves)) in best.frontier.iter().enumerate() {
        let seed = request.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // The probes keep no path: the panic names no node.
        let (path, estimate) = catch_model_panic(|| {
            path_and_estimate(&mut roots[*component], &mut caches[*component], moves, request.probes, seed)
        })
        .map_err(|panic| panicked::<P>(names.get(*component).map(String::as_str), panic))?;
        subproblems.push(Subproblem { component: *component, path });
        estimates.push(estimate);
    }
    Ok(SplitListing { depth: best.depth, lister, subproblems, estimates, sense })
}

/// The child path of `moves` in `model` (at its root, where it is left) and an estimate of
/// the size of the subtree under it, the node included: look-ahead probes from the node,
/// or 1 when its move is rejected.
fn path_and_estimate<M: Model>(
    model: &mut M,
    roots: &mut RootCandidates<M>,
    moves: &[M::Move],
    probes: usize,
    seed: u64,
) -> (ChildPath, f64) {
    let mut candidates = Vec::new();
    let mut path = Vec::with_capacity(moves.len());
    let mut accepted = true;
    for (level, &mv) in moves.iter().enumerate() {
        let Some(index) = roots.index_of(model, level, mv, &mut candidates) else {
            // The listing found `mv` at this node, the same node branched again does not
            // offer it: a path the parts could not replay. Stopped as the engine's replay
            // check stops a run.
            let detail = format!("the move {mv:?} at depth {level} is not offered when the split numbers its path");
            std::panic::panic_any(MovesDoNotReplay { depth: level, detail })
        };
        path.push(u32::try_from(index).unwrap_or(u32::MAX));
        accepted = model.apply(mv, &mut NoCounters).is_ok();
    }
    let estimate = if !accepted || probes == 0 {
        1.0
    } else {
        estimate_tree_size_with(model, probes, seed, EstimateMethod::Accepted).nodes
    };
    undo_all(model, moves, accepted);
    (path, estimate)
}
