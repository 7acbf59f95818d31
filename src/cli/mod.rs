//! The command line: flags, their parsing into run settings, and the commands' output.
//!
//! `main.rs` only calls [`main`]. Exit codes: 0 success, 1 a run or I/O failure, 2 bad
//! input (flags, instance file, knob values).

mod estimate_command;
mod explain_command;
mod knob_args;
mod output;
mod parallel_args;
mod predict;
mod profile_files;
mod report_command;
mod scaling_check;
mod solve_command;
mod sweep_command;
mod watch_command;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// Exit code for bad input: flags, instance files, knob values.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a failure while running (I/O, a failed sweep).
pub const EXIT_FAILURE: u8 = 1;

#[derive(Parser)]
#[command(
    name = "backtrack-bench",
    version,
    about = "A workbench for backtracking puzzle solvers: exact node counts, toggleable pruning, parallel strategies, sweeps.",
    long_about = "A workbench for backtracking puzzle solvers.\n\n\
        It runs the puzzles of the seed posts (Olympic Rings, a 3x3 prime grid, Jane Street's Hooks #7 and \
        Twenty Four Seven) on one depth-first engine, with every optimization behind a knob, and reports exact \
        node counts, per-rule prune counts and wall time.\n\n\
        INSTANCE is a built-in short name (rings, prime-grid, hooks7, 247) or a path to a puzzle-instance/v1 \
        JSON file (see instances/README.md).\n\n\
        Exit codes: 0 success; 1 a run or I/O failure; 2 bad input (flags, instance file, knob values); \
        130 stopped by Ctrl-C (sweep, watch)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one instance and print the solutions, the answer, the counts and the time.
    Solve(SolveArgs),
    /// Animate the search step by step in the terminal (plain frames when not a terminal).
    ///
    /// Exit code 130 when interrupted by Ctrl-C.
    Watch(WatchArgs),
    /// Estimate the tree size and search time with Knuth's random probes, without searching.
    Estimate(EstimateArgs),
    /// Measure why a parallel run is slower than it should be: reruns and a ranked verdict.
    #[command(long_about = explain_command::LONG_ABOUT)]
    Explain(explain_command::ExplainArgs),
    /// List the built-in instances and every family's knobs.
    List(ListArgs),
    /// Run a sweep (a preset or a TOML spec) and append one CSV row per run to the results folder.
    Sweep(SweepArgs),
    /// Regenerate the summaries, plots and README.md of a results folder from its CSV files alone.
    Report(ReportArgs),
    /// Check the scaling prediction against measured runs on this machine (see docs/scaling.md).
    ScalingCheck(scaling_check::ScalingCheckArgs),
}

/// Flags of `sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// A built-in preset: quick (the default), enumeration, full, scaling.
    #[arg(long, value_name = "NAME", conflicts_with = "spec")]
    pub preset: Option<String>,
    /// A sweep spec file (TOML; see scripts/sweeps/ and docs/harness.md).
    #[arg(long, value_name = "FILE")]
    pub spec: Option<std::path::PathBuf>,
    /// Thread counts for the parallel strategies, replacing the spec's: `1,2,4`, `cores`, `cores*2`, `1..cores`.
    #[arg(long, value_name = "LIST")]
    pub threads: Option<String>,
    /// Timed runs per configuration, replacing the spec's.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub repeats: Option<u32>,
    /// Untimed warm-up runs per configuration, replacing the spec's.
    #[arg(long, value_name = "N")]
    pub warmup: Option<u32>,
    /// Per-run node limit (per component), replacing the spec's; a run reaching it is recorded as `limit`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
    /// Name the sweep (and its files) NAME instead of the spec's name.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The results folder.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: std::path::PathBuf,
    /// Keep the folder's run log and run only the configurations (and repeats) not yet recorded.
    #[arg(long)]
    pub resume: bool,
    /// When another run of this sweep (same name, same folder) is running: wait for it to end
    /// instead of refusing with exit code 2.
    #[arg(long)]
    pub wait: bool,
    /// Run only slice K of N (configurations whose index is K-1 modulo N), e.g. for Slurm job arrays.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print the configurations (of the shard, if given) and exit without running.
    #[arg(long)]
    pub dry_run: bool,
    /// No progress bar and no per-configuration lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the outcome (or, with --dry-run, the configurations) as one JSON object on stdout; implies --quiet.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print one JSON object (`instances`, `families` with their knobs) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The results folder: reads its *-runs.csv files, writes the summaries, plots/ and README.md there.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: std::path::PathBuf,
    /// An earlier run log (*-runs.csv) or results folder to compare with, configuration by configuration: a time change is flagged when the 95% bootstrap interval of now / before excludes 1 and the change is beyond 10% (15% for calls under 10 µs); a node count when it differs.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<std::path::PathBuf>,
    /// With --baseline: exit with code 1 on a regression (slower beyond the noise, or other node counts), or when no configuration could be compared at all; faster rows pass.
    #[arg(long, requires = "baseline")]
    pub fail_on_change: bool,
    /// Print nothing but errors and the comparison.
    #[arg(long, short)]
    pub quiet: bool,
    /// Link the plots in README.md as BASE/plots/FILE (an absolute address, such as the results folder's raw URL on your forge), for pasting into a pull request; default: relative links.
    #[arg(long, value_name = "BASE")]
    pub image_base: Option<String>,
    /// Print what was written and the comparison (every configuration compared, with its ratio interval and verdict) as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `watch`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct WatchArgs {
    /// Built-in short name (rings, prime-grid, hooks7, 247) or path to an instance file.
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Pause after each frame, in milliseconds (terminal only).
    #[arg(long, value_name = "MS", default_value_t = 80)]
    pub delay: u64,
    /// Stop each component after N steps: N frames, one per step (a child placed or
    /// pruned, a dead end, a solution; the root is not a step).
    #[arg(long, value_name = "N", default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_steps: u64,
    /// Ring radius in terminal columns (Olympic Rings).
    #[arg(long, default_value_t = 10)]
    pub radius: i64,
    /// Height/width of a terminal cell's drawing: 0.5 for cells twice as tall as wide
    /// (the Olympic Rings post used 0.66 for its font).
    #[arg(long, default_value_t = 0.5)]
    pub aspect: f64,
    /// Print plain frames without colours even on a terminal.
    #[arg(long)]
    pub plain: bool,
}

/// Flags of `estimate`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct EstimateArgs {
    /// Built-in short name (rings, prime-grid, hooks7, 247) or path to an instance file.
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Random probes per component.
    #[arg(long, value_name = "K", default_value_t = 1_000)]
    pub probes: usize,
    /// Seed of the probes' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the probes estimate the tree: `stratified` (the default: the top levels counted
    /// exactly, down to the deepest level with at most K/4 accepted nodes, and the probes
    /// spread evenly over the subtrees below, each probe descending only into accepted
    /// children), `accepted` (probes from the root, descending only into accepted children),
    /// or `knuth` (Knuth's plain probes: any child, a rejected one ends the probe). All three
    /// are unbiased; docs/estimate.md compares them.
    #[arg(long, value_name = "METHOD", default_value = "stratified")]
    pub method: crate::search::EstimateMethod,
    /// Also run the full search (sequential) and print the actual node count, the actual
    /// time and the ratio of estimate to actual.
    #[arg(long)]
    pub compare: bool,
    /// Print one JSON object (the settings and one entry per component) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `solve`. The knob flags (`--order`, `--rules`, ...) are added from the
/// families' specs; see `backtrack-bench solve --help`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Built-in short name (rings, prime-grid, hooks7, 247) or path to an instance file.
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Find every solution (the default): the whole tree is searched, uniqueness proven.
    #[arg(long, conflicts_with = "first")]
    pub all: bool,
    /// Stop at the first solution of each component.
    #[arg(long)]
    pub first: bool,
    /// Stop each component's search after this many nodes; the run is reported as incomplete.
    /// Sequential runs stop exactly at N; parallel ones may enter up to 1024 nodes per
    /// thread more (the report's `node_limit_overshoot_max`).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Stop the run after this many seconds of wall time (decimals allowed); the run is
    /// reported as incomplete, stopped by `time-limit`. The clock is looked at every 1024
    /// nodes, so a run ends that many nodes after the limit at most.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<std::time::Duration>,
    /// Do not count checks and prunes per rule or nodes per depth (those counters compile away).
    #[arg(long)]
    pub no_rule_counts: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the run's per-depth profile to FILE (CSV) and its plot to FILE with the
    /// extension `.svg`.
    ///
    /// The CSV has the columns component, depth, nodes, then prunes_RULE for each rule of
    /// the family: one row per depth of each component (multi-grid instances have one
    /// block of rows per grid), so the nodes column adds up to the run's nodes and each
    /// prunes column to that rule's prunes. The SVG shows the run's nodes per depth and
    /// each rule's prunes per depth, on a log scale when the counts span two orders of
    /// magnitude. Both files are written whole or not at all (temporary file + rename).
    #[arg(long, value_name = "FILE", conflicts_with = "no_rule_counts")]
    pub profile: Option<std::path::PathBuf>,
    /// How the search is spread over threads.
    #[command(flatten)]
    pub parallel: parallel_args::ParallelArgs,
}

/// A positive, finite number of seconds (at most a year), for `--time-limit`.
fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    const YEAR_S: f64 = 365.0 * 24.0 * 3600.0;
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= YEAR_S => Ok(std::time::Duration::from_secs_f64(seconds)),
        _ => Err(format!("expected a number of seconds above 0 and at most {YEAR_S} (a year), e.g. 2.5")),
    }
}

/// Parses the command line and runs the command.
pub fn main() -> ExitCode {
    // The knob flags' and parallel flags' help texts are only formatted when help is asked
    // for: building them cost more than parsing the rest of the command line.
    let help = help_requested(std::env::args_os().skip(1));
    let mut command = knob_args::add_knob_flags(Cli::command(), help);
    if help {
        command = ["solve", "explain"].into_iter().fold(command, parallel_args::document);
    }
    let matches = command.get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let outcome = match cli.command {
        Some(Command::Solve(args)) => {
            let sub = matches.subcommand_matches("solve").expect("clap matched the solve subcommand");
            solve_command::run(&args, knob_args::knob_values(sub))
        }
        Some(Command::Watch(args)) => {
            let sub = matches.subcommand_matches("watch").expect("clap matched the watch subcommand");
            watch_command::run(&args, knob_args::knob_values(sub))
        }
        Some(Command::Estimate(args)) => {
            let sub = matches.subcommand_matches("estimate").expect("clap matched the estimate subcommand");
            estimate_command::run(&args, knob_args::knob_values(sub))
        }
        Some(Command::Explain(args)) => {
            let sub = matches.subcommand_matches("explain").expect("clap matched the explain subcommand");
            explain_command::run(&args, knob_args::knob_values(sub))
        }
        Some(Command::List(args)) => output::print_list(&args),
        Some(Command::Sweep(args)) => match sweep_command::run(&args) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Failure { message: String::new(), code: sweep_command::EXIT_INTERRUPTED }),
            Err(failure) => Err(failure),
        },
        Some(Command::Report(args)) => report_command::run(&args),
        Some(Command::ScalingCheck(args)) => scaling_check::run(&args),
        None => run_quick_sweep_and_report(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// Whether the command line may ask clap for help: `help`, `--help`, or a short-flag group
/// holding `h` (`-h`, `-qh`). Guessing yes when it does not only costs the help texts.
fn help_requested(arguments: impl Iterator<Item = std::ffi::OsString>) -> bool {
    arguments.map(|argument| argument.to_string_lossy().into_owned()).any(|argument| {
        argument == "help"
            || argument == "--help"
            || (!argument.starts_with("--") && argument.starts_with('-') && argument.contains('h'))
    })
}

/// No arguments: the `quick` sweep into `results/`, then `report` (the README's main job).
/// The report is written even when a configuration failed; an interrupted sweep skips it.
fn run_quick_sweep_and_report() -> Result<(), Failure> {
    let sweep = Cli::parse_from(["backtrack-bench", "sweep", "--preset", "quick"]);
    let report = Cli::parse_from(["backtrack-bench", "report"]);
    let (Some(Command::Sweep(sweep)), Some(Command::Report(report))) = (sweep.command, report.command) else {
        unreachable!("the fixed argument lists parse as sweep and report")
    };
    eprintln!(
        "backtrack-bench: no command given: running the `quick` sweep, then `report` (see --help for the commands)"
    );
    let swept = match sweep_command::run(&sweep) {
        Ok(true) => Ok(()),
        Ok(false) => return Err(Failure { message: String::new(), code: sweep_command::EXIT_INTERRUPTED }),
        Err(failure) => Err(failure),
    };
    report_command::run(&report)?;
    swept
}

/// A command's failure: the message printed and the exit code.
#[derive(Debug)]
pub struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    /// Bad input (exit code 2).
    pub fn bad_input(message: impl std::fmt::Display) -> Failure {
        Failure { message: message.to_string(), code: EXIT_BAD_INPUT }
    }

    /// A failure while running (exit code 1).
    pub fn failed(message: impl std::fmt::Display) -> Failure {
        Failure { message: message.to_string(), code: EXIT_FAILURE }
    }

    fn report(self) -> ExitCode {
        if !self.message.is_empty() {
            eprintln!("backtrack-bench: error: {}", self.message);
        }
        ExitCode::from(self.code)
    }
}

impl From<std::io::Error> for Failure {
    /// A closed pipe (`| head`) is not an error: stop quietly with success.
    fn from(error: std::io::Error) -> Failure {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            Failure { message: String::new(), code: 0 }
        } else {
            Failure::failed(error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Family;

    fn requested(arguments: &[&str]) -> bool {
        help_requested(arguments.iter().map(std::ffi::OsString::from))
    }

    #[test]
    fn help_is_requested_by_the_help_forms_only() {
        for asking in [&["--help"][..], &["-h"], &["help"], &["help", "solve"], &["solve", "--help"], &["sweep", "-qh"]]
        {
            assert!(requested(asking), "{asking:?}");
        }
        for running in [&[][..], &["solve", "247", "--all"], &["solve", "hooks7", "--threads", "2"], &["sweep", "-q"]] {
            assert!(!requested(running), "{running:?}");
        }
    }

    #[test]
    fn the_long_help_lists_every_knob_with_each_familys_values_and_the_parallel_forms() {
        let command = knob_args::add_knob_flags(Cli::command(), true);
        let mut command = ["solve", "explain"].into_iter().fold(command, parallel_args::document);
        let help = command.find_subcommand_mut("solve").expect("solve is a subcommand").render_long_help().to_string();
        for family in Family::all() {
            for spec in family.knobs() {
                assert!(help.contains(&format!("--{} <VALUE>", spec.name)), "--{} missing from:\n{help}", spec.name);
                assert!(help.contains(spec.help), "the help of `{}` missing from:\n{help}", spec.name);
            }
        }
        for form in crate::parallel::Strategy::FORMS {
            assert!(help.contains(form.help), "the strategy form `{}` missing from:\n{help}", form.form);
        }
    }

    #[test]
    fn without_help_the_knob_flags_still_parse() {
        let command = knob_args::add_knob_flags(Cli::command(), false);
        let matches = command.try_get_matches_from(["backtrack-bench", "solve", "247", "--order", "plain"]);
        let matches = matches.expect("the knob flag parses");
        let solve = matches.subcommand_matches("solve").expect("solve matched");
        assert_eq!(knob_args::knob_values(solve).get("order").map(String::as_str), Some("plain"));
    }
}
