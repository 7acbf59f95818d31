//! The scaling prediction on real trees, in node counts (deterministic): the recorded tree
//! adds up to the sequential search, and `depth:2` on hooks7 at 256 threads is held to the
//! ceiling its largest subproblem sets.

use backtrack_bench::knobs::KnobValues;
use backtrack_bench::run::instance;
use backtrack_bench::run::{self, RunSettings};
use backtrack_bench::unstable::scaling::advice::advise;
use backtrack_bench::unstable::scaling::predict::{predict, Component, Shape};

fn components(name: &str) -> (Vec<Component>, u64) {
    let instance = instance::load(name).expect("built-in instance");
    let components = run::measure(&instance, &KnobValues::new(), None).expect("recorded");
    let nodes = run::solve(&instance, &RunSettings::default()).expect("solved").nodes;
    (components, nodes)
}

#[test]
fn recorded_trees_add_up_to_the_sequential_search() {
    let (components, nodes) = components("hooks7");
    let tree = &components[0].tree;
    assert_eq!(tree.total_nodes(), nodes);
    for depth in 0..=4 {
        let frontier = tree.frontier(depth).expect("small trees are recorded whole");
        assert_eq!(frontier.task_nodes.len() as u64, tree.frontier_len(depth), "depth {depth}");
        assert_eq!(frontier.above_nodes + frontier.task_nodes.iter().sum::<u64>(), nodes, "depth {depth}");
    }
}

#[test]
fn hooks7_depth_2_at_256_threads_is_capped_by_its_largest_subproblem() {
    let (components, nodes) = components("hooks7");
    let frontier = components[0].tree.frontier(2).expect("recorded");
    let ceiling = nodes as f64 / (frontier.above_nodes + frontier.largest()) as f64;
    let prediction = predict(&components, Shape::Depth(2), &[1, 256], None);
    let (one, most) = (&prediction.rows[0], &prediction.rows[1]);
    assert_eq!(one.predicted_ns, nodes as f64, "one thread runs every node once");
    assert!((most.speedup - ceiling).abs() < 1e-9, "{} against the ceiling {ceiling}", most.speedup);
    assert_eq!(most.ceiling, Some(ceiling));
    let advice = advise(&components, Shape::Depth(2), "depth:2", &prediction);
    let share = format!("{:.1}%", frontier.largest() as f64 / nodes as f64 * 100.0);
    assert!(advice.contains(&format!("about P = {}", ceiling.floor())), "{advice}");
    assert!(advice.contains(&share), "{advice}");
}

#[test]
fn stealing_is_never_advised_to_steal_and_never_beats_the_work() {
    let (components, nodes) = components("hooks7");
    let prediction = predict(&components, Shape::Steal, &[1, 2, 8, 64], None);
    assert_eq!(prediction.rows[0].predicted_ns, nodes as f64);
    for row in &prediction.rows {
        assert!(row.predicted_ns >= nodes as f64 / row.threads as f64, "{row:?}");
        assert!(row.predicted_ns >= prediction.span_nodes as f64, "{row:?}");
    }
    let advice = advise(&components, Shape::Steal, "steal", &prediction);
    assert!(!advice.contains("use `steal`"), "{advice}");
}

fn cli(arguments: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench")).args(arguments).output().expect("the binary runs")
}

#[test]
fn explain_predict_prints_every_thread_count_and_names_the_ceiling() {
    let output =
        cli(&["explain", "hooks7", "--parallel", "depth:2", "--predict", "1,2,256", "--repeats", "1", "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let rows = report["prediction"]["rows"].as_array().expect("rows");
    assert_eq!(rows.iter().map(|row| row["threads"].as_u64()).collect::<Vec<_>>(), [Some(1), Some(2), Some(256)]);
    assert!(rows.iter().all(|row| row["ceiling"].as_f64().is_some_and(|ceiling| ceiling > 1.0)));
    let advice = report["advice"].as_str().expect("advice");
    assert!(advice.contains("`depth:2` stops scaling at about P = "), "{advice}");
}

#[test]
fn predict_refuses_what_it_does_not_model_with_exit_code_2() {
    let budget = cli(&["explain", "hooks7", "--parallel", "budget:100", "--predict", "1,2"]);
    assert_eq!(budget.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&budget.stderr).contains("not modelled"));
    let zero = cli(&["explain", "hooks7", "--parallel", "steal", "--predict", "0,2"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--predict"));
}

#[test]
fn auto_with_more_threads_than_any_level_can_feed_is_predicted_sequential_and_said_so() {
    let (components, nodes) = components("hooks7");
    let widest = *components[0].tree.nodes_per_depth.iter().max().expect("depths");
    // At least two threads: with one, `auto` has nothing to share out and says otherwise.
    let threads = (widest as usize / 32 + 1).next_power_of_two().max(2);
    let prediction = predict(&components, Shape::Auto { per_thread: 32 }, &[threads], None);
    let row = &prediction.rows[0];
    assert_eq!(row.tasks, 0);
    assert!(row.predicted_ns > nodes as f64, "{row:?}");
    let advice = advise(&components, Shape::Auto { per_thread: 32 }, "auto", &prediction);
    assert!(advice.contains("searches the whole tree alone"), "{advice}");
}
