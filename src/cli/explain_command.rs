//! `explain`: reruns a search sequentially and in parallel, ranks the measured causes of
//! lost time, and writes a Markdown report with a plot; with `--predict`, the predicted
//! speedup of the strategy at many thread counts instead, from one recorded tree and the
//! costs measured on this machine, with the ceiling and what to change (docs/scaling.md).

use super::args::{ExplainArgs, PredictArgs};
use super::failure::Failure;
use super::output_checks::{refuse_streamed_plot, refuse_the_instance, refuse_unwritable};
use super::predicted_strategy::{refuse_branch_and_bound, shape_of};
use crate::explain::markdown::{self, ReportContext};
use crate::explain::measure::{self, ExplainPlan};
use crate::explain::{plot, verdict};
use crate::harness::reporting::plots::text_slug;
use crate::harness::storing::output_target::{write_output, OutputTarget};
use crate::knobs::KnobValues;
use crate::machine_guard::available_cpus;
use crate::parallel::Strategy;
use crate::run::instance;
use crate::run::instance::Instance;
use crate::run::thread_list::{check_the_cap, parse_thread_list, resolve_thread_list};
use crate::run::{self, Calibration, RunSettings, SearchMode};
use crate::scaling::advice::advise;
use crate::scaling::predict::{predict, Component, Prediction};
use crate::statistics::StoppingRule;
use crate::stderr_line::note;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs `explain`. Its output goes through `writeln!`, not `println!`: a closed pipe
/// (`| head`) then ends it quietly with success instead of a panic.
pub fn run(args: &ExplainArgs, knobs: KnobValues) -> Result<(), Failure> {
    // Flags of another form of `explain`, refused rather than ignored.
    if args.slots.is_some() {
        return Err(Failure::bad_input("--slots goes with --cluster DIR (the worker slots of a split search)"));
    }
    if let (Some(out), Some(_)) = (&args.out, &args.predict.predict) {
        return Err(Failure::bad_input(format!(
            "--out {}: `explain --predict` prints its table (--json for JSON) and writes no report file",
            out.display()
        )));
    }
    if args.first && args.predict.predict.is_some() {
        // The prediction replays the whole recorded tree: a search that stops at its first
        // solution was predicted as the exhaustive one without a word.
        return Err(Failure::bad_input(
            "--predict with --first: the prediction is of exhaustive searches (the whole tree, docs/scaling.md), \
             not of a search that stops at its first solution; drop --first, or measure the first-solution search \
             (`explain --first` without --predict)",
        ));
    }
    if args.parallel.strategy == Strategy::Sequential {
        return Err(Failure::bad_input(
            "explain needs a parallel strategy to explain: --parallel auto, auto:K, steal, depth:D, budget:B, replicable or naive (see --help)",
        ));
    }
    let instance = instance::load(&args.instance)?;
    instance.family.check_knobs(&knobs)?;
    let knob_slug: Vec<String> = knobs.values().map(|value| text_slug(value)).collect();
    let mut run = RunSettings {
        knobs,
        mode: match (args.first, args.best) {
            (true, _) => SearchMode::First,
            (_, true) => SearchMode::Best,
            _ => SearchMode::All,
        },
        ..RunSettings::default()
    };
    args.parallel.apply(&mut run);
    if args.predict.predict.is_some() {
        // Calibration rounds: --repeats when given, else the adaptive rule's minimum.
        let rounds = args.repeats.map_or(measure::adaptive_rule().min_runs, |rounds| rounds) as usize;
        return run_prediction(&args.predict, args.json, &instance, &run, rounds);
    }
    let stopping = args.repeats.map_or_else(measure::adaptive_rule, StoppingRule::fixed);
    let plan = ExplainPlan { run, stopping, available_cpus: available_cpus() };
    // Checked before the runs, which may take seconds: a report that cannot be written
    // would waste them.
    let report_path = args.out.clone().unwrap_or_else(|| default_report_path(&instance.id, &knob_slug, &plan));
    check_report_path(&report_path)?;
    let plot_path = report_path.with_extension("svg");
    refuse_the_instance(&format!("--out {}", report_path.display()), &report_path, &instance.source)?;
    let plot_named = format!("--out {}: its plot {}", report_path.display(), plot_path.display());
    refuse_the_instance(&plot_named, &plot_path, &instance.source)?;
    refuse_unwritable(&format!("--out {}", report_path.display()), &report_path)?;
    refuse_unwritable(&plot_named, &plot_path)?;
    let mut configs = measure::configurations(&plan);
    note!(
        "explain: {} configurations per round on {} (the first is the explained run); {}",
        configs.len(),
        instance.source,
        match args.repeats {
            Some(rounds) => format!("{rounds} rounds"),
            None => "rounds until the median is known within ±3%".to_string(),
        }
    );
    let warn = |line: &str| note!("explain: {line}");
    let measured = measure::run_all(&instance, &mut configs, &plan.stopping, |_| {}, warn)?;
    let stopped = measure::stopping_text(measured.stopping, &plan.stopping, configs[0].reports.len());
    let verdict = verdict::verdict(&plan, &configs, stopped, measured.machine);
    if args.json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&verdict).map_err(Failure::failed)?)?;
    } else {
        writeln!(std::io::stdout(), "{}", markdown::verdict_text(&verdict))?;
    }
    // A report streamed into a FIFO or a device has no folder of its own for a plot: none
    // is drawn (as `solve --profile`), rather than a regular file made beside the device.
    let plot_path = report_path.with_extension("svg");
    let with_plot = matches!(OutputTarget::of(&report_path), Ok(OutputTarget::Replace(_)));
    let plot_file = plot_path.file_name().filter(|_| with_plot).map(|name| name.to_string_lossy().into_owned());
    let plot_file = plot_file.unwrap_or_default();
    let context = ReportContext { command: super::command_line(), configs: &configs, verdict: &verdict, plot_file };
    if with_plot {
        let svg = plot::svg(&verdict, configs[0].median_run()).map_err(Failure::failed)?;
        write_output(&plot_path, svg.as_bytes()).map_err(Failure::failed)?;
    }
    write_output(&report_path, markdown::report(&context).as_bytes()).map_err(Failure::failed)?;
    let plot_line = if with_plot { plot_path.display().to_string() } else { "none (the report is streamed)".into() };
    let written = format!("report: {}\nplot:   {plot_line}", report_path.display());
    if args.json {
        note!("{written}");
    } else {
        writeln!(std::io::stdout(), "{written}")?;
    }
    match (&verdict.counts_differ, verdict.bugs.is_empty()) {
        (Some(mismatch), _) => Err(Failure::failed(format!(
            "{} counted other nodes or solutions than sequential: the model's moves do not replay (see BUG above)",
            mismatch.configuration
        ))),
        (None, true) => Ok(()),
        (None, false) => Err(Failure::failed("the measurements show a bug in the parallel strategy (see BUG above)")),
    }
}

/// Refuses a report path where the report or its plot (the path with `.svg`) cannot go: a
/// name ending in `.svg` (the plot's own), or a report or plot path that is a folder.
fn check_report_path(report: &Path) -> Result<(), Failure> {
    let plot = report.with_extension("svg");
    if plot == report {
        return Err(Failure::bad_input(format!(
            "--out {}: the plot is written beside the report with the extension .svg, so the report's name must \
             not end in .svg; e.g. report.md",
            report.display()
        )));
    }
    if report.is_dir() {
        return Err(Failure::bad_input(format!(
            "--out {}: is a folder; name the report's file, e.g. {}",
            report.display(),
            report.join("report.md").display()
        )));
    }
    if plot.is_dir() {
        // The report's own name is fine; the folder is where its plot would go.
        return Err(Failure::bad_input(format!(
            "--out {}: its plot {} is a folder; move the folder or name another report file",
            report.display(),
            plot.display()
        )));
    }
    // The report is an output the user names: a FIFO or a device is written into and a
    // symlink followed (as `solve --solutions`), a socket refused before the runs.
    for path in [report, plot.as_path()] {
        match OutputTarget::of(path) {
            // The plot named as standard output's file (`--out r.md > r.svg`).
            Ok(OutputTarget::Stdout) if path != report => {
                return Err(Failure::bad_input(format!(
                    "--out {}: its plot {} is the file standard output goes to, where the verdict is printed; \
                     name another report file or send standard output elsewhere",
                    report.display(),
                    path.display()
                )))
            }
            Ok(OutputTarget::Stdout) => {
                return Err(Failure::bad_input(format!(
                    "--out {}: the verdict goes to standard output already (--json for JSON); --out names the \
                     report's file, e.g. report.md",
                    report.display()
                )))
            }
            Ok(_) => {}
            Err(error) => return Err(Failure::bad_input(format!("--out {error}"))),
        }
    }
    // A streamed report gets no plot; one written whole gets its plot written whole beside it.
    if matches!(OutputTarget::of(report), Ok(OutputTarget::Replace(_))) {
        refuse_streamed_plot(&format!("--out {}", report.display()), &plot)?;
    }
    Ok(())
}

/// `results/explain/<instance>[-<knob values>]-<strategy>-<threads>t[-first].md`.
fn default_report_path(instance_id: &str, knob_values: &[String], plan: &ExplainPlan) -> PathBuf {
    let mut parts = vec![text_slug(instance_id)];
    parts.extend(knob_values.iter().cloned());
    parts.push(text_slug(&plan.run.strategy.to_string()));
    parts.push(format!("{}t", plan.run.threads));
    match plan.run.mode {
        SearchMode::First => parts.push("first".to_string()),
        SearchMode::Best => parts.push("best".to_string()),
        SearchMode::All => {}
    }
    Path::new("results").join("explain").join(format!("{}.md", parts.join("-")))
}

/// Everything `--predict --json` prints.
#[derive(Debug, Serialize)]
struct PredictionReport<'a> {
    instance: &'a str,
    prediction: &'a Prediction,
    advice: &'a str,
    components: Vec<ComponentCosts<'a>>,
}

#[derive(Debug, Serialize)]
struct ComponentCosts<'a> {
    name: &'a str,
    nodes: u64,
    recorded_depth: usize,
    costs: &'a crate::scaling::costs::Costs,
}

/// Runs the prediction of `settings`' strategy on `instance`, timing `repeats` rounds.
pub fn run_prediction(
    args: &PredictArgs,
    json: bool,
    instance: &Instance,
    settings: &RunSettings,
    repeats: usize,
) -> Result<(), Failure> {
    let list = args.predict.as_deref().unwrap_or_default();
    let threads = parse_thread_list(list).map_err(|error| Failure::bad_input(format!("--predict: {error}")))?;
    check_the_cap(&threads, available_cpus())
        .map_err(|error| Failure::bad_input(format!("--predict {list}: {error}")))?;
    // A count listed twice is predicted once (it printed the same row twice).
    let threads = super::scaling_check_command::first_of_each(resolve_thread_list(&threads, available_cpus()));
    let shape = shape_of(settings.strategy)?;
    refuse_branch_and_bound(run::prepare(instance, &settings.knobs)?.as_ref(), &instance.source)?;
    // As explain's own runs: without per-rule counts.
    let calibration = Calibration { rule_counts: false, rounds: repeats, copies: available_cpus() };
    note!(
        "predict: recording the tree of {} and timing {} rounds of sequential searches, alone and {} at once",
        instance.source,
        repeats,
        calibration.copies
    );
    let components = run::measure(instance, &settings.knobs, Some(calibration))?;
    let prediction = predict(&components, shape, &threads, args.cores.map(|cores| cores as usize));
    let advice = advise(&components, shape, &settings.strategy.to_string(), &prediction);
    if json {
        let report = PredictionReport {
            instance: &instance.id,
            prediction: &prediction,
            advice: &advice,
            components: components
                .iter()
                .map(|component| ComponentCosts {
                    name: &component.name,
                    nodes: component.tree.total_nodes(),
                    recorded_depth: component.tree.recorded_depth,
                    costs: &component.costs,
                })
                .collect(),
        };
        let text = serde_json::to_string_pretty(&report).map_err(Failure::failed)?;
        writeln!(std::io::stdout(), "{text}")?;
    } else {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", table(&instance.id, &components, &prediction))?;
        writeln!(out, "advice: {advice}")?;
    }
    Ok(())
}

/// The prediction as a text table with its inputs above it.
pub fn table(instance_id: &str, components: &[Component], prediction: &Prediction) -> String {
    let mut lines = vec![format!(
        "prediction: {} on {instance_id}: {} component(s), {} nodes, span {} nodes; sequential {:.3} ms predicted",
        prediction.strategy,
        components.len(),
        prediction.work_nodes,
        prediction.span_nodes,
        prediction.sequential_ns / 1e6
    )];
    for component in components {
        let costs = &component.costs;
        lines.push(format!(
            "  {}: {} nodes at {:.1} ns alone ({:.1} ns on a worker); {} at once each x{:.3}; \
             task {:.0} ns, spawn {:.0} ns, steal {:.0} ns, split {:.0} ns, lock {:.0} ns, \
             replay {:.0} ns + {:.1} ns/move; recorded to depth {}",
            component.name,
            component.tree.total_nodes(),
            costs.node_ns,
            costs.steered_node_ns,
            costs.slowdown.copies,
            costs.slowdown.factor,
            costs.task_ns,
            costs.spawn_ns,
            costs.steal_ns,
            costs.split_ns,
            costs.lock_ns,
            costs.replay_first_ns,
            costs.replay_ns_per_move,
            component.tree.recorded_depth
        ));
    }
    match prediction.cores {
        Some(cores) => lines.push(format!("  (threads share {cores} CPUs)")),
        None => lines.push("  (one CPU per thread)".to_string()),
    }
    lines.push(format!(
        "{:>7} {:>13} {:>8} {:>10} {:>6} {:>9} {:>7} {:>7} {:>7} {:>8} {:>8}",
        "threads",
        "predicted_ms",
        "speedup",
        "efficiency",
        "idle",
        "tail_ms",
        "tasks",
        "steals",
        "depth",
        "largest",
        "ceiling"
    ));
    for row in &prediction.rows {
        let depths: Vec<String> = row.depths.iter().map(usize::to_string).collect();
        lines.push(format!(
            "{:>7} {:>13.3} {:>8.2} {:>9.1}% {:>5.1}% {:>9.3} {:>7} {:>7} {:>7} {:>8} {:>8}",
            row.threads,
            row.predicted_ns / 1e6,
            row.speedup,
            row.efficiency * 100.0,
            row.idle_share * 100.0,
            row.tail_ns / 1e6,
            row.tasks,
            row.steals,
            if depths.is_empty() { "-".to_string() } else { depths.join("/") },
            row.largest_share.map_or("-".to_string(), |share| format!("{:.2}%", share * 100.0)),
            row.ceiling.map_or("-".to_string(), |ceiling| format!("{ceiling:.1}x")),
        ));
    }
    for note in &prediction.approximations {
        lines.push(format!("  approximated: {note}"));
    }
    lines.join("\n")
}
