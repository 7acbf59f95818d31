//! A deterministic replay of a parallel search on P virtual workers, from measured task
//! sizes and per-operation costs: the makespan, the idle share and the tail it predicts.
//!
//! What it assumes, strategy by strategy:
//!
//! - Listed tasks (`depth:D`, `auto`): the frontier is listed first, on one thread. Then one
//!   worker spawns every task into its own deque in listing order (rayon's `scope` pushes a
//!   spawned job onto the spawning worker's deque); the others steal the oldest task as soon
//!   as it is there, and the spawner, once it has spawned them all, pops the newest. A worker
//!   that finishes a task takes the next one the same way (its own deque newest first, else
//!   the oldest of another's). With one deque holding every task this is greedy list
//!   scheduling from both ends of the listing.
//! - Stealing (`steal`): one root task; a hungry worker makes every busy worker whose queue
//!   is empty give away, at its next node, every untried branch of its shallowest open level
//!   (stack splitting over the recorded subtree sizes); thieves take the oldest task, owners
//!   pop the newest. Below the recorded depth a subtree is only a size: a busy worker with
//!   nothing open above it gives away half of what is left of it (recursive halving).
//! - Listing leaves (`naive`): see [`simulate_naive`].
//!
//! Every node costs the same (per component), times the slowdown of that many CPUs busy at
//! once; a task costs its bookkeeping and the replay of its path; a steal, a split and a
//! spawn cost what they were measured to. With `cores` given, worker i runs on CPU
//! i mod cores and busy workers on one CPU share it equally (idle workers use none); without,
//! every worker has a CPU of its own. A unit of work (a node, or a slice of at most
//! [`Workload::slice_nodes`] nodes of an unrecorded subtree) is timed when it starts.

use super::costs::Costs;
use super::work_span::SubtreeTree;
use serde::Serialize;
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

/// The virtual machine: workers, and the CPUs they share (`None`: one CPU each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Machine {
    /// Worker threads.
    pub workers: usize,
    /// CPUs; `None` for as many as workers.
    pub cores: Option<usize>,
}

/// One listed subproblem: its nodes and its depth (its path has `depth - 1` moves to replay).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedTask {
    /// Nodes of its subtree.
    pub nodes: u64,
    /// Depth of its root.
    pub depth: u32,
}

/// What to replay.
#[derive(Debug, Clone, Copy)]
pub enum Workload<'a> {
    /// Tasks listed on one thread (taking `listing_ns`), then spawned into one rayon deque.
    Listed {
        /// Time to list them (and any trial listings), before any task runs.
        listing_ns: f64,
        /// The tasks, in listing order.
        tasks: &'a [ListedTask],
        /// Largest unit of work timed at once.
        slice_nodes: u64,
    },
    /// One root task, split on demand by stack splitting.
    Stealing {
        /// The recorded subtree sizes.
        tree: &'a SubtreeTree,
        /// Largest unit of work timed at once inside an unrecorded subtree.
        slice_nodes: u64,
    },
}

impl Workload<'_> {
    /// A slice size for a tree of `total` nodes: at least 64 nodes, and about 2^18 slices
    /// in all, so that a replay stays cheap on huge trees.
    pub fn slice_nodes(total: u64) -> u64 {
        (total >> 18).max(64)
    }
}

/// What a replay predicts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Schedule {
    /// Wall time from the start to the last worker's end.
    pub makespan_ns: f64,
    /// Worker time spent in tasks (and listing or spawning), summed over workers.
    pub busy_ns: f64,
    /// Share of worker time idle: `1 - busy / (workers * makespan)`.
    pub idle_share: f64,
    /// Wall time at the end with fewer than all workers busy: the makespan less the
    /// earliest time a worker ran out of work for good.
    pub tail_ns: f64,
    /// Tasks run.
    pub tasks: u64,
    /// Tasks taken from another worker's queue.
    pub steals: u64,
}

/// Replays `workload` on `machine` with `costs`.
pub fn simulate(workload: Workload<'_>, machine: Machine, costs: &Costs) -> Schedule {
    let mut sim = Sim::new(workload, machine, costs);
    sim.start(workload);
    while let Some(Reverse(event)) = sim.events.pop() {
        sim.handle(event.worker, event.time);
    }
    sim.schedule()
}

/// `naive`: the leaves (`leaves` one-node subproblems at `leaf_depth`) are listed first
/// (`listing_ns`); then every worker takes batches of `batch` leaves through one lock (held
/// for a lock's cost; taken in turn, so it serialises) and pushes each leaf's results through
/// another lock (each leaf pays one lock; that lock's total time bounds the run from below).
pub fn simulate_naive(
    listing_ns: f64,
    leaves: u64,
    leaf_depth: u32,
    batch: u64,
    machine: Machine,
    costs: &Costs,
) -> Schedule {
    let workers = machine.workers.max(1);
    let share = machine.cores.map_or(1.0, |cores| (workers as f64 / cores.max(1) as f64).max(1.0));
    let node_ns = costs.node_ns * costs.slowdown.at(busy_cpus(machine));
    let leaf_ns =
        (node_ns + costs.replay_ns_per_move * f64::from(leaf_depth.saturating_sub(1)) + costs.lock_ns) * share;
    let mut free_at: BinaryHeap<Reverse<Timed>> =
        (0..workers).map(|worker| Reverse(Timed { time: listing_ns, worker })).collect();
    let mut lock_free_at = listing_ns;
    let mut left = leaves;
    let mut busy_ns = listing_ns;
    let mut ends = vec![listing_ns; workers];
    let mut tasks = 0;
    while left > 0 {
        let Reverse(Timed { time, worker }) = free_at.pop().expect("one entry per worker");
        let taken = left.min(batch.max(1));
        left -= taken;
        let acquired = time.max(lock_free_at);
        lock_free_at = acquired + costs.lock_ns;
        let work = costs.task_ns * share + taken as f64 * leaf_ns;
        let end = lock_free_at + work;
        busy_ns += end - acquired;
        ends[worker] = end;
        tasks += 1;
        free_at.push(Reverse(Timed { time: end, worker }));
    }
    let results_lock_bound = listing_ns + leaves as f64 * costs.lock_ns;
    let makespan = ends.iter().copied().fold(results_lock_bound, f64::max);
    let first_out = ends.iter().copied().fold(f64::INFINITY, f64::min);
    finish(makespan, busy_ns, first_out, workers, tasks, 0)
}

fn finish(makespan_ns: f64, busy_ns: f64, first_out: f64, workers: usize, tasks: u64, steals: u64) -> Schedule {
    let capacity = makespan_ns * workers as f64;
    Schedule {
        makespan_ns,
        busy_ns,
        idle_share: if capacity > 0.0 { (1.0 - busy_ns / capacity).max(0.0) } else { 0.0 },
        tail_ns: (makespan_ns - first_out.min(makespan_ns)).max(0.0),
        tasks,
        steals,
    }
}

/// The CPUs busy when every worker is.
fn busy_cpus(machine: Machine) -> usize {
    machine.cores.map_or(machine.workers, |cores| cores.min(machine.workers)).max(1)
}

/// A time with the worker it concerns; ordered by time, then worker, then nothing else.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Timed {
    time: f64,
    worker: usize,
}

impl Eq for Timed {}

impl PartialOrd for Timed {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timed {
    fn cmp(&self, other: &Self) -> Ordering {
        self.time.total_cmp(&other.time).then(self.worker.cmp(&other.worker))
    }
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

#[derive(Debug, Default)]
struct Virtual {
    cpu: usize,
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

enum Found {
    Took,
    WaitUntil(f64),
    Nothing,
}

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
    fn new(workload: Workload<'a>, machine: Machine, costs: &Costs) -> Sim<'a> {
        let workers = machine.workers.max(1);
        let cores = machine.cores.unwrap_or(workers).max(1);
        let (tree, slice, splitting) = match workload {
            Workload::Listed { slice_nodes, .. } => (None, slice_nodes, false),
            Workload::Stealing { tree, slice_nodes } => (Some(tree), slice_nodes, true),
        };
        Sim {
            tree,
            costs: *costs,
            node_ns: costs.node_ns * costs.slowdown.at(busy_cpus(machine)),
            slice: slice.max(1),
            splitting,
            sharing: machine.cores.is_some_and(|cores| cores < workers),
            workers: (0..workers).map(|index| Virtual { cpu: index % cores, ..Virtual::default() }).collect(),
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
                let spawn_ns = self.costs.spawn_ns;
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

    fn share(&self, worker: usize) -> f64 {
        if self.sharing {
            self.busy_on_cpu[self.workers[worker].cpu].max(1) as f64
        } else {
            1.0
        }
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
                let cost = given as f64 * self.costs.split_ns * self.share(worker);
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
        let duration = unit_nodes as f64 * self.node_ns * self.share(worker);
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
        let overhead = (steal + self.costs.task_start_ns(u64::from(depth.saturating_sub(1)))) * self.share(worker);
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
        finish(makespan, busy, first_out, self.workers.len(), self.tasks, self.steals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::work_span::tests::tree_from_preorder;

    fn listed(tasks: &[u64], workers: usize) -> Schedule {
        let tasks: Vec<ListedTask> = tasks.iter().map(|&nodes| ListedTask { nodes, depth: 1 }).collect();
        let workload = Workload::Listed { listing_ns: 0.0, tasks: &tasks, slice_nodes: 64 };
        simulate(workload, Machine { workers, cores: None }, &Costs::nodes_only())
    }

    #[test]
    fn equal_tasks_take_their_count_over_the_workers_rounded_up() {
        assert_eq!(listed(&[100; 8], 4).makespan_ns, 200.0);
        assert_eq!(listed(&[100; 9], 4).makespan_ns, 300.0);
        assert_eq!(listed(&[100; 8], 8).makespan_ns, 100.0);
        assert_eq!(listed(&[100; 8], 1).makespan_ns, 800.0);
        assert_eq!(listed(&[100; 8], 4).idle_share, 0.0);
    }

    #[test]
    fn one_giant_task_is_the_makespan_whatever_the_workers() {
        let mut tasks = vec![1000];
        tasks.extend([10; 50]);
        for workers in [2, 4, 16, 256] {
            assert_eq!(listed(&tasks, workers).makespan_ns, 1000.0, "{workers} workers");
        }
        assert_eq!(listed(&tasks, 1).makespan_ns, 1500.0);
    }

    #[test]
    fn a_chain_cannot_be_split_so_stealing_gains_nothing() {
        // A path of 50 nodes: every node has one child, so nothing is ever open to give.
        let depths: Vec<usize> = (0..50).collect();
        let tree = tree_from_preorder(&depths, 49);
        for workers in [1, 2, 8] {
            let workload = Workload::Stealing { tree: &tree, slice_nodes: 64 };
            let schedule = simulate(workload, Machine { workers, cores: None }, &Costs::nodes_only());
            assert_eq!(schedule.makespan_ns, 50.0, "{workers} workers");
            assert_eq!(schedule.steals, 0);
        }
    }

    #[test]
    fn stealing_splits_a_balanced_tree_evenly() {
        // A root with 4 children of 4 leaf children each: 21 nodes. Two workers: the owner
        // enters child 1 and gives children 2-4 away; the thief runs 2, then the owner's
        // newest is 4 and the thief's next steal is 3.
        let mut depths = vec![0];
        for _ in 0..4 {
            depths.push(1);
            depths.extend([2; 4]);
        }
        let tree = tree_from_preorder(&depths, 2);
        let workload = Workload::Stealing { tree: &tree, slice_nodes: 64 };
        let one = simulate(workload, Machine { workers: 1, cores: None }, &Costs::nodes_only());
        assert_eq!(one.makespan_ns, 21.0);
        let two = simulate(workload, Machine { workers: 2, cores: None }, &Costs::nodes_only());
        assert!(two.makespan_ns <= 12.0, "{two:?}");
        assert!(two.steals >= 1);
    }

    #[test]
    fn oversubscribed_workers_share_their_cpus() {
        let shared = {
            let tasks: Vec<ListedTask> = [100; 4].iter().map(|&nodes| ListedTask { nodes, depth: 1 }).collect();
            let workload = Workload::Listed { listing_ns: 0.0, tasks: &tasks, slice_nodes: 10 };
            simulate(workload, Machine { workers: 4, cores: Some(2) }, &Costs::nodes_only())
        };
        assert_eq!(shared.makespan_ns, 200.0);
    }

    #[test]
    fn naive_serialises_on_its_batch_lock() {
        let costs = Costs { lock_ns: 10.0, ..Costs::nodes_only() };
        let schedule = simulate_naive(0.0, 1000, 1, 1, Machine { workers: 64, cores: None }, &costs);
        // 1000 batches of one leaf through one lock of 10: at least 10,000.
        assert!(schedule.makespan_ns >= 10_000.0, "{schedule:?}");
    }
}
