//! What `scaling-check` measured (measurements.json, written by a check and read back by
//! `--from`) and the analysis that turns it into the check's files: the per-CPU and one-CPU
//! predictions of every measured configuration, the CSVs, one SVG per workload and the
//! generated README. Nothing here times anything, so an earlier check's measurements give
//! the same table on any machine.

use super::failure::Failure;
use super::predicted_strategy::{parse_strategy, shape_of};
use crate::harness::reporting::plots::scaling_check::speedup_svg;
use crate::harness::storing::csv_log::write_atomically;
use crate::scaling::costs::Costs;
use crate::scaling::cpu_speeds::{CpuFactors, Placement};
use crate::scaling::predict::{predict_on, Component};
use crate::scaling::validate::{calibration_note, csv, machine_note, per_cpu_csv, readme, CheckRow};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What one workload's rows are computed from, as written to measurements.json.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct WorkloadMeasurements {
    pub(super) workload: String,
    /// The instance as given to the check (absent in files of checks before `--from`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) source: Option<String>,
    /// The processor and the CPUs the process could use (absent as `source` is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) machine: Option<MachineSeen>,
    /// The command that measured it (absent as `source` is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) command: Option<String>,
    /// Each component's measured costs (on the first CPU; the slowdown as measured, before
    /// the CPUs' own differences are divided out).
    pub(super) components: Vec<ComponentCosts>,
    /// The CPUs in the order the pool pins workers, each with its timings of the sequential
    /// search (one per round), and the factors made from them.
    pub(super) cpu_times_ns: Vec<(usize, Vec<u64>)>,
    pub(super) cpu_factors: Option<CpuFactors>,
    /// Every timed run, in order: the sequential baseline, then each strategy's thread counts.
    pub(super) runs: Vec<TimedRuns>,
}

/// The machine a check ran on, as its README names it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct MachineSeen {
    pub(super) processor: String,
    pub(super) cpus: usize,
}

#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ComponentCosts {
    pub(super) name: String,
    pub(super) nodes: u64,
    pub(super) costs: Costs,
}

#[derive(Debug, Serialize, Deserialize)]
pub(super) struct TimedRuns {
    pub(super) strategy: String,
    pub(super) threads: usize,
    pub(super) times_ns: Vec<u64>,
}

/// One workload ready for the analysis: its measurements and its components, each with
/// its recorded tree and the costs of `measurements`.
pub(super) struct Workload {
    pub(super) measurements: WorkloadMeasurements,
    pub(super) components: Vec<Component>,
}

/// The check's run as its README names it.
pub(super) struct CheckContext<'a> {
    pub(super) machine: MachineSeen,
    /// The command that measured.
    pub(super) command: &'a str,
    /// The command that analysed an earlier check's file (`--from`), where it is not the one
    /// that measured.
    pub(super) analysed_by: Option<&'a str>,
    pub(super) placement: Placement,
}

fn median(mut values: Vec<u64>) -> f64 {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied().unwrap_or(0) as f64 / 1e9
}

/// The fastest and the slowest of `values`, in seconds (zeros for none).
fn range(values: &[u64]) -> (f64, f64) {
    let seconds = |value: Option<&u64>| value.copied().unwrap_or(0) as f64 / 1e9;
    (seconds(values.iter().min()), seconds(values.iter().max()))
}

/// Writes predicted-vs-measured.csv, per-cpu.csv, one SVG per workload, README.md and,
/// for a check that measured, measurements.json into `out`, and prints the README.
pub(super) fn write_check(workloads: &[Workload], context: &CheckContext<'_>, out: &Path) -> Result<(), Failure> {
    let cpus = context.machine.cpus;
    let mut rows = Vec::new();
    let mut one_cpu_s = Vec::new();
    let mut notes = Vec::new();
    let mut plots = Vec::new();
    let mut repeats = 0;
    let mut thread_counts = Vec::new();
    for Workload { measurements, components } in workloads {
        let cpu_list: Vec<usize> = measurements.cpu_times_ns.iter().map(|(cpu, _)| *cpu).collect();
        let cpu_times: Vec<Vec<u64>> = measurements.cpu_times_ns.iter().map(|(_, times)| times.clone()).collect();
        // None where a CPU was not timed (`--one-cpu`, or one the thread could not be pinned to).
        let factors = CpuFactors::from_times(&cpu_list, &cpu_times);
        notes.push(calibration_note(&measurements.workload, factors.as_ref()));
        let per_cpu = factors
            .as_ref()
            .map(|factors| (per_cpu_components(components, factors), factors.for_workers(context.placement)));
        let Some((sequential, parallel)) = measurements.runs.split_first() else {
            return Err(Failure::bad_input(format!("{}: no timed runs", measurements.workload)));
        };
        repeats = repeats.max(sequential.times_ns.len());
        let sequential_median_s = median(sequential.times_ns.clone());
        let mut workload_rows = Vec::new();
        // The runs of one strategy follow each other, in the order of their thread counts.
        for strategy_runs in parallel.chunk_by(|a, b| a.strategy == b.strategy) {
            let name = &strategy_runs[0].strategy;
            let shape = parse_strategy(name).and_then(shape_of)?;
            let threads: Vec<usize> = strategy_runs.iter().map(|run| run.threads).collect();
            thread_counts.extend(&threads);
            let one_cpu = predict_on(components, shape, &threads, Some(cpus), &[]);
            let prediction = match &per_cpu {
                Some((components, cpu_factors)) => predict_on(components, shape, &threads, Some(cpus), cpu_factors),
                None => one_cpu.clone(),
            };
            one_cpu_s.extend(one_cpu.rows.iter().map(|row| row.predicted_ns / 1e9));
            for (row, run) in prediction.rows.iter().zip(strategy_runs) {
                workload_rows.push(CheckRow {
                    workload: measurements.workload.clone(),
                    strategy: name.clone(),
                    threads: row.threads,
                    predicted_s: row.predicted_ns / 1e9,
                    measured_median_s: median(run.times_ns.clone()),
                    measured_range_s: range(&run.times_ns),
                    sequential_median_s,
                    oversubscribed: row.threads > cpus,
                });
            }
        }
        let plot_name = format!("{}.svg", measurements.workload);
        let svg = speedup_svg(&measurements.workload, &workload_rows, cpus).map_err(Failure::failed)?;
        write_atomically(&out.join(&plot_name), svg.as_bytes()).map_err(Failure::failed)?;
        plots.push(plot_name);
        rows.extend(workload_rows);
    }
    thread_counts.sort_unstable();
    thread_counts.dedup();
    let machine = machine_note(&context.machine.processor, cpus, &thread_counts, repeats);
    write_atomically(&out.join("predicted-vs-measured.csv"), csv(&rows, &machine).as_bytes())
        .map_err(Failure::failed)?;
    write_atomically(&out.join("per-cpu.csv"), per_cpu_csv(&rows, &one_cpu_s, &machine).as_bytes())
        .map_err(Failure::failed)?;
    // An analysis of an earlier check's file leaves that file the one record of what was
    // measured (it may be the file read, in the same folder).
    if context.analysed_by.is_none() {
        let measured: Vec<&WorkloadMeasurements> = workloads.iter().map(|workload| &workload.measurements).collect();
        let raw = serde_json::to_string_pretty(&measured).map_err(Failure::failed)?;
        write_atomically(&out.join("measurements.json"), raw.as_bytes()).map_err(Failure::failed)?;
    }
    let command = match context.analysed_by {
        Some(analysis) => format!("`{}` (analysed again by `{analysis}`)", context.command),
        None => format!("`{}`", context.command),
    };
    let text = readme(&rows, &one_cpu_s, &notes, &machine, &command, &plots);
    write_atomically(&out.join("README.md"), text.as_bytes()).map_err(Failure::failed)?;
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
