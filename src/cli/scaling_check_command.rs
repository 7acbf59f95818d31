//! `scaling-check`: the scaling prediction against measured runs on this machine, for the
//! enumeration workloads: writes predicted-vs-measured.csv, one SVG per workload and a
//! generated README.md into the output folder (see docs/scaling.md).

use super::args::ScalingCheckArgs;
use super::failure::Failure;
use super::predicted_strategy::{parse_strategy, shape_of};
use crate::harness::storing::csv_log::write_atomically;
use crate::harness::storing::environment::Environment;
use crate::knobs::KnobValues;
use crate::machine_guard::available_cpus;
use crate::run::instance;
use crate::run::settings::{parse_thread_list, resolve_thread_list};
use crate::run::{self, Calibration, RunSettings};
use crate::scaling::plot::speedup_svg;
use crate::scaling::predict::predict;
use crate::scaling::validate::{csv, machine_note, readme, CheckRow};

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
    let mut plots = Vec::new();
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
        prepared.solve(&base)?;
        for round in 0..repeats {
            eprintln!("scaling-check: {}: round {} of {repeats}", instance.id, round + 1);
            for (config, times) in configs.iter().zip(&mut times) {
                times.push(prepared.solve(config)?.elapsed_ns);
            }
        }
        let sequential_median_s = median(times[0].clone());
        let mut measured = times.into_iter().skip(1);
        let mut workload_rows = Vec::new();
        for (name, shape) in &shapes {
            let prediction = predict(&components, *shape, &threads, Some(cpus));
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
    let text = readme(&rows, &machine, &command.join(" "), &plots);
    write_atomically(&args.out.join("README.md"), text.as_bytes()).map_err(Failure::failed)?;
    print!("{text}");
    Ok(())
}
