//! The reruns of `explain`: which configurations to run beside the explained one, running
//! them in rounds until the stopping rule is met, and turning (a resample of) their runs
//! into [`Measurements`] of medians.

use super::measurements::{CounterComparison, IdleSplit, Measurements, RunMeasure, StateComparison, StrategyKind};
use super::ranks::MIN_ROUNDS_TO_RANK;
use crate::machine_guard::{MachineGuard, OTHER_CPU_LIMIT};
use crate::parallel::{CounterLayout, StateRestore, Strategy, DEFAULT_SUBPROBLEMS_PER_THREAD};
use crate::run::instance::Instance;
use crate::run::{self, RunError, RunReport, RunSettings, SearchMode};
use crate::statistics::{median, StoppingRule, StoppingState};
use serde::Serialize;
use std::time::{Duration, Instant};

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
    /// A good strategy at the same threads, shown beside a deliberately bad one (`naive`).
    Alternative,
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
    /// The wall times of its runs.
    pub fn walls(&self) -> Vec<f64> {
        self.reports.iter().map(|report| report.elapsed_ns as f64).collect()
    }

    /// The run with the median wall time (the lower middle for an even count): the run
    /// whose per-worker table the report shows.
    pub fn median_run(&self) -> &RunReport {
        let mut order: Vec<&RunReport> = self.reports.iter().collect();
        order.sort_by_key(|report| report.elapsed_ns);
        order[(order.len() - 1) / 2]
    }

    /// The median of `quantity` over the runs whose indices `pick` holds (as `f64`, the
    /// form the bootstrap resamples).
    fn median_of(&self, pick: &[f64], quantity: impl Fn(&RunReport) -> f64) -> f64 {
        let values: Vec<f64> = pick.iter().map(|&index| quantity(&self.reports[index as usize])).collect();
        median(&values)
    }

    /// The medians of a run's quantities over the runs in `pick`.
    fn measure(&self, pick: &[f64]) -> RunMeasure {
        let wall_ns = self.median_of(pick, |report| report.elapsed_ns as f64);
        let cpu_ns = self.median_of(pick, cpu_ns);
        let nodes = self.median_of(pick, |report| report.nodes as f64);
        if self.settings.strategy == Strategy::Sequential {
            return RunMeasure::sequential(wall_ns, cpu_ns, nodes);
        }
        RunMeasure {
            wall_ns,
            cpu_ns,
            nodes,
            task_nodes: self
                .median_of(pick, |report| report.workers.iter().map(|worker| worker.nodes).sum::<u64>() as f64),
            busy_ns: self
                .median_of(pick, |report| report.workers.iter().map(|worker| worker.busy_ns).sum::<u64>() as f64),
        }
    }
}

fn cpu_ns(report: &RunReport) -> f64 {
    (report.parallel.user_cpu_ns + report.parallel.system_cpu_ns) as f64
}

/// Tasks per worker, one definition everywhere: the units of work the workers took (a
/// subproblem, a stolen branch, a batch of leaves for `naive`) over the workers.
pub fn tasks_per_worker(report: &RunReport) -> f64 {
    report.workers.iter().map(|worker| worker.tasks).sum::<u64>() as f64 / report.threads.max(1) as f64
}

/// What to explain.
#[derive(Debug, Clone)]
pub struct ExplainPlan {
    /// The explained run's settings (strategy, threads, counters, state, knobs, mode).
    pub run: RunSettings,
    /// When to stop repeating.
    pub stopping: StoppingRule,
    /// CPUs available to the process.
    pub available_cpus: usize,
}

/// The good strategy measured beside `naive`.
pub const ALTERNATIVE_STRATEGY: Strategy = Strategy::Auto { per_thread: DEFAULT_SUBPROBLEMS_PER_THREAD };

/// Every configuration `plan` needs, with no runs yet: the explained run first.
pub fn configurations(plan: &ExplainPlan) -> Vec<ConfigRuns> {
    let run = RunSettings { rule_counts: false, solutions_to_keep: 1, ..plan.run.clone() };
    let strategy = run.strategy;
    let threads = run.threads;
    let config = |role, label: String, settings: RunSettings| ConfigRuns { role, label, settings, reports: Vec::new() };
    let at = |threads: usize| RunSettings { threads, ..run.clone() };
    let mut configs = vec![
        config(Role::Explained, format!("{strategy} at {threads} threads"), run.clone()),
        config(
            Role::Sequential,
            "sequential".to_string(),
            RunSettings { strategy: Strategy::Sequential, threads: 1, ..run.clone() },
        ),
        config(Role::OneThread, format!("{strategy} at 1 thread"), at(1)),
    ];
    if StrategyKind::of(&strategy.to_string()) == StrategyKind::Naive {
        configs.push(config(
            Role::Alternative,
            format!("{ALTERNATIVE_STRATEGY} at {threads} threads"),
            RunSettings { strategy: ALTERNATIVE_STRATEGY, ..run.clone() },
        ));
    }
    for layout in [CounterLayout::Padded, CounterLayout::Shared, CounterLayout::Unpadded]
        .into_iter()
        .filter(|layout| *layout != run.counters)
    {
        configs.push(config(
            Role::Counters,
            format!("{strategy} at {threads} threads, counters {layout}"),
            RunSettings { counters: layout, ..run.clone() },
        ));
    }
    let other_state = if run.state == StateRestore::Clone { StateRestore::Undo } else { StateRestore::Clone };
    configs.push(config(
        Role::SequentialOtherState,
        format!("sequential, state {other_state}"),
        RunSettings { strategy: Strategy::Sequential, threads: 1, state: other_state, ..run.clone() },
    ));
    configs.push(config(
        Role::OtherState,
        format!("{strategy} at {threads} threads, state {other_state}"),
        RunSettings { state: other_state, ..run.clone() },
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

/// What other processes did to the CPUs while `explain` measured: a verdict taken on a
/// busy machine ranks nothing (see [`MachineDuringRuns::busy`]).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct MachineDuringRuns {
    /// Rounds measured.
    pub rounds: usize,
    /// Rounds during which other processes used more than [`OTHER_CPU_LIMIT`] of the CPUs
    /// this process may run on (each judged over at least the guard's one-second window).
    pub busy_rounds: usize,
    /// Other processes' share of those CPUs over all the rounds; `None` where `/proc`
    /// could not be read, or the rounds took under a second (too few ticks to judge).
    pub other_cpu_share: Option<f64>,
}

impl MachineDuringRuns {
    /// Whether the machine was too busy for the ranks to mean anything: other processes
    /// took more than [`OTHER_CPU_LIMIT`] of the CPUs over the whole measurement, or in
    /// more than a quarter of its rounds. Either way the runs' scatter is not the
    /// search's own, and causes that move with the load (waiting, per-node cost) trade
    /// places from one batch of runs to the next.
    pub fn busy(&self) -> bool {
        self.other_cpu_share.is_some_and(|share| share > OTHER_CPU_LIMIT) || self.busy_rounds * 4 > self.rounds
    }
}

/// How the measurement rounds ended and what the machine did meanwhile.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// Why the rounds stopped.
    pub stopping: StoppingState,
    /// Other processes' use of the CPUs during the rounds.
    pub machine: MachineDuringRuns,
}

/// Runs every configuration in rounds (each round runs every configuration once, so that
/// a machine growing busier or quieter touches all of them alike) until the stopping rule
/// says the explained run's median is precise enough, or its budget or count is spent.
/// `progress` is told each round before it runs; `warn` receives a line when other
/// processes start using the CPUs. Returns why it stopped and how busy the machine was.
pub fn run_all(
    instance: &Instance,
    configs: &mut [ConfigRuns],
    stopping: &StoppingRule,
    mut progress: impl FnMut(usize),
    warn: impl Fn(&str) + Send + 'static,
) -> Result<Measured, RunError> {
    // One untimed run first: page faults, lazy statics and a cold cache go there.
    run::solve(instance, &configs[0].settings)?;
    let guard = MachineGuard::start(warn);
    let whole = guard.mark();
    let mut machine = MachineDuringRuns::default();
    let started = Instant::now();
    let mut round = 0;
    loop {
        let state = stopping.state(&configs[0].walls(), started.elapsed());
        if state != StoppingState::Continue {
            machine.rounds = round;
            // Unjudged (all the rounds within the guard's first second): no share to trust.
            machine.other_cpu_share = guard
                .snapshot_since(&whole)
                .filter(|snapshot| snapshot.judged)
                .map(|snapshot| snapshot.other_cpu_share);
            return Ok(Measured { stopping: state, machine });
        }
        progress(round);
        let mark = guard.mark();
        for config in configs.iter_mut() {
            let report = run::solve(instance, &config.settings)?;
            config.reports.push(report);
        }
        if guard.snapshot_since(&mark).is_some_and(|snapshot| !snapshot.quiet) {
            machine.busy_rounds += 1;
        }
        round += 1;
    }
}

/// What the stopping rule's answer means, for the report.
pub fn stopping_text(state: StoppingState, rule: &StoppingRule, rounds: usize) -> String {
    let target = format!("±{:.0}%", rule.target_relative_width * 50.0);
    match state {
        StoppingState::Precise => {
            format!("{rounds} rounds: the median time of the explained run was known within {target}")
        }
        StoppingState::Budget => format!(
            "{rounds} rounds: the time budget ({} s) ran out before the median was known within {target}",
            rule.time_budget.map_or(0, |budget| budget.as_secs())
        ),
        StoppingState::MaxRuns if rule.min_runs == rule.max_runs => format!("{rounds} rounds (--repeats)"),
        StoppingState::MaxRuns => format!("{rounds} rounds: the most allowed"),
        StoppingState::Continue => format!("{rounds} rounds"),
    }
}

/// The adaptive rule of `explain`: at least [`MIN_ROUNDS_TO_RANK`] rounds (6: fewer rank
/// nothing, so an adaptive run that stopped earlier could not name a cause), then until the
/// explained run's median is within ±3% (95% interval) or 20 s of runs, at most 50 rounds.
pub fn adaptive_rule() -> StoppingRule {
    StoppingRule {
        min_runs: MIN_ROUNDS_TO_RANK as u32,
        max_runs: 50,
        target_relative_width: 0.06,
        time_budget: Some(Duration::from_secs(20)),
    }
}

/// Every run of every configuration, as the index lists [`measurements`] takes.
pub fn all_runs(configs: &[ConfigRuns]) -> Vec<Vec<f64>> {
    configs.iter().map(|config| (0..config.reports.len()).map(|index| index as f64).collect()).collect()
}

/// The measurements from the runs that `pick[i]` selects of `configs[i]` (indices as
/// `f64`; a bootstrap resample or [`all_runs`]): medians of each quantity.
pub fn measurements(plan: &ExplainPlan, configs: &[ConfigRuns], pick: &[&[f64]]) -> Measurements {
    let find = |role| configs.iter().zip(pick).find(|(config, runs)| config.role == role && !runs.is_empty());
    let (explained, explained_runs) = find(Role::Explained).expect("the explained configuration is always run");
    let wall_of = |(config, runs): (&ConfigRuns, &&[f64])| config.median_of(runs, |report| report.elapsed_ns as f64);
    let settings = &explained.settings;
    let threads = settings.threads.max(1);
    let of_explained = |quantity: &dyn Fn(&RunReport) -> f64| explained.median_of(explained_runs, quantity);
    let idle_sum = |part: fn(&crate::run::WorkerTotals) -> u64| {
        move |report: &RunReport| report.workers.iter().map(part).sum::<u64>() as f64
    };
    let before = of_explained(&idle_sum(|worker| worker.before_first_task_ns));
    let after = of_explained(&idle_sum(|worker| worker.after_last_task_ns));
    let between = of_explained(&|report: &RunReport| {
        report
            .workers
            .iter()
            .map(|worker| worker.idle_ns.saturating_sub(worker.before_first_task_ns + worker.after_last_task_ns))
            .sum::<u64>() as f64
    });
    let counters_wall = |layout: CounterLayout| {
        configs
            .iter()
            .zip(pick)
            .find(|(config, runs)| {
                config.role == Role::Counters && config.settings.counters == layout && !runs.is_empty()
            })
            .map(wall_of)
    };
    let explained_wall = of_explained(&|report: &RunReport| report.elapsed_ns as f64);
    let layout_wall = |layout: CounterLayout| {
        if layout == settings.counters {
            Some(explained_wall)
        } else {
            counters_wall(layout)
        }
    };
    let sequential = find(Role::Sequential).expect("the sequential configuration is always run");
    let one_thread = find(Role::OneThread).expect("the one-thread configuration is always run");
    let state_ab = match (find(Role::SequentialOtherState), find(Role::OtherState)) {
        (Some(sequential_other), Some(parallel_other)) => {
            let (sequential_same, parallel_same) = (wall_of(sequential), explained_wall);
            let (sequential_other, parallel_other) = (wall_of(sequential_other), wall_of(parallel_other));
            Some(if settings.state == StateRestore::Clone {
                StateComparison {
                    sequential_undo_ns: sequential_other,
                    sequential_clone_ns: sequential_same,
                    parallel_undo_ns: parallel_other,
                    parallel_clone_ns: parallel_same,
                }
            } else {
                StateComparison {
                    sequential_undo_ns: sequential_same,
                    sequential_clone_ns: sequential_other,
                    parallel_undo_ns: parallel_same,
                    parallel_clone_ns: parallel_other,
                }
            })
        }
        _ => None,
    };
    Measurements {
        strategy: settings.strategy.to_string(),
        threads,
        available_cpus: plan.available_cpus,
        counters: settings.counters.to_string(),
        state: settings.state.to_string(),
        exhaustive: settings.mode == SearchMode::All && !explained.reports.iter().any(|report| report.optimises()),
        sequential: sequential.0.measure(sequential.1),
        one_thread: one_thread.0.measure(one_thread.1),
        parallel: explained.measure(explained_runs),
        idle: Some(IdleSplit { before_first_task_ns: before, between_tasks_ns: between, after_last_task_ns: after }),
        tasks_per_worker: Some(of_explained(&tasks_per_worker)),
        task_ns_median: Some(of_explained(&|report: &RunReport| report.parallel.task_ns_median as f64)),
        steals: of_explained(&|report: &RunReport| report.parallel.steals as f64),
        imbalance: of_explained(&|report: &RunReport| report.parallel.imbalance),
        at_available_cpus_ns: find(Role::AtAvailableCpus).map(wall_of),
        counters_ab: layout_wall(CounterLayout::Padded).map(|padded_ns| CounterComparison {
            padded_ns,
            shared_ns: layout_wall(CounterLayout::Shared),
            unpadded_ns: layout_wall(CounterLayout::Unpadded),
        }),
        state_ab,
    }
}
