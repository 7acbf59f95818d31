//! The sweep loop: runs each configuration of a plan (warm-ups, then repeats until the
//! plan's stopping rule is met), appends one record and its counts per run, and stops
//! cleanly between runs when asked.
//!
//! Failures are outcomes, not aborts: a configuration that cannot start, panics, or reaches
//! its node limit is recorded as such and the sweep goes on. `--resume` reads the folder's
//! run logs of the sweep and runs only what is missing. The stop flag (set by Ctrl-C or
//! SIGTERM) is checked before every run; the run in progress finishes and is recorded.

use super::instance_digests::record_digests;
use super::plan::{Configuration, SweepPlan};
use super::progress::Progress;
use super::resume::{is_done, other_plan_note, recorded_runs, refuse_another_instance, Recorded, RecordedRuns};
use super::work_estimate::WorkEstimate;
use crate::environment::{process_cpu_ns, timestamp_now, Environment};
use crate::format::{self, TimeUnit};
use crate::harness::error::HarnessError;
use crate::harness::storing::counts::{count_rows, CountRow};
use crate::harness::storing::csv_log::cut_last_line_note;
use crate::harness::storing::history::{
    clear_completion_mark, completion_mark, keep_superseded_logs, mark_complete, KeptRun,
};
use crate::harness::storing::output_target::named_file_target;
use crate::harness::storing::record::{status, RunRecord, BATCH_TARGET_NS};
use crate::harness::storing::results_folder::{
    counts_file_for, digests_file_for, holds_runs, refuse_foreign_logs, runs_file, summary_file, write_summary, Shard,
};
use crate::harness::storing::run_columns::RunColumnCells;
use crate::harness::storing::run_logs::RunLogs;
use crate::harness::storing::stale_temporaries::remove_stale_temporaries;
use crate::harness::storing::sweep_lock::{SweepLock, WhenBusy};
use crate::machine_guard::{self, MachineGuard};
use crate::parallel::catch_model_panic;
use crate::run;
use crate::run::instance::Instance;
use crate::statistics::{median_interval, BootstrapSettings, StoppingState};
use crate::stderr_line::note;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Most calls in one batch (a guard against a search that reports no time at all).
const MAX_BATCH: u64 = 1_000_000;

/// A warm-up run at least this long makes further warm-ups of the configuration pointless.
const LONG_WARMUP: Duration = Duration::from_secs(1);

/// How a sweep runs, apart from its plan.
#[derive(Debug, Clone)]
pub struct SweepOptions {
    /// The results folder.
    pub out_dir: PathBuf,
    /// Continue the folder's run logs, running only configurations not yet recorded.
    pub resume: bool,
    /// Run only this slice of the plan.
    pub shard: Option<Shard>,
    /// No progress bar and no per-configuration lines.
    pub quiet: bool,
    /// When another run of this sweep holds the folder: wait for it (`--wait`) or refuse.
    pub when_busy: WhenBusy,
}

/// What a sweep did.
#[derive(Debug, Clone)]
pub struct SweepOutcome {
    /// The run log written.
    pub runs_file: PathBuf,
    /// The summary written (none for a shard: `report` merges the shards).
    pub summary_file: Option<PathBuf>,
    /// Configurations in this slice.
    pub configurations: usize,
    /// Configurations skipped because `--resume` found them recorded.
    pub already_recorded: usize,
    /// Records appended.
    pub runs_recorded: usize,
    /// Configurations with an `error`, `panic` or `verify-failed` run.
    pub failed: usize,
    /// Configurations stopped by their node limit.
    pub limited: usize,
    /// Configurations whose repeats were cut short by the time budget.
    pub over_budget: usize,
    /// Whether the stop flag ended the sweep early.
    pub interrupted: bool,
    /// Wall time of the whole sweep.
    pub elapsed: Duration,
    /// Notes about skipped CSV lines.
    pub notes: Vec<String>,
    /// Earlier runs this fresh run superseded, kept in `history/` (told on stderr at once).
    pub kept: Vec<KeptRun>,
}

/// Runs the plan's slice, appending to the folder's run log; returns what happened.
pub fn run_sweep(plan: &SweepPlan, options: &SweepOptions, stop: &AtomicBool) -> Result<SweepOutcome, HarnessError> {
    let started = Instant::now();
    // Held until the sweep returns: everything below reads and writes the folder's logs.
    let _lock = SweepLock::acquire(&options.out_dir, &plan.sweep, options.shard, options.when_busy, |line| {
        note!("backtrack-bench: {line}")
    })?;
    if options.shard.is_none() {
        // The summary is written after the runs: a name held by a folder or a FIFO is
        // refused before them, not found after hours of runs.
        named_file_target(&summary_file(&options.out_dir, &plan.sweep))?;
    }
    let path = runs_file(&options.out_dir, &plan.sweep, options.shard);
    // The run log and its counts file are appended to (or kept in the history first): a
    // folder or a device at their names is refused before anything moves. Their completion
    // mark too (made and removed around the runs).
    for own_file in [path.clone(), counts_file_for(&path), completion_mark(&path), digests_file_for(&path)] {
        named_file_target(&own_file)?;
    }
    // A file of the user's at a log's name is neither read as runs, replaced nor moved.
    refuse_foreign_logs(&options.out_dir, &plan.sweep, &path)?;
    let RecordedRuns { runs: recorded, mut notes, other_instance, sources_with_runs } =
        if options.resume { recorded_runs(plan, &options.out_dir)? } else { RecordedRuns::default() };
    let counts = counts_file_for(&path);
    // This process's own log (another shard's logs are read for `recorded` too).
    if options.resume && holds_runs(&path) && !counts.exists() {
        // Runs recorded, their counts file gone: the records are kept, and the report lacks
        // their counts per depth and per rule; said now, not found out in the report.
        notes.push(format!(
            "{}: missing: the counts per depth and per rule of the runs {} records are lost (the records are \
             kept); run the sweep into a new --out to have them",
            counts.display(),
            path.display()
        ));
    }
    if let Some(note) = other_plan_note(plan, &recorded) {
        // At once, not with the notes at the end: the user may stop the runs here.
        note!("backtrack-bench: {note}");
    }
    notes.extend(removed_temporaries(&options.out_dir));
    let slice = plan.slice(options.shard);
    let mut outcome = SweepOutcome {
        runs_file: path.clone(),
        summary_file: None,
        configurations: slice.len(),
        already_recorded: 0,
        runs_recorded: 0,
        failed: 0,
        limited: 0,
        over_budget: 0,
        interrupted: false,
        elapsed: Duration::ZERO,
        notes,
        kept: Vec::new(),
    };
    let pending: Vec<(&Configuration, Recorded)> = slice
        .into_iter()
        .filter_map(|config| {
            let done = recorded.get(&config.id).copied().unwrap_or_default();
            if is_done(done, config.repeats) {
                outcome.already_recorded += 1;
                None
            } else {
                Some((config, done))
            }
        })
        .collect();
    refuse_another_instance(pending.iter().map(|(config, _)| config.id.as_str()), &other_instance)?;
    if options.resume && pending.is_empty() {
        return finish_without_runs(plan, options, outcome, started);
    }
    if !options.resume {
        // A fresh run must not be summarized together with rows of an earlier one, nor lose
        // them: they move into the history, and the user hears where at once (and can still
        // stop this run to resume that one instead).
        outcome.kept = keep_superseded_logs(&options.out_dir, &plan.sweep, options.shard)?;
        for run in &outcome.kept {
            note!("backtrack-bench: {}", run.describe(&plan.sweep, &options.out_dir));
        }
    }
    // The log is about to grow: it is finished again only when this run ends.
    clear_completion_mark(&path)?;
    // What each instance to run holds now, before any run of it is recorded (a resume
    // compares); a fresh log holds no runs whose digests would stay.
    let to_run = pending.iter().filter_map(|(config, _)| match plan.instances.get(&config.source) {
        Some(Ok(instance)) => Some((config.source.as_str(), instance)),
        _ => None,
    });
    let with_runs =
        if options.resume { sources_with_runs.get(&path).cloned().unwrap_or_default() } else { Default::default() };
    record_digests(&path, to_run, &with_runs)?;
    let (mut log, repairs) = RunLogs::open(&path, &counts, options.resume)?;
    // The log's cut-off last line was just dropped, and said: not said again at the end.
    let said = cut_last_line_note(&path);
    outcome.notes.retain(|note| *note != said);
    outcome.notes.extend(repairs);
    let guard = MachineGuard::start(|line| note!("backtrack-bench: {line}"));
    let environment = Environment::detect();
    let shard_text = options.shard.map(|shard| shard.to_string()).unwrap_or_default();
    let runs_to_do: Vec<(&Configuration, u64)> =
        pending.iter().map(|&(config, done)| (config, runs_left(config, done.runs))).collect();
    let uniform = || WorkEstimate::uniform(&runs_to_do.iter().map(|&(_, runs)| runs).collect::<Vec<_>>());
    let mut work = if Progress::would_draw(options.quiet) {
        let cores = crate::machine_guard::available_cpus();
        // The estimate probes every configuration's model: one that panics there panics in
        // its runs too, where the panic is recorded; the bar then counts runs instead.
        catch_model_panic(|| WorkEstimate::from_tree_sizes(plan, &runs_to_do, cores)).unwrap_or_else(|_| uniform())
    } else {
        uniform()
    };
    let progress = Progress::start(work.remaining_ns(), options.quiet);
    let count = pending.len();
    for (position, (config, done)) in pending.into_iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            outcome.interrupted = true;
            break;
        }
        progress.set_label(&config.label());
        let context = RunContext { plan, config, shard: &shard_text, environment: &environment, stop, guard: &guard };
        let mut tracker = WorkTracker { work: &mut work, position, progress: &progress };
        let result = run_configuration(&context, done, &mut log, &mut tracker)?;
        outcome.runs_recorded += result.records.len();
        outcome.interrupted |= result.interrupted;
        let last = result.records.last();
        match last.map(|record| record.status.as_str()) {
            Some(status::ERROR | status::PANIC | status::VERIFY_FAILED) => outcome.failed += 1,
            Some(status::LIMIT) => outcome.limited += 1,
            _ => {}
        }
        outcome.over_budget += usize::from(result.over_budget);
        if let Some(record) = last {
            progress.log(&describe(position + 1, count, config, &result.records, record));
        }
        if outcome.interrupted {
            break;
        }
    }
    progress.finish();
    guard.stop();
    if !outcome.interrupted {
        mark_complete(&outcome.runs_file)?;
    }
    if options.shard.is_none() {
        let (summary, _, notes) = write_summary(&options.out_dir, &plan.sweep)?;
        outcome.summary_file = Some(summary);
        outcome.notes.extend(notes);
    }
    outcome.elapsed = started.elapsed();
    Ok(outcome)
}

/// A `--resume` that finds every configuration of its slice recorded: runs nothing, says
/// so, marks the log complete (a sweep killed after its last record has no mark yet) and
/// rewrites the summary.
fn finish_without_runs(
    plan: &SweepPlan,
    options: &SweepOptions,
    mut outcome: SweepOutcome,
    started: Instant,
) -> Result<SweepOutcome, HarnessError> {
    outcome.notes.push(format!("nothing to run: all {} configurations are recorded", outcome.configurations));
    if outcome.runs_file.exists() {
        mark_complete(&outcome.runs_file)?;
    }
    if options.shard.is_none() {
        let (summary, _, notes) = write_summary(&options.out_dir, &plan.sweep)?;
        outcome.summary_file = Some(summary);
        outcome.notes.extend(notes);
    }
    outcome.elapsed = started.elapsed();
    Ok(outcome)
}

/// Removes the temporary files killed processes left in the results folder and its
/// `plots/`; one note per file removed.
pub fn removed_temporaries(out_dir: &std::path::Path) -> Vec<String> {
    [out_dir.to_path_buf(), out_dir.join("plots")]
        .iter()
        .flat_map(|folder| remove_stale_temporaries(folder))
        .map(|path| format!("removed {}, a temporary file left by a process that was killed", path.display()))
        .collect()
}

/// What every run of one configuration needs.
struct RunContext<'a> {
    guard: &'a MachineGuard,
    plan: &'a SweepPlan,
    config: &'a Configuration,
    shard: &'a str,
    environment: &'a Environment,
    stop: &'a AtomicBool,
}

/// The progress of one configuration's runs, passed on to the bar between runs.
struct WorkTracker<'a> {
    work: &'a mut WorkEstimate,
    position: usize,
    progress: &'a Progress,
}

impl WorkTracker<'_> {
    fn run_starting(&self) {
        self.progress.run_starting(self.work.next_run_ns(self.position));
    }

    fn run_finished(&mut self, elapsed: Duration) {
        self.work.run_finished(self.position, elapsed.as_nanos() as u64);
        self.publish();
    }

    fn skip(&mut self, runs: u64) {
        self.work.skip(self.position, runs);
        self.publish();
    }

    fn skip_rest(&mut self) {
        self.work.skip_rest(self.position);
        self.publish();
    }

    fn publish(&self) {
        self.progress.set_work(self.work.done_ns(), self.work.remaining_ns());
    }
}

struct ConfigurationResult {
    records: Vec<RunRecord>,
    interrupted: bool,
    over_budget: bool,
}

fn run_configuration(
    context: &RunContext,
    done: Recorded,
    log: &mut RunLogs,
    tracker: &mut WorkTracker,
) -> Result<ConfigurationResult, HarnessError> {
    let config = context.config;
    let mut result = ConfigurationResult { records: Vec::new(), interrupted: false, over_budget: false };
    let rule = context.plan.stopping_rule(config);
    let started = Instant::now();
    let instance = match context.plan.instances.get(&config.source) {
        Some(Ok(instance)) => instance,
        Some(Err(failure)) => {
            let status = if failure.family_panicked { status::PANIC } else { status::ERROR };
            let record = failed_record(context, done.next_repeat, status, &failure.message);
            log.append(&record, &[])?;
            result.records.push(record);
            tracker.skip_rest();
            return Ok(result);
        }
        None => unreachable!("the plan loaded every instance it names"),
    };
    let mut warmed_up = false;
    for _ in 0..config.warmup {
        if context.stop.load(Ordering::Relaxed) {
            result.interrupted = true;
            break;
        }
        // Warm-ups count inside the configuration's budget: once it is spent, the rest are
        // skipped and the timed runs begin (at least one is always taken).
        let budget_spent = rule.time_budget.is_some_and(|budget| started.elapsed() >= budget);
        if warmed_up || budget_spent {
            tracker.skip(1);
            continue;
        }
        tracker.run_starting();
        let run_started = Instant::now();
        let (record, counts) = run_once(context, instance, done.next_repeat);
        tracker.run_finished(run_started.elapsed());
        if record.status == status::OK {
            warmed_up = record.wall_ns >= LONG_WARMUP.as_nanos() as u64;
            continue;
        }
        // A warm-up that fails or reaches the node limit would do the same when timed:
        // record it as the one timed run and stop.
        log.append(&record, &counts)?;
        result.records.push(record);
        tracker.skip_rest();
        return Ok(result);
    }
    // Runs a resumed configuration already has count toward the maximum; the interval is
    // judged on this session's runs (earlier ones may come from another build).
    let mut times: Vec<f64> = Vec::new();
    let mut repeat = done.next_repeat;
    let mut measured = done.runs;
    while !result.interrupted && measured < rule.max_runs {
        if context.stop.load(Ordering::Relaxed) {
            result.interrupted = true;
            break;
        }
        let state = rule.state(&times, started.elapsed());
        if !times.is_empty() && state != StoppingState::Continue {
            // The loop runs only while fewer than `repeats` were measured: a stop for the
            // budget here cut the repeats short.
            result.over_budget = state == StoppingState::Budget;
            break;
        }
        tracker.run_starting();
        let run_started = Instant::now();
        let (record, counts) = run_once(context, instance, repeat);
        tracker.run_finished(run_started.elapsed());
        log.append(&record, &counts)?;
        let stop_repeating = record.status != status::OK;
        times.push(record.wall_ns as f64);
        result.records.push(record);
        repeat += 1;
        measured += 1;
        if stop_repeating {
            break;
        }
    }
    tracker.skip_rest();
    Ok(result)
}

/// One run, measured and recorded, whatever happens. A search faster than
/// [`BATCH_TARGET_NS`] is called again until the calls together took that long (a batch),
/// and the record holds the time per call.
fn run_once(context: &RunContext, instance: &Instance, repeat: u32) -> (RunRecord, Vec<CountRow>) {
    let config = context.config;
    let mut record = new_record(context, repeat);
    record.puzzle = instance.family.name().to_string();
    record.instance = instance.id.clone();
    record.instance_title = instance.title.clone();
    let mut batch = 0;
    let mut total_elapsed_ns = 0;
    machine_guard::peak_memory::reset();
    let mark = context.guard.mark();
    let cpu_before = process_cpu_ns();
    // A model's panic comes back as the run's error, with the node where it happened; this
    // catches any other panic (and prints nothing: the record holds its message).
    let outcome = catch_model_panic(|| {
        // The knobs are read once; the repeats of a batch reuse the prepared instance.
        let prepared = run::prepare(instance, &config.run.knobs)?;
        loop {
            let report = prepared.solve(&config.run)?;
            batch += 1;
            total_elapsed_ns += report.elapsed_ns;
            let repeatable =
                report.complete && report.components.iter().all(|component| component.verify_failures.is_empty());
            if !repeatable || total_elapsed_ns >= BATCH_TARGET_NS || batch >= MAX_BATCH {
                return Ok::<_, run::RunError>(report);
            }
        }
    });
    let cpu_after = process_cpu_ns();
    let machine = context.guard.run_state(&mark);
    record.machine_quiet = machine.machine_quiet;
    record.other_cpu_share = machine.other_cpu_share;
    record.load_average = machine.load_average;
    record.peak_rss_kib = machine.peak_rss_kib;
    let cpu_used = (cpu_after.0.saturating_sub(cpu_before.0), cpu_after.1.saturating_sub(cpu_before.1));
    let mut counts = Vec::new();
    match outcome {
        Ok(Ok(report)) => {
            record.finish(&report, batch, total_elapsed_ns, cpu_used);
            counts = count_rows(&record.sweep, &record.config_id, repeat, &report);
        }
        Ok(Err(error @ run::RunError::ModelPanicked(_))) => record.fail(status::PANIC, &error.to_string()),
        Ok(Err(error)) => record.fail(status::ERROR, &error.to_string()),
        Err(panic) => record.fail(status::PANIC, &format!("panicked: {panic}")),
    }
    record.timestamp = timestamp_now();
    (record, counts)
}

fn new_record(context: &RunContext, repeat: u32) -> RunRecord {
    let sweep = (context.plan.sweep.as_str(), context.plan.origin.as_str());
    start_record(sweep, context.config, repeat, context.shard, context.environment)
}

fn failed_record(context: &RunContext, repeat: u32, status: &str, message: &str) -> RunRecord {
    let mut record = new_record(context, repeat);
    record.fail(status, message);
    record.timestamp = timestamp_now();
    record
}

/// One line about a finished configuration.
fn describe(position: usize, count: usize, config: &Configuration, records: &[RunRecord], last: &RunRecord) -> String {
    let head = format!("[{position}/{count}] {}", config.label());
    if !last.measured() {
        return format!("{head}: {} ({})", last.status, last.error);
    }
    let measured = || records.iter().filter(|record| record.measured());
    let times: Vec<f64> = measured().map(|record| record.wall_ns as f64).collect();
    let median = median_interval(&times, BootstrapSettings::default());
    // The median nodes, as the summary gives them (a parallel run's vary from run to run).
    let nodes = crate::harness::storing::summary::median(measured().map(|record| record.nodes));
    format!(
        "{head}: {}, {} nodes, median {} over {} run(s)",
        last.status,
        format::count(nodes),
        format::duration_interval(&median, TimeUnit::for_value(median.estimate)),
        times.len()
    )
}

/// A record of `config` with everything but the outcome filled in.
fn start_record(
    (sweep, spec): (&str, &str),
    config: &Configuration,
    repeat: u32,
    shard: &str,
    environment: &Environment,
) -> RunRecord {
    RunRecord {
        sweep: sweep.to_string(),
        spec: spec.to_string(),
        config_id: config.id.clone(),
        config_index: config.index,
        repeat,
        shard: shard.to_string(),
        source: config.source.clone(),
        variant: config.variant.clone(),
        knobs: config.knob_text(),
        repeats_planned: config.repeats,
        warmup: config.warmup,
        batch: 1,
        ..RunRecord::default()
    }
    .with_run_columns(RunColumnCells::from(&config.run))
    .with_environment(environment)
}

/// The runs a pending configuration has left, warm-ups included, in `u64`: a `u32` sum of
/// the two counts could wrap.
fn runs_left(config: &Configuration, runs_done: u32) -> u64 {
    (u64::from(config.warmup) + u64::from(config.repeats)).saturating_sub(u64::from(runs_done))
}
