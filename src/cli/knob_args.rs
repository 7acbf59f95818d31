//! Knob flags built from the families' knob specs, so that a new knob needs no CLI code.

use crate::knobs::{KnobSpec, KnobValues};
use crate::run::Family;
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

/// Adds the knob flags to every subcommand that takes an instance, with their help texts
/// when `with_help` (only help output shows them, and formatting them is most of the cost).
pub fn add_knob_flags(command: Command, with_help: bool) -> Command {
    let names = knob_names();
    ["solve", "watch", "estimate", "explain", "split"]
        .into_iter()
        .fold(command, |command, subcommand| command.mut_subcommand(subcommand, |sub| add_to(sub, &names, with_help)))
}

fn add_to(mut command: Command, names: &[&'static str], with_help: bool) -> Command {
    for &name in names {
        if let Some(flag) = command.get_arguments().find(|arg| arg.get_id() == name || arg.get_long() == Some(name)) {
            let families: Vec<&str> = Family::all()
                .into_iter()
                .filter(|family| family.knobs().iter().any(|spec| spec.name == name))
                .map(Family::name)
                .collect();
            panic!(
                "the knob `{name}` of family {} has the name of `{}`'s own flag `--{}`; rename the knob",
                families.join(", "),
                command.get_name(),
                flag.get_long().unwrap_or(name)
            );
        }
        let mut arg = Arg::new(name)
            .long(name)
            .value_name("VALUE")
            .help_heading("Knobs (each family accepts only its own; defaults are the fastest settings)");
        if with_help {
            arg = arg.help(format!("Knob `{name}` (values per family in --help)")).long_help(knob_help(name));
        }
        command = command.arg(arg);
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
