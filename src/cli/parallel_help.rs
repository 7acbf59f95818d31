//! The long help of the parallel flags (`--parallel`, `--counters`, `--state`, `--affinity`),
//! shared by `solve` and `explain`, with help text built from the parallel layer's forms.

use crate::knobs::KnobForm;
use crate::parallel::{CounterLayout, StateRestore, Strategy, ThreadAffinity};
use clap::Command;

/// Adds to the parallel flags of `subcommand` a long help listing every accepted form.
pub fn document(command: Command, subcommand: &str) -> Command {
    command.mut_subcommand(subcommand, |sub| {
        sub.mut_arg("strategy", |arg| {
            arg.long_help(forms_help("How the tree is shared out among threads", Strategy::FORMS))
        })
        .mut_arg("counters", |arg| {
            arg.long_help(forms_help(
                "Where workers keep their node counters (a switch for a classic slowdown)",
                CounterLayout::FORMS,
            ))
        })
        .mut_arg("state", |arg| {
            arg.long_help(forms_help(
                "How the model state is restored after each child (a switch for a classic slowdown)",
                StateRestore::FORMS,
            ))
        })
        .mut_arg("affinity", |arg| arg.long_help(forms_help("Where the pool's threads run", ThreadAffinity::FORMS)))
    })
}

fn forms_help(title: &str, forms: &[KnobForm]) -> String {
    let mut lines = vec![format!("{title}:")];
    for form in forms {
        lines.push(format!("  {:<11} {}", form.form, form.help));
    }
    lines.join("\n")
}
