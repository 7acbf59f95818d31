//! Solving: one family's puzzle, its knobs already read into its config, searched under one
//! run's settings into one [`RunReport`]. The components are searched one after another,
//! each on the whole pool; the pool is built before any clock starts.

use super::collect::{SolutionCollector, SolutionStream};
use super::error::{PanickedRun, RunError, READING_SOLUTIONS, SEARCHING};
use super::family_code::{build_models, BuiltModels};
use super::optimum::{ComponentOptimum, Goal};
use super::report::{product_of_counts, rule_reports, ComponentReport, ParallelSummary, RunReport};
use super::settings::{RunSettings, SearchMode};
use super::worker_merge::{nanos, summarize_component, WorkerMerge};
use crate::parallel::{self, ModelPanic, Pool, PoolError, Strategy};
use crate::puzzles::Puzzle;
use crate::search::{FullCounters, Limits, NoCounters, RuleCounter, Stats, StopReason};
use serde_json::Value;
use std::time::Instant;

/// Where a run's report says it came from.
#[derive(Debug, Clone, Copy)]
pub(super) struct Labels<'a> {
    /// The instance's id.
    pub(super) instance: &'a str,
    /// The instance as given (short name or path).
    pub(super) source: &'a str,
}

/// The pool `settings` runs on: none started for `sequential`, which runs on the calling
/// thread.
pub(super) fn pool_for(settings: &RunSettings) -> Result<Pool, PoolError> {
    if settings.strategy == Strategy::Sequential {
        Ok(Pool::calling_thread())
    } else {
        Pool::with_affinity(settings.threads, settings.affinity)
    }
}

/// Searches every component of `puzzle` with `config` as `settings` says, on `pool`;
/// every solution found is counted into the answer and, given `stream`, written to it.
/// A panic of the family's code ends the run with [`RunError::ModelPanicked`].
pub(super) fn solve_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    labels: Labels<'_>,
    settings: &RunSettings,
    pool: &Pool,
    stream: Option<&SolutionStream>,
) -> Result<RunReport, RunError> {
    if settings.rule_counts {
        solve_with::<P, FullCounters>(puzzle, config, labels, settings, pool, stream)
    } else {
        solve_with::<P, NoCounters>(puzzle, config, labels, settings, pool, stream)
    }
}

fn solve_with<P: Puzzle, C: RuleCounter + Send>(
    puzzle: &P,
    config: &P::Config,
    labels: Labels<'_>,
    settings: &RunSettings,
    pool: &Pool,
    stream: Option<&SolutionStream>,
) -> Result<RunReport, RunError> {
    let plan = settings.parallel_plan();
    let strategy = format!("{} x{}", plan.strategy, settings.pool_threads());
    let panicked = |component: Option<&String>, during, panic: ModelPanic| {
        PanickedRun::error::<P>(component.map(String::as_str), during, &strategy, panic)
    };
    let BuiltModels { models, names, rule_names, .. } = build_models(puzzle, config, &strategy)?;
    let goal = Goal::of::<P>(models.first(), settings)?;
    let limits = Limits {
        first_solution: settings.mode == SearchMode::First,
        all_optima: settings.mode == SearchMode::All && settings.target.is_none(),
        target: settings.target.map(|target| target.value()),
        node_limit: settings.node_limit,
        // `--best` keeps one best solution. Equally good ones are reached besides it by other
        // workers, or under a bound that could still beat it: counted, not kept, so that the
        // kept set is one whatever the schedule (the smallest of those reached).
        solutions_to_keep: match settings.mode {
            SearchMode::Best => settings.solutions_to_keep.min(1),
            _ => settings.solutions_to_keep,
        },
        clone_state: false,
        deadline: settings.time_limit.and_then(|limit| Instant::now().checked_add(limit)),
        ..Limits::exhaustive()
    };
    let mut total = Stats::default();
    let mut components = Vec::new();
    let mut tallies = Vec::new();
    let mut searched = Vec::new();
    let mut complete = true;
    let mut stop = None;
    let mut workers = WorkerMerge::default();
    let mut summary = ParallelSummary::default();
    let component_count = models.len();
    // The pool is woken once for the whole run, not once per component: each wake waits
    // for every thread to be scheduled, which on a busy machine took milliseconds per grid
    // and multiplied the run's time (see `Pool::hold`). The first component's strategy
    // releases it when it hands out work; between components the threads are kept awake
    // again (below), so later ones find them warm.
    if plan.strategy != Strategy::Sequential {
        summary.pool_wake_ns = nanos(pool.hold());
    }
    let mut run_clock: Option<(Instant, Instant)> = None;
    let mut optima = Vec::new();
    for (index, (model, name)) in models.into_iter().zip(&names).enumerate() {
        if index > 0 && limits.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            // No component but the first starts after the deadline (the first one stops at
            // its first look at the clock, as a single-grid run does): the rest are not
            // searched.
            complete = false;
            stop = stop.or(Some(StopReason::TimeLimit.name()));
            break;
        }
        let collector = SolutionCollector::new(puzzle, index, name, stream);
        let ranker = goal.optimises().then(|| model.clone());
        let incumbent = goal.incumbent();
        let limits = Limits { incumbent: incumbent.clone(), ..limits.clone() };
        // A panic ends the run: the components after it are not searched.
        let (outcome, collected) = parallel::search_collecting::<P::Model, C, _>(model, &plan, pool, limits, collector)
            .map_err(|panic| panicked(Some(name), SEARCHING, panic))?;
        if let (Some(ranker), Some(incumbent)) = (ranker, incumbent) {
            let optimum = parallel::catch_model_panic(|| {
                ComponentOptimum::of(&ranker, &outcome.solutions, &incumbent, outcome.run.started)
            })
            .map_err(|panic| panicked(Some(name), READING_SOLUTIONS, panic))?;
            optima.push(optimum);
        }
        let elapsed_ns = nanos(outcome.run.wall);
        let ended = outcome.run.started + outcome.run.wall;
        run_clock = Some((run_clock.map_or(outcome.run.started, |(started, _)| started), ended));
        complete &= !outcome.stop.is_some_and(StopReason::cuts_search_short);
        stop = stop.or(outcome.stop.map(StopReason::name));
        summarize_component(&mut summary, &outcome.run, outcome.stop);
        workers.add(&outcome.workers);
        total.merge(&outcome.stats);
        searched.push((outcome.stats, outcome.solutions, elapsed_ns));
        tallies.push(collected.tally);
        // Kept awake while its threads still spin after this component's search, so that
        // the next component's workers need not be woken one by one (not waited for: see
        // `Pool::keep_awake`).
        if plan.strategy != Strategy::Sequential && index + 1 < component_count {
            pool.keep_awake();
        }
    }
    pool.release();
    // From the first component's start to the last one's end: the searches and whatever
    // the run did between them, but not the report built after the last one.
    let run_wall =
        run_clock.map_or(std::time::Duration::ZERO, |(started, ended)| ended.saturating_duration_since(started));
    // The kept solutions become text, drawings and checks after the clock has stopped:
    // they are the report's work, not the search's.
    for (index, ((stats, solutions, elapsed_ns), name)) in searched.into_iter().zip(names).enumerate() {
        let (solution_texts, rendered, verify_failures) = parallel::catch_model_panic(|| {
            (
                solutions.iter().map(|solution| puzzle.solution_text(solution)).collect(),
                solutions.iter().take(4).map(|solution| puzzle.render(solution)).collect(),
                solutions.iter().filter_map(|solution| puzzle.verify(index, solution).err()).collect(),
            )
        })
        .map_err(|panic| panicked(Some(&name), READING_SOLUTIONS, panic))?;
        components.push(ComponentReport {
            name,
            solutions: stats.solutions,
            solutions_kept: solutions.len() as u64,
            sample: (solutions.len() as u64) < stats.solutions,
            nodes: stats.nodes,
            elapsed_ns,
            solution_texts,
            rendered,
            verify_failures,
            nodes_per_depth: stats.nodes_per_depth,
            prunes_per_depth: stats.prunes_per_depth,
        });
    }
    let unsearched_components = (component_count - components.len()) as u64;
    workers.finish(&mut summary);
    // A solution of the instance is one of each component's: with a component not started,
    // none is known (the product over the searched ones alone gave a stopped 24/7 run the
    // count of a complete one).
    let solutions = match unsearched_components {
        0 => product_of_counts(components.iter().map(|component| component.solutions)),
        _ => Some(0),
    };
    let knobs = P::describe(config).into_iter().map(|(name, value)| (name.to_string(), Value::String(value))).collect();
    let threads = settings.pool_threads();
    let answer = match tallies.len() == component_count {
        true => parallel::catch_model_panic(|| puzzle.answer(&tallies))
            .map_err(|panic| panicked(None, READING_SOLUTIONS, panic))?,
        false => Value::Null,
    };
    Ok(RunReport {
        puzzle: P::FAMILY.to_string(),
        instance: labels.instance.to_string(),
        source: labels.source.to_string(),
        knobs,
        mode: settings.mode,
        solutions: solutions.unwrap_or(u64::MAX),
        solutions_overflow: solutions.is_none(),
        answer,
        nodes: total.nodes,
        rules: if total.counted {
            rule_reports(&rule_names, &total.rule_checks, &total.rule_prunes)
        } else {
            Vec::new()
        },
        nodes_per_depth: total.nodes_per_depth,
        prunes_per_depth: total.prunes_per_depth,
        elapsed_ns: nanos(run_wall),
        complete,
        unsearched_components,
        stop,
        node_limit: (settings.node_limit != u64::MAX).then_some(settings.node_limit),
        node_limit_overshoot_max: parallel::node_limit_overshoot_max(plan.strategy, threads),
        time_limit_s: settings.time_limit.map(|limit| limit.as_secs_f64()),
        components,
        strategy: plan.strategy.to_string(),
        threads,
        counters: plan.counters.to_string(),
        state: plan.state.to_string(),
        affinity: settings.affinity.to_string(),
        parallel: summary,
        workers: workers.reports,
        objective: goal.report(&optima, complete, nanos(run_wall), component_count),
    })
}
