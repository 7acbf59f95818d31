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
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Set by the first Ctrl-C or SIGTERM: the runner stops after the run in progress.
static STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-Cs and SIGTERMs received so far, counted together: the first stops the sweep after
/// the run in progress, the second quits at once.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);

/// Whether a sweep is running (waiting for the lock included): after it, nothing is left
/// to stop cleanly, so a signal quits at once instead of asking a finished runner to stop.
static SWEEPING: AtomicBool = AtomicBool::new(false);

/// The write end of the pipe the SIGTERM handler writes one byte to (-1 before it exists).
static TERM_PIPE: AtomicI32 = AtomicI32::new(-1);

/// Installs the Ctrl-C and SIGTERM handlers once. Both act alike: the first signal asks the
/// sweep to stop after the current run (its summary is written, exit 130); the second exits
/// at once (every recorded line is already complete). SIGTERM is what `kill`, `timeout`,
/// Slurm's `scancel` and its time limit send: it used to end the sweep at once with no
/// summary and no word on how to finish it.
fn install_interrupt_handler() -> &'static AtomicBool {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        if let Err(error) = ctrlc::set_handler(|| on_stop_signal("Ctrl-C")) {
            note!("{}: warning: Ctrl-C will not stop the sweep cleanly: {error}", crate::run::program_name());
        }
        if let Err(error) = install_sigterm_handler() {
            note!("{}: warning: SIGTERM will not stop the sweep cleanly: {error}", crate::run::program_name());
        }
    });
    &STOP
}

/// What a Ctrl-C or a SIGTERM does, on an ordinary thread (not in a signal handler), so
/// it may print and exit.
fn on_stop_signal(signal: &str) {
    if SIGNALS.fetch_add(1, Ordering::SeqCst) == 0 && SWEEPING.load(Ordering::SeqCst) {
        STOP.store(true, Ordering::SeqCst);
        let again = if signal == "Ctrl-C" { "Ctrl-C again" } else { "another SIGTERM or Ctrl-C" };
        note!("\n{}: {signal}: stopping after the current run ({again} to quit now)", crate::run::program_name());
    } else {
        std::process::exit(i32::from(EXIT_INTERRUPTED));
    }
}

/// Installs the SIGTERM handler as the `ctrlc` crate does for SIGINT (its `termination`
/// feature is off): the handler only writes a byte to a pipe, and a thread reading the
/// pipe does the rest ([`on_stop_signal`]), since a signal handler may not lock, allocate
/// or print.
fn install_sigterm_handler() -> std::io::Result<()> {
    use std::os::fd::FromRawFd;
    let mut ends = [0 as libc::c_int; 2];
    // SAFETY: `pipe` writes two descriptors into an array of two.
    if unsafe { libc::pipe(ends.as_mut_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let [read_end, write_end] = ends;
    // SAFETY: fcntl on descriptors this function owns. Close-on-exec: a child the sweep
    // starts (`git`) must not keep the pipe; non-blocking: the handler never waits on a
    // full pipe (a byte already there wakes the reader as well).
    unsafe {
        libc::fcntl(read_end, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(write_end, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(write_end, libc::F_SETFL, libc::O_NONBLOCK);
    }
    // SAFETY: `read_end` is open and owned by nothing else.
    let mut reader = unsafe { std::fs::File::from_raw_fd(read_end) };
    std::thread::Builder::new().name("sigterm".into()).spawn(move || {
        let mut byte = [0u8];
        loop {
            match std::io::Read::read(&mut reader, &mut byte) {
                Ok(0) => return,
                Ok(_) => on_stop_signal("SIGTERM"),
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    })?;
    TERM_PIPE.store(write_end, Ordering::SeqCst);
    // SAFETY: a zeroed sigaction is valid; the handler only loads an atomic and calls
    // `write`, which is async-signal-safe. SA_RESTART: a read or write the signal lands in
    // goes on instead of failing with EINTR.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = forward_sigterm as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The SIGTERM handler: wakes the thread of [`install_sigterm_handler`].
extern "C" fn forward_sigterm(_signal: libc::c_int) {
    let pipe = TERM_PIPE.load(Ordering::SeqCst);
    if pipe >= 0 {
        let byte = 1u8;
        // SAFETY: `write` is async-signal-safe; one byte from a live local.
        unsafe { libc::write(pipe, (&byte as *const u8).cast(), 1) };
    }
}

/// Marks the sweep as running until dropped (on every return path of [`run`]).
struct Sweeping;

impl Sweeping {
    fn begin() -> Sweeping {
        SWEEPING.store(true, Ordering::SeqCst);
        Sweeping
    }
}

impl Drop for Sweeping {
    fn drop(&mut self) {
        SWEEPING.store(false, Ordering::SeqCst);
    }
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

/// Runs `sweep`; `Ok(true)` when it ran to the end, `Ok(false)` when Ctrl-C or SIGTERM
/// stopped it.
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
    let sweeping = Sweeping::begin();
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
    drop(sweeping);
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
