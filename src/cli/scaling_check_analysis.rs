//! What `scaling-check` measured (measurements.json, written by a check and read back by
//! `--from`) and the analysis that turns it into the check's files: the per-CPU and one-CPU
//! predictions of every measured configuration, the CSVs, one SVG per workload and the
//! generated README. Nothing here times anything, so an earlier check's measurements give
//! the same table on any machine.

use super::failure::Failure;
use super::predicted_strategy::{parse_strategy, shape_of};
use crate::harness::reporting::plots::scaling_check::speedup_svg;
use crate::harness::reporting::plots::text_slug;
use crate::harness::storing::output_target::write_named_file;
use crate::parallel::{check_thread_count, MAX_THREADS};
use crate::scaling::costs::Costs;
use crate::scaling::cpu_speeds::{CpuFactors, Placement};
use crate::scaling::predict::{predict_on, Component};
use crate::scaling::validate::{calibration_note, csv, machine_note, per_cpu_csv, readme, CheckRow};
use serde::{Deserialize, Serialize};
use std::io::Write;
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

/// The most workloads, runs of a workload and rounds of a run that a file may hold: each
/// workload is searched again and each run replayed on up to 1,024 virtual workers, so a
/// file past them would ask for hours (a check writes 3 workloads of 11 runs of 7 rounds).
const MAX_WORKLOADS: usize = 64;
const MAX_RUNS: usize = 1024;
const MAX_ROUNDS: usize = 1000;

impl WorkloadMeasurements {
    /// What in a workload's measurements a check never writes, if anything: too many runs
    /// or rounds, a first run that is not the sequential baseline, a run never timed or
    /// timed at 0 ns, a strategy the prediction does not model, a thread or CPU count outside
    /// a pool's range, costs that are not costs ([`Costs::refusal`]).
    pub(super) fn refusal(&self) -> Option<String> {
        if self.runs.len() > MAX_RUNS {
            return Some(format!("{} runs; a check writes at most {MAX_RUNS}", self.runs.len()));
        }
        match self.runs.first() {
            Some(first) if first.strategy == "sequential" => {}
            Some(first) => return Some(format!("the first run is {}, not the sequential baseline", first.strategy)),
            None => return Some("no timed runs".to_string()),
        }
        for (index, run) in self.runs.iter().enumerate() {
            let what =
                format!("{} at {}", run.strategy, crate::format::counted(run.threads as u64, "thread", "threads"));
            if run.times_ns.is_empty() || run.times_ns.contains(&0) {
                return Some(format!("{what} was never timed, or timed at 0 ns"));
            }
            if run.times_ns.len() > MAX_ROUNDS {
                return Some(format!("{what} has {} rounds; at most {MAX_ROUNDS}", run.times_ns.len()));
            }
            if let Err(error) = check_thread_count(run.threads) {
                return Some(format!("{}: {error}", run.strategy));
            }
            if index > 0 {
                if let Err(refused) = parse_strategy(&run.strategy).and_then(shape_of) {
                    return Some(format!("{}: {}", run.strategy, refused.message));
                }
            }
        }
        if self.cpu_times_ns.len() > MAX_THREADS {
            return Some(format!("{} CPUs timed; at most {MAX_THREADS}", self.cpu_times_ns.len()));
        }
        if let Some((cpu, _)) = self.cpu_times_ns.iter().find(|(_, times)| times.contains(&0)) {
            return Some(format!("CPU {cpu} timed at 0 ns"));
        }
        self.components.iter().find_map(|component| {
            component.costs.refusal(MAX_THREADS).map(|refused| format!("component {}: {refused}", component.name))
        })
    }
}

/// What in a file's measurements a check never writes, as [`WorkloadMeasurements::refusal`]
/// says, with the workload; or too many workloads.
pub(super) fn file_refusal(stored: &[WorkloadMeasurements]) -> Option<String> {
    if stored.len() > MAX_WORKLOADS {
        return Some(format!("{} workloads; a check writes at most {MAX_WORKLOADS}", stored.len()));
    }
    stored.iter().find_map(|workload| workload.refusal().map(|refused| format!("{}: {refused}", workload.workload)))
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

const PREDICTED_CSV: &str = "predicted-vs-measured.csv";
const PER_CPU_CSV: &str = "per-cpu.csv";
const MEASUREMENTS_JSON: &str = "measurements.json";
const README: &str = "README.md";

/// The files of a check whose names are fixed (beside them one SVG per workload).
pub(super) const CHECK_FILES: [&str; 4] = [PREDICTED_CSV, PER_CPU_CSV, MEASUREMENTS_JSON, README];

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
        // The workload is the instance's `id`, which the instance file (or a measurements
        // file from elsewhere) chooses: as a file name it must not leave `--out`.
        let plot_name = format!("{}.svg", text_slug(&measurements.workload));
        let svg = speedup_svg(&measurements.workload, &workload_rows, cpus).map_err(Failure::failed)?;
        plots.push((plot_name, svg));
        rows.extend(workload_rows);
    }
    // Every file is made before any is written: a refusal while making them leaves the folder
    // as it was.
    for (plot_name, svg) in &plots {
        write_named_file(&out.join(plot_name), svg.as_bytes()).map_err(Failure::failed)?;
    }
    let plots: Vec<String> = plots.into_iter().map(|(plot_name, _)| plot_name).collect();
    thread_counts.sort_unstable();
    thread_counts.dedup();
    let machine = machine_note(&context.machine.processor, cpus, &thread_counts, repeats);
    write_named_file(&out.join(PREDICTED_CSV), csv(&rows, &machine).as_bytes()).map_err(Failure::failed)?;
    write_named_file(&out.join(PER_CPU_CSV), per_cpu_csv(&rows, &one_cpu_s, &machine).as_bytes())
        .map_err(Failure::failed)?;
    // An analysis of an earlier check's file leaves that file the one record of what was
    // measured (it may be the file read, in the same folder).
    if context.analysed_by.is_none() {
        let measured: Vec<&WorkloadMeasurements> = workloads.iter().map(|workload| &workload.measurements).collect();
        let raw = serde_json::to_string_pretty(&measured).map_err(Failure::failed)?;
        write_named_file(&out.join(MEASUREMENTS_JSON), raw.as_bytes()).map_err(Failure::failed)?;
    }
    let command = match context.analysed_by {
        Some(analysis) => format!("`{}` (analysed again by `{analysis}`)", context.command),
        None => format!("`{}`", context.command),
    };
    let text = readme(&rows, &one_cpu_s, &notes, &machine, &command, &plots);
    write_named_file(&out.join(README), text.as_bytes()).map_err(Failure::failed)?;
    // As every command writes its output: a closed pipe (`| head`) ends it with success.
    write!(std::io::stdout(), "{text}")?;
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
