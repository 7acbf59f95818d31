//! A branch-and-bound search split into parts that share an incumbent through the plan
//! folder merges to the sequential optimum, proven, for every optimising family and part
//! count; a part rerun after a kill (cut by the value it published before) loses nothing;
//! a published value that its path does not reach is refused; a seed is honoured.

use backtrack_bench::knobs::KnobValues;
use backtrack_bench::run::{self, instance, Instance, RunSettings, SearchMode};
use backtrack_bench::unstable::cluster::check::merged_against_sequential;
use backtrack_bench::unstable::cluster::incumbent::{incumbent_path, IncumbentFile};
use backtrack_bench::unstable::cluster::key::{read_key, sign};
use backtrack_bench::unstable::cluster::plan::part_path;
use backtrack_bench::unstable::cluster::{merge, run_part, split, ClusterFailure, PartOptions};
use std::path::Path;

fn knobs(pairs: &[(&str, &str)]) -> KnobValues {
    let mut knobs = KnobValues::new();
    for (name, value) in pairs {
        knobs.insert(name.to_string(), value.to_string());
    }
    knobs
}

fn load(name: &str) -> Instance {
    instance::load(name).unwrap_or_else(|error| panic!("{name}: {error}"))
}

/// The sequential optimum of `instance` with `knobs`, proven.
fn sequential_best(instance: &Instance, knobs: &KnobValues) -> i64 {
    let settings = RunSettings { knobs: knobs.clone(), mode: SearchMode::Best, ..RunSettings::default() };
    let report = run::solve(instance, &settings).expect("the sequential search runs");
    let objective = report.objective.expect("an optimising family reports its objective");
    assert!(objective.proven);
    objective.best.expect("a best value")
}

fn split_and_run(instance: &Instance, knobs: &KnobValues, parts: usize, seed: Option<i64>, dir: &Path) {
    split(instance, knobs, parts, seed, dir).expect("the plan is written");
    for part in 1..=parts {
        run_part(dir, part, PartOptions::threads(1 + part % 2)).expect("the part runs");
    }
}

#[test]
fn every_optimising_family_merged_from_1_8_64_parts_has_the_sequential_optimum() {
    let cases = [
        ("instances/max_clique/gnp_60_0.7_1.clq", knobs(&[])),
        ("instances/max_clique/gnp_60_0.7_1.clq", knobs(&[("order", "index"), ("bound", "size")])),
        ("instances/knapsack/strongly-correlated_30.json", knobs(&[])),
        ("instances/knapsack/strongly-correlated_30.json", knobs(&[("order", "index")])),
        ("instances/knapsack/uncorrelated_40.json", knobs(&[])),
        ("prime-grid", knobs(&[("objective", "min-total")])),
    ];
    for (name, knobs) in &cases {
        let instance = load(name);
        let results = merged_against_sequential(&instance, knobs, &[1, 8, 64]).expect("split, parts and merge run");
        for (parts, differences) in results {
            assert!(differences.is_empty(), "{name} {knobs:?} in {parts} parts: {differences:#?}");
        }
    }
}

#[test]
fn a_part_rerun_after_it_published_the_optimum_is_cut_by_it_and_the_merge_still_has_it() {
    let instance = load("instances/max_clique/gnp_60_0.7_1.clq");
    let optimum = sequential_best(&instance, &KnobValues::new());
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path();
    split_and_run(&instance, &KnobValues::new(), 4, None, dir);
    // The part that published the optimum first, as if killed after publishing and
    // before its file was written: its rerun starts from its own published value.
    let finder = (1..=4)
        .find(|&part| {
            std::fs::read(incumbent_path(dir, part)).ok().is_some_and(|bytes| {
                let file: IncumbentFile = serde_json::from_slice(&bytes).expect("an incumbent file");
                file.solutions.iter().any(|solution| solution.value == optimum)
            })
        })
        .expect("a part published the optimum");
    std::fs::remove_file(part_path(dir, finder)).unwrap();
    let rerun = run_part(dir, finder, PartOptions::threads(1)).expect("the rerun");
    let rerun_best = rerun.file.components[0].best;
    assert!(rerun_best < Some(optimum), "the rerun is cut by its own published optimum: {rerun_best:?}");
    let (report, _) = merge(dir).expect("the merge");
    let objective = report.objective.expect("an objective");
    assert_eq!((objective.best, objective.proven), (Some(optimum), true));
    // When the rerun part was the first to start, the optimum was published before every
    // start the part files now record: its time is unknown, not 0 (it was 0).
    assert_ne!(objective.time_to_best_ns, Some(0), "part {finder} found the optimum");
    assert_eq!(report.components[0].solution_texts.len() as u64, objective.optimal_solutions_kept);
    // The answer is the single run's, though no part file holds a solution of the optimum.
    assert_eq!(report.answer, serde_json::json!({ "size": optimum }));
}

#[test]
fn a_signed_incumbent_file_under_another_parts_name_is_refused() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path();
    let path = split_knapsack_in_two(dir);
    std::fs::copy(&path, incumbent_path(dir, 7)).unwrap();
    let error = merge(dir).expect_err("a copied file");
    assert!(error.message.contains("7.json: written by part"), "{}", error.message);
}

/// A knapsack split in two and run into `dir`; the path of an incumbent file a part published.
fn split_knapsack_in_two(dir: &Path) -> std::path::PathBuf {
    split_and_run(&load("instances/knapsack/strongly-correlated_30.json"), &KnobValues::new(), 2, None, dir);
    (1..=2).map(|part| incumbent_path(dir, part)).find(|path| path.exists()).expect("a published file")
}

#[test]
fn a_published_value_that_its_path_does_not_reach_is_refused_by_the_merge() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let dir = folder.path();
    let path = split_knapsack_in_two(dir);
    let mut file: IncumbentFile = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    file.solutions[0].value += 1;
    // Signed with the folder's key, so that the digest verifies and the replay is reached.
    sign(&read_key(dir).expect("the folder's key"), &mut file);
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    let error = merge(dir).expect_err("a forged value");
    assert_eq!(error.kind, ClusterFailure::BadInput);
    assert!(error.message.contains("claims the value"), "{}", error.message);
}

#[test]
fn a_seed_is_the_starting_incumbent_of_every_part() {
    let instance = load("prime-grid");
    let knobs = knobs(&[("objective", "min-total")]);
    let optimum = sequential_best(&instance, &knobs);
    assert_eq!(optimum, 541);
    for (seed, best, proven) in [(600, Some(541), true), (541, None, false)] {
        let folder = tempfile::tempdir().expect("temporary folder");
        split_and_run(&instance, &knobs, 3, Some(seed), folder.path());
        let (report, _) = merge(folder.path()).expect("the merge");
        let objective = report.objective.expect("an objective");
        assert_eq!((objective.best, objective.proven, objective.seed), (best, proven, Some(seed)), "seed {seed}");
    }
}

#[test]
fn a_seed_is_refused_for_a_family_without_an_objective() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let error = split(&load("rings"), &KnobValues::new(), 2, Some(3), folder.path()).expect_err("no objective");
    assert_eq!(error.kind, ClusterFailure::BadInput);
    assert!(error.message.contains("--incumbent needs an objective"), "{}", error.message);
}
