//! One worker of a parallel run: its own engine (and so its own model state and counts),
//! running tasks one after another and keeping its accounting to itself until the end.

use super::accounting::WorkerReport;
use super::collect::{Collecting, Collector};
use super::control::Control;
use super::model_panic;
use super::steering::{Splitting, WorkerSteering};
use super::tally::Tally;
use crate::search::{Engine, Limits, Model, RuleCounter, Stats, StopReason};
use crossbeam_utils::CachePadded;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// A worker's place in a run's array of workers, on cache lines of its own.
///
/// A worker writes its engine's fields (node count, path length, model state) at every
/// node. Unpadded, two workers side by side in one array share a cache line whenever the
/// array happens to start mid-line, which depends on where the allocator put it: measured
/// on `prime_grid_enumeration` with `steal` on 2 threads, some runs took 2.4 times the
/// CPU per node of others. Padding makes every run the fast case.
pub(crate) struct Slot<W>(CachePadded<Mutex<W>>);

impl<W> Slot<W> {
    /// A slot holding `worker`.
    pub(crate) fn new(worker: W) -> Self {
        Slot(CachePadded::new(Mutex::new(worker)))
    }

    /// The worker, for the one thread that runs it (the lock is never contended).
    pub(crate) fn lock(&self) -> MutexGuard<'_, W> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The worker, once the run is over.
    pub(crate) fn into_inner(self) -> W {
        CachePadded::into_inner(self.0).into_inner().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What it takes to make a worker, kept until the thread that will run it makes it.
struct Recipe<'run, M: Model, T, K> {
    /// The worker's index in the pool.
    index: usize,
    /// A copy of the root model (cloned once more by the worker's own thread).
    model: M,
    /// The engine's limits.
    limits: Limits,
    /// The run's shared control word.
    control: &'run Control,
    /// The worker's node tally.
    tally: T,
    /// When the worker gives work away.
    splitting: Splitting<M::Move>,
    /// The run's start.
    start: Instant,
    /// The worker's own (empty) collector.
    collector: K,
}

impl<'run, M: Model, T: Tally, K: Collector<M>> Recipe<'run, M, T, K> {
    /// Makes the worker on the calling thread: the model is cloned here and the recipe's
    /// copy dropped, so the worker's heap state is this thread's allocation.
    fn make<C: RuleCounter>(self) -> Worker<'run, M, C, T, K> {
        let model = self.model.clone();
        let (index, control, start) = (self.index, self.control, self.start);
        Worker::new(index, model, self.limits, control, self.tally, self.splitting, start, self.collector)
    }
}

/// One seat per pool thread, worker `index` with `tally_for(index)` and
/// `splitting_for(index)` and a clone of `collector`, each made later by its own thread
/// (see [`Seat`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn seats<'run, M: Model, C: RuleCounter, T: Tally, K: Collector<M>>(
    threads: usize,
    model: &M,
    limits: &Limits,
    control: &'run Control,
    start: Instant,
    mut tally_for: impl FnMut(usize) -> T,
    mut splitting_for: impl FnMut(usize) -> Splitting<M::Move>,
    collector: &K,
) -> Vec<Seat<'run, M, C, T, K>> {
    (0..threads)
        .map(|index| {
            Seat::new(Recipe {
                index,
                model: model.clone(),
                limits: limits.clone(),
                control,
                tally: tally_for(index),
                splitting: splitting_for(index),
                start,
                collector: collector.clone(),
            })
        })
        .collect()
}

/// A worker's seat in a run: its recipe until the thread that runs it first needs it.
///
/// The worker is made by the thread that runs it, so its copy of the model and its
/// engine's stacks come from that thread's allocations. Made by the thread that starts
/// the run, the workers' small buffers (a model's candidate bitsets of a few words, say)
/// lie side by side and share cache lines: measured on `prime_grid_enumeration` with
/// `steal` on 2 threads, runs took 1.9 to 2.9 s instead of 1.2 s, with up to 2.4 times
/// the CPU per node.
pub(crate) struct Seat<'run, M: Model, C: RuleCounter, T: Tally, K: Collector<M>> {
    recipe: Option<Recipe<'run, M, T, K>>,
    worker: Option<Worker<'run, M, C, T, K>>,
}

impl<'run, M: Model, C: RuleCounter, T: Tally, K: Collector<M>> Seat<'run, M, C, T, K> {
    /// A seat that will make its worker from `recipe`.
    fn new(recipe: Recipe<'run, M, T, K>) -> Self {
        Seat { recipe: Some(recipe), worker: None }
    }

    /// The worker, made on the calling thread by the first call.
    pub(crate) fn worker(&mut self) -> &mut Worker<'run, M, C, T, K> {
        if let Some(recipe) = self.recipe.take() {
            self.worker = Some(recipe.make());
        }
        self.worker.as_mut().expect("a seat holds its recipe or its worker")
    }

    /// Ends the worker at `end` (made now if no task ever needed it).
    pub(crate) fn finish(mut self, end: Instant) -> WorkerOutput<M::Solution, K> {
        self.worker();
        self.worker.take().expect("made just above").finish(end)
    }
}

/// The engine a worker drives.
pub(crate) type WorkerEngine<'run, M, C, T, K> =
    Engine<M, C, WorkerSteering<'run, <M as Model>::Move, T>, Collecting<K>>;

/// Whether a worker should go on taking tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on.
    Continue,
    /// The run has stopped (this worker's engine stopped it, or saw it stopped).
    Stop,
}

/// A worker: an engine, its accounting, and the end of its last task.
pub(crate) struct Worker<'run, M: Model, C: RuleCounter, T: Tally, K: Collector<M>> {
    pub(crate) engine: WorkerEngine<'run, M, C, T, K>,
    pub(crate) report: WorkerReport,
    control: &'run Control,
    /// When the worker last stopped being busy (the run's start at first).
    last_end: Instant,
    /// When the run started and when this worker's last task ended, for the time before its
    /// first task and after its last one.
    run_start: Instant,
    last_task_end: Option<Instant>,
}

/// What a worker hands back when the run is over.
pub(crate) struct WorkerOutput<Solution, K> {
    pub(crate) report: WorkerReport,
    pub(crate) stats: Stats,
    pub(crate) solutions: Vec<Solution>,
    /// What its collector saw.
    pub(crate) collector: K,
}

impl<'run, M: Model, C: RuleCounter, T: Tally, K: Collector<M>> Worker<'run, M, C, T, K> {
    /// Worker `index` on its own copy of `model`, handing its solutions to `collector`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        index: usize,
        model: M,
        limits: Limits,
        control: &'run Control,
        tally: T,
        splitting: Splitting<M::Move>,
        start: Instant,
        collector: K,
    ) -> Self {
        let steering = WorkerSteering::new(control, tally, splitting);
        Worker {
            engine: Engine::new(model, steering, Collecting(collector), limits),
            report: WorkerReport::new(index),
            control,
            last_end: start,
            run_start: start,
            last_task_end: None,
        }
    }

    /// Runs the subproblem `task` (a path of moves from the root).
    pub(crate) fn run_task(&mut self, task: &[M::Move]) -> Flow {
        self.run_timed(|engine| engine.run_subproblem(task))
    }

    /// Runs `work` on the engine as one task, with its time and nodes accounted; stops
    /// the run when the engine stopped on its own (a first solution, the node limit), or
    /// when the model panicked (the panic, with the engine's path, goes to the control).
    pub(crate) fn run_timed(&mut self, work: impl FnOnce(&mut WorkerEngine<'run, M, C, T, K>)) -> Flow {
        let start = Instant::now();
        self.report.idle += start.saturating_duration_since(self.last_end);
        if self.last_task_end.is_none() {
            self.report.before_first_task = start.saturating_duration_since(self.run_start);
        }
        let nodes_before = self.engine.nodes();
        self.engine.steering_mut().begin_task(nodes_before);
        let caught = model_panic::catch(|| work(&mut self.engine));
        let nodes = self.engine.nodes();
        self.engine.steering_mut().end_task(nodes);
        let end = Instant::now();
        self.report.record_task(end - start, nodes - nodes_before);
        self.last_end = end;
        self.last_task_end = Some(end);
        if let Err(panic) = caught {
            // The engine's stacks and the model's state are left as the panic found them:
            // the path names the node, and this worker takes no further task.
            self.control.record_panic(panic.at_path(self.engine.path()));
            return Flow::Stop;
        }
        match self.engine.stop_reason() {
            None => Flow::Continue,
            Some(StopReason::Steered) => Flow::Stop,
            Some(reason) => {
                self.control.stop(reason);
                Flow::Stop
            }
        }
    }

    /// Records time spent outside tasks up to now as idle.
    pub(crate) fn mark_idle_until_now(&mut self) {
        let now = Instant::now();
        self.report.idle += now.saturating_duration_since(self.last_end);
        self.last_end = now;
    }

    /// Ends the worker at `end` (when the whole run was over): the rest is idle time.
    pub(crate) fn finish(mut self, end: Instant) -> WorkerOutput<M::Solution, K> {
        self.report.idle += end.saturating_duration_since(self.last_end);
        match self.last_task_end {
            Some(last) => self.report.after_last_task = end.saturating_duration_since(last),
            None => self.report.before_first_task = end.saturating_duration_since(self.run_start),
        }
        let stats = self.engine.stats();
        self.report.nodes = stats.nodes;
        let steering = self.engine.steering_mut();
        self.report.tasks_split_off = steering.split_off;
        self.report.nodes_after_stop = steering.nodes_after_stop;
        let solutions = self.engine.take_solutions();
        let (_, Collecting(collector)) = self.engine.into_hooks();
        WorkerOutput { report: self.report, stats, solutions, collector }
    }
}
