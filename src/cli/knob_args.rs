//! Knob flags built from the families' knob specs, so that a new knob needs no CLI code.

use crate::puzzles::knobs::{KnobSpec, KnobValues};
use crate::registry::Family;
use clap::{Arg, ArgMatches, Command};

/// Every distinct knob name over all families, in first-seen order.
fn knob_names() -> Vec<&'static str> {
    let mut names = Vec::new();
    for family in Family::all() {
        for spec in family.knobs() {
            if !names.contains(&spec.name) {
                names.push(spec.name);
            }
        }
    }
    names
}

/// The help text of one knob flag: for each family that has the knob, its values,
/// default and meaning.
fn knob_help(name: &str) -> String {
    let mut lines = Vec::new();
    for family in Family::all() {
        if let Some(spec) = family.knobs().iter().find(|spec: &&KnobSpec| spec.name == name) {
            lines.push(format!(
                "{}: {} [default: {}]\n    {}",
                family.name(),
                spec.values.join(" | "),
                spec.default,
                spec.help
            ));
        }
    }
    lines.join("\n")
}

/// Adds the knob flags to every subcommand that takes an instance.
pub fn add_knob_flags(command: Command) -> Command {
    ["solve", "watch", "estimate", "explain"]
        .into_iter()
        .fold(command, |command, name| command.mut_subcommand(name, add_to))
}

fn add_to(mut command: Command) -> Command {
    for name in knob_names() {
        let help = knob_help(name);
        let short_help = format!("Knob `{name}` (values per family in --help)");
        command = command.arg(
            Arg::new(name)
                .long(name)
                .value_name("VALUE")
                .help(short_help)
                .long_help(help)
                .help_heading("Knobs (each family accepts only its own; defaults are the fastest settings)"),
        );
    }
    command
}

/// The knob values given on the command line.
pub fn knob_values(matches: &ArgMatches) -> KnobValues {
    let mut values = KnobValues::new();
    for name in knob_names() {
        if let Some(value) = matches.get_one::<String>(name) {
            values.insert(name.to_string(), value.clone());
        }
    }
    values
}
