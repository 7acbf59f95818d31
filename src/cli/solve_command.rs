//! `solve`: run one instance and print the report as text or JSON.

use super::args::SolveArgs;
use super::failure::Failure;
use super::output::print_report;
use super::output_checks::{refuse_the_instance, refuse_unwritable};
use super::profile_files;
use super::solutions_file::SolutionsFile;
use crate::harness::storing::output_target::OutputTarget;
use crate::knobs::KnobValues;
use crate::parallel::{MAX_LISTED_MOVES, MAX_SUBPROBLEMS};
use crate::run::instance;
use crate::run::{self, RunSettings, SearchMode, Target};
use crate::search::StopReason;
use crate::stderr_line::note;

/// Runs `solve` with the parsed flags and knob values.
pub fn run(args: &SolveArgs, knobs: KnobValues) -> Result<(), Failure> {
    let instance = instance::load(&args.instance)?;
    refuse_stdout_beside_json(args)?;
    if let Some(path) = &args.profile {
        profile_files::check_path(path)?;
        if let Some(solutions) = &args.solutions {
            profile_files::check_apart(path, solutions)?;
        }
        refuse_the_instance(&format!("--profile {}", path.display()), path, &args.instance)?;
        let plot = profile_files::plot_path(path);
        refuse_the_instance(&format!("--profile {}", plot.display()), &plot, &args.instance)?;
        refuse_unwritable(&format!("--profile {}", path.display()), path)?;
        refuse_unwritable(&format!("--profile {}: its plot", path.display()), &plot)?;
    }
    if let Some(path) = &args.solutions {
        refuse_the_instance(&format!("--solutions {}", path.display()), path, &args.instance)?;
        refuse_unwritable(&format!("--solutions {}", path.display()), path)?;
    }
    let mut settings = RunSettings {
        knobs,
        mode: match (args.first, args.best) {
            (true, _) => SearchMode::First,
            (_, true) => SearchMode::Best,
            _ => SearchMode::All,
        },
        target: match (args.at_least, args.at_most) {
            (Some(value), _) => Some(Target::AtLeast(value)),
            (_, Some(value)) => Some(Target::AtMost(value)),
            _ => None,
        },
        node_limit: args.node_limit.unwrap_or(u64::MAX),
        time_limit: args.time_limit,
        rule_counts: !args.no_rule_counts,
        ..RunSettings::default()
    };
    args.parallel.apply(&mut settings);
    let report = match &args.solutions {
        None => run::solve(&instance, &settings)?,
        Some(path) => {
            let (file, stream) = SolutionsFile::create(path)?;
            match run::solve_streaming(&instance, &settings, &stream) {
                Ok(report) => {
                    let lines = file.commit(stream)?;
                    if !args.json {
                        note!("{} solution(s) written to {}", crate::format::count(lines), path.display());
                    }
                    report
                }
                Err(error) => {
                    file.abandon();
                    return Err(Failure::from(error));
                }
            }
        }
    };
    if report.stop == Some(StopReason::FrontierFull.name()) {
        let cure = match settings.strategy {
            crate::parallel::Strategy::Naive => "naive lists every leaf: choose another strategy, e.g. steal or auto",
            _ => "choose a smaller depth, or auto",
        };
        return Err(Failure::bad_input(format!(
            "--parallel {}: the frontier holds more subproblems than a listing keeps (at most {MAX_SUBPROBLEMS}, \
             fewer for deep ones: {MAX_LISTED_MOVES} moves over all their paths; it bounds the listing's memory); \
             {cure}",
            settings.strategy
        )));
    }
    if let Some(path) = &args.profile {
        profile_files::write_profile(path, &report)?;
    }
    print_report(&instance, &report, args.json)
}

/// Refuses `--solutions -` or `--profile -` with `--json`: their lines would go into the
/// standard output the one JSON object goes to, which would then no longer parse.
fn refuse_stdout_beside_json(args: &SolveArgs) -> Result<(), Failure> {
    if !args.json {
        return Ok(());
    }
    for (flag, path) in [("--solutions", &args.solutions), ("--profile", &args.profile)] {
        if let Some(path) = path.as_ref().filter(|path| matches!(OutputTarget::of(path), Ok(OutputTarget::Stdout))) {
            return Err(Failure::bad_input(format!(
                "{flag} {}: the standard output holds the --json report; name a file for {flag}",
                path.display()
            )));
        }
    }
    Ok(())
}
