//! The per-component accounting of the parallel layer merged into one run's: the run-level
//! sums and, worker by worker, the totals and task percentiles of [`WorkerTotals`].

use super::report::{ParallelSummary, WorkerTotals};
use crate::parallel::{self, TaskSamples};
use crate::search::StopReason;

/// Nanoseconds of `duration`, saturated at `u64::MAX`.
pub(super) fn nanos(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// Adds one component's run-level accounting to the run's summary.
pub(super) fn summarize_component(
    summary: &mut ParallelSummary,
    run: &parallel::RunAccounting,
    stop: Option<StopReason>,
) {
    summary.subproblems += run.subproblems;
    summary.steals += run.steals;
    summary.user_cpu_ns += nanos(run.cpu.user);
    summary.system_cpu_ns += nanos(run.cpu.system);
    summary.probe_nodes += run.probe_nodes;
    summary.frontier_nodes += run.frontier_nodes;
    summary.nodes_after_first += run.nodes_after_stop;
    if stop == Some(StopReason::FirstSolution) {
        // The stop is raised by the first solution, so the time to it is the wall time
        // less the time the workers took to notice the stop.
        let latency = run.stop_latency.unwrap_or_default();
        summary.first_solution_ns += nanos(run.wall.saturating_sub(latency));
        summary.stop_latency_ns += nanos(latency);
    }
}

#[derive(Default)]
/// Per-worker accounting summed over the components of a run (worker `i` of every
/// component's run adds into report `i`), and the task samples of all workers.
pub(super) struct WorkerMerge {
    /// Worker `i`'s totals.
    pub(super) reports: Vec<WorkerTotals>,
    per_worker_durations: Vec<TaskSamples>,
    per_worker_sizes: Vec<TaskSamples>,
}

impl WorkerMerge {
    pub(super) fn add(&mut self, workers: &[parallel::WorkerReport]) {
        for worker in workers {
            let index = worker.worker;
            while self.reports.len() < index {
                self.reports.push(WorkerTotals { worker: self.reports.len(), ..WorkerTotals::default() });
                self.per_worker_durations.push(TaskSamples::new());
                self.per_worker_sizes.push(TaskSamples::new());
            }
            if self.reports.len() == index {
                // A worker's first samples are copied as they are: adding a histogram into
                // empty samples would resize them and scan every bucket.
                self.reports.push(WorkerTotals { worker: index, ..WorkerTotals::default() });
                self.per_worker_durations.push(worker.task_durations_ns.clone());
                self.per_worker_sizes.push(worker.task_sizes_nodes.clone());
            } else {
                self.per_worker_durations[index].add(&worker.task_durations_ns);
                self.per_worker_sizes[index].add(&worker.task_sizes_nodes);
            }
            let report = &mut self.reports[index];
            report.nodes += worker.nodes;
            report.tasks += worker.tasks_run;
            report.stolen += worker.tasks_stolen;
            report.split_off += worker.tasks_split_off;
            report.given_away += worker.tasks_given_away;
            report.busy_ns += nanos(worker.busy);
            report.idle_ns += nanos(worker.idle);
            report.before_first_task_ns += nanos(worker.before_first_task);
            report.after_last_task_ns += nanos(worker.after_last_task);
        }
    }

    /// Fills the medians of each worker and the run's imbalance, idle share and task
    /// percentiles.
    pub(super) fn finish(&mut self, summary: &mut ParallelSummary) {
        for ((report, durations), sizes) in
            self.reports.iter_mut().zip(&self.per_worker_durations).zip(&self.per_worker_sizes)
        {
            report.task_ns_median = durations.value_at_quantile(0.5);
            report.task_nodes_median = sizes.value_at_quantile(0.5);
        }
        let all_durations = parallel::merged_task_samples(&self.per_worker_durations);
        let all_sizes = parallel::merged_task_samples(&self.per_worker_sizes);
        summary.task_ns_median = all_durations.value_at_quantile(0.5);
        summary.task_ns_p90 = all_durations.value_at_quantile(0.9);
        summary.task_nodes_median = all_sizes.value_at_quantile(0.5);
        let busy: u64 = self.reports.iter().map(|report| report.busy_ns).sum();
        let idle: u64 = self.reports.iter().map(|report| report.idle_ns).sum();
        let busiest = self.reports.iter().map(|report| report.busy_ns).max().unwrap_or(0);
        summary.imbalance = if busy == 0 { 1.0 } else { busiest as f64 * self.reports.len() as f64 / busy as f64 };
        summary.idle_share = if busy + idle == 0 { 0.0 } else { idle as f64 / (busy + idle) as f64 };
    }
}
