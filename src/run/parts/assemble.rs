//! Assembling: the report of a split search from the summed counts of every component
//! and the solution paths of the lister and of every part, the same report a sequential
//! run of the whole tree makes (counts, kept solutions, answer). A panic of the family's
//! code while the solutions are replayed and read ends the merge with
//! [`RunError::ModelPanicked`].

use super::paths::{path_text, solution_at, RootCandidates};
use super::{AnswerShare, ChildPath, Counts, ReplayError};
use crate::format::excerpt;
use crate::parallel::catch_model_panic;
use crate::puzzles::answer_tally::AnswerTally;
use crate::puzzles::Puzzle;
use crate::run::error::{PanickedRun, RunError, MERGING, ON_THIS_THREAD};
use crate::run::family_code::{build_models, BuiltModels};
use crate::run::report::{
    product_of_counts, rule_reports, ComponentReport, ObjectiveReport, ParallelSummary, RunReport,
};
use crate::run::settings::SearchMode;
use crate::search::{keep_best, Model, Sense};
use serde_json::Value;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What the parts of a split search found, put together.
#[derive(Debug, Clone)]
pub struct AssembleInput<'a> {
    /// Per component: the counts of the lister and of every part, summed.
    pub counts: &'a [Counts],
    /// Per component: the solution lists (the lister's and each part's), each in
    /// ascending order of the solutions.
    pub solutions: Vec<Vec<&'a [ChildPath]>>,
    /// Per component: the answer keys (the lister's and each part's).
    pub answers: Vec<Vec<&'a AnswerShare>>,
    /// Solutions kept per component (the smallest), as a run keeps them.
    pub keep: usize,
    /// How the run was spread, for the report's `strategy` (`parts:N`).
    pub strategy: String,
    /// Per component: the wall time of its subproblems, summed over the parts.
    pub elapsed_ns: Vec<u64>,
    /// For an optimising model, per component: the solutions the parts published to each
    /// other (value claimed, path, the index of its file in `published_files`), checked
    /// here and counted among the candidates for the best (a part rerun after a kill may
    /// have been cut by its own earlier find).
    pub published: Vec<Vec<(i64, ChildPath, usize)>>,
    /// The incumbent files the published solutions came from, named in a replay error.
    pub published_files: Vec<String>,
    /// The file each list of `solutions` and `answers` came from, in the lists' order (the
    /// plan's for the lister's, then each part's): a path that does not replay is reported
    /// in its file, so that the user knows which part to run again.
    pub sources: Vec<String>,
    /// The folder of the split, named in an error that no one file holds (a sum).
    pub folder: String,
    /// For an optimising model: the value the split was seeded with (`split --incumbent`).
    pub seed: Option<i64>,
}

/// Labels of the report.
pub(in crate::run) struct Labels<'a> {
    pub(in crate::run) instance: &'a str,
    pub(in crate::run) source: &'a str,
}

/// The report of `puzzle` with `config` from `input`.
pub(in crate::run) fn assemble_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    labels: Labels<'_>,
    input: &AssembleInput<'_>,
) -> Result<RunReport, RunError> {
    // The replays keep no path of moves: a panic names no node.
    let panicked =
        |component: Option<&str>, during, panic| PanickedRun::error::<P>(component, during, ON_THIS_THREAD, panic);
    let BuiltModels { mut models, names, rule_names, .. } = build_models(puzzle, config, ON_THIS_THREAD)?;
    let objective = match <P::Model as Model>::OPTIMISES {
        true => catch_model_panic(|| models.first().and_then(Model::objective))
            .map_err(|panic| panicked(None, MERGING, panic))?,
        false => None,
    };
    let mut optima = Vec::new();
    let empty = Counts::default();
    let mut total = Counts::default();
    let mut components = Vec::new();
    let mut tallies = Vec::new();
    for (index, (model, name)) in models.iter_mut().zip(names).enumerate() {
        let counts = input.counts.get(index).unwrap_or(&empty);
        total
            .add(counts)
            .map_err(|overflow| RunError::Replay(ReplayError { message: format!("{}: {overflow}", input.folder) }))?;
        let (component, tally, best) =
            catch_model_panic(|| assemble_component(puzzle, model, index, name.clone(), counts, input))
                .map_err(|panic| panicked(Some(&name), MERGING, panic))?
                .map_err(RunError::Replay)?;
        optima.push((best, component.solutions_kept));
        tallies.push(tally);
        components.push(component);
    }
    let answer = catch_model_panic(|| puzzle.answer(&tallies)).map_err(|panic| panicked(None, MERGING, panic))?;
    let solutions = product_of_counts(components.iter().map(|component| component.solutions));
    let knobs = P::describe(config).into_iter().map(|(name, value)| (name.to_string(), Value::String(value))).collect();
    Ok(RunReport {
        puzzle: P::FAMILY.to_string(),
        instance: labels.instance.to_string(),
        source: labels.source.to_string(),
        knobs,
        mode: if objective.is_some() { SearchMode::Best } else { SearchMode::All },
        solutions: solutions.unwrap_or(u64::MAX),
        solutions_overflow: solutions.is_none(),
        answer,
        nodes: total.nodes,
        rules: rule_reports(&rule_names, &total.rule_checks, &total.rule_prunes),
        nodes_per_depth: total.nodes_per_depth,
        prunes_per_depth: total.prunes_per_depth,
        elapsed_ns: components.iter().map(|component| component.elapsed_ns).sum(),
        complete: true,
        unsearched_components: 0,
        stop: None,
        node_limit: None,
        node_limit_overshoot_max: 0,
        time_limit_s: None,
        components,
        strategy: input.strategy.clone(),
        threads: 1,
        counters: "padded".to_string(),
        state: "undo".to_string(),
        affinity: "pinned".to_string(),
        parallel: ParallelSummary::default(),
        workers: Vec::new(),
        objective: objective.map(|objective| split_optimum(objective.sense, &optima, input.seed)),
    })
}

/// The objective report of a split search whose every part ran: the best over the
/// components' (`optima`: each one's best value and optimal solutions kept), proven
/// unless a seed was given and nothing reached it (then the optimum is the seed's value,
/// if the seed was a solution's). The times are the cluster layer's to fill in.
fn split_optimum(sense: Sense, optima: &[(Option<i64>, u64)], seed: Option<i64>) -> ObjectiveReport {
    let best = optima.iter().try_fold(0i64, |sum, (best, _)| best.and_then(|best| sum.checked_add(best)));
    let beats_seed = match (best, seed) {
        (_, None) => true,
        (Some(best), Some(seed)) => sense.score(best) >= sense.score(seed),
        (None, Some(_)) => false,
    };
    ObjectiveReport {
        sense: sense.name(),
        best,
        proven: beats_seed,
        time_to_best_ns: None,
        time_to_proof_ns: None,
        improvements: 0,
        optimal_solutions_kept: optima.iter().map(|(_, kept)| kept).sum(),
        target: None,
        reached: None,
        seed,
    }
}

/// The answer tally of family `P`.
type PuzzleTally<P> = AnswerTally<<P as Puzzle>::AnswerKey, <<P as Puzzle>::Model as Model>::Solution>;

/// Component `index`'s report, answer tally and best value (for an optimising model),
/// from its summed `counts` and the parts' solution paths and answer keys, replayed on
/// `model` (at its root, where it is left).
fn assemble_component<P: Puzzle>(
    puzzle: &P,
    model: &mut P::Model,
    index: usize,
    name: String,
    counts: &Counts,
    input: &AssembleInput<'_>,
) -> Result<(ComponentReport, PuzzleTally<P>, Option<i64>), ReplayError> {
    let lists = input.solutions.get(index).map(Vec::as_slice).unwrap_or_default();
    let (solutions, best) = match <P::Model as Model>::OPTIMISES && model.objective().is_some() {
        true => {
            let published = input.published.get(index).map(Vec::as_slice).unwrap_or_default();
            best_of(model, index, lists, published, input)?
        }
        false => (smallest(model, index, lists, input)?, None),
    };
    let shares = input.answers.get(index).map(Vec::as_slice).unwrap_or_default();
    let mut tally = tally(puzzle, model, index, shares, solutions.first(), &input.sources)?;
    if tally.solutions() != counts.solutions {
        return Err(ReplayError {
            message: format!(
                "{}: component {index}: the answer keys count {} solutions, the counts {}",
                input.folder,
                tally.solutions(),
                counts.solutions
            ),
        });
    }
    // A part run again starts from the incumbents published before, its own included, and
    // cuts what does not beat them: the best solution may then be in no part's file, only
    // in the incumbent published by the earlier run. It is a solution of this search all
    // the same, counted once, so that the answer is the one a single run gives.
    let mut solution_count = counts.solutions;
    if let (Some(_), Some(best_solution)) = (best, solutions.first()) {
        let key = puzzle.answer_key(index, best_solution);
        if tally.unlisted() == 0 && !tally.counts().any(|(listed, _)| *listed == key) {
            tally.add(key, best_solution);
            solution_count += 1;
        }
    }
    let solutions_kept = solutions.len() as u64;
    let component = ComponentReport {
        name,
        solutions_kept,
        sample: solutions_kept < solution_count,
        solutions: solution_count,
        nodes: counts.nodes,
        elapsed_ns: input.elapsed_ns.get(index).copied().unwrap_or(0),
        solution_texts: solutions.iter().map(|solution| puzzle.solution_text(solution)).collect(),
        rendered: solutions.iter().take(4).map(|solution| puzzle.render(solution)).collect(),
        verify_failures: solutions.iter().filter_map(|solution| puzzle.verify(index, solution).err()).collect(),
        nodes_per_depth: counts.nodes_per_depth.clone(),
        prunes_per_depth: counts.prunes_per_depth.clone(),
    };
    Ok((component, tally, best))
}

/// The file `sources[index]` (a list's or a share's), for an error in it.
fn source(sources: &[String], index: usize) -> &str {
    sources.get(index).map_or("(a part)", String::as_str)
}

/// [`solution_at`] of a path read from `file`, which an error names first.
fn solution_in<M: Model>(
    file: &str,
    model: &mut M,
    roots: &mut RootCandidates<M>,
    path: &[u32],
    component: usize,
    candidates: &mut Vec<M::Move>,
) -> Result<M::Solution, ReplayError> {
    solution_at(model, roots, path, component, candidates).map_err(|error| error.in_file(file))
}

/// The best-valued solutions of an optimising model's component, at most one of them
/// (the smallest among equals: a split optimisation searches for the best, `--best`, which
/// keeps one), and their value: every listed path (each share kept its best) and every
/// published one replayed on `model` (at its root), a published value checked against the
/// solution its path reaches.
fn best_of<M: Model>(
    model: &mut M,
    component: usize,
    lists: &[&[ChildPath]],
    published: &[(i64, ChildPath, usize)],
    input: &AssembleInput<'_>,
) -> Result<(Vec<M::Solution>, Option<i64>), ReplayError> {
    let mut candidates = Vec::new();
    let mut roots = RootCandidates::new();
    let mut solutions = Vec::new();
    for (list, paths) in lists.iter().enumerate() {
        for path in paths.iter() {
            let file = source(&input.sources, list);
            solutions.push(solution_in(file, model, &mut roots, path, component, &mut candidates)?);
        }
    }
    for (claimed, path, file) in published {
        let file = source(&input.published_files, *file);
        let solution = solution_in(file, model, &mut roots, path, component, &mut candidates)?;
        let value = model.solution_value(&solution);
        if value != *claimed {
            return Err(ReplayError {
                message: format!(
                    "{file}: component {component}: a published incumbent claims the value {claimed} for the path \
                     {}, but the solution there has {value}",
                    excerpt(&path_text(path))
                ),
            });
        }
        solutions.push(solution);
    }
    let (best, mut kept) = keep_best(model, solutions, usize::MAX);
    // A solution found by a part and published by it is listed twice.
    kept.dedup();
    kept.truncate(input.keep.min(1));
    Ok((kept, best))
}

/// The `input.keep` smallest solutions of the sorted lists `lists`, rebuilt on `model` (at
/// its root) by a k-way merge: a list's next path is replayed only when its head was taken.
fn smallest<M: Model>(
    model: &mut M,
    component: usize,
    lists: &[&[ChildPath]],
    input: &AssembleInput<'_>,
) -> Result<Vec<M::Solution>, ReplayError> {
    let mut candidates = Vec::new();
    let mut roots = RootCandidates::new();
    let mut replay = |list: usize, path: &ChildPath| {
        solution_in(source(&input.sources, list), model, &mut roots, path, component, &mut candidates)
    };
    let mut heads = BinaryHeap::new();
    for (list, paths) in lists.iter().enumerate() {
        if let Some(path) = paths.first() {
            heads.push(Reverse((replay(list, path)?, list, 0usize)));
        }
    }
    let mut kept = Vec::new();
    while kept.len() < input.keep {
        let Some(Reverse((solution, list, position))) = heads.pop() else {
            break;
        };
        kept.push(solution);
        if let Some(path) = lists[list].get(position + 1) {
            heads.push(Reverse((replay(list, path)?, list, position + 1)));
        }
    }
    Ok(kept)
}

/// The answer tally of component `component` from the answer keys of its shares: each
/// representative replayed on `model` (at its root, where it is left) for its key, the
/// counts added as one tally of every solution adds them; `smallest` is the component's
/// smallest solution; `sources` names each share's file.
fn tally<P: Puzzle>(
    puzzle: &P,
    model: &mut P::Model,
    component: usize,
    shares: &[&AnswerShare],
    smallest: Option<&<P::Model as Model>::Solution>,
    sources: &[String],
) -> Result<AnswerTally<P::AnswerKey, <P::Model as Model>::Solution>, ReplayError> {
    let mut candidates = Vec::new();
    let mut roots = RootCandidates::new();
    let mut total = AnswerTally::from_listed(std::iter::empty(), 0, smallest.cloned())
        .listing_at_most(puzzle.answer_keys_read_up_to());
    for (index, share) in shares.iter().enumerate() {
        let mut listed = Vec::with_capacity(share.keys.len());
        for (path, count) in &share.keys {
            let solution = solution_in(source(sources, index), model, &mut roots, path, component, &mut candidates)?;
            listed.push((puzzle.answer_key(component, &solution), *count));
        }
        total.absorb(AnswerTally::from_listed(listed, share.unlisted, None));
    }
    Ok(total)
}
