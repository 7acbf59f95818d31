//! `scaling-check`: the scaling prediction against measured runs on this machine, for the
//! enumeration workloads: writes predicted-vs-measured.csv, per-cpu.csv, one SVG per workload
//! and a generated README.md into the output folder (see docs/scaling.md). The prediction is
//! calibrated per CPU: the sequential search is timed on each CPU in turn, the calling thread
//! pinned there, and each virtual worker runs at the factor of the CPU its thread is pinned
//! to; the one-CPU prediction (every CPU as fast as the first) is written beside it. Every
//! timing and cost behind the table goes to measurements.json, so that a miss can be taken
//! apart after the machine is gone.

use super::args::ScalingCheckArgs;
use super::failure::Failure;
use super::predicted_strategy::{parse_strategy, shape_of};
use crate::environment::Environment;
use crate::harness::reporting::plots::scaling_check::speedup_svg;
use crate::harness::storing::csv_log::write_atomically;
use crate::knobs::KnobValues;
use crate::machine_guard::available_cpus;
use crate::parallel::ThreadAffinity;
use crate::run::instance;
use crate::run::thread_list::{parse_thread_list, resolve_thread_list};
use crate::run::{self, Calibration, RunSettings};
use crate::scaling::costs::Costs;
use crate::scaling::cpu_speeds::{CpuFactors, Placement};
use crate::scaling::predict::{predict_on, Component};
use crate::scaling::validate::{calibration_note, csv, machine_note, per_cpu_csv, readme, CheckRow};
use serde::Serialize;

/// What one workload's rows were computed from, as written to measurements.json.
#[derive(Serialize)]
struct WorkloadMeasurements {
    workload: String,
    /// Each component's measured costs (on the first CPU; the slowdown as measured, before
    /// the CPUs' own differences are divided out).
    components: Vec<ComponentCosts>,
    /// The CPUs in the order the pool pins workers, each with its timings of the sequential
    /// search (one per round), and the factors made from them.
    cpu_times_ns: Vec<(usize, Vec<u64>)>,
    cpu_factors: Option<CpuFactors>,
    /// Every timed run, in order: the sequential baseline, then each strategy's thread counts.
    runs: Vec<TimedRuns>,
}

#[derive(Serialize)]
struct ComponentCosts {
    name: String,
    nodes: u64,
    costs: Costs,
}

#[derive(Serialize)]
struct TimedRuns {
    strategy: String,
    threads: usize,
    times_ns: Vec<u64>,
}

fn median(mut values: Vec<u64>) -> f64 {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied().unwrap_or(0) as f64 / 1e9
}

/// Runs the check.
pub fn run(args: &ScalingCheckArgs) -> Result<(), Failure> {
    let threads = parse_thread_list(&args.threads).map_err(|e| Failure::bad_input(format!("--threads: {e}")))?;
    let shapes = args
        .strategies
        .iter()
        .map(|name| parse_strategy(name).and_then(|strategy| Ok((strategy, shape_of(strategy)?))))
        .collect::<Result<Vec<_>, _>>()?;
    let cpus = available_cpus();
    let threads = resolve_thread_list(&threads, cpus);
    let repeats = args.repeats as usize;
    let mut rows = Vec::new();
    let mut one_cpu_s = Vec::new();
    let mut notes = Vec::new();
    let mut plots = Vec::new();
    let mut measurements = Vec::new();
    let cpu_list = if args.one_cpu { None } else { CpuPinning::allowed() };
    for source in &args.instances {
        let instance = instance::load(source)?;
        eprintln!("scaling-check: {}: recording and calibrating", instance.id);
        let calibration = Calibration { rule_counts: false, rounds: repeats, copies: cpus };
        let prepared = run::prepare(&instance, &KnobValues::new())?;
        let components = prepared.measure(Some(calibration))?;
        // As explain measures: no per-rule counts, one solution kept.
        let base = RunSettings { rule_counts: false, solutions_to_keep: 1, ..RunSettings::default() };
        let mut configs = vec![base.clone()];
        for (strategy, _) in &shapes {
            for &count in &threads {
                configs.push(RunSettings { strategy: *strategy, threads: count, ..base.clone() });
            }
        }
        let mut times: Vec<Vec<u64>> = vec![Vec::new(); configs.len()];
        let mut cpu_times: Vec<Vec<u64>> = vec![Vec::new(); cpu_list.as_ref().map_or(0, |list| list.cpus.len())];
        prepared.solve(&base)?;
        for round in 0..repeats {
            eprintln!("scaling-check: {}: round {} of {repeats}", instance.id, round + 1);
            for (config, times) in configs.iter().zip(&mut times) {
                times.push(prepared.solve(config)?.elapsed_ns);
            }
            // In the same rounds as the runs, so that a CPU that turns slow touches both.
            if let Some(list) = &cpu_list {
                for (&cpu, times) in list.cpus.iter().zip(&mut cpu_times) {
                    if let Some(report) = list.on(cpu, || prepared.solve(&base)).transpose()? {
                        times.push(report.elapsed_ns);
                    }
                }
            }
        }
        let factors = cpu_list.as_ref().and_then(|list| CpuFactors::from_times(&list.cpus, &cpu_times));
        notes.push(calibration_note(&instance.id, factors.as_ref()));
        let placement = match base.affinity {
            ThreadAffinity::Pinned => Placement::Pinned,
            ThreadAffinity::Free => Placement::Moved,
        };
        let per_cpu =
            factors.as_ref().map(|factors| (per_cpu_components(&components, factors), factors.for_workers(placement)));
        measurements.push(WorkloadMeasurements {
            workload: instance.id.clone(),
            components: components
                .iter()
                .map(|component| ComponentCosts {
                    name: component.name.clone(),
                    nodes: component.tree.total_nodes(),
                    costs: component.costs,
                })
                .collect(),
            cpu_times_ns: cpu_list
                .iter()
                .flat_map(|list| list.cpus.iter().copied().zip(cpu_times.iter().cloned()))
                .collect(),
            cpu_factors: factors.clone(),
            runs: configs
                .iter()
                .zip(&times)
                .map(|(config, times)| TimedRuns {
                    strategy: config.strategy.to_string(),
                    threads: config.threads,
                    times_ns: times.clone(),
                })
                .collect(),
        });
        let sequential_median_s = median(times[0].clone());
        let mut measured = times.into_iter().skip(1);
        let mut workload_rows = Vec::new();
        for (name, shape) in &shapes {
            let one_cpu = predict_on(&components, *shape, &threads, Some(cpus), &[]);
            let prediction = match &per_cpu {
                Some((components, cpu_factors)) => predict_on(components, *shape, &threads, Some(cpus), cpu_factors),
                None => one_cpu.clone(),
            };
            one_cpu_s.extend(one_cpu.rows.iter().map(|row| row.predicted_ns / 1e9));
            for row in &prediction.rows {
                workload_rows.push(CheckRow {
                    workload: instance.id.clone(),
                    strategy: name.to_string(),
                    threads: row.threads,
                    predicted_s: row.predicted_ns / 1e9,
                    measured_median_s: median(measured.next().unwrap_or_default()),
                    sequential_median_s,
                    oversubscribed: row.threads > cpus,
                });
            }
        }
        let plot_name = format!("{}.svg", instance.id);
        let svg = speedup_svg(&instance.id, &workload_rows, cpus).map_err(Failure::failed)?;
        write_atomically(&args.out.join(&plot_name), svg.as_bytes()).map_err(Failure::failed)?;
        plots.push(plot_name);
        rows.extend(workload_rows);
    }
    let machine = machine_note(&Environment::detect().cpu_model, cpus, &threads, repeats);
    let command =
        std::iter::once(crate::run::program_name().to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>();
    write_atomically(&args.out.join("predicted-vs-measured.csv"), csv(&rows, &machine).as_bytes())
        .map_err(Failure::failed)?;
    write_atomically(&args.out.join("per-cpu.csv"), per_cpu_csv(&rows, &one_cpu_s, &machine).as_bytes())
        .map_err(Failure::failed)?;
    let raw = serde_json::to_string_pretty(&measurements).map_err(Failure::failed)?;
    write_atomically(&args.out.join("measurements.json"), raw.as_bytes()).map_err(Failure::failed)?;
    let text = readme(&rows, &one_cpu_s, &notes, &machine, &command.join(" "), &plots);
    write_atomically(&args.out.join("README.md"), text.as_bytes()).map_err(Failure::failed)?;
    print!("{text}");
    Ok(())
}

/// `components` with the side-by-side slowdown less the CPUs' own differences, which the
/// per-CPU replay applies itself.
fn per_cpu_components(components: &[Component], factors: &CpuFactors) -> Vec<Component> {
    components
        .iter()
        .map(|component| {
            let mut component = component.clone();
            component.costs.slowdown = factors.contention_only(component.costs.slowdown);
            component
        })
        .collect()
}

/// The CPUs this process may run on, in the order the pool pins its threads to them, and
/// the calling thread's own mask to restore after timing on one of them.
struct CpuPinning {
    cpus: Vec<usize>,
    mask: libc::cpu_set_t,
}

impl CpuPinning {
    /// `None` where the mask cannot be read (the check then predicts with one CPU's costs).
    fn allowed() -> Option<CpuPinning> {
        // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity writes into the
        // set whose size it is given.
        let mut mask: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut mask) } != 0 {
            return None;
        }
        let cpus: Vec<usize> =
            (0..libc::CPU_SETSIZE as usize).filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &mask) }).collect();
        (!cpus.is_empty()).then_some(CpuPinning { cpus, mask })
    }

    /// Runs `job` with the calling thread pinned to `cpu`, then gives the thread its mask
    /// back: a pool built while it was pinned would put every thread on that one CPU (its
    /// threads pin themselves to the CPUs their creator may use). `None`, without running
    /// `job`, when the thread cannot be pinned there (that CPU then has no timing, and the
    /// check predicts with one CPU's costs).
    fn on<T>(&self, cpu: usize, job: impl FnOnce() -> T) -> Option<T> {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: as above; both sets are built here and passed with their size.
        let pinned = unsafe {
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut one);
            libc::sched_setaffinity(0, size, &one) == 0
        };
        let result = pinned.then(job);
        // SAFETY: as above.
        unsafe { libc::sched_setaffinity(0, size, &self.mask) };
        result
    }
}
