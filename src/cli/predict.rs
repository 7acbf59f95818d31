//! `explain --predict`: the predicted speedup of the `--parallel` strategy at many thread
//! counts, from one recorded tree and costs measured on this machine, with the ceiling and
//! what to change (see docs/scaling.md). Called from `explain` with a few lines.

use super::parallel_args::available_cpus;
use super::Failure;
use crate::parallel::Strategy;
use crate::run::instance::Instance;
use crate::run::measure;
use crate::run::settings::{parse_thread_list, resolve_thread_list};
use crate::run::{self, Calibration, RunSettings};
use crate::scaling::advice::advise;
use crate::scaling::predict::{predict, Component, Prediction, Shape};
use clap::Args;
use serde::Serialize;

/// The flags that turn `explain` into a prediction.
#[derive(Args, Debug, Clone)]
pub struct PredictArgs {
    /// Predict the strategy's speedup at these thread counts (e.g. 1,2,4,8,16,32,64,128,256)
    /// instead of explaining a run: records the tree once, measures the costs of this
    /// machine (--repeats timed sequential searches, alone and side by side), replays the
    /// schedule and names the ceiling. The explain reruns are skipped.
    #[arg(long, value_name = "LIST")]
    pub predict: Option<String>,
    /// With --predict: the CPUs the threads share (default: one CPU per thread, the answer
    /// for a machine as large as the thread count).
    #[arg(long, value_name = "N", requires = "predict", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub cores: Option<u64>,
}

/// The modelled shape of `strategy`, or why it has none.
pub fn shape_of(strategy: Strategy) -> Result<Shape, Failure> {
    measure::shape_of(strategy).ok_or_else(|| {
        Failure::bad_input(format!(
            "--predict models depth:D, auto, auto:K, steal and naive; `{strategy}` is not modelled (see docs/scaling.md)"
        ))
    })
}

/// Parses a strategy name given on the command line.
pub fn parse_strategy(name: &str) -> Result<Strategy, Failure> {
    name.parse::<Strategy>().map_err(Failure::bad_input)
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
pub fn run(
    args: &PredictArgs,
    json: bool,
    instance: &Instance,
    settings: &RunSettings,
    repeats: usize,
) -> Result<(), Failure> {
    let list = args.predict.as_deref().unwrap_or_default();
    let threads = parse_thread_list(list).map_err(|error| Failure::bad_input(format!("--predict: {error}")))?;
    let threads = resolve_thread_list(&threads, available_cpus());
    let shape = shape_of(settings.strategy)?;
    // As explain's own runs: without per-rule counts.
    let calibration = Calibration { rule_counts: false, rounds: repeats, copies: available_cpus() };
    eprintln!(
        "predict: recording the tree of {} and timing {} rounds of sequential searches, alone and {} at once",
        instance.source, repeats, calibration.copies
    );
    let components = run::measure(instance, &settings.knobs, Some(calibration)).map_err(Failure::bad_input)?;
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
        println!("{text}");
    } else {
        println!("{}", table(&instance.id, &components, &prediction));
        println!("advice: {advice}");
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
            "  {}: {} nodes at {:.1} ns alone; {} at once each x{:.3}; task {:.0} ns, spawn {:.0} ns, steal {:.0} ns, \
             split {:.0} ns, lock {:.0} ns, replay {:.0} ns + {:.1} ns/move; recorded to depth {}",
            component.name,
            component.tree.total_nodes(),
            costs.node_ns,
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
