//! The event-driven replay of listed tasks and of work stealing (see the parent module for
//! what it assumes): virtual workers with their deques and open levels, and a queue of
//! timed events, one per worker, handled in time order.

use super::model::{Machine, Schedule, Timed, Workload};
use crate::scaling::costs::Costs;
use crate::scaling::work_span::SubtreeTree;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Replays `workload` on `machine` with `costs`.
pub(super) fn replay(workload: Workload<'_>, machine: Machine<'_>, costs: &Costs) -> Schedule {
    let mut sim = Sim::new(workload, machine, costs);
    sim.start(workload);
    while let Some(Reverse(event)) = sim.events.pop() {
        sim.handle(event.worker, event.time);
    }
    sim.schedule()
}

/// Something a worker can run.
#[derive(Debug, Clone, Copy)]
enum Work {
    /// The subtree of a recorded node.
    Node(usize),
    /// An unrecorded subtree (or part of one): its nodes and the depth of its root.
    Chunk { nodes: u64, depth: u32 },
}

#[derive(Debug, Clone, Copy)]
struct Queued {
    work: Work,
    available_at: f64,
}

/// The untried children of one open node: the next one's index and how many are left.
#[derive(Debug, Clone, Copy)]
struct Level {
    next: usize,
    left: usize,
}

/// One virtual worker: its CPU and that CPU's time factor, its deque, the open levels of
/// the branch it is in.
#[derive(Debug, Default)]
struct Virtual {
    cpu: usize,
    factor: f64,
    queue: VecDeque<Queued>,
    levels: Vec<Level>,
    /// A recorded node the worker enters at its next step.
    entering: Option<usize>,
    /// Nodes left of the unrecorded subtree it is in, and that subtree's depth.
    chunk: u64,
    chunk_depth: u32,
    working: bool,
    /// When it last ran out of work (the end of its last task, or its start).
    out_of_work_at: f64,
    busy_ns: f64,
}

/// What a hungry worker found.
enum Found {
    Took,
    WaitUntil(f64),
    Nothing,
}

/// The replay's state: the workers, who is hungry, and the pending events.
struct Sim<'a> {
    tree: Option<&'a SubtreeTree>,
    costs: Costs,
    node_ns: f64,
    slice: u64,
    splitting: bool,
    sharing: bool,
    workers: Vec<Virtual>,
    busy_on_cpu: Vec<usize>,
    hungry: VecDeque<usize>,
    injector: Option<Work>,
    events: BinaryHeap<Reverse<Timed>>,
    tasks: u64,
    steals: u64,
}

impl<'a> Sim<'a> {
    fn new(workload: Workload<'a>, machine: Machine<'_>, costs: &Costs) -> Sim<'a> {
        let workers = machine.workers.max(1);
        let cores = machine.cores.unwrap_or(workers).max(1);
        let machine = Machine { workers, ..machine };
        let (tree, slice, splitting) = match workload {
            Workload::Listed { slice_nodes, .. } => (None, slice_nodes, false),
            Workload::Stealing { tree, slice_nodes } => (Some(tree), slice_nodes, true),
        };
        Sim {
            tree,
            costs: *costs,
            // Every worker searches on the engine's steered path (its steering watches for
            // stops, and under `steal` and `budget` splits); only the listing does not.
            node_ns: costs.steered_node_ns * costs.slowdown.at(machine.busy_cpus()),
            slice: slice.max(1),
            splitting,
            sharing: machine.cores.is_some_and(|cores| cores < workers),
            workers: (0..workers)
                .map(|index| Virtual {
                    cpu: machine.cpu_of(index),
                    factor: machine.factor_of(index),
                    ..Virtual::default()
                })
                .collect(),
            busy_on_cpu: vec![0; cores],
            hungry: VecDeque::new(),
            injector: None,
            events: BinaryHeap::new(),
            tasks: 0,
            steals: 0,
        }
    }

    fn start(&mut self, workload: Workload<'_>) {
        match workload {
            Workload::Listed { listing_ns, tasks, .. } => {
                // Worker 0 lists and spawns, at its CPU's pace (alone: no sharing yet).
                let factor = self.workers[0].factor;
                let (listing_ns, spawn_ns) = (listing_ns * factor, self.costs.spawn_ns * factor);
                let spawner = &mut self.workers[0];
                spawner.busy_ns = listing_ns + spawn_ns * tasks.len() as f64;
                for (index, task) in tasks.iter().enumerate() {
                    let work = Work::Chunk { nodes: task.nodes, depth: task.depth };
                    spawner.queue.push_back(Queued { work, available_at: listing_ns + spawn_ns * (index + 1) as f64 });
                }
                self.set_working(0, true);
                self.at(0, listing_ns + spawn_ns * tasks.len() as f64);
                for worker in 1..self.workers.len() {
                    self.workers[worker].out_of_work_at = listing_ns;
                    self.become_hungry(worker, listing_ns);
                }
            }
            Workload::Stealing { .. } => {
                self.injector = Some(Work::Node(0));
                for worker in 0..self.workers.len() {
                    self.become_hungry(worker, 0.0);
                }
            }
        }
    }

    fn at(&mut self, worker: usize, time: f64) {
        self.events.push(Reverse(Timed { time, worker }));
    }

    /// How much longer work takes on `worker` now than on a CPU of its own as fast as the
    /// measuring one: the busy workers sharing its CPU, times that CPU's time factor.
    fn pace(&self, worker: usize) -> f64 {
        let state = &self.workers[worker];
        let share = if self.sharing { self.busy_on_cpu[state.cpu].max(1) as f64 } else { 1.0 };
        share * state.factor
    }

    fn set_working(&mut self, worker: usize, working: bool) {
        let state = &mut self.workers[worker];
        if state.working != working {
            state.working = working;
            let cpu = state.cpu;
            if working {
                self.busy_on_cpu[cpu] += 1;
            } else {
                self.busy_on_cpu[cpu] -= 1;
            }
        }
    }

    fn handle(&mut self, worker: usize, time: f64) {
        if self.workers[worker].working {
            self.step(worker, time);
        } else {
            self.become_hungry(worker, time);
        }
    }

    fn tree(&self) -> &'a SubtreeTree {
        self.tree.expect("recorded nodes exist only when replaying a tree")
    }

    /// The worker finished its last unit at `time`: it takes the next one.
    fn step(&mut self, worker: usize, mut time: f64) {
        let mut pending_level = None;
        let unit_nodes;
        if let Some(node) = self.workers[worker].entering.take() {
            (unit_nodes, pending_level) = self.enter(worker, node);
        } else if self.workers[worker].chunk > 0 {
            unit_nodes = self.take_slice(worker);
        } else if let Some(child) = self.next_child(worker) {
            (unit_nodes, pending_level) = self.enter(worker, child);
        } else {
            self.task_done(worker, time);
            return;
        }
        if self.splitting && !self.hungry.is_empty() && self.workers[worker].queue.is_empty() {
            let given = self.split(worker);
            if given > 0 {
                let cost = given as f64 * self.costs.split_ns * self.pace(worker);
                time += cost;
                self.workers[worker].busy_ns += cost;
                for queued in self.workers[worker].queue.iter_mut() {
                    queued.available_at = time;
                }
                self.serve_hungry(time);
            }
        }
        if let Some(level) = pending_level {
            self.workers[worker].levels.push(level);
        }
        let duration = unit_nodes as f64 * self.node_ns * self.pace(worker);
        self.workers[worker].busy_ns += duration;
        self.at(worker, time + duration);
    }

    /// Enters recorded node `node`: one node with its children opened after it, or its
    /// whole (unrecorded) subtree as a chunk.
    fn enter(&mut self, worker: usize, node: usize) -> (u64, Option<Level>) {
        let tree = self.tree();
        if tree.has_children(node) {
            let left = tree.children(node).count();
            (1, Some(Level { next: node + 1, left }))
        } else {
            let state = &mut self.workers[worker];
            state.chunk = tree.nodes[node].size;
            state.chunk_depth = tree.nodes[node].depth;
            (self.take_slice(worker), None)
        }
    }

    fn take_slice(&mut self, worker: usize) -> u64 {
        let state = &mut self.workers[worker];
        let taken = state.chunk.min(self.slice);
        state.chunk -= taken;
        taken
    }

    /// The next untried child of the deepest open level, closing exhausted levels.
    fn next_child(&mut self, worker: usize) -> Option<usize> {
        let tree = self.tree?;
        let levels = &mut self.workers[worker].levels;
        while let Some(level) = levels.last_mut() {
            if level.left > 0 {
                let child = level.next;
                level.next += tree.nodes[child].extent as usize;
                level.left -= 1;
                return Some(child);
            }
            levels.pop();
        }
        None
    }

    /// Gives away every untried child of the shallowest open level, or else half of the
    /// unrecorded subtree left; returns how many tasks were made.
    fn split(&mut self, worker: usize) -> usize {
        let Some(tree) = self.tree else {
            return 0;
        };
        let state = &mut self.workers[worker];
        if let Some(level) = state.levels.iter_mut().find(|level| level.left > 0) {
            let given = level.left;
            let mut child = level.next;
            for _ in 0..given {
                state.queue.push_back(Queued { work: Work::Node(child), available_at: 0.0 });
                child += tree.nodes[child].extent as usize;
            }
            level.left = 0;
            return given;
        }
        if state.chunk >= 2 {
            let half = state.chunk / 2;
            state.chunk -= half;
            state.queue.push_back(Queued {
                work: Work::Chunk { nodes: half, depth: state.chunk_depth + 1 },
                available_at: 0.0,
            });
            return 1;
        }
        0
    }

    fn task_done(&mut self, worker: usize, time: f64) {
        self.workers[worker].out_of_work_at = time;
        if let Some(queued) = self.workers[worker].queue.pop_back() {
            self.start_task(worker, queued.work, time.max(queued.available_at), false);
        } else {
            self.set_working(worker, false);
            self.become_hungry(worker, time);
        }
    }

    fn become_hungry(&mut self, worker: usize, time: f64) {
        match self.try_steal(worker, time) {
            Found::Took => {}
            Found::WaitUntil(when) => self.at(worker, when),
            Found::Nothing => self.hungry.push_back(worker),
        }
    }

    /// Serves hungry workers in the order they got hungry, while there is work.
    fn serve_hungry(&mut self, time: f64) {
        while let Some(&worker) = self.hungry.front() {
            match self.try_steal(worker, time) {
                Found::Took => {
                    self.hungry.pop_front();
                }
                Found::WaitUntil(when) => {
                    self.hungry.pop_front();
                    self.at(worker, when);
                }
                Found::Nothing => break,
            }
        }
    }

    /// The root task, else the oldest available task of another queue, nearest first.
    fn try_steal(&mut self, worker: usize, time: f64) -> Found {
        if let Some(work) = self.injector.take() {
            self.start_task(worker, work, time, false);
            return Found::Took;
        }
        let count = self.workers.len();
        let mut soonest = f64::INFINITY;
        for offset in 1..count {
            let victim = (worker + offset) % count;
            let Some(front) = self.workers[victim].queue.front().copied() else {
                continue;
            };
            if front.available_at <= time {
                self.workers[victim].queue.pop_front();
                self.steals += 1;
                self.start_task(worker, front.work, time, true);
                return Found::Took;
            }
            soonest = soonest.min(front.available_at);
        }
        if soonest.is_finite() {
            Found::WaitUntil(soonest)
        } else {
            Found::Nothing
        }
    }

    fn start_task(&mut self, worker: usize, work: Work, time: f64, stolen: bool) {
        self.set_working(worker, true);
        self.tasks += 1;
        let depth = match work {
            Work::Node(node) => self.tree().nodes[node].depth,
            Work::Chunk { depth, .. } => depth,
        };
        let steal = if stolen { self.costs.steal_ns } else { 0.0 };
        let overhead = (steal + self.costs.task_start_ns(u64::from(depth.saturating_sub(1)))) * self.pace(worker);
        let state = &mut self.workers[worker];
        state.levels.clear();
        match work {
            Work::Node(node) => state.entering = Some(node),
            Work::Chunk { nodes, depth } => {
                state.chunk = nodes;
                state.chunk_depth = depth;
            }
        }
        state.busy_ns += overhead;
        self.at(worker, time + overhead);
    }

    fn schedule(&self) -> Schedule {
        let makespan = self.workers.iter().map(|worker| worker.out_of_work_at).fold(0.0, f64::max);
        let first_out = self.workers.iter().map(|worker| worker.out_of_work_at).fold(f64::INFINITY, f64::min);
        let busy = self.workers.iter().map(|worker| worker.busy_ns).sum();
        Schedule::of_workers(makespan, busy, first_out, self.workers.len(), self.tasks, self.steals)
    }
}
