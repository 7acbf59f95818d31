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
/// A knob with the name of a subcommand's own flag (`threads`, say) is refused with a
/// message that names the family: a fault in the family's declarations, not in the tool or
/// in the command line.
pub fn add_knob_flags(mut command: Command, with_help: bool) -> Result<Command, String> {
    let names = knob_names();
    for subcommand in ["solve", "watch", "estimate", "explain", "split"] {
        let Some(sub) = command.find_subcommand(subcommand) else { continue };
        if let Some(clash) = first_clash(sub, &names) {
            return Err(clash);
        }
        command = command.mut_subcommand(subcommand, |sub| add_to(sub, &names, with_help));
    }
    Ok(command)
}

/// Why the knob flags cannot join `command`: the first knob named like one of its flags.
fn first_clash(command: &Command, names: &[&'static str]) -> Option<String> {
    names.iter().find_map(|&name| {
        let flag = command.get_arguments().find(|arg| arg.get_id() == name || arg.get_long() == Some(name))?;
        let families: Vec<&str> = Family::all()
            .into_iter()
            .filter(|family| family.knobs().iter().any(|spec| spec.name == name))
            .map(Family::name)
            .collect();
        Some(format!(
            "family {}: its knob `{name}` has the name of `{}`'s own flag `--{}`; rename the knob",
            families.iter().map(|family| format!("`{family}`")).collect::<Vec<_>>().join(", "),
            command.get_name(),
            flag.get_long().unwrap_or(name)
        ))
    })
}

fn add_to(mut command: Command, names: &[&'static str], with_help: bool) -> Command {
    for &name in names {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knob_named_like_a_flag_is_refused_with_the_flag_and_the_command_named() {
        let command = Command::new("solve").arg(Arg::new("threads").long("threads")).arg(Arg::new("all").long("all"));
        let clash = first_clash(&command, &["order", "threads"]).expect("`threads` is solve's own flag");
        assert!(clash.contains("its knob `threads` has the name of `solve`'s own flag `--threads`"), "{clash}");
        assert_eq!(first_clash(&command, &["order", "checks"]), None);
    }
}

#[cfg(test)]
mod reserved_names_tests {
    use super::super::args::Cli;
    use clap::CommandFactory;

    /// Every flag (and argument id) of a command that takes knobs is a name registration
    /// refuses for a knob (`run::family::COMMAND_FLAG_NAMES`): a family's own test that
    /// registers it then finds the clash, not its first command line.
    #[test]
    fn registration_reserves_every_flag_of_the_commands_that_take_knobs() {
        let command = Cli::command();
        let mut missing = Vec::new();
        for name in ["solve", "watch", "estimate", "explain", "split"] {
            let sub = command.find_subcommand(name).expect("an instance command");
            for arg in sub.get_arguments() {
                for word in [Some(arg.get_id().as_str()), arg.get_long()].into_iter().flatten() {
                    if !crate::run::family::COMMAND_FLAG_NAMES.contains(&word) && !missing.contains(&word) {
                        missing.push(word);
                    }
                }
            }
        }
        missing.sort_unstable();
        assert!(missing.is_empty(), "not reserved for knobs: {missing:?}");
    }
}
