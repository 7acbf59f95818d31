//! `sweep`: expand a spec into configurations and run them, appending to the results folder.

use super::args::SweepArgs;
use super::failure::{Failure, EXIT_INTERRUPTED};
use crate::harness::storing::results_folder::Shard;
use crate::harness::storing::sweep_lock::WhenBusy;
use crate::harness::sweeping::plan;
use crate::harness::sweeping::runner::{run_sweep, SweepOptions, SweepOutcome};
use crate::harness::sweeping::spec::{Overrides, SweepSpec};
use crate::harness::HarnessError;
use crate::run::thread_list::{check_the_cap, parse_thread_list};
use crate::run::RunSettings;
use crate::stderr_line::note;
use serde_json::json;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Set by the first Ctrl-C: the runner stops after the run in progress.
static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler once: the first press asks the sweep to stop after the
/// current run; the second exits at once (every recorded line is already complete).
fn install_interrupt_handler() -> &'static AtomicBool {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    static PRESSES: AtomicUsize = AtomicUsize::new(0);
    INSTALLED.get_or_init(|| {
        let result = ctrlc::set_handler(|| {
            if PRESSES.fetch_add(1, Ordering::SeqCst) == 0 {
                STOP.store(true, Ordering::SeqCst);
                note!("\n{}: stopping after the current run (Ctrl-C again to quit now)", crate::run::program_name());
            } else {
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
        });
        if let Err(error) = result {
            note!("{}: warning: Ctrl-C will not stop the sweep cleanly: {error}", crate::run::program_name());
        }
    });
    &STOP
}

/// The spec with the command line's overrides applied.
pub fn resolve_spec(args: &SweepArgs) -> Result<SweepSpec, Failure> {
    let bad = |error: HarnessError| Failure::bad_input(error);
    let mut spec = match (&args.preset, &args.spec) {
        (_, Some(path)) => SweepSpec::load(path).map_err(bad)?,
        (Some(name), None) => SweepSpec::preset(name).map_err(bad)?,
        (None, None) => SweepSpec::preset("quick").map_err(bad)?,
    };
    let threads = match &args.threads {
        Some(text) => {
            let counts =
                parse_thread_list(text).map_err(|message| Failure::bad_input(format!("--threads: {message}")))?;
            // `cores*N` past the pool's cap on this machine is the flag's mistake, not the spec's.
            let cores = crate::machine_guard::available_cpus();
            check_the_cap(&counts, cores)
                .map_err(|refused| Failure::bad_input(format!("--threads {text}: {refused}")))?;
            Some(counts)
        }
        None => None,
    };
    if let Some(name) = &args.name {
        if !crate::harness::sweeping::spec::valid_sweep_name(name) {
            let rule = crate::harness::sweeping::spec::SWEEP_NAME_RULE;
            return Err(Failure::bad_input(format!("--name: `{name}` {rule}")));
        }
    }
    spec.apply(&Overrides {
        threads,
        repeats: args.repeats,
        warmup: args.warmup,
        node_limit: args.node_limit,
        name: args.name.clone(),
    });
    Ok(spec)
}

/// Runs `sweep`; `Ok(true)` when it ran to the end, `Ok(false)` when Ctrl-C stopped it.
pub fn run(args: &SweepArgs) -> Result<bool, Failure> {
    let spec = resolve_spec(args)?;
    let shard = args.shard.as_deref().map(Shard::parse).transpose().map_err(Failure::bad_input)?;
    let cores = crate::machine_guard::available_cpus();
    let plan = plan::expand(&spec, cores).map_err(|error| {
        if error.is_family_panic() {
            Failure::model_panicked(error)
        } else {
            Failure::bad_input(error)
        }
    })?;
    Failure::unless_out_folder(&args.out, "results")?;
    for note in &plan.notes {
        note!("{}: {note}", crate::run::program_name());
    }
    if args.dry_run {
        return if args.json { print_plan_json(&plan, shard) } else { print_plan(&plan, shard) }.map(|()| true);
    }
    // Installed before the lock is taken: a Ctrl-C while `--wait` waits for the folder's
    // other run ends the wait (within `sweep_lock::WAIT_SLICE`), not the other run's end.
    let stop = install_interrupt_handler();
    let when_busy = if args.wait { WhenBusy::WaitUnless(stop) } else { WhenBusy::Refuse };
    let options = SweepOptions {
        out_dir: args.out.clone(),
        resume: args.resume,
        shard,
        quiet: args.quiet || args.json,
        when_busy,
    };
    let outcome = run_sweep(&plan, &options, stop).map_err(|error| {
        if error.is_bad_input() {
            Failure::bad_input(error)
        } else {
            Failure::failed(error)
        }
    })?;
    if args.json {
        print_outcome_json(&outcome)?;
    } else {
        print_outcome(&outcome, &options.out_dir, args.quiet);
    }
    if outcome.interrupted {
        return Ok(false);
    }
    if outcome.failed > 0 {
        return Err(Failure::failed(format!(
            "{} configuration(s) failed; their rows say why (status error/panic/verify-failed)",
            outcome.failed
        )));
    }
    Ok(true)
}

fn print_plan(plan: &plan::SweepPlan, shard: Option<Shard>) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let run_columns = RunSettings::COLUMNS.join("\t");
    writeln!(out, "index\tconfig_id\tsource\tvariant\t{run_columns}\trepeats\twarmup")?;
    for config in plan.slice(shard) {
        let values = config.run.column_values();
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            config.index,
            config.id,
            config.source,
            config.variant,
            values.join("\t"),
            config.repeats,
            config.warmup,
        )?;
    }
    Ok(())
}

/// The configurations as a JSON array, one object per configuration.
fn print_plan_json(plan: &plan::SweepPlan, shard: Option<Shard>) -> Result<(), Failure> {
    let configurations: Vec<serde_json::Value> = plan
        .slice(shard)
        .into_iter()
        .map(|config| {
            let mut object = json!({
                "index": config.index,
                "config_id": config.id,
                "source": config.source,
                "variant": config.variant,
                "knobs": config.run.knobs.iter().map(|(name, value)| (name.clone(), json!(value))).collect::<serde_json::Map<_, _>>(),
                "repeats": config.repeats,
                "warmup": config.warmup,
            });
            for (name, value) in RunSettings::COLUMNS.into_iter().zip(config.run.column_values()) {
                // Numbers stay numbers in JSON.
                object[name] = value.parse::<u64>().map_or_else(|_| json!(value), |number| json!(number));
            }
            object
        })
        .collect();
    let text = json!({ "sweep": plan.sweep, "configurations": configurations });
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}

/// The sweep's outcome as one JSON object; notes go to stderr as usual.
fn print_outcome_json(outcome: &SweepOutcome) -> Result<(), Failure> {
    for note in &outcome.notes {
        note!("{}: {note}", crate::run::program_name());
    }
    let text = json!({
        "configurations": outcome.configurations,
        "already_recorded": outcome.already_recorded,
        "runs_recorded": outcome.runs_recorded,
        "failed": outcome.failed,
        "limited": outcome.limited,
        "over_budget": outcome.over_budget,
        "interrupted": outcome.interrupted,
        "elapsed_s": outcome.elapsed.as_secs_f64(),
        "runs_file": outcome.runs_file,
        "summary_file": outcome.summary_file,
        "notes": outcome.notes,
        "history": outcome.kept.iter().map(|run| json!({
            "entry": run.entry,
            "logs": run.logs,
            "rows": run.rows,
            "unfinished": run.unfinished,
        })).collect::<Vec<_>>(),
    });
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}

fn print_outcome(outcome: &SweepOutcome, out_dir: &std::path::Path, quiet: bool) {
    for note in &outcome.notes {
        note!("{}: {note}", crate::run::program_name());
    }
    if quiet {
        return;
    }
    let mut line = format!(
        "sweep: {} configurations ({} already recorded), {} runs recorded in {:.1} s -> {}",
        outcome.configurations,
        outcome.already_recorded,
        outcome.runs_recorded,
        outcome.elapsed.as_secs_f64(),
        outcome.runs_file.display()
    );
    if outcome.limited > 0 {
        line.push_str(&format!("; {} stopped by the node limit", outcome.limited));
    }
    if outcome.over_budget > 0 {
        line.push_str(&format!("; {} cut short by the time budget", outcome.over_budget));
    }
    if outcome.interrupted {
        line.push_str("; interrupted: run again with --resume to finish");
    }
    note!("{line}");
    match &outcome.summary_file {
        Some(summary) => {
            note!("summary: {}", summary.display());
            if !outcome.kept.is_empty() {
                note!(
                    "compare with the previous run: {} report --out {} (the earlier rows are in its history/)",
                    crate::run::program_name(),
                    out_dir.display()
                );
            }
        }
        // Interrupted, the shard is not done: the line above says how to finish it.
        None if outcome.interrupted => {}
        None => note!(
            "shard done; merge the shards with `{} report --out {}`",
            crate::run::program_name(),
            out_dir.display()
        ),
    }
}
