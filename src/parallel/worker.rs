//! One worker of a parallel run: its own engine (and so its own model state and counts),
//! running tasks one after another and keeping its accounting to itself until the end.

use super::accounting::WorkerReport;
use super::control::Control;
use super::steering::{Splitting, WorkerSteering};
use super::tally::Tally;
use crate::search::{Engine, Limits, Model, NoObserver, RuleCounter, Stats, StopReason};
use std::time::Instant;

/// The engine a worker drives.
pub(crate) type WorkerEngine<'run, M, C, T> = Engine<M, C, WorkerSteering<'run, <M as Model>::Move, T>, NoObserver>;

/// Whether a worker should go on taking tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on.
    Continue,
    /// The run has stopped (this worker's engine stopped it, or saw it stopped).
    Stop,
}

/// A worker: an engine, its accounting, and the end of its last task.
pub(crate) struct Worker<'run, M: Model, C: RuleCounter, T: Tally> {
    pub(crate) engine: WorkerEngine<'run, M, C, T>,
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
pub(crate) struct WorkerOutput<Solution> {
    pub(crate) report: WorkerReport,
    pub(crate) stats: Stats,
    pub(crate) solutions: Vec<Solution>,
}

impl<'run, M: Model, C: RuleCounter, T: Tally> Worker<'run, M, C, T> {
    /// Worker `index` on its own copy of `model`.
    pub(crate) fn new(
        index: usize,
        model: M,
        limits: Limits,
        control: &'run Control,
        tally: T,
        splitting: Splitting<M::Move>,
        start: Instant,
    ) -> Self {
        let steering = WorkerSteering::new(control, tally, splitting);
        Worker {
            engine: Engine::new(model, steering, NoObserver, limits),
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
    /// the run when the engine stopped on its own (a first solution, the node limit).
    pub(crate) fn run_timed(&mut self, work: impl FnOnce(&mut WorkerEngine<'run, M, C, T>)) -> Flow {
        let start = Instant::now();
        self.report.idle += start.saturating_duration_since(self.last_end);
        if self.last_task_end.is_none() {
            self.report.before_first_task = start.saturating_duration_since(self.run_start);
        }
        let nodes_before = self.engine.nodes();
        self.engine.steering_mut().begin_task(nodes_before);
        work(&mut self.engine);
        let nodes = self.engine.nodes();
        self.engine.steering_mut().end_task(nodes);
        let end = Instant::now();
        self.report.record_task(end - start, nodes - nodes_before);
        self.last_end = end;
        self.last_task_end = Some(end);
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
    pub(crate) fn finish(mut self, end: Instant) -> WorkerOutput<M::Solution> {
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
        WorkerOutput { report: self.report, stats, solutions }
    }
}
