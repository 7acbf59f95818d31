//! What a parallel run records besides its counts: per worker (tasks, busy and idle time,
//! histograms of task durations and sizes) and per run (subproblems, steals, imbalance,
//! wall and CPU time).
//!
//! Workers fill their own [`WorkerReport`] without sharing anything; the run merges them
//! once, after every worker has stopped.

use super::strategy::Strategy;
use super::task_samples::TaskSamples;
use std::time::{Duration, Instant};

/// One worker's share of a run.
#[derive(Debug, Clone)]
pub struct WorkerReport {
    /// The worker's index in the pool (0 for a sequential run).
    pub worker: usize,
    /// Nodes this worker entered.
    pub nodes: u64,
    /// Tasks it ran (subproblems; batches of leaves for `naive`).
    pub tasks_run: u64,
    /// Subproblems it split off its own open branches (`steal`, `budget`).
    pub tasks_split_off: u64,
    /// Tasks it took from another worker's queue.
    pub tasks_stolen: u64,
    /// Tasks other workers took from its queue.
    pub tasks_given_away: u64,
    /// Time spent running tasks.
    pub busy: Duration,
    /// Time in the run not spent running tasks: waiting for the frontier, looking for
    /// work, waiting on locks, waiting for the others to finish.
    pub idle: Duration,
    /// Duration of each task, in nanoseconds.
    pub task_durations_ns: TaskSamples,
    /// Size of each task, in nodes.
    pub task_sizes_nodes: TaskSamples,
    /// Nodes at which this worker found the run already stopped (entered, not expanded).
    pub nodes_after_stop: u64,
    /// Time from the start of the run to this worker's first task (the whole run when it
    /// got none): the frontier listing, the pool waking up. Part of `idle`.
    pub before_first_task: Duration,
    /// Time from the end of this worker's last task to the end of the run, while others
    /// were still busy: the tail. Part of `idle`.
    pub after_last_task: Duration,
}

impl WorkerReport {
    /// An empty report for worker `worker`.
    pub fn new(worker: usize) -> WorkerReport {
        WorkerReport {
            worker,
            nodes: 0,
            tasks_run: 0,
            tasks_split_off: 0,
            tasks_stolen: 0,
            tasks_given_away: 0,
            busy: Duration::ZERO,
            idle: Duration::ZERO,
            task_durations_ns: TaskSamples::new(),
            task_sizes_nodes: TaskSamples::new(),
            nodes_after_stop: 0,
            before_first_task: Duration::ZERO,
            after_last_task: Duration::ZERO,
        }
    }

    /// Records one finished task of `nodes` nodes that took `duration`.
    pub(crate) fn record_task(&mut self, duration: Duration, nodes: u64) {
        self.tasks_run += 1;
        self.busy += duration;
        self.task_durations_ns.record(u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX));
        self.task_sizes_nodes.record(nodes);
    }
}

/// Numbers that describe a whole run rather than one worker.
#[derive(Debug, Clone)]
pub struct RunAccounting {
    /// The strategy as run.
    pub strategy: Strategy,
    /// Threads in the pool (1 for `sequential`).
    pub threads: usize,
    /// The depth of the frontier the subproblems were cut at (`depth`, `auto`, `naive`).
    pub frontier_depth: Option<usize>,
    /// Nodes counted while listing the frontier (the nodes above it); part of the total.
    pub frontier_nodes: u64,
    /// Nodes spent by `auto` on trial frontiers it did not use; not part of the total.
    pub probe_nodes: u64,
    /// Subproblems made: the frontier, or the root plus every split.
    pub subproblems: u64,
    /// Tasks taken from another worker's queue.
    pub steals: u64,
    /// Busy time of the busiest worker over the mean busy time (1.0: perfectly even).
    pub imbalance: f64,
    /// When the run's clock started: a run of several components measures its own wall
    /// time from the first one's start to the last one's end (`started + wall`).
    pub started: Instant,
    /// Wall-clock time of the run (the pool was built before it started).
    pub wall: Duration,
    /// User and system CPU time of the process during the run.
    pub cpu: CpuTimes,
    /// The node total read back from the counter layout after the run (0 for
    /// `sequential`, which has none); equal to the workers' nodes when nothing stopped early.
    pub published_nodes: u64,
    /// Time from the first stop (a first solution, the node limit) to every worker stopped.
    pub stop_latency: Option<Duration>,
    /// Nodes entered by workers after the run was stopped, summed over workers.
    pub nodes_after_stop: u64,
}

impl RunAccounting {
    /// Busy time of the busiest worker over the mean; 1.0 when nobody was busy.
    pub fn imbalance_of(workers: &[WorkerReport]) -> f64 {
        let busiest = workers.iter().map(|worker| worker.busy).max().unwrap_or(Duration::ZERO);
        let total: Duration = workers.iter().map(|worker| worker.busy).sum();
        if total.is_zero() {
            return 1.0;
        }
        busiest.as_secs_f64() * workers.len() as f64 / total.as_secs_f64()
    }
}

/// User and system CPU time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTimes {
    /// Time spent running the process's own code.
    pub user: Duration,
    /// Time the kernel spent on the process's behalf.
    pub system: Duration,
}

impl CpuTimes {
    /// The CPU time the whole process (every thread) has used so far; zero if the system
    /// refuses to say.
    pub fn of_process() -> CpuTimes {
        // SAFETY: `rusage` is plain old data for which all-zero bytes are a valid value, and
        // `getrusage` only writes into the struct we pass it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: RUSAGE_SELF is a valid target and `usage` is a valid, writable rusage.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return CpuTimes::default();
        }
        CpuTimes { user: duration_of(usage.ru_utime), system: duration_of(usage.ru_stime) }
    }

    /// The CPU time used between `earlier` and `self`.
    pub fn since(self, earlier: CpuTimes) -> CpuTimes {
        CpuTimes { user: self.user.saturating_sub(earlier.user), system: self.system.saturating_sub(earlier.system) }
    }
}

fn duration_of(time: libc::timeval) -> Duration {
    let seconds = u64::try_from(time.tv_sec).unwrap_or(0);
    let micros = u64::try_from(time.tv_usec).unwrap_or(0);
    Duration::from_secs(seconds) + Duration::from_micros(micros)
}

/// The wall clock and CPU clock of one run, started after the pool was built.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunClock {
    pub(crate) start: Instant,
    cpu_at_start: CpuTimes,
}

impl RunClock {
    pub(crate) fn start() -> RunClock {
        let cpu_at_start = CpuTimes::of_process();
        RunClock { start: Instant::now(), cpu_at_start }
    }

    /// Wall time and CPU time since the start.
    pub(crate) fn stop(&self) -> (Instant, Duration, CpuTimes) {
        let now = Instant::now();
        (now, now - self.start, CpuTimes::of_process().since(self.cpu_at_start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imbalance_is_the_busiest_over_the_mean() {
        let mut workers = vec![WorkerReport::new(0), WorkerReport::new(1)];
        assert_eq!(RunAccounting::imbalance_of(&workers), 1.0);
        workers[0].busy = Duration::from_millis(300);
        workers[1].busy = Duration::from_millis(100);
        assert!((RunAccounting::imbalance_of(&workers) - 1.5).abs() < 1e-9);
    }

    #[test]
    fn process_cpu_time_grows_with_work() {
        let before = CpuTimes::of_process();
        let mut x = 0u64;
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let used = CpuTimes::of_process().since(before);
        assert!(used.user + used.system > Duration::ZERO, "{used:?}");
    }

    #[test]
    fn recorded_tasks_fill_both_samples() {
        let mut report = WorkerReport::new(3);
        report.record_task(Duration::from_micros(5), 40);
        report.record_task(Duration::from_micros(15), 0);
        assert_eq!(report.tasks_run, 2);
        assert_eq!(report.busy, Duration::from_micros(20));
        assert_eq!(report.task_sizes_nodes.len(), 2);
        assert_eq!(report.task_sizes_nodes.value_at_quantile(1.0), 40);
        assert_eq!(report.task_durations_ns.len(), 2);
        assert_eq!(report.task_durations_ns.value_at_quantile(1.0), 15_000);
        assert_eq!(report.task_durations_ns.value_at_quantile(0.5), 5_000);
    }
}
