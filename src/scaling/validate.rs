//! The check of a prediction against measured runs: one row per (workload, strategy,
//! threads), its error, and the CSV and README text the check writes. Formatting only.

use super::cpu_speeds::CpuFactors;
use serde::Serialize;

/// One predicted and measured configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckRow {
    /// The instance id.
    pub workload: String,
    /// The strategy as typed.
    pub strategy: String,
    /// Worker threads.
    pub threads: usize,
    /// Predicted wall time, seconds.
    pub predicted_s: f64,
    /// Median measured wall time, seconds.
    pub measured_median_s: f64,
    /// The fastest and the slowest of the measured runs, seconds: how far the machine moved
    /// the same configuration between rounds.
    pub measured_range_s: (f64, f64),
    /// Measured sequential median of the same workload, seconds (for speedups).
    pub sequential_median_s: f64,
    /// Whether there were more threads than CPUs.
    pub oversubscribed: bool,
}

impl CheckRow {
    /// `(predicted - measured) / measured`, in percent.
    pub fn error_pct(&self) -> f64 {
        error_pct(self.predicted_s, self.measured_median_s)
    }

    /// Whether the prediction lies between the fastest and the slowest measured run.
    pub fn within_measured_range(&self) -> bool {
        self.measured_range_s.0 <= self.predicted_s && self.predicted_s <= self.measured_range_s.1
    }

    /// Measured speedup over the measured sequential median.
    pub fn measured_speedup(&self) -> f64 {
        speedup(self.sequential_median_s, self.measured_median_s)
    }

    /// Predicted speedup over the measured sequential median.
    pub fn predicted_speedup(&self) -> f64 {
        speedup(self.sequential_median_s, self.predicted_s)
    }
}

/// `(predicted - measured) / measured`, in percent; 0 for a time not measured.
pub(super) fn error_pct(predicted: f64, measured: f64) -> f64 {
    if measured > 0.0 {
        (predicted - measured) / measured * 100.0
    } else {
        0.0
    }
}

fn speedup(sequential: f64, time: f64) -> f64 {
    if time > 0.0 {
        sequential / time
    } else {
        0.0
    }
}

/// The CSV: a comment header naming the machine, then one line per row.
pub fn csv(rows: &[CheckRow], machine_note: &str) -> String {
    let mut text = format!("# {machine_note}\n");
    text.push_str(
        "workload,strategy,threads,predicted_s,measured_median_s,error_pct,oversubscribed,measured_min_s,measured_max_s\n",
    );
    for row in rows {
        text.push_str(&format!(
            "{},{},{},{:.6},{:.6},{:.2},{},{:.6},{:.6}\n",
            row.workload,
            row.strategy,
            row.threads,
            row.predicted_s,
            row.measured_median_s,
            row.error_pct(),
            row.oversubscribed,
            row.measured_range_s.0,
            row.measured_range_s.1
        ));
    }
    text
}

/// The machine line of the CSV and README: the processor, its CPUs, how far the measured
/// thread counts go past them (oversubscribed) or fall short of a 16-core machine, and how
/// many runs each median took.
pub fn machine_note(processor: &str, cpus: usize, threads: &[usize], repeats: usize) -> String {
    let most = threads.iter().copied().max().unwrap_or(1);
    let reach = if most > cpus {
        format!("threads above {cpus} are oversubscribed (predicted with the threads sharing the CPUs)")
    } else {
        format!("every thread count measured had a CPU of its own (up to {most} threads)")
    };
    let short_of_sixteen = if cpus < 16 {
        format!(" The machine has fewer than 16 cores: nothing past {cpus} threads was measured on it.")
    } else {
        String::new()
    };
    format!("{processor}, {cpus} CPUs available; {reach}.{short_of_sixteen} Runs per configuration: {repeats}.")
}

/// The comparison of the two calibrations: each row's per-CPU prediction (`predicted_s`)
/// beside `one_cpu_s`, the prediction of the same row with every CPU as fast as the first.
pub fn per_cpu_csv(rows: &[CheckRow], one_cpu_s: &[f64], machine_note: &str) -> String {
    let mut text = format!("# {machine_note}\n");
    text.push_str(
        "workload,strategy,threads,measured_median_s,per_cpu_predicted_s,per_cpu_error_pct,one_cpu_predicted_s,one_cpu_error_pct\n",
    );
    for (row, one_cpu) in rows.iter().zip(one_cpu_s.iter().chain(std::iter::repeat(&f64::NAN))) {
        let one = CheckRow { predicted_s: *one_cpu, ..row.clone() };
        text.push_str(&format!(
            "{},{},{},{:.6},{:.6},{:.2},{:.6},{:.2}\n",
            row.workload,
            row.strategy,
            row.threads,
            row.measured_median_s,
            row.predicted_s,
            row.error_pct(),
            one.predicted_s,
            one.error_pct()
        ));
    }
    text
}

/// One workload's calibration in a line: each CPU's time factor, or why there are none.
pub fn calibration_note(workload: &str, factors: Option<&CpuFactors>) -> String {
    match factors {
        Some(factors) => {
            let each: Vec<String> = factors
                .cpus
                .iter()
                .zip(&factors.factors)
                .map(|(cpu, factor)| format!("CPU {cpu} {factor:.3}"))
                .collect();
            format!("{workload}: the sequential search on each CPU over CPU {}: {}", factors.cpus[0], each.join(", "))
        }
        None => {
            format!("{workload}: the CPUs were not timed one by one (`--one-cpu`, no CPU mask to pin to, or a CPU the check could not pin to); predicted with every CPU as fast as the first")
        }
    }
}

/// The largest absolute error at `threads` threads among rows of `strategies`.
pub fn worst_error_at(rows: &[CheckRow], threads: usize, strategies: &[&str]) -> Option<f64> {
    rows.iter()
        .filter(|row| row.threads == threads && strategies.contains(&row.strategy.as_str()))
        .map(|row| row.error_pct().abs())
        .reduce(f64::max)
}

/// The strategies the summary's lines speak for: those of `auto` and `steal` (the ones a
/// user runs unless told otherwise) that were measured, else every one measured, in the
/// order first measured.
fn summarised_strategies(rows: &[CheckRow]) -> Vec<&str> {
    let mut measured: Vec<&str> = Vec::new();
    for row in rows {
        if !measured.contains(&row.strategy.as_str()) {
            measured.push(&row.strategy);
        }
    }
    let defaults: Vec<&str> = ["auto", "steal"].into_iter().filter(|name| measured.contains(name)).collect();
    if defaults.is_empty() {
        measured
    } else {
        defaults
    }
}

/// `strategies` as the summary names them: `` `a` ``, `` `a` and `b` ``, `` `a`, `b` and `c` ``.
fn strategy_names(strategies: &[&str]) -> String {
    let quoted: Vec<String> = strategies.iter().map(|name| format!("`{name}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The generated README of the check: how far off the prediction was (calibrated per CPU,
/// and with `one_cpu_s`, row by row, as the one-CPU calibration predicted), the CPU factors
/// of `notes`, and the table. `command` is markdown: the command in backticks, and what
/// else the caller says of it.
pub fn readme(
    rows: &[CheckRow],
    one_cpu_s: &[f64],
    notes: &[String],
    machine_note: &str,
    command: &str,
    plots: &[String],
) -> String {
    let mut text = String::from("# How far off the scaling prediction was\n\n");
    text.push_str("Generated by the scaling check; do not edit by hand (see docs/scaling.md).\n\n");
    text.push_str(&format!("- Machine: {machine_note}\n- Command: {command}\n"));
    for note in notes {
        text.push_str(&format!("- Calibration per CPU, {note}.\n"));
    }
    let strategies = summarised_strategies(rows);
    let named = strategy_names(&strategies);
    if let Some(worst) = worst_error_at(rows, 1, &strategies) {
        text.push_str(&format!("- At 1 thread, {named}: largest error {worst:.1}%.\n"));
    }
    if let Some(worst) = worst_error_at(rows, 2, &strategies) {
        let verdict = if worst <= 10.0 { "within" } else { "outside" };
        text.push_str(&format!("- At 2 threads, {named}: largest error {worst:.1}% ({verdict} the 10% target).\n"));
    }
    // Every other measured count that had CPUs of its own: how the error grows with threads.
    let mut counts: Vec<usize> =
        rows.iter().filter(|row| row.threads > 2 && !row.oversubscribed).map(|row| row.threads).collect();
    counts.sort_unstable();
    counts.dedup();
    for &threads in &counts {
        if let Some(worst) = worst_error_at(rows, threads, &strategies) {
            text.push_str(&format!("- At {threads} threads, {named}: largest error {worst:.1}%.\n"));
        }
    }
    let one_cpu: Vec<CheckRow> =
        rows.iter().zip(one_cpu_s).map(|(row, &predicted_s)| CheckRow { predicted_s, ..row.clone() }).collect();
    let worst_one_cpu: Vec<String> = std::iter::once(2)
        .chain(counts)
        .filter_map(|threads| worst_error_at(&one_cpu, threads, &strategies).map(|worst| (threads, worst)))
        .map(|(threads, worst)| format!("{worst:.1}% at {threads}"))
        .collect();
    if !worst_one_cpu.is_empty() {
        text.push_str(&format!(
            "- The same with every CPU as fast as the first (the one-CPU calibration, per-cpu.csv): largest error {}.\n",
            worst_one_cpu.join(", ")
        ));
    }
    let within = rows.iter().filter(|row| row.within_measured_range()).count();
    if !rows.is_empty() {
        text.push_str(&format!(
            "- The prediction lies between the fastest and the slowest measured run in {within} of {} rows \
             (the measured range, in the table, is how far the machine moved one configuration between rounds).\n",
            rows.len()
        ));
    }
    text.push_str(
        "\n| workload | strategy | threads | predicted s | measured median s | measured range s | error | predicted speedup | measured speedup | oversubscribed |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for row in rows {
        text.push_str(&format!(
            "| {} | {} | {} | {:.4} | {:.4} | {:.4} to {:.4} | {:+.1}% | {:.2} | {:.2} | {} |\n",
            row.workload,
            row.strategy,
            row.threads,
            row.predicted_s,
            row.measured_median_s,
            row.measured_range_s.0,
            row.measured_range_s.1,
            row.error_pct(),
            row.predicted_speedup(),
            row.measured_speedup(),
            if row.oversubscribed { "yes" } else { "no" }
        ));
    }
    if !plots.is_empty() {
        text.push_str("\nPredicted (lines) and measured (points) speedup against threads:\n\n");
        for plot in plots {
            text.push_str(&format!("![{plot}]({plot})\n"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calibration_note_names_each_cpus_factor() {
        let factors = CpuFactors { cpus: vec![2, 5], factors: vec![1.0, 1.25] };
        assert_eq!(
            calibration_note("w", Some(&factors)),
            "w: the sequential search on each CPU over CPU 2: CPU 2 1.000, CPU 5 1.250"
        );
        assert!(calibration_note("w", None).contains("every CPU as fast as the first"));
    }

    #[test]
    fn errors_are_signed_percent_of_the_measured_time() {
        let row = CheckRow {
            workload: "w".into(),
            strategy: "auto".into(),
            threads: 2,
            predicted_s: 1.1,
            measured_median_s: 1.0,
            measured_range_s: (0.9, 1.05),
            sequential_median_s: 2.0,
            oversubscribed: false,
        };
        assert!((row.error_pct() - 10.0).abs() < 1e-9);
        assert_eq!(row.measured_speedup(), 2.0);
        assert_eq!(worst_error_at(std::slice::from_ref(&row), 2, &["auto"]).map(f64::round), Some(10.0));
        assert!(csv(std::slice::from_ref(&row), "test")
            .lines()
            .nth(2)
            .is_some_and(|line| line == "w,auto,2,1.100000,1.000000,10.00,false,0.900000,1.050000"));
        assert!(!row.within_measured_range());
        let text = readme(std::slice::from_ref(&row), &[1.0], &[], "m", "c", &[]);
        assert!(!text.contains("- At 1 thread") && text.contains("in 0 of 1 rows"), "{text}");
        assert!(text.contains("| 1.1000 | 1.0000 | 0.9000 to 1.0500 | +10.0% |"), "{text}");
        let one = CheckRow { threads: 1, predicted_s: 0.95, ..row.clone() };
        let text = readme(&[one], &[1.0], &[], "m", "c", &[]);
        assert!(text.contains("- At 1 thread, `auto`: largest error 5.0%.\n"), "{text}");
        assert!(text.contains("in 1 of 1 rows"), "{text}");
        let wide = CheckRow { threads: 16, measured_median_s: 0.2, ..row };
        let text = readme(std::slice::from_ref(&wide), &[0.3], &["w: CPU 0 1.000".into()], "m", "c", &[]);
        assert!(text.contains("- At 16 threads, `auto`: largest error 450.0%."), "{text}");
        assert!(text.contains("(the one-CPU calibration, per-cpu.csv): largest error 50.0% at 16."), "{text}");
        assert!(text.contains("- Calibration per CPU, w: CPU 0 1.000.\n"), "{text}");
        assert_eq!(
            per_cpu_csv(&[wide], &[0.3], "m").lines().nth(2),
            Some("w,auto,16,0.200000,1.100000,450.00,0.300000,50.00")
        );
    }

    /// The summary names the strategies measured: `auto` and `steal` where they were, else
    /// every one (a check of `depth:2` alone had no summary line; one of `steal` named `auto`).
    #[test]
    fn the_summary_names_the_strategies_measured() {
        let row = |strategy: &str, predicted_s: f64| CheckRow {
            workload: "w".into(),
            strategy: strategy.into(),
            threads: 2,
            predicted_s,
            measured_median_s: 1.0,
            measured_range_s: (0.9, 1.05),
            sequential_median_s: 2.0,
            oversubscribed: false,
        };
        let said = |rows: &[CheckRow]| readme(rows, &vec![1.0; rows.len()], &[], "m", "c", &[]);
        let text = said(&[row("steal", 1.2), row("depth:2", 1.5)]);
        assert!(text.contains("- At 2 threads, `steal`: largest error 20.0% (outside"), "{text}");
        let text = said(&[row("depth:2", 1.5), row("shared", 1.05)]);
        assert!(text.contains("- At 2 threads, `depth:2` and `shared`: largest error 50.0%"), "{text}");
        let text = said(&[row("steal", 1.08), row("auto", 1.02), row("depth:1", 3.0)]);
        assert!(text.contains("- At 2 threads, `auto` and `steal`: largest error 8.0% (within"), "{text}");
        assert_eq!(strategy_names(&["a", "b", "c"]), "`a`, `b` and `c`");
    }

    /// The machine line says what was measured: a 2-CPU machine names the 16 cores it lacked
    /// and its oversubscribed counts; a 16-CPU machine measured to 16 says neither.
    #[test]
    fn the_machine_note_says_how_far_the_threads_went() {
        let small = machine_note("cpu", 2, &[1, 2, 3], 5);
        assert!(small.contains("threads above 2 are oversubscribed") && small.contains("fewer than 16 cores"));
        let large = machine_note("cpu", 16, &[1, 2, 4, 8, 16], 5);
        assert_eq!(
            large,
            "cpu, 16 CPUs available; every thread count measured had a CPU of its own (up to 16 threads). Runs per \
             configuration: 5."
        );
    }
}
