//! The flags of a parallel run (`--parallel`, `--threads`, `--counters`, `--state`, `--affinity`),
//! shared by `solve` and `explain`, with help text built from the parallel layer's forms.

use crate::knobs::KnobForm;
use crate::parallel::{CounterLayout, StateRestore, Strategy, ThreadAffinity};
use crate::run::settings::parse_thread_count;
use crate::run::RunSettings;
use clap::{Args, Command};

/// How a run is spread over threads. Each flag is parsed by its type's own parser (the one
/// sweep specs use too), so a bad value is a usage error (exit code 2) naming the flag.
#[derive(Args, Debug, Clone)]
pub struct ParallelArgs {
    /// The parallel strategy (see the long help, `--help`, for every form).
    #[arg(long = "parallel", value_name = "STRATEGY", default_value = "sequential")]
    pub strategy: Strategy,
    /// Worker threads for a parallel strategy (default: the available CPUs; ignored by `sequential`).
    #[arg(long, value_name = "N", value_parser = parse_thread_count)]
    pub threads: Option<usize>,
    /// Where workers keep their node counters: padded (default), shared, unpadded.
    #[arg(long, value_name = "LAYOUT", default_value = "padded")]
    pub counters: CounterLayout,
    /// How the state is restored after a child: undo (default) or clone.
    #[arg(long, value_name = "MODE", default_value = "undo")]
    pub state: StateRestore,
    /// Where pool threads run: pinned (default) or free.
    #[arg(long, value_name = "PLACEMENT", default_value = "pinned")]
    pub affinity: ThreadAffinity,
}

impl ParallelArgs {
    /// Writes the flags into `settings`.
    pub fn apply(&self, settings: &mut RunSettings) {
        settings.strategy = self.strategy;
        // `sequential` needs no thread count, and asking for the CPUs reads several files.
        let sequential = self.strategy == Strategy::Sequential;
        settings.threads = self.threads.unwrap_or_else(|| if sequential { 1 } else { available_cpus() });
        settings.counters = self.counters;
        settings.state = self.state;
        settings.affinity = self.affinity;
    }
}
/// The CPUs this process may use (1 when the system will not say).
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map(|count| count.get()).unwrap_or(1)
}

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
