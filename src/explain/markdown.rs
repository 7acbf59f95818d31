//! The texts of `explain`: the ranked verdict for the terminal and the Markdown report
//! (runs table, ranked causes, per-worker table, the plot).

use super::decompose::{millis, Measurements, Verdict};
use super::measure::ConfigRuns;
use crate::solve::RunReport;
use std::fmt::Write;

/// Causes at or above this share of the lost time get their advice printed.
const ADVICE_SHARE: f64 = 0.10;

/// The one-paragraph headline: speedup, ideal and lost time, the largest cause.
pub fn headline(verdict: &Verdict, measurements: &Measurements) -> String {
    let parallel_ns = measurements.parallel.wall_ns;
    let comparison = if verdict.slower_than_sequential { "SLOWER than" } else { "faster than" };
    let mut text = format!(
        "at {} threads the run is {comparison} sequential: {} vs {} (speedup {:.2}x; ideal {}, lost {})",
        measurements.threads,
        millis(parallel_ns),
        millis(measurements.sequential.wall_ns),
        verdict.speedup,
        millis(verdict.ideal_ns),
        millis(verdict.lost_ns)
    );
    if let Some(first) = verdict.causes.first().filter(|_| verdict.lost_ns > 0.0) {
        let _ = write!(
            text,
            ". Largest cause: {} ({:.0}% of the lost time, {})",
            first.name,
            first.share * 100.0,
            first.number
        );
    }
    text
}

/// The ranked verdict as plain text for the terminal.
pub fn verdict_text(verdict: &Verdict, measurements: &Measurements) -> String {
    let mut text = format!("{}\n\n", headline(verdict, measurements));
    for bug in &verdict.bugs {
        let _ = writeln!(text, "BUG: {bug}");
    }
    let _ = writeln!(text, "{:>4}  {:<24} {:>11} {:>7}  number", "rank", "cause", "lost", "share");
    for (rank, cause) in verdict.causes.iter().enumerate() {
        let _ = writeln!(
            text,
            "{:>4}  {:<24} {:>11} {:>6.1}%  {}",
            rank + 1,
            cause.name,
            millis(cause.lost_ns),
            cause.share * 100.0,
            cause.number
        );
    }
    for cause in verdict.causes.iter().filter(|cause| cause.share >= ADVICE_SHARE && cause.name != "unexplained") {
        let _ = write!(text, "\n{}: {}.\n  what to do: {}.\n", cause.name, cause.evidence, cause.advice);
    }
    text
}

/// What the Markdown report is about.
pub struct ReportContext<'a> {
    /// The command line that produced it.
    pub command: String,
    /// Every configuration run (the explained one first).
    pub configs: &'a [ConfigRuns],
    /// The measurements fed to the decomposition.
    pub measurements: &'a Measurements,
    /// The verdict.
    pub verdict: &'a Verdict,
    /// The plot's file name, beside the report.
    pub plot_file: String,
}

/// The whole Markdown report.
pub fn report(context: &ReportContext) -> String {
    let explained = context.configs[0].median_run();
    let sequential_ns = context.measurements.sequential.wall_ns;
    let mut text = format!(
        "# Why is {} at {} threads {} on {}?\n\n",
        explained.strategy,
        explained.threads,
        if context.verdict.slower_than_sequential { "slower than sequential" } else { "not faster" },
        explained.source
    );
    let _ = write!(
        text,
        "Command: `{}`\n\nInstance `{}` ({}), knobs `{}`, {} search. {} available CPUs; each configuration \
         ran {} times in rounds and the run with the median wall time is shown. Timings on a busy machine are \
         indicative only.\n\n**{}**\n\n",
        context.command,
        explained.instance,
        explained.puzzle,
        explained.knob_text(),
        if context.measurements.exhaustive { "exhaustive (all solutions)" } else { "first-solution" },
        context.measurements.available_cpus,
        context.configs[0].reports.len(),
        headline(context.verdict, context.measurements)
    );
    for bug in &context.verdict.bugs {
        let _ = writeln!(text, "> **BUG:** {bug}\n");
    }
    let busy: u64 = explained.workers.iter().map(|worker| worker.busy_ns).sum();
    let _ = writeln!(
        text,
        "Load check: the workers of the explained run were busy {} in all and the process used {} of CPU. \
         On a quiet machine the CPU time is at least the busy time; when it is less, the operating system \
         ran something else while a worker was in a task, and that time shows up as busy or tail time here.\n",
        millis(busy as f64),
        millis(context.measurements.parallel.cpu_ns)
    );
    text.push_str("## Runs\n\n");
    text.push_str(
        "| configuration | wall median | wall min-max | nodes (median) | CPU | CPU ns/node | idle | speedup |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for config in context.configs {
        let median = config.median_run();
        let (fastest, slowest) = config.wall_range_ns();
        let cpu = (median.parallel.user_cpu_ns + median.parallel.system_cpu_ns) as f64;
        let nodes = config.median_nodes();
        let _ = writeln!(
            text,
            "| {} | {} | {}-{} | {} | {} | {:.1} | {:.1}% | {:.2}x |",
            config.label,
            millis(median.elapsed_ns as f64),
            millis(fastest as f64),
            millis(slowest as f64),
            nodes,
            millis(cpu),
            if nodes == 0 { 0.0 } else { cpu / nodes as f64 },
            median.parallel.idle_share * 100.0,
            sequential_ns / median.elapsed_ns.max(1) as f64
        );
    }
    text.push_str(
        "\n## Causes, ranked\n\n| rank | cause | lost | share | number | evidence |\n|---:|---|---:|---:|---|---|\n",
    );
    for (rank, cause) in context.verdict.causes.iter().enumerate() {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {:.1}% | {} | {} |",
            rank + 1,
            cause.name,
            millis(cause.lost_ns),
            cause.share * 100.0,
            cause.number,
            cause.evidence
        );
    }
    let summed: f64 = context.verdict.causes.iter().map(|cause| cause.lost_ns).sum();
    let _ = writeln!(
        text,
        "\nThe causes sum to {} of lost time (wall {} minus the ideal {}).\n",
        millis(summed),
        millis(context.measurements.parallel.wall_ns),
        millis(context.verdict.ideal_ns)
    );
    text.push_str("## What to do\n\n");
    for cause in context.verdict.causes.iter().filter(|cause| cause.share >= ADVICE_SHARE) {
        let _ = writeln!(text, "- **{}** ({:.0}%): {}.", cause.name, cause.share * 100.0, cause.advice);
    }
    let _ = write!(text, "\n## Workers of the median {} run\n\n", context.configs[0].label);
    text.push_str(&worker_table(explained));
    let _ = write!(
        text,
        "\n![lost time per cause and worker time]({})\n\nMethod: see `docs/why-slower.md`.\n",
        context.plot_file
    );
    text
}

fn worker_table(report: &RunReport) -> String {
    let mut text = String::from(
        "| worker | nodes | tasks | stolen | busy | before first task | between tasks | after last task | task median |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for worker in &report.workers {
        let between = worker.idle_ns.saturating_sub(worker.before_first_task_ns + worker.after_last_task_ns);
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1} µs |",
            worker.worker,
            worker.nodes,
            worker.tasks,
            worker.stolen,
            millis(worker.busy_ns as f64),
            millis(worker.before_first_task_ns as f64),
            millis(between as f64),
            millis(worker.after_last_task_ns as f64),
            worker.task_ns_median as f64 / 1e3
        );
    }
    text
}
