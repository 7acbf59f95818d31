//! A model's bug is an error, never a hang or a silent wrong count: a family whose model
//! panics (in `apply`, `branch`, `undo`, `solution()`, or past its `max_depth()`) gets
//! `RunError::ModelPanicked` under every strategy, naming the family, the component and
//! the node; so does a panic in the family's code outside the search (`parse`, `config`,
//! `instance_from_argument`, building the models), naming what it was doing;
//! `testing::check_parity_across_strategies` names the run whose counts differ when moves do
//! not replay.

mod broken_model;

use backtrack_bench::knobs::KnobValues;
use backtrack_bench::run::{
    self, instance, EstimateRequest, Instance, InstanceError, PanickedRun, RunError, RunSettings, SearchMode,
};
use backtrack_bench::search::EstimateMethod;
use backtrack_bench::testing::{check_parity_across_strategies, ParityCase};
use backtrack_bench::unstable::cluster::{self, ClusterFailure};
use backtrack_bench::{instance_of, knob_values};
use broken_model::{BrokenQueens, ARGUMENT_FAULT, CONFIG_FAULT, FAULT_DEPTH};
use serde_json::json;
use std::sync::mpsc;
use std::time::Duration;

/// The six strategies of `solve --parallel`.
const STRATEGIES: [&str; 6] = ["sequential", "naive", "depth:2", "steal", "budget:64", "auto"];

/// `run::solve` of `n` queens with `fault` under `strategy` on 2 threads, on a thread of
/// its own; fails the test if it has not returned within 30 seconds (a hang: before a
/// worker's panic stopped the run, `steal` and `budget` never returned).
fn solve_or_hang(n: u64, fault: &str, strategy: &str) -> Result<u64, RunError> {
    let instance = instance_of::<BrokenQueens>(json!({ "n": n })).expect("a valid instance");
    let settings = RunSettings {
        knobs: knob_values(&[("fault", fault)]),
        mode: SearchMode::All,
        strategy: strategy.parse().expect("a valid strategy"),
        threads: 2,
        ..RunSettings::default()
    };
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(run::solve(&instance, &settings).map(|report| report.solutions));
    });
    receiver.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| panic!("{fault}, {strategy} x2: the run hung"))
}

#[test]
fn a_model_that_panics_is_an_error_naming_family_component_and_node_under_every_strategy() {
    for fault in ["apply", "branch", "undo", "solution"] {
        for strategy in STRATEGIES {
            let context = format!("{fault}, {strategy} x2");
            let error = solve_or_hang(8, fault, strategy).expect_err(&context);
            let RunError::ModelPanicked(panicked) = &error else {
                panic!("{context}: {error}");
            };
            let PanickedRun { family, component, during, strategy: run, panic, .. } = panicked.as_ref();
            assert_eq!((family.as_str(), component.as_deref(), *during), ("broken_model", Some("8x8"), "searching"));
            assert_eq!(run, &format!("{strategy} x{}", if strategy == "sequential" { 1 } else { 2 }));
            // The model names the node it broke at: `apply` and `undo` at the child being
            // entered or left, whose parent is the engine's node; the others at the node.
            let prefix = format!("{fault} fault injected at ");
            assert!(panic.message.starts_with(&prefix), "{context}: {panic:?}");
            let faulty = &panic.message[prefix.len()..];
            assert!(faulty.starts_with("[1, "), "{context}: {faulty}");
            let node = match fault {
                "apply" | "undo" => faulty.rsplit_once(", ").map(|(parent, _)| format!("{parent}]")).expect("a path"),
                _ => faulty.to_string(),
            };
            // The sequential loop keeps no path: it searches again for the node.
            assert_eq!(panic.path.as_ref(), Some(&node), "{context}");
            let depth = if fault == "solution" { 8 } else { FAULT_DEPTH };
            assert_eq!(faulty.matches(", ").count() + 1, depth, "{context}: {faulty}");
            assert!(panic.location.as_deref().is_some_and(|at| at.contains("broken_model")), "{context}: {panic:?}");
            let text = error.to_string();
            assert!(text.contains("broken_model") && text.contains("`8x8`") && text.contains(faulty), "{text}");
        }
    }
}

#[test]
fn a_max_depth_below_the_tree_is_an_error_naming_max_depth_and_the_family() {
    for strategy in STRATEGIES {
        let error = solve_or_hang(8, "max-depth", strategy).expect_err(strategy);
        let text = error.to_string();
        assert!(matches!(error, RunError::ModelPanicked(_)), "{strategy}: {text}");
        assert!(text.starts_with("the broken_model family panicked while searching component `8x8`"), "{text}");
        assert!(text.contains("max_depth() is 7 but a node at depth 7 offered children"), "{strategy}: {text}");
        assert!(!text.contains("index out of bounds"), "{strategy}: {text}");
    }
}

#[test]
fn the_model_without_its_bug_counts_the_92_placements_of_8_queens_under_every_strategy() {
    for strategy in STRATEGIES {
        assert_eq!(solve_or_hang(8, "none", strategy).expect(strategy), 92, "{strategy}");
    }
}

#[test]
fn the_parity_check_passes_the_sound_model_and_names_the_run_where_moves_do_not_replay() {
    let case = |fault: &'static str, solutions| ParityCase {
        argument: "8",
        knob_settings: if fault == "none" { &[&[("fault", "none")]] } else { &[&[("fault", "non-replayable")]] },
        solutions,
    };
    assert_eq!(check_parity_across_strategies::<BrokenQueens>(case("none", 92)), Ok(()));
    // The non-replayable model's count, sequentially (the check compares it with the
    // published count first; the hidden counter starts afresh with each run's models).
    let sequential = solve_or_hang(8, "non-replayable", "sequential").expect("no panic");
    assert!(sequential < 92, "every fifth last row is a dead end: {sequential}");
    let failure = check_parity_across_strategies::<BrokenQueens>(case("non-replayable", sequential))
        .expect_err("the moves do not replay");
    assert_ne!(failure.run, "sequential", "{failure}");
    assert!(failure.message.contains(&format!("moves do not replay: {} found ", failure.run)), "{failure}");
    // Which last rows are dead ends depends on the order the threads reach them, so a
    // parallel run may find another count, or by chance the same count of other solutions.
    let other_count = failure.message.contains(&format!("sequential {sequential} in "));
    let other_solutions = failure.message.contains(&format!("found the same {sequential} solutions in "))
        && failure.message.contains("but other solutions");
    assert!(other_count || other_solutions, "{failure}");
}

#[test]
fn the_parity_check_names_an_undo_that_does_not_restore_the_state() {
    // The search on one state goes wrong as the forgotten counts pile up; the same search
    // with the state cloned at every node never calls `undo` and counts the 4 solutions.
    let case = ParityCase { argument: "6", knob_settings: &[&[("fault", "undo-forgets")]], solutions: 4 };
    let failure = check_parity_across_strategies::<BrokenQueens>(case).expect_err("undo forgets");
    assert_eq!(failure.run, "sequential", "{failure}");
    assert!(failure.message.contains("`undo` does not restore the state `apply` changed"), "{failure}");
    assert!(failure.message.contains("--state clone"), "{failure}");
}

#[test]
fn the_parity_check_refuses_an_argument_that_loads_another_family() {
    let case = ParityCase { argument: "rings", knob_settings: &[], solutions: 1 };
    let failure = check_parity_across_strategies::<BrokenQueens>(case).expect_err("rings is not broken_model");
    assert!(failure.message.contains("an instance of the family `olympic_rings`, not `broken_model`"), "{failure}");
}

#[test]
fn the_parity_check_reports_a_model_panic_with_the_run_it_happened_in() {
    let case = ParityCase { argument: "8", knob_settings: &[&[("fault", "branch")]], solutions: 92 };
    let failure = check_parity_across_strategies::<BrokenQueens>(case).expect_err("the model panics");
    assert_eq!(failure.run, "sequential");
    assert!(failure.message.contains("the broken_model family panicked while searching"), "{failure}");
    assert!(failure.message.contains("branch fault injected at [1, "), "{failure}");
}

/// The family's panic in `error`: its family, component, what it was doing, its strategy
/// and the panic's message.
fn panicked_run(error: &RunError) -> (&str, Option<&str>, &str, &str, &str) {
    let RunError::ModelPanicked(run) = error else { panic!("not the family's panic: {error}") };
    (run.family.as_str(), run.component.as_deref(), run.during, run.strategy.as_str(), run.panic.message.as_str())
}

/// An instance of `n` queens whose data is `data`, built without the loader's check (which
/// calls the family's `parse`).
fn unchecked_instance(data: serde_json::Value) -> Instance {
    let family = run::register::<BrokenQueens>();
    Instance { source: "test".into(), id: "queens".into(), title: String::new(), family, data, expected: None }
}

#[test]
fn a_panic_in_parse_config_or_instance_from_argument_is_the_familys_naming_the_function() {
    let parse = "reading the instance's data (`Puzzle::parse`)";
    let settings = RunSettings::default();
    let error = run::solve(&unchecked_instance(json!({ "n": 8, "fault": "parse" })), &settings).expect_err("parse");
    assert_eq!(panicked_run(&error), ("broken_model", None, parse, "", "parse fault injected"));
    let text = error.to_string();
    let expected = format!("the broken_model family panicked while {parse}: parse fault injected (at ");
    assert!(text.starts_with(&expected) && text.contains("broken_model/mod.rs:"), "{text}");
    let family = run::register::<BrokenQueens>();
    let error = family.check_data(&json!({ "n": 8, "fault": "parse" })).expect_err("the loader's check");
    assert_eq!(panicked_run(&error), ("broken_model", None, parse, "", "parse fault injected"));

    let config = "reading the knobs (`Puzzle::config`)";
    let knobs = knob_values(&[("fault", CONFIG_FAULT)]);
    let settings = RunSettings { knobs: knobs.clone(), ..RunSettings::default() };
    let error = run::solve(&unchecked_instance(json!({ "n": 8 })), &settings).expect_err("config");
    assert_eq!(panicked_run(&error), ("broken_model", None, config, "", "config fault injected"));
    let error = family.check_knobs(&knobs).expect_err("the knob check");
    assert_eq!(panicked_run(&error), ("broken_model", None, config, "", "config fault injected"));
    assert!(matches!(family.check_knobs(&knob_values(&[("fault", "nonsense")])), Err(RunError::Knob(_))));

    let error = instance::load(ARGUMENT_FAULT).expect_err("instance_from_argument");
    let InstanceError::FamilyPanicked { path, panic } = &error else { panic!("{error}") };
    assert_eq!(path.to_str(), Some(ARGUMENT_FAULT));
    let during = "reading an instance argument (`Puzzle::instance_from_argument`)";
    assert_eq!((panic.family.as_str(), panic.during), ("broken_model", during));
    assert_eq!(panic.panic.message, "instance_from_argument fault injected");
    assert!(error.to_string().starts_with(&format!("{ARGUMENT_FAULT}: the broken_model family panicked while ")));
}

#[test]
fn a_panic_in_component_names_or_rule_names_is_the_familys_in_every_operation_that_builds_models() {
    let building = "building the models";
    let instance = unchecked_instance(json!({ "n": 8, "fault": "component-names" }));
    let knobs = KnobValues::new();
    let fault = "component-names fault injected";
    let solved = run::solve(&instance, &RunSettings::default()).expect_err("solve");
    assert_eq!(panicked_run(&solved), ("broken_model", None, building, "sequential x1", fault));
    let request =
        EstimateRequest { probes: 10, seed: 1, compare: false, method: EstimateMethod::default(), time_limit: None };
    let estimated = run::estimate(&instance, &knobs, &request).expect_err("estimate");
    assert_eq!(panicked_run(&estimated), ("broken_model", None, building, "sequential x1", fault));
    let measured = backtrack_bench::unstable::scaling::measure(&instance, &knobs).expect_err("measure");
    assert_eq!(panicked_run(&measured), ("broken_model", None, building, "sequential x1", fault));
    let split = cluster::make_plan(&instance, &knobs, 2, None).expect_err("split");
    assert_eq!(split.kind, ClusterFailure::ModelPanicked, "{split}");
    assert!(split.message.starts_with("the broken_model family panicked while building the models"), "{split}");

    let settings = RunSettings { knobs: knob_values(&[("fault", "rule-names")]), ..RunSettings::default() };
    let error = run::solve(&unchecked_instance(json!({ "n": 8 })), &settings).expect_err("rule_names");
    assert_eq!(panicked_run(&error), ("broken_model", None, building, "sequential x1", "rule-names fault injected"));
}
