//! Running one part: its subproblems searched on `threads` threads (each thread takes the
//! next subproblem not yet taken, on its own copy of the models), with the counts of every
//! component, the paths of the smallest solutions, and each subproblem's nodes and time.
//! A panic of the family's code on any thread ends the part with
//! [`RunError::ModelPanicked`]: the other threads take no further subproblem.

use super::paths::{descend, undo_all, Finds, PathRecorder, RecordingEngine, RootCandidates};
use super::{ComponentShare, CountOverflow, Counts, ReplayError, Subproblem};
use crate::parallel::{catch_model_panic, ModelPanic, Pool};
use crate::puzzles::Puzzle;
use crate::run::error::{PanickedRun, RunError, SEARCHING};
use crate::run::family_code::{build_models, BuiltModels};
use crate::search::{Engine, Incumbent, Limits, Model, NoSteering, ReplayMemory};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What to run.
#[derive(Clone, Copy)]
pub struct PartRequest<'a> {
    /// The subproblems, in the order they are handed out.
    pub subproblems: &'a [Subproblem],
    /// Solutions kept per component (the smallest), as a run keeps them.
    pub keep: usize,
    /// Threads that share the subproblems (1: on the calling thread).
    pub threads: usize,
    /// For an optimising model, each component's incumbent, shared by the part's threads
    /// (and raised from outside by whoever exchanges it with the other parts); a
    /// component without one starts from none.
    pub incumbents: &'a [Arc<Incumbent>],
    /// For an optimising model: told of each solution that improves a thread's best, with
    /// its component, value and path, for the other parts to read.
    pub publish: Option<&'a Publish<'a>>,
}

/// What a part tells the others of an improvement: component, objective value, path.
pub type Publish<'a> = dyn Fn(usize, i64, &[u32]) + Sync + 'a;

/// One subproblem's search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SubproblemTiming {
    /// Nodes of its subtree (the subproblem's node included).
    pub nodes: u64,
    /// Wall time of its search, the replay of its path included.
    pub ns: u64,
}

/// What a part found: per component, its counts and solution paths; per subproblem (in
/// the request's order), its nodes and time.
#[derive(Debug, Clone, PartialEq)]
pub struct PartOutcome {
    /// One share per component of the puzzle.
    pub components: Vec<ComponentShare>,
    /// One entry per subproblem of the request.
    pub subproblems: Vec<SubproblemTiming>,
}

/// Why a part could not be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartError {
    /// A subproblem's path does not replay on this build's model.
    Replay(ReplayError),
    /// A subproblem names a component the puzzle does not have.
    NoComponent {
        /// The subproblem's index in the part.
        index: usize,
        /// The component it names.
        component: usize,
        /// The puzzle's components.
        components: usize,
    },
    /// The part's counts do not fit in 64 bits.
    Overflow(CountOverflow),
}

impl std::fmt::Display for PartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PartError::Replay(error) => write!(f, "{error}"),
            PartError::NoComponent { index, component, components } => {
                write!(f, "subproblem {} names component {component}, but the puzzle has {components}", index + 1)
            }
            PartError::Overflow(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for PartError {}

/// One thread's findings.
struct ThreadShare<K, M: Model> {
    counts: Vec<Counts>,
    finds: Vec<Finds<K, M>>,
    timings: Vec<(usize, SubproblemTiming)>,
}

/// What one thread found, or why it stopped.
type ThreadResult<P> = Result<ThreadShare<<P as Puzzle>::AnswerKey, <P as Puzzle>::Model>, RunError>;

/// The subproblems handed out to a part's threads, one at a time.
struct Dispenser {
    next: AtomicUsize,
    /// Raised by a thread that failed (its model panicked, or a path did not replay): the
    /// others take no further subproblem, as the part has failed.
    abandoned: AtomicBool,
}

/// Searches the subproblems of `request` of `puzzle` with `config`.
pub(in crate::run) fn run_part_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    request: &PartRequest<'_>,
) -> Result<PartOutcome, RunError> {
    let threads = request.threads.clamp(1, request.subproblems.len().max(1));
    let strategy = format!("run-part x{threads}");
    let BuiltModels { models: roots, names, .. } = build_models(puzzle, config, &strategy)?;
    let components = roots.len();
    if let Some((index, subproblem)) =
        request.subproblems.iter().enumerate().find(|(_, subproblem)| subproblem.component >= components)
    {
        return Err(RunError::Part(PartError::NoComponent { index, component: subproblem.component, components }));
    }
    let objective = match <P::Model as Model>::OPTIMISES {
        true => catch_model_panic(|| roots.first().and_then(Model::objective))
            .map_err(|panic| PanickedRun::error::<P>(None, SEARCHING, &strategy, panic))?,
        false => None,
    };
    let incumbents: Vec<Option<Arc<Incumbent>>> = (0..components)
        .map(|component| objective.map(|_| request.incumbents.get(component).cloned().unwrap_or_else(Incumbent::new)))
        .collect();
    let dispenser = Dispenser { next: AtomicUsize::new(0), abandoned: AtomicBool::new(false) };
    let shares: Mutex<Vec<ThreadResult<P>>> = Mutex::new(Vec::new());
    let context = ShareContext {
        puzzle,
        request,
        dispenser: &dispenser,
        names: &names,
        strategy: &strategy,
        incumbents: &incumbents,
    };
    let work = |models: Vec<P::Model>| {
        let share = run_share(&context, models);
        if share.is_err() {
            dispenser.abandoned.store(true, Ordering::Relaxed);
        }
        shares.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(share);
    };
    if threads == 1 {
        work(roots.clone());
    } else {
        // The parallel layer's pool, as every other run's threads: named, and pinned one
        // to a CPU of those this process may use (a batch system's CPU set included).
        let pool = Pool::new(threads).map_err(RunError::Pool)?;
        let work = &work;
        // Each thread's copy of the models is made here and moved to it: the scope's jobs
        // may only borrow what every thread can share, and models need not be `Sync`.
        let copies: Vec<Vec<P::Model>> = (0..threads).map(|_| roots.clone()).collect();
        pool.rayon().scope(move |scope| {
            for models in copies {
                scope.spawn(move |_| work(models));
            }
        });
    }
    let mut counts = vec![Counts::default(); components];
    let mut finds: Vec<Finds<P::AnswerKey, P::Model>> = (0..components).map(|_| Finds::new(request.keep)).collect();
    let mut timings = vec![SubproblemTiming::default(); request.subproblems.len()];
    let shares = shares.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    // A panic is reported before any other error: it is the family's bug, whatever else
    // failed meanwhile.
    let (failed, shares): (Vec<ThreadResult<P>>, Vec<ThreadResult<P>>) = shares.into_iter().partition(Result::is_err);
    if let Some(error) = failed.into_iter().filter_map(Result::err).min_by_key(|error| match error {
        RunError::ModelPanicked(_) => 0,
        _ => 1,
    }) {
        return Err(error);
    }
    for share in shares.into_iter().flatten() {
        for (total, part) in counts.iter_mut().zip(&share.counts) {
            total.add(part).map_err(|overflow| RunError::Part(PartError::Overflow(overflow)))?;
        }
        for (total, found) in finds.iter_mut().zip(share.finds) {
            total.absorb(found);
        }
        for (index, timing) in share.timings {
            timings[index] = timing;
        }
    }
    let components = counts
        .into_iter()
        .zip(finds)
        .map(|(counts, found)| found.into_share(counts, objective.map(|objective| objective.sense)))
        .collect();
    Ok(PartOutcome { components, subproblems: timings })
}

/// What every thread of a part shares.
struct ShareContext<'a, P> {
    puzzle: &'a P,
    request: &'a PartRequest<'a>,
    dispenser: &'a Dispenser,
    /// The components' names, for a panic's report.
    names: &'a [String],
    /// How the part runs (`run-part x2`), for a panic's report.
    strategy: &'a str,
    /// Each component's incumbent, for an optimising model.
    incumbents: &'a [Option<Arc<Incumbent>>],
}

/// Takes subproblems until none is left (or another thread failed); `roots` is this
/// thread's copy of the models.
fn run_share<P: Puzzle>(
    context: &ShareContext<'_, P>,
    roots: Vec<P::Model>,
) -> Result<ThreadShare<P::AnswerKey, P::Model>, RunError> {
    let ShareContext { puzzle, request, dispenser, names, strategy, incumbents } = *context;
    let mut share = ThreadShare {
        counts: vec![Counts::default(); roots.len()],
        finds: (0..roots.len()).map(|_| Finds::new(request.keep)).collect(),
        timings: Vec::new(),
    };
    let mut candidates = Vec::new();
    let mut caches: Vec<RootCandidates<P::Model>> = roots.iter().map(|_| RootCandidates::new()).collect();
    // Each subproblem's engine is new (its recorder is the subproblem's); what the last one
    // learned of the path's nodes goes to the next, or every one branches the root again.
    let mut memories: Vec<ReplayMemory<<P::Model as Model>::Move>> =
        roots.iter().map(|_| ReplayMemory::new()).collect();
    // Each model goes from one subproblem's engine to the next (each leaves it at its root),
    // not copied: a copy costs the model's size every subproblem (a graph's adjacency).
    // Out while its subproblem is searched; a failure there ends this thread's share.
    let mut roots: Vec<Option<P::Model>> = roots.into_iter().map(Some).collect();
    loop {
        if dispenser.abandoned.load(Ordering::Relaxed) {
            return Ok(share);
        }
        let index = dispenser.next.fetch_add(1, Ordering::Relaxed);
        let Some(subproblem) = request.subproblems.get(index) else {
            return Ok(share);
        };
        let started = Instant::now();
        let component = subproblem.component;
        let panicked =
            |panic| PanickedRun::error::<P>(names.get(component).map(String::as_str), SEARCHING, strategy, panic);
        let Some(mut model) = roots[component].take() else {
            unreachable!("a model is out of `roots` only while its subproblem is searched");
        };
        let caches = &mut caches[component];
        // The replay of the path reaches the subproblem's node: a panic there names it.
        let replayed = catch_model_panic(|| {
            let replayed = descend(&mut model, caches, &subproblem.path, component, &mut candidates);
            if let Ok((moves, accepted)) = &replayed {
                undo_all(&mut model, moves, *accepted);
            }
            replayed
        });
        // This build made the plan (`run_part` checks it before it starts), so a path that
        // leaves the tree is the model's: its moves do not replay (or the plan was edited,
        // which `run_part` then looks for in plan.json).
        let (moves, _) = replayed.map_err(panicked)?.map_err(|error| {
            panicked(ModelPanic {
                message: format!(
                    "moves do not replay: {} (the plan was made by this build with these knobs: the model's \
                     branch reads something besides the moves from the root, or the plan was edited)",
                    error.message
                ),
                location: None,
                path: None,
                moves_do_not_replay: true,
            })
        })?;
        let stats = {
            let key_of = |solution: &<P::Model as Model>::Solution| puzzle.answer_key(component, solution);
            let publish = |value: i64, path: &[u32]| {
                if let Some(publish) = request.publish {
                    publish(component, value, path);
                }
            };
            let recorder = PathRecorder::new(&subproblem.path, &mut share.finds[component], &key_of);
            let recorder = if request.publish.is_some() { recorder.publishing(&publish) } else { recorder };
            let incumbent = incumbents.get(component).cloned().flatten();
            let limits = Limits { solutions_to_keep: 0, incumbent, ..Limits::exhaustive() };
            let memory = std::mem::take(&mut memories[component]);
            let mut engine: RecordingEngine<'_, P> =
                catch_model_panic(|| Engine::new(model, NoSteering, recorder, limits).with_replay_memory(memory))
                    .map_err(panicked)?;
            // The recorder keeps the engine on its path-keeping loop: a panic names its node.
            catch_model_panic(|| engine.run_subproblem(&moves))
                .map_err(|panic| panicked(panic.at_path(engine.path())))?;
            memories[component] = engine.take_replay_memory();
            let stats = engine.stats();
            roots[component] = Some(engine.into_model());
            stats
        };
        let ns = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        share.counts[component]
            .add(&Counts::of(&stats))
            .map_err(|overflow| RunError::Part(PartError::Overflow(overflow)))?;
        share.timings.push((index, SubproblemTiming { nodes: stats.nodes, ns }));
    }
}
