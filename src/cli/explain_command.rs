//! `explain`: reruns a search sequentially and in parallel, ranks the measured causes of
//! lost time, and writes a Markdown report with a plot.

use super::parallel_args::{available_cpus, ParallelArgs};
use super::Failure;
use crate::explain::markdown::{self, ReportContext};
use crate::explain::measure::{self, ExplainPlan};
use crate::explain::{plot, verdict};
use crate::harness::storing::csv_log::write_atomically;
use crate::knobs::KnobValues;
use crate::parallel::Strategy;
use crate::run::instance;
use crate::run::{RunSettings, SearchMode};
use crate::statistics::StoppingRule;
use clap::Args;
use std::path::{Path, PathBuf};

/// The long help of `explain`: what it runs and what it writes.
pub const LONG_ABOUT: &str = "Measure why a parallel run is slower than it should be.\n\n\
    Runs the search sequentially, with the --parallel strategy at 1 thread and at --threads, and the A/B \
    reruns: the other counter layouts (padded, shared, unpadded) at --threads, the other state mode (undo or \
    clone) sequentially and at --threads, and, when --threads exceeds the available CPUs, the strategy at as \
    many threads as CPUs; beside `naive`, the good strategy `auto` at --threads. Every configuration runs once \
    per round; rounds go on (at least 5) until the explained run's median time is known within ±3% (95% \
    bootstrap interval), or 20 s of runs, or 50 rounds; --repeats R runs exactly R rounds instead. The lost \
    time (wall time at N threads minus sequential / N) is split into measured causes that partition it \
    (shares >= 0 summing to 100%, gains listed apart), each share with a bootstrap interval; a cause ranks \
    above another only when their shares differ by 10 points or more and the interval of the difference \
    excludes 0, otherwise they are tied. The verdict is printed (or as JSON with --json) and written as a Markdown report \
    with an SVG plot beside it. See docs/why-slower.md.";

/// Flags of `explain`; the knob flags are added from the families' specs.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Built-in short name (rings, prime-grid, hooks7, 247) or path to an instance file.
    #[arg(value_name = "INSTANCE")]
    pub instance: String,
    /// Explain the search for the first solution of each component (default: all solutions).
    #[arg(long)]
    pub first: bool,
    /// Run exactly R rounds (timed runs per configuration) instead of the adaptive default:
    /// at least 5 rounds, then until the explained run's median is within ±3%, 20 s of runs
    /// or 50 rounds.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeats: Option<u32>,
    /// Print the verdict (causes, shares, intervals, ranks, gains, advice) as one JSON
    /// object instead of text; the report files are written all the same.
    #[arg(long)]
    pub json: bool,
    /// The Markdown report to write (the plot goes beside it, with the extension .svg);
    /// default: results/explain/<instance>[-<knobs>]-<strategy>-<threads>t[-first].md.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The parallel run to explain (--parallel must name a parallel strategy).
    #[command(flatten)]
    pub parallel: ParallelArgs,
    /// Predict the speedup at many thread counts instead (`--predict`, see docs/scaling.md).
    #[command(flatten)]
    pub predict: super::predict::PredictArgs,
}

/// Runs `explain`.
pub fn run(args: &ExplainArgs, knobs: KnobValues) -> Result<(), Failure> {
    if args.parallel.strategy == Strategy::Sequential {
        return Err(Failure::bad_input(
            "explain needs a parallel strategy to explain: --parallel auto, steal, depth:D, budget:B or naive (see --help)",
        ));
    }
    let instance = instance::load(&args.instance).map_err(Failure::bad_input)?;
    instance.family.check_knobs(&knobs).map_err(Failure::bad_input)?;
    let knob_slug: Vec<String> = knobs.values().map(|value| file_safe(value)).collect();
    let mut run = RunSettings {
        knobs,
        mode: if args.first { SearchMode::First } else { SearchMode::All },
        ..RunSettings::default()
    };
    args.parallel.apply(&mut run);
    if args.predict.predict.is_some() {
        // Calibration rounds: --repeats when given, else the adaptive rule's minimum.
        let rounds = args.repeats.map_or(measure::adaptive_rule().min_runs, |rounds| rounds) as usize;
        return super::predict::run(&args.predict, args.json, &instance, &run, rounds);
    }
    let stopping = args.repeats.map_or_else(measure::adaptive_rule, StoppingRule::fixed);
    let plan = ExplainPlan { run, stopping, available_cpus: available_cpus() };
    let mut configs = measure::configurations(&plan);
    eprintln!(
        "explain: {} configurations per round on {} (the first is the explained run); {}",
        configs.len(),
        instance.source,
        match args.repeats {
            Some(rounds) => format!("{rounds} rounds"),
            None => "rounds until the median is known within ±3%".to_string(),
        }
    );
    let stopped = measure::run_all(&instance, &mut configs, &plan.stopping, |_| {}).map_err(Failure::bad_input)?;
    let stopped = measure::stopping_text(stopped, &plan.stopping, configs[0].reports.len());
    let verdict = verdict::verdict(&plan, &configs, stopped);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&verdict).map_err(Failure::failed)?);
    } else {
        println!("{}", markdown::verdict_text(&verdict));
    }
    let report_path = args.out.clone().unwrap_or_else(|| default_report_path(&instance.id, &knob_slug, &plan));
    let plot_path = report_path.with_extension("svg");
    let plot_file = plot_path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let command = std::iter::once("backtrack-bench".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>();
    let context = ReportContext { command: command.join(" "), configs: &configs, verdict: &verdict, plot_file };
    let svg = plot::svg(&verdict, configs[0].median_run()).map_err(Failure::failed)?;
    write_atomically(&plot_path, svg.as_bytes()).map_err(Failure::failed)?;
    write_atomically(&report_path, markdown::report(&context).as_bytes()).map_err(Failure::failed)?;
    let written = format!("report: {}\nplot:   {}", report_path.display(), plot_path.display());
    if args.json {
        eprintln!("{written}");
    } else {
        println!("{written}");
    }
    if verdict.bugs.is_empty() {
        Ok(())
    } else {
        Err(Failure::failed("the measurements show a bug in the parallel strategy (see BUG above)"))
    }
}

/// `results/explain/<instance>[-<knob values>]-<strategy>-<threads>t[-first].md`.
fn default_report_path(instance_id: &str, knob_values: &[String], plan: &ExplainPlan) -> PathBuf {
    let mut parts = vec![file_safe(instance_id)];
    parts.extend(knob_values.iter().cloned());
    parts.push(file_safe(&plan.run.strategy.to_string()));
    parts.push(format!("{}t", plan.run.threads));
    if plan.run.mode == SearchMode::First {
        parts.push("first".to_string());
    }
    Path::new("results").join("explain").join(format!("{}.md", parts.join("-")))
}

/// `text` with every character but ASCII letters, digits and `_` replaced by `-`.
fn file_safe(text: &str) -> String {
    text.chars()
        .map(|character| if character.is_ascii_alphanumeric() || character == '_' { character } else { '-' })
        .collect()
}
