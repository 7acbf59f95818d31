//! The command as the running program presents it: its name, about text and version (a
//! user's binary's own, through `Workbench`), the INSTANCE help listing the short forms it
//! offers, and the knob flags of its families, registered ones first.

use super::args::{Cli, EXIT_CODES_HELP, WORKBENCH_ABOUT, WORKBENCH_LONG_ABOUT};
use super::{knob_args, parallel_help};
use crate::run::instance;
use crate::run::program::{Program, WORKBENCH_NAME};
use clap::{Command, CommandFactory};

/// The subcommands that take an INSTANCE argument.
const INSTANCE_COMMANDS: [&str; 5] = ["solve", "watch", "estimate", "explain", "split"];

/// The whole command of `program`: clap's parser for every subcommand, named, described
/// and versioned as `program`, with the knob flags of the families offered; their help
/// texts and the parallel flags' long help only `with_help` (formatting them costs more
/// than parsing the rest of a command line). An error when a family's knob cannot become a
/// flag (see [`knob_args::add_knob_flags`]).
pub fn command(program: &'static Program, with_help: bool) -> Result<Command, String> {
    // clap keeps a version only as `&'static str`; a command is built once per process
    // (and a few times in tests), so the few bytes leaked here are not a leak that grows.
    let version: &'static str = Box::leak(program.version_text().into_boxed_str());
    let mut command = Cli::command()
        .name(program.name.as_str())
        .bin_name(program.name.as_str())
        .version(version)
        .about(about(program))
        .long_about(long_about(program));
    let instance = instance_help();
    for name in INSTANCE_COMMANDS {
        command = command.mut_subcommand(name, |sub| sub.mut_arg("instance", |arg| arg.help(instance.clone())));
    }
    command = knob_args::add_knob_flags(command, with_help)?;
    // A negative number after a flag is that flag's value, which its parser then judges
    // (`invalid value '-1' for '--threads <N>'`), not an unknown flag: clap's advice for
    // one, `-- -1`, made it the INSTANCE. Set once for every argument that takes a value.
    command = command.mut_subcommands(|sub| {
        sub.mut_args(|arg| {
            let takes_values = arg.get_action().takes_values();
            arg.allow_negative_numbers(takes_values)
        })
    });
    if with_help {
        command = ["solve", "explain"].into_iter().fold(command, parallel_help::document);
    }
    Ok(command)
}

/// The one-line description: the program's own, else the workbench's for its binary,
/// else one that says what a user's binary is built on.
fn about(program: &Program) -> String {
    match &program.about {
        Some(about) => about.clone(),
        None if program.is_workbench() => WORKBENCH_ABOUT.to_string(),
        None => format!(
            "Backtracking searches on the {WORKBENCH_NAME} workbench: exact node counts, toggleable pruning, \
             parallel strategies, sweeps."
        ),
    }
}

/// The long description: the about text (the workbench's own paragraph for its binary),
/// which instances the program takes, and the exit codes.
fn long_about(program: &Program) -> String {
    let description = match &program.about {
        None if program.is_workbench() => WORKBENCH_LONG_ABOUT.to_string(),
        _ => about(program),
    };
    let format_notes = if program.is_workbench() { "see instances/README.md" } else { "see each family's docs" };
    format!(
        "{description}\n\nINSTANCE is {} a path to a puzzle-instance/v1 JSON file ({format_notes}).\n\n{}",
        instance_forms_sentence(),
        EXIT_CODES_HELP.replace("{program}", &program.name)
    )
}

/// `a short name (6x10, rings, ...) or` the short forms offered, or nothing when none.
fn instance_forms_sentence() -> String {
    let forms: Vec<&str> = instance::short_forms().iter().map(|form| form.argument).collect();
    if forms.is_empty() {
        String::new()
    } else {
        format!("a short name ({}) or", forms.join(", "))
    }
}

/// The help of an INSTANCE argument: the short forms this program offers, or a path.
pub fn instance_help() -> String {
    let forms = instance_forms_sentence();
    if forms.is_empty() {
        "Path to an instance file".to_string()
    } else {
        format!("{} path to an instance file", capitalised(&forms))
    }
}

fn capitalised(text: &str) -> String {
    let mut characters = text.chars();
    characters.next().map(|first| first.to_uppercase().chain(characters).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaked(program: Program) -> &'static Program {
        Box::leak(Box::new(program))
    }

    #[test]
    fn a_user_program_is_named_described_and_versioned_as_given() {
        let program = leaked(Program {
            name: "tiles-bench".into(),
            about: Some("Tilings of small boards.".into()),
            version: Some("0.3.0".into()),
        });
        let mut command = command(program, true).expect("the families' knobs become flags");
        assert_eq!(command.render_version(), "tiles-bench 0.3.0\n");
        let help = command.render_long_help().to_string();
        assert!(help.starts_with("Tilings of small boards.\n"), "{help}");
        assert!(help.contains("Usage: tiles-bench [COMMAND]"), "{help}");
        assert!(help.contains("101 any other panic: a bug in tiles-bench"), "{help}");
        assert!(!help.contains("seed posts"), "{help}");
        // Subcommands take the program's name when the command is built, as parsing does.
        command.build();
        let solve = command.find_subcommand_mut("solve").expect("solve").render_long_help().to_string();
        assert!(solve.contains("Usage: tiles-bench solve"), "{solve}");
    }

    #[test]
    fn the_workbench_keeps_its_own_description_and_version() {
        let mut command = command(leaked(Program::workbench()), false).expect("the families' knobs become flags");
        let build = env!("BACKTRACK_BENCH_GIT_COMMIT");
        let version = crate::run::program::WORKBENCH_VERSION;
        assert_eq!(command.render_version(), format!("backtrack-bench {version} (build {build})\n"));
        let help = command.render_long_help().to_string();
        assert!(help.contains("It runs the puzzles of the seed posts"), "{help}");
        assert!(help.contains("INSTANCE is a short name (rings, prime-grid, hooks7, 247) or a path"), "{help}");
    }

    #[test]
    fn a_user_program_without_a_version_says_which_workbench_it_is_built_on() {
        let program = leaked(Program { name: "tiles-bench".into(), about: None, version: None });
        assert_eq!(
            command(program, false).expect("the families' knobs become flags").render_version(),
            format!(
                "tiles-bench (built on backtrack-bench {}, build {})\n",
                crate::run::program::WORKBENCH_VERSION,
                env!("BACKTRACK_BENCH_GIT_COMMIT")
            )
        );
    }
}
