//! The reruns of `explain`: which configurations to run beside the explained one, running
//! them in rounds, and turning the median runs into [`Measurements`].

use super::decompose::{CounterComparison, IdleTiming, Measurements, RunMeasure, StateComparison};
use crate::instance::Instance;
use crate::solve::{self, RunError, RunReport, RunSettings, SearchMode};

/// Which measurement a configuration provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The sequential baseline (same state mode as the explained run).
    Sequential,
    /// The explained strategy at one thread.
    OneThread,
    /// The explained run itself.
    Explained,
    /// The explained run with another counter layout.
    Counters,
    /// The sequential run with the other state mode.
    SequentialOtherState,
    /// The explained run with the other state mode.
    OtherState,
    /// The explained strategy at as many threads as CPUs.
    AtAvailableCpus,
}

/// One configuration and its repeated runs.
#[derive(Debug, Clone)]
pub struct ConfigRuns {
    /// What it is for.
    pub role: Role,
    /// A short description (`steal at 2 threads, counters shared`).
    pub label: String,
    /// Its settings.
    pub settings: RunSettings,
    /// Its runs, in the order they ran.
    pub reports: Vec<RunReport>,
}

impl ConfigRuns {
    /// The run with the median wall time (the lower middle for an even count).
    pub fn median_run(&self) -> &RunReport {
        let mut order: Vec<&RunReport> = self.reports.iter().collect();
        order.sort_by_key(|report| report.elapsed_ns);
        order[(order.len() - 1) / 2]
    }

    /// The median node count over the runs (they differ between parallel first-solution runs).
    pub fn median_nodes(&self) -> u64 {
        let mut nodes: Vec<u64> = self.reports.iter().map(|report| report.nodes).collect();
        nodes.sort_unstable();
        nodes[(nodes.len() - 1) / 2]
    }

    /// The fastest and slowest wall times.
    pub fn wall_range_ns(&self) -> (u64, u64) {
        let walls = self.reports.iter().map(|report| report.elapsed_ns);
        (walls.clone().min().unwrap_or(0), walls.max().unwrap_or(0))
    }

    fn measure(&self) -> RunMeasure {
        let median = self.median_run();
        RunMeasure {
            wall_ns: median.elapsed_ns as f64,
            cpu_ns: (median.parallel.user_cpu_ns + median.parallel.system_cpu_ns) as f64,
            nodes: self.median_nodes(),
            idle_share: median.parallel.idle_share,
        }
    }
}

/// What to explain.
#[derive(Debug, Clone)]
pub struct ExplainPlan {
    /// The explained run's settings (strategy, threads, counters, state, knobs, mode).
    pub run: RunSettings,
    /// Timed runs per configuration.
    pub repeats: usize,
    /// CPUs available to the process.
    pub available_cpus: usize,
}

/// Every configuration `plan` needs, with no runs yet: the explained run first.
pub fn configurations(plan: &ExplainPlan) -> Vec<ConfigRuns> {
    let run = RunSettings { rule_counts: false, solutions_to_keep: 1, ..plan.run.clone() };
    let strategy = run.strategy.clone();
    let threads = run.threads;
    let config = |role, label: String, settings: RunSettings| ConfigRuns { role, label, settings, reports: Vec::new() };
    let at = |threads: usize| RunSettings { threads, ..run.clone() };
    let mut configs = vec![
        config(Role::Explained, format!("{strategy} at {threads} threads"), run.clone()),
        config(
            Role::Sequential,
            "sequential".to_string(),
            RunSettings { strategy: "sequential".to_string(), threads: 1, ..run.clone() },
        ),
        config(Role::OneThread, format!("{strategy} at 1 thread"), at(1)),
    ];
    for layout in ["padded", "shared", "unpadded"].into_iter().filter(|layout| *layout != run.counters) {
        configs.push(config(
            Role::Counters,
            format!("{strategy} at {threads} threads, counters {layout}"),
            RunSettings { counters: layout.to_string(), ..run.clone() },
        ));
    }
    let other_state = if run.state == "clone" { "undo" } else { "clone" };
    configs.push(config(
        Role::SequentialOtherState,
        format!("sequential, state {other_state}"),
        RunSettings { strategy: "sequential".to_string(), threads: 1, state: other_state.to_string(), ..run.clone() },
    ));
    configs.push(config(
        Role::OtherState,
        format!("{strategy} at {threads} threads, state {other_state}"),
        RunSettings { state: other_state.to_string(), ..run.clone() },
    ));
    if threads > plan.available_cpus {
        configs.push(config(
            Role::AtAvailableCpus,
            format!("{strategy} at {} threads (the CPUs)", plan.available_cpus),
            at(plan.available_cpus),
        ));
    }
    configs
}

/// Runs every configuration `repeats` times, in rounds (each round runs every
/// configuration once) so that a machine growing busier or quieter touches all of them
/// alike. `progress` is told each configuration before it runs.
pub fn run_all(
    instance: &Instance,
    configs: &mut [ConfigRuns],
    repeats: usize,
    mut progress: impl FnMut(usize, &ConfigRuns),
) -> Result<(), RunError> {
    // One untimed run first: page faults, lazy statics and a cold cache go there.
    solve::run(instance, &configs[0].settings)?;
    for round in 0..repeats.max(1) {
        for config in configs.iter_mut() {
            progress(round, config);
            let report = solve::run(instance, &config.settings)?;
            config.reports.push(report);
        }
    }
    Ok(())
}

/// The measurements of runs that [`run_all`] filled.
pub fn measurements(plan: &ExplainPlan, configs: &[ConfigRuns]) -> Measurements {
    let find = |role| configs.iter().find(|config| config.role == role && !config.reports.is_empty());
    let explained = find(Role::Explained).expect("the explained configuration is always run");
    let median = explained.median_run();
    let threads = median.threads.max(1);
    let wall = median.elapsed_ns as f64;
    let worker_time = wall * threads as f64;
    let share = |ns: u64| if worker_time > 0.0 { ns as f64 / worker_time } else { 0.0 };
    let idle_timing = IdleTiming {
        before_first_task_share: share(median.workers.iter().map(|worker| worker.before_first_task_ns).sum()),
        after_last_task_share: share(median.workers.iter().map(|worker| worker.after_last_task_ns).sum()),
        tail_ns: median.workers.iter().map(|worker| worker.after_last_task_ns).max().unwrap_or(0) as f64,
    };
    let wall_of = |config: &ConfigRuns| config.median_run().elapsed_ns as f64;
    let counters_run = |layout: &str| {
        if layout == median.counters {
            return Some(wall);
        }
        configs
            .iter()
            .find(|config| config.role == Role::Counters && config.settings.counters == layout)
            .filter(|config| !config.reports.is_empty())
            .map(wall_of)
    };
    let counters = counters_run("padded").map(|padded_ns| CounterComparison {
        used: median.counters.clone(),
        padded_ns,
        shared_ns: counters_run("shared"),
        unpadded_ns: counters_run("unpadded"),
    });
    let sequential = find(Role::Sequential).expect("the sequential configuration is always run");
    let one_thread = find(Role::OneThread).expect("the one-thread configuration is always run");
    let state = match (find(Role::SequentialOtherState), find(Role::OtherState)) {
        (Some(sequential_other), Some(parallel_other)) => {
            let used_clone = median.state == "clone";
            let (sequential_same, parallel_same) = (wall_of(sequential), wall);
            let (sequential_other, parallel_other) = (wall_of(sequential_other), wall_of(parallel_other));
            Some(if used_clone {
                StateComparison {
                    used_clone,
                    sequential_undo_ns: sequential_other,
                    sequential_clone_ns: sequential_same,
                    parallel_undo_ns: parallel_other,
                    parallel_clone_ns: parallel_same,
                }
            } else {
                StateComparison {
                    used_clone,
                    sequential_undo_ns: sequential_same,
                    sequential_clone_ns: sequential_other,
                    parallel_undo_ns: parallel_same,
                    parallel_clone_ns: parallel_other,
                }
            })
        }
        _ => None,
    };
    let strategy_kind = median.strategy.split(':').next().unwrap_or_default();
    Measurements {
        threads,
        available_cpus: plan.available_cpus,
        exhaustive: plan.run.mode == SearchMode::All,
        splits_on_demand: matches!(strategy_kind, "steal" | "budget"),
        sequential: sequential.measure(),
        one_thread: one_thread.measure(),
        parallel: explained.measure(),
        idle_timing: Some(idle_timing),
        imbalance: median.parallel.imbalance,
        task_ns_median: Some(median.parallel.task_ns_median as f64),
        subproblems_per_worker: Some(median.parallel.subproblems as f64 / threads as f64),
        steals: median.parallel.steals,
        at_available_cpus_ns: find(Role::AtAvailableCpus).map(wall_of),
        counters,
        state,
    }
}
