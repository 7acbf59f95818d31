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
//! every worker has a CPU of its own. Everything a worker does (nodes, listing, spawns,
//! bookkeeping, replays, steals, splits, lock holds) takes its CPU's time factor times as
//! long ([`Machine::cpu_factors`]; none given: every CPU as fast as the measuring one). A
//! unit of work (a node, or a slice of at most [`Workload::slice_nodes`] nodes of an
//! unrecorded subtree) is timed when it starts.

mod event_replay;
mod model;

pub use model::{ListedTask, Machine, Schedule, Workload};

use super::costs::Costs;
use model::Timed;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Replays `workload` on `machine` with `costs`.
pub fn simulate(workload: Workload<'_>, machine: Machine<'_>, costs: &Costs) -> Schedule {
    event_replay::replay(workload, machine, costs)
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
    machine: Machine<'_>,
    costs: &Costs,
) -> Schedule {
    let workers = machine.workers.max(1);
    let machine = Machine { workers, ..machine };
    let share = machine.cores.map_or(1.0, |cores| (workers as f64 / cores.max(1) as f64).max(1.0));
    let node_ns = costs.steered_node_ns * costs.slowdown.at(machine.busy_cpus());
    let leaf_ns =
        (node_ns + costs.replay_ns_per_move * f64::from(leaf_depth.saturating_sub(1)) + costs.lock_ns) * share;
    // Worker 0 lists, at its CPU's pace; each worker's batches and lock holds at its own.
    let listing_ns = listing_ns * machine.factor_of(0);
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
        let factor = machine.factor_of(worker);
        let acquired = time.max(lock_free_at);
        lock_free_at = acquired + costs.lock_ns * factor;
        let work = (costs.task_ns * share + taken as f64 * leaf_ns) * factor;
        let end = lock_free_at + work;
        busy_ns += end - acquired;
        ends[worker] = end;
        tasks += 1;
        free_at.push(Reverse(Timed { time: end, worker }));
    }
    let results_lock_bound = listing_ns + leaves as f64 * costs.lock_ns;
    let makespan = ends.iter().copied().fold(results_lock_bound, f64::max);
    let first_out = ends.iter().copied().fold(f64::INFINITY, f64::min);
    Schedule::of_workers(makespan, busy_ns, first_out, workers, tasks, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::work_span::tests::tree_from_preorder;

    fn listed(tasks: &[u64], workers: usize) -> Schedule {
        let tasks: Vec<ListedTask> = tasks.iter().map(|&nodes| ListedTask { nodes, depth: 1 }).collect();
        let workload = Workload::Listed { listing_ns: 0.0, tasks: &tasks, slice_nodes: 64 };
        simulate(workload, Machine::uniform(workers, None), &Costs::nodes_only())
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
            let schedule = simulate(workload, Machine::uniform(workers, None), &Costs::nodes_only());
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
        let one = simulate(workload, Machine::uniform(1, None), &Costs::nodes_only());
        assert_eq!(one.makespan_ns, 21.0);
        let two = simulate(workload, Machine::uniform(2, None), &Costs::nodes_only());
        assert!(two.makespan_ns <= 12.0, "{two:?}");
        assert!(two.steals >= 1);
    }

    #[test]
    fn oversubscribed_workers_share_their_cpus() {
        let shared = {
            let tasks: Vec<ListedTask> = [100; 4].iter().map(|&nodes| ListedTask { nodes, depth: 1 }).collect();
            let workload = Workload::Listed { listing_ns: 0.0, tasks: &tasks, slice_nodes: 10 };
            simulate(workload, Machine::uniform(4, Some(2)), &Costs::nodes_only())
        };
        assert_eq!(shared.makespan_ns, 200.0);
    }

    fn listed_on(tasks: &[u64], workers: usize, cpu_factors: &[f64]) -> Schedule {
        let tasks: Vec<ListedTask> = tasks.iter().map(|&nodes| ListedTask { nodes, depth: 1 }).collect();
        let workload = Workload::Listed { listing_ns: 0.0, tasks: &tasks, slice_nodes: 64 };
        simulate(workload, Machine { workers, cores: None, cpu_factors }, &Costs::nodes_only())
    }

    #[test]
    fn a_slower_cpu_stretches_what_its_worker_runs() {
        // Alone on a CPU 1.5 times slower: every node takes 1.5.
        assert_eq!(listed_on(&[100; 4], 1, &[1.5]).makespan_ns, 600.0);
        // Worker 1 (three times slower) takes task 0 and ends at 300; worker 0 runs tasks
        // 3, 2 and 1 in the same 300.
        let uneven = listed_on(&[100; 4], 2, &[1.0, 3.0]);
        assert_eq!(uneven.makespan_ns, 300.0);
        assert_eq!(uneven.busy_ns, 600.0);
        assert_eq!(listed_on(&[100; 4], 2, &[1.0, 1.0]).makespan_ns, 200.0);
    }

    /// Factors of 1.0 replay exactly as no factors: every time is multiplied by 1.0.
    #[test]
    fn cpu_factors_of_one_replay_exactly_as_none() {
        let costs = Costs {
            replay_first_ns: 7.0,
            replay_ns_per_move: 2.5,
            task_ns: 3.0,
            spawn_ns: 1.5,
            steal_ns: 4.0,
            split_ns: 2.0,
            lock_ns: 5.0,
            path_copy_ns: 0.5,
            slowdown: crate::scaling::costs::Slowdown { copies: 4, factor: 1.3 },
            ..Costs::nodes_only()
        };
        let mut depths = vec![0];
        for children in [3, 1, 4, 1, 5] {
            depths.push(1);
            for _ in 0..children {
                depths.extend([2, 3, 3]);
            }
        }
        let tree = tree_from_preorder(&depths, 3);
        let tasks: Vec<ListedTask> = [40, 3, 17, 90, 5].iter().map(|&nodes| ListedTask { nodes, depth: 2 }).collect();
        let ones = [1.0; 3];
        for workers in [1, 2, 3, 5, 8] {
            for cores in [None, Some(2), Some(3)] {
                let uniform = Machine::uniform(workers, cores);
                let with_ones = Machine { cpu_factors: &ones, ..uniform };
                for workload in [
                    Workload::Stealing { tree: &tree, slice_nodes: 2 },
                    Workload::Listed { listing_ns: 11.0, tasks: &tasks, slice_nodes: 8 },
                ] {
                    assert_eq!(simulate(workload, uniform, &costs), simulate(workload, with_ones, &costs));
                }
                assert_eq!(
                    simulate_naive(13.0, 40, 3, 4, uniform, &costs),
                    simulate_naive(13.0, 40, 3, 4, with_ones, &costs)
                );
            }
        }
    }

    #[test]
    fn workers_pay_a_worker_node_and_the_listing_a_sequential_one() {
        // Nodes at 1 sequentially and 2.5 on a worker: a listing of 40 then 4 tasks of 100
        // on one worker take 40 + 4 x 250; naive's 40 leaves after a listing of 13, 13 + 100.
        let costs = Costs { steered_node_ns: 2.5, ..Costs::nodes_only() };
        let tasks: Vec<ListedTask> = [100; 4].iter().map(|&nodes| ListedTask { nodes, depth: 1 }).collect();
        let listing_ns = costs.listing_ns(40, 0);
        let workload = Workload::Listed { listing_ns, tasks: &tasks, slice_nodes: 64 };
        assert_eq!(simulate(workload, Machine::uniform(1, None), &costs).makespan_ns, 1040.0);
        assert_eq!(simulate_naive(13.0, 40, 1, 64, Machine::uniform(1, None), &costs).makespan_ns, 113.0);
    }

    #[test]
    fn naive_serialises_on_its_batch_lock() {
        let costs = Costs { lock_ns: 10.0, ..Costs::nodes_only() };
        let schedule = simulate_naive(0.0, 1000, 1, 1, Machine::uniform(64, None), &costs);
        // 1000 batches of one leaf through one lock of 10: at least 10,000.
        assert!(schedule.makespan_ns >= 10_000.0, "{schedule:?}");
    }
}
