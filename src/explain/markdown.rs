//! The texts of `explain`: the ranked verdict for the terminal and the Markdown report
//! (runs table, ranked causes with intervals, gains, advice, per-worker table, the plot).

use super::advice::close_to_ideal_text;
use super::decompose::Outcome;
use super::measure::{tasks_per_worker, ConfigRuns};
use super::ranks::{rank_confidence, MIN_ROUNDS_TO_RANK};
use super::verdict::{RankedCause, Verdict};
use crate::format::{self, markdown_cell, TimeUnit};
use crate::run::RunReport;
use crate::statistics::{median_interval, ratio_interval, BootstrapSettings, Interval};
use std::fmt::Write;

/// `SLOWER than sequential`, `faster than sequential but short of the ideal`, `close to ideal`.
fn outcome_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::SlowerThanSequential => "SLOWER than sequential",
        Outcome::SlowerThanIdeal => "faster than sequential but short of the ideal",
        Outcome::CloseToIdeal => "close to the ideal",
    }
}

/// A share with its interval: `49.0% [44.1, 53.2]`.
fn share_interval_text(share: &str, interval: &Interval) -> String {
    format!("{share} [{:.1}, {:.1}]", interval.low * 100.0, interval.high * 100.0)
}

/// A speedup with its interval: `0.45x [0.44, 0.46]`.
fn speedup_text(speedup: &Interval) -> String {
    format!("{} [{:.2}, {:.2}]", format::factor(speedup.estimate), speedup.low, speedup.high)
}

/// The headline: outcome, times, speedup, lost time, and the leading cause (or the tie).
pub fn headline(verdict: &Verdict) -> String {
    let unit = TimeUnit::for_column([verdict.parallel_ns.estimate, verdict.sequential_ns.estimate]);
    let mut text = format!(
        "{} at {} threads is {}: {} vs {} sequential (speedup {}; ideal {}, lost {})",
        verdict.strategy,
        verdict.threads,
        outcome_text(verdict.outcome),
        format::duration_interval(&verdict.parallel_ns, unit),
        format::duration_interval(&verdict.sequential_ns, unit),
        speedup_text(&verdict.speedup),
        format::duration(verdict.ideal_ns),
        format::duration(verdict.lost_ns.max(0.0))
    );
    if verdict.outcome == Outcome::CloseToIdeal {
        return text;
    }
    let leading = verdict.leading_causes();
    let name_share = |cause: &RankedCause| {
        format!(
            "{} ({})",
            cause.cause.kind,
            share_interval_text(&format::percent(cause.cause.share), &cause.share_interval)
        )
    };
    match leading.as_slice() {
        [] => {
            if let Some(reason) = &verdict.cannot_rank {
                let _ = write!(text, ". No cause ranked: {reason}");
            }
        }
        [only] => {
            let _ = write!(text, ". Largest cause: {}, {}", name_share(only), only.cause.number);
        }
        tied => {
            let names: Vec<String> = tied.iter().map(|cause| name_share(cause)).collect();
            let _ = write!(
                text,
                ". Largest causes, tied (within 10 points of each other, or their difference's interval reaches 0): {}",
                names.join(", ")
            );
        }
    }
    text
}

/// What other processes did to the CPUs during the runs.
fn machine_text(verdict: &Verdict) -> String {
    let machine = &verdict.machine;
    // A round is busy for a one-second window above the limit, which a share over all the
    // runs may round to 0%: the two say different things, and both say which.
    let busy = format!(
        "{} of {} rounds measured while other processes used more than {:.0}% of the CPUs for a second or more",
        machine.busy_rounds,
        machine.rounds,
        crate::machine_guard::OTHER_CPU_LIMIT * 100.0
    );
    match machine.other_cpu_share {
        Some(share) => {
            format!("Machine: other processes used {:.1}% of the CPUs over all the runs; {busy}.", share * 100.0)
        }
        None => format!("Machine: /proc could not be read, so whether it was busy is unknown; {busy}."),
    }
}

/// The good strategy's line beside `naive`.
fn alternative_text(verdict: &Verdict) -> Option<String> {
    verdict.alternative.as_ref().map(|alternative| {
        format!(
            "The same search with `--parallel {}` at {} threads: {} (speedup {}).",
            alternative.strategy,
            verdict.threads,
            format::duration_interval(&alternative.wall_ns, TimeUnit::for_value(alternative.wall_ns.estimate)),
            speedup_text(&alternative.speedup)
        )
    })
}

/// The ranked verdict as plain text for the terminal.
pub fn verdict_text(verdict: &Verdict) -> String {
    let mut text = format!("{}\n", headline(verdict));
    if let Some(line) = alternative_text(verdict) {
        let _ = writeln!(text, "{line}");
    }
    text.push('\n');
    if let Some(line) = &verdict.branch_and_bound {
        let _ = writeln!(text, "{line}.\n");
    }
    for bug in &verdict.bugs {
        let _ = writeln!(text, "BUG: {bug}");
    }
    let unit = TimeUnit::for_column(verdict.causes.iter().map(|cause| cause.cause.lost_ns));
    let shares = percents(verdict);
    let _ = writeln!(
        text,
        "{:<12} {:<24} {:>12} {:>20}  number",
        "rank",
        "cause",
        format!("lost ({})", unit.symbol()),
        "share [95% interval]"
    );
    for (cause, share) in verdict.causes.iter().zip(&shares) {
        let _ = writeln!(
            text,
            "{:<12} {:<24} {:>12} {:>20}  {}",
            cause.rank.map_or("-".to_string(), |rank| rank.text()),
            cause.cause.kind,
            unit.number(cause.cause.lost_ns),
            share_interval_text(share, &cause.share_interval),
            cause.cause.number
        );
        for part in &cause.cause.parts {
            let _ = writeln!(text, "{:<12}   {:<22} {:>12}", "", part.kind, unit.number(part.lost_ns));
        }
    }
    let _ = writeln!(text, "\n{}", sum_line(verdict));
    for gain in &verdict.gains {
        let _ = writeln!(text, "gain: {} {} ({})", gain.kind, format::duration(gain.gained_ns), gain.evidence);
    }
    let _ = writeln!(text, "{} runs per configuration ({}).", verdict.runs, verdict.stopped);
    let _ = writeln!(text, "{}", machine_text(verdict));
    if verdict.outcome == Outcome::CloseToIdeal {
        let _ = writeln!(text, "\n{}.", close_to_ideal_text_of(verdict));
    }
    for advice in &verdict.advice {
        let _ = writeln!(text, "\n{}: {}.", advice.about, advice.text);
    }
    text
}

fn close_to_ideal_text_of(verdict: &Verdict) -> String {
    close_to_ideal_text(verdict.speedup.estimate, verdict.threads)
}

/// The shares as printed: one decimal, summing to exactly 100.0% when anything was lost.
fn percents(verdict: &Verdict) -> Vec<String> {
    format::percents_of_whole(&verdict.causes.iter().map(|cause| cause.cause.share).collect::<Vec<_>>())
}

/// How the causes add up.
fn sum_line(verdict: &Verdict) -> String {
    if verdict.lost_ns <= 0.0 {
        return format!(
            "Nothing was lost: the run took {} against an ideal of {}.",
            format::duration(verdict.parallel_ns.estimate),
            format::duration(verdict.ideal_ns)
        );
    }
    let gained: f64 = verdict.gains.iter().map(|gain| gain.gained_ns).sum();
    let mut line = format!(
        "The causes sum to {} (100%): the lost time {} (wall {} minus the ideal {})",
        format::duration(verdict.gross_ns),
        format::duration(verdict.lost_ns),
        format::duration(verdict.measurements.parallel.wall_ns),
        format::duration(verdict.ideal_ns)
    );
    if gained > 0.0 {
        let _ = write!(line, " plus the gains {}, which offset part of it", format::duration(gained));
    }
    if verdict.scale < 1.0 {
        let _ = write!(line, "; every cause scaled by {:.3} (see unexplained)", verdict.scale);
    }
    line.push('.');
    line
}

/// What the Markdown report is about.
pub struct ReportContext<'a> {
    /// The command line that produced it.
    pub command: String,
    /// Every configuration run (the explained one first).
    pub configs: &'a [ConfigRuns],
    /// The verdict.
    pub verdict: &'a Verdict,
    /// The plot's file name, beside the report; empty when no plot is drawn (a streamed report).
    pub plot_file: String,
}

/// The whole Markdown report.
pub fn report(context: &ReportContext) -> String {
    let verdict = context.verdict;
    let explained = context.configs[0].median_run();
    let mut text = format!(
        "# Why is {} at {} threads {} on {}?\n\n",
        explained.strategy,
        explained.threads,
        match verdict.outcome {
            Outcome::SlowerThanSequential => "slower than sequential",
            Outcome::SlowerThanIdeal => "short of the ideal",
            Outcome::CloseToIdeal => "(not) slow",
        },
        explained.source
    );
    let _ = write!(
        text,
        "Command: `{}`\n\nInstance `{}` ({}), knobs `{}`, {} search, {} available CPUs. Each configuration ran {} \
         times in rounds ({}); times are medians with 95% bootstrap intervals, and every share's interval comes from \
         resampling each configuration's runs and recomputing the decomposition.\n\n**{}**\n\n",
        context.command,
        explained.instance,
        explained.puzzle,
        markdown_cell(&explained.knob_text()),
        match (verdict.measurements.exhaustive, &verdict.branch_and_bound) {
            (true, _) => "exhaustive (all solutions)",
            (false, Some(_)) => "branch-and-bound",
            (false, None) => "first-solution",
        },
        verdict.measurements.available_cpus,
        verdict.runs,
        verdict.stopped,
        headline(verdict)
    );
    let _ = writeln!(text, "{}\n", machine_text(verdict));
    if let Some(line) = alternative_text(verdict) {
        let _ = writeln!(text, "{line}\n");
    }
    for bug in &verdict.bugs {
        let _ = writeln!(text, "> **BUG:** {bug}\n");
    }
    text.push_str(&runs_table(context.configs));
    if let Some(section) = super::anomaly::section(context.configs) {
        text.push('\n');
        text.push_str(&section);
    }
    text.push_str("\n## Causes, ranked\n\n");
    let widened = if verdict.runs >= MIN_ROUNDS_TO_RANK {
        format!(
            " (the middle {:.1}% of the resamples at {} rounds)",
            rank_confidence(verdict.runs) * 100.0,
            verdict.runs
        )
    } else {
        String::new()
    };
    let _ = write!(
        text,
        "A cause ranks above another when at least {MIN_ROUNDS_TO_RANK} rounds were measured, their shares differ by at least 10 points and the interval of the difference, widened for the number of rounds{widened}, excludes 0; otherwise they share a rank (\"tied\"). A cause with parts lists them below it.\n\n"
    );
    let unit = TimeUnit::for_column(verdict.causes.iter().map(|cause| cause.cause.lost_ns));
    let _ = writeln!(
        text,
        "| rank | cause | lost ({}) | share [95% interval] | number | evidence |\n|---|---|---:|---:|---|---|",
        unit.symbol()
    );
    for (cause, share) in verdict.causes.iter().zip(percents(verdict)) {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} |",
            cause.rank.map_or("-".to_string(), |rank| rank.text()),
            cause.cause.kind,
            unit.number(cause.cause.lost_ns),
            share_interval_text(&share, &cause.share_interval),
            markdown_cell(&cause.cause.number),
            markdown_cell(&cause.cause.evidence)
        );
        for part in &cause.cause.parts {
            let _ = writeln!(
                text,
                "| | … {} | {} | | | {} |",
                part.kind,
                unit.number(part.lost_ns),
                markdown_cell(&part.evidence)
            );
        }
    }
    let _ = writeln!(text, "\n{}\n", sum_line(verdict));
    if !verdict.gains.is_empty() {
        text.push_str("Gains (time the parallel run saved, offsetting the causes):\n\n");
        for gain in &verdict.gains {
            let _ = writeln!(text, "- **{}**: {} ({})", gain.kind, format::duration(gain.gained_ns), gain.evidence);
        }
        text.push('\n');
    }
    text.push_str("## What to do\n\n");
    if verdict.outcome == Outcome::CloseToIdeal {
        let _ = writeln!(text, "Nothing: {}.", close_to_ideal_text_of(verdict));
    }
    for advice in &verdict.advice {
        let _ = writeln!(text, "- **{}**: {}.", advice.about, advice.text);
    }
    let _ = write!(text, "\n## Workers of the median {} run\n\n", context.configs[0].label);
    text.push_str(&worker_table(explained));
    text.push_str(
        "\nTasks are the units of work a worker took (a subproblem, a stolen branch, a batch of leaves for `naive`).\n\n",
    );
    if !context.plot_file.is_empty() {
        let _ = write!(text, "![lost time per cause and worker time]({})\n\n", context.plot_file);
    }
    text.push_str("Method: see `docs/why-slower.md`.\n");
    text
}

fn runs_table(configs: &[ConfigRuns]) -> String {
    let settings = BootstrapSettings::default();
    let sequential: Vec<f64> = configs
        .iter()
        .find(|config| config.settings.strategy == crate::parallel::Strategy::Sequential)
        .map(ConfigRuns::walls)
        .unwrap_or_default();
    let medians: Vec<Interval> = configs.iter().map(|config| median_interval(&config.walls(), settings)).collect();
    let unit = TimeUnit::for_column(medians.iter().map(|interval| interval.estimate));
    let mut text = format!(
        "## Runs\n\n| configuration | wall ({}) [95% interval] | nodes | CPU ({}) | tasks per worker | idle | speedup [95% interval] |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
        unit.symbol(),
        unit.symbol()
    );
    for (config, wall) in configs.iter().zip(&medians) {
        let median = config.median_run();
        let parallel = config.settings.strategy != crate::parallel::Strategy::Sequential;
        let _ = writeln!(
            text,
            "| {} | {} [{}, {}] | {} | {} | {} | {} | {} |",
            config.label,
            unit.number(wall.estimate),
            unit.number(wall.low),
            unit.number(wall.high),
            format::count(median.nodes),
            unit.number((median.parallel.user_cpu_ns + median.parallel.system_cpu_ns) as f64),
            if parallel { format::significant(tasks_per_worker(median)) } else { String::new() },
            if parallel { format::percent(median.parallel.idle_share) } else { String::new() },
            speedup_text(&ratio_interval(&sequential, &config.walls(), settings))
        );
    }
    text.push_str(
        "\nThe CPU, tasks and idle columns are those of the run with the median wall time; empty: not applicable.\n",
    );
    text
}

fn worker_table(report: &RunReport) -> String {
    let unit = TimeUnit::for_column(report.workers.iter().map(|worker| worker.busy_ns as f64));
    let mut text = format!(
        "| worker | nodes | tasks | stolen | busy ({0}) | before first task ({0}) | between tasks ({0}) | after last task ({0}) | task median (µs) |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        unit.symbol()
    );
    for worker in &report.workers {
        let between = worker.idle_ns.saturating_sub(worker.before_first_task_ns + worker.after_last_task_ns);
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            worker.worker,
            format::count(worker.nodes),
            format::count(worker.tasks),
            format::count(worker.stolen),
            unit.number(worker.busy_ns as f64),
            unit.number(worker.before_first_task_ns as f64),
            unit.number(between as f64),
            unit.number(worker.after_last_task_ns as f64),
            TimeUnit::Microseconds.number(worker.task_ns_median as f64)
        );
    }
    text
}
