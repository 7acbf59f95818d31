//! The command line: flags, their parsing into run settings, and the commands' output.
//!
//! `main.rs` only calls [`main`]. Exit codes: 0 success, 1 a run or I/O failure, 2 bad
//! input (flags, instance file, knob values), 3 the family's code panicked (`failure.rs`
//! lists them all).

mod args;
mod estimate_command;
mod explain_cluster_command;
mod explain_command;
mod failure;
mod identity;
mod knob_args;
mod list_command;
mod merge_command;
mod output;
mod output_checks;
mod parallel_help;
mod predicted_strategy;
mod profile_files;
mod report_command;
mod run_part_command;
mod scaling_check_analysis;
mod scaling_check_command;
mod solutions_file;
mod solve_command;
mod split_command;
mod stack_limit;
mod sweep_command;
mod watch_command;

use crate::stderr_line::note;
use args::{Cli, Command};
use clap::{FromArgMatches, Parser};
pub use failure::{report_panics_as_bugs, Failure, EXIT_INTERRUPTED};
pub(crate) use stack_limit::raise_the_stack_limit;
use std::process::ExitCode;

/// The command line as typed, under the running program's name, for a report to say how
/// it was made; an argument that is not UTF-8 (a path, say) is shown with U+FFFD where it
/// is not, rather than stopping the command after its work.
pub(crate) fn command_line() -> String {
    std::iter::once(crate::run::program_name().to_string())
        .chain(std::env::args_os().skip(1).map(|argument| argument.to_string_lossy().into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses the command line and runs the command, as the running program
/// ([`crate::run::program::program`]: `backtrack-bench`, or a user's binary's own name).
pub fn main() -> ExitCode {
    // The knob flags' and parallel flags' help texts are only formatted when help is asked
    // for: building them cost more than parsing the rest of the command line.
    let help = help_requested(std::env::args_os().skip(1));
    let command = match identity::command(crate::run::program::program(), help) {
        Ok(command) => command,
        // A family's declarations that the command line cannot take: the family's fault,
        // reported as its code's (exit 3), before any argument is read.
        Err(fault) => return Failure::model_panicked(fault).report(),
    };
    let matches = match command.try_get_matches() {
        Ok(matches) => matches,
        Err(error) => return clap_exit(&error),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return clap_exit(&error),
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
        // `explain --cluster DIR` explains a split search's files: a command of its own.
        Some(Command::Explain(args)) if args.cluster.is_some() => {
            let dir = args.cluster.as_deref().expect("matched --cluster");
            // Its analysis is printed: a report file it would not write is refused, not ignored.
            match &args.out {
                Some(out) => Err(Failure::bad_input(format!(
                    "--out {}: `explain --cluster` prints its analysis (--json for JSON) and writes no report file",
                    out.display()
                ))),
                None => explain_cluster_command::run(dir, args.slots.map(|slots| slots as usize), args.json),
            }
        }
        Some(Command::Explain(args)) => {
            let sub = matches.subcommand_matches("explain").expect("clap matched the explain subcommand");
            explain_command::run(&args, knob_args::knob_values(sub))
        }
        Some(Command::List(args)) => list_command::run(&args),
        Some(Command::Sweep(args)) => match sweep_command::run(&args) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Failure { message: String::new(), code: EXIT_INTERRUPTED }),
            Err(failure) => Err(failure),
        },
        Some(Command::Report(args)) => report_command::run(&args),
        Some(Command::ScalingCheck(args)) => scaling_check_command::run(&args),
        Some(Command::Split(args)) => {
            let sub = matches.subcommand_matches("split").expect("clap matched the split subcommand");
            split_command::run(&args, knob_args::knob_values(sub))
        }
        Some(Command::RunPart(args)) => run_part_command::run(&args),
        Some(Command::Merge(args)) => merge_command::run(&args),
        // The main job sweeps the built-in instances; a binary that withholds them has
        // nothing to run without a command.
        None if !crate::run::family::builtin_families_offered() => Err(Failure::bad_input(format!(
            "no command given; `{} --help` lists the commands",
            crate::run::program_name()
        ))),
        None => run_quick_sweep_and_report(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// Prints clap's answer to a command line it did not parse into a command (help, version,
/// or a usage error) and gives its exit code: 0 for help and version, 2 for a usage error.
/// Help that cannot be written (standard output on a full disk, say) is a failure (1), not a
/// silent success; a closed pipe (`| head`) is not, as for every other command.
fn clap_exit(error: &clap::Error) -> ExitCode {
    let written = error.print().and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
    match written {
        Err(io) if !error.use_stderr() && io.kind() != std::io::ErrorKind::BrokenPipe => {
            Failure::failed(format!("writing standard output: {io}")).report()
        }
        // A usage error that cannot be written to standard error still exits 2.
        _ => ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(failure::EXIT_BAD_INPUT)),
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
    note!(
        "{}: no command given: running the `quick` sweep, then `report` (see --help for the commands)",
        crate::run::program_name()
    );
    let swept = match sweep_command::run(&sweep) {
        Ok(true) => Ok(()),
        Ok(false) => return Err(Failure { message: String::new(), code: EXIT_INTERRUPTED }),
        Err(failure) => Err(failure),
    };
    report_command::run(&report)?;
    swept
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
        let mut command =
            identity::command(crate::run::program::program(), true).expect("the families' knobs become flags");
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
        let command =
            identity::command(crate::run::program::program(), false).expect("the families' knobs become flags");
        let matches = command.try_get_matches_from(["backtrack-bench", "solve", "247", "--order", "plain"]);
        let matches = matches.expect("the knob flag parses");
        let solve = matches.subcommand_matches("solve").expect("solve matched");
        assert_eq!(knob_args::knob_values(solve).get("order").map(String::as_str), Some("plain"));
    }
}
