//! The steering every parallel worker gives its engine: at each node one relaxed load of
//! the shared signal word and one comparison with a local node count; everything else
//! (stopping, splitting, reporting to the node budget) happens off that path.

use super::control::{Control, NODE_FLUSH_INTERVAL, STOP_BIT};
use super::tally::Tally;
use crate::search::{Model, OpenBranches, Steering, SteeringAction, StopReason};
use crossbeam_deque::Worker as TaskQueue;

/// A subproblem: the moves from the root (see [`crate::search::Engine::run_subproblem`]).
pub(crate) type Task<Mv> = Vec<Mv>;

/// Nodes a worker waits before it looks for something to split again, after a hungry
/// signal found it with nothing open.
const SPLIT_RETRY_INTERVAL: u64 = 64;

/// When a worker gives part of its tree away.
pub(crate) enum Splitting<Mv> {
    /// Never: its tasks come from elsewhere (`depth`, `auto`, `naive`).
    Never,
    /// When another worker is hungry and this worker's queue is empty (`steal`).
    WhenHungry {
        /// Where split-off subproblems go; other workers steal from its far end.
        queue: TaskQueue<Task<Mv>>,
        /// Node count before which an unsuccessful split is not retried.
        retry_at: u64,
    },
    /// Every `interval` nodes (`budget`).
    Budget {
        /// Where split-off subproblems go.
        queue: TaskQueue<Task<Mv>>,
        /// Nodes between splits.
        interval: u64,
        /// Node count at which the next split happens.
        next_at: u64,
    },
}

/// A worker's steering, generic over how it tallies nodes (`T`).
pub(crate) struct WorkerSteering<'run, Mv, T> {
    control: &'run Control,
    tally: T,
    pub(crate) splitting: Splitting<Mv>,
    /// The node count at which the slow path runs even without a signal: the next split
    /// of a budget, the next report to the node budget, or never.
    next_check: u64,
    /// The node count at which the next report to the node budget is due.
    next_flush: u64,
    /// Nodes already reported to the node budget.
    flushed: u64,
    /// Subproblems split off.
    pub(crate) split_off: u64,
    /// Nodes entered after the run had stopped.
    pub(crate) nodes_after_stop: u64,
}

impl<'run, Mv: Copy, T: Tally> WorkerSteering<'run, Mv, T> {
    pub(crate) fn new(control: &'run Control, tally: T, splitting: Splitting<Mv>) -> Self {
        let next_flush = if control.has_node_budget() { NODE_FLUSH_INTERVAL } else { u64::MAX };
        let mut steering = WorkerSteering {
            control,
            tally,
            splitting,
            next_check: u64::MAX,
            next_flush,
            flushed: 0,
            split_off: 0,
            nodes_after_stop: 0,
        };
        steering.begin_task(0);
        steering
    }

    /// A task starts with the engine at `nodes`: budgets count from here.
    pub(crate) fn begin_task(&mut self, nodes: u64) {
        match &mut self.splitting {
            Splitting::Never => {}
            Splitting::WhenHungry { retry_at, .. } => *retry_at = nodes,
            Splitting::Budget { interval, next_at, .. } => *next_at = nodes.saturating_add(*interval),
        }
        self.update_next_check();
    }

    /// A task ended with the engine at `nodes`: publish the count, report to the budget.
    pub(crate) fn end_task(&mut self, nodes: u64) {
        self.tally.publish(nodes);
        if self.next_flush != u64::MAX && nodes > self.flushed {
            self.control.spend_nodes(nodes - self.flushed);
            self.flushed = nodes;
        }
    }

    /// The worker's own task queue, when its strategy has one.
    pub(crate) fn queue(&self) -> Option<&TaskQueue<Task<Mv>>> {
        match &self.splitting {
            Splitting::Never => None,
            Splitting::WhenHungry { queue, .. } | Splitting::Budget { queue, .. } => Some(queue),
        }
    }

    fn update_next_check(&mut self) {
        let next_split = match self.splitting {
            Splitting::Budget { next_at, .. } => next_at,
            _ => u64::MAX,
        };
        self.next_check = next_split.min(self.next_flush);
    }

    /// Everything but the common case: the run stopped, someone is hungry, a budget ran out.
    #[cold]
    #[inline(never)]
    fn attend(&mut self, nodes: u64, signal: usize, open: &mut OpenBranches<'_, Mv>) -> SteeringAction {
        if signal & STOP_BIT != 0 {
            self.nodes_after_stop += 1;
            return SteeringAction::Stop;
        }
        if nodes >= self.next_flush {
            let fresh = nodes - self.flushed;
            self.flushed = nodes;
            self.next_flush = nodes + NODE_FLUSH_INTERVAL;
            if !self.control.spend_nodes(fresh) {
                return SteeringAction::Stop;
            }
        }
        let control = self.control;
        let given = match &mut self.splitting {
            Splitting::Never => 0,
            Splitting::WhenHungry { queue, retry_at } => {
                if signal == 0 || nodes < *retry_at || !queue.is_empty() {
                    0
                } else {
                    let given = split(open, queue, control);
                    if given == 0 {
                        *retry_at = nodes + SPLIT_RETRY_INTERVAL;
                    }
                    given
                }
            }
            Splitting::Budget { queue, interval, next_at } => {
                if nodes < *next_at {
                    0
                } else {
                    *next_at = nodes.saturating_add(*interval);
                    split(open, queue, control)
                }
            }
        };
        self.split_off += given as u64;
        self.update_next_check();
        SteeringAction::Continue
    }
}

/// Moves the shallowest open branches into `queue`, counting each as a task first.
fn split<Mv: Copy>(open: &mut OpenBranches<'_, Mv>, queue: &TaskQueue<Task<Mv>>, control: &Control) -> usize {
    open.split_shallowest(|task| {
        control.task_made();
        queue.push(task);
    })
}

impl<M: Model, T: Tally> Steering<M> for WorkerSteering<'_, M::Move, T> {
    #[inline(always)]
    fn wants_node(&mut self, nodes: u64) -> bool {
        self.tally.count_node();
        self.control.signal() != 0 || nodes >= self.next_check
    }

    #[inline(always)]
    fn at_node(&mut self, nodes: u64, open: &mut OpenBranches<'_, M::Move>) -> SteeringAction {
        self.attend(nodes, self.control.signal(), open)
    }

    /// A first solution stops the run here and now: the other workers see the stop at
    /// their next node, so the time to stop and the nodes after it measure the stop's
    /// propagation alone, not this engine's unwinding.
    #[inline]
    fn solution_found(&mut self, stops_search: Option<StopReason>) {
        if let Some(reason) = stops_search {
            self.control.stop(reason);
        }
    }
}
