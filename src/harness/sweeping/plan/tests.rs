//! Tests of the sweep plan: expansion, knob sets, ids, shards and the instances chosen.

use super::*;
use crate::harness::sweeping::spec::SweepSpec;
use crate::parallel::ThreadAffinity;

fn plan(text: &str) -> SweepPlan {
    expand(&SweepSpec::parse(text, "test").unwrap(), 4).unwrap()
}

#[test]
fn a_sweep_past_the_configuration_cap_is_refused_at_its_line_before_it_is_made() {
    let thousand = (1..=1000).map(|k| k.to_string()).collect::<Vec<_>>().join(", ");
    let crossed =
        format!("name = \"t\"\n[[block]]\ninstances = [\"hooks7\"]\nknobs = \"cross\"\nk_values = [{thousand}]\n");
    let error = expand(&SweepSpec::parse(&crossed, "test").unwrap(), 4).unwrap_err().to_string();
    assert!(error.starts_with("test:4: block[0].knobs: hooks7: the cross of its knobs' values has "), "{error}");
    assert!(error.contains("past the 100000 configurations a sweep may have"), "{error}");
    let hundred = (1..=100).map(|threads| threads.to_string()).collect::<Vec<_>>().join(", ");
    let wide = format!(
        "name = \"t\"\n[[block]]\ninstances = [\"hooks7\"]\nknobs = \"each\"\nk_values = [{thousand}]\n\
         strategies = [\"auto\", \"steal\", \"naive\"]\nthreads = [{hundred}]\n"
    );
    let error = expand(&SweepSpec::parse(&wide, "test").unwrap(), 4).unwrap_err().to_string();
    assert!(error.starts_with("test:2: block[0]: the sweep has more than 100000 configurations"), "{error}");
    // Up to the cap, every configuration is made.
    let at_the_cap =
        format!("name = \"t\"\n[[block]]\ninstances = [\"hooks7\"]\nknobs = \"each\"\nk_values = [{thousand}]\n");
    assert!(plan(&at_the_cap).configurations.len() <= MAX_CONFIGURATIONS);
}

#[test]
fn fnv_matches_the_published_test_vector() {
    assert_eq!(fnv1a(b"a"), "af63dc4c8601ec8c");
}

#[test]
fn each_varies_one_knob_at_a_time_from_the_defaults() {
    let plan = plan("name = \"t\"\n[baselines.olympic_rings]\npruning = \"none\"\norder = \"listed\"\n[[block]]\ninstances = [\"rings\"]\nknobs = \"each\"\n");
    let variants: Vec<&str> = plan.configurations.iter().map(|config| config.variant.as_str()).collect();
    assert_eq!(
        variants,
        ["defaults", "baseline", "order=listed", "order=most-constrained", "pruning=none", "pruning=rings"]
    );
    assert_eq!(plan.configurations[1].knob_text(), "order=listed;pruning=none");
}

#[test]
fn a_best_mode_for_a_family_without_an_objective_is_refused_at_its_line() {
    let text = "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nmodes = [\"all\", \"best\"]\n";
    let error = expand(&SweepSpec::parse(text, "test").unwrap(), 4).unwrap_err().to_string();
    assert!(error.starts_with("test:4: block[0].modes: rings:"), "{error}");
    assert!(error.contains("the family `olympic_rings` declares no objective"), "{error}");
    let optimising =
        plan("name = \"t\"\n[[block]]\ninstances = [\"instances/knapsack_small.json\"]\nmodes = [\"best\"]\n");
    assert_eq!(optimising.configurations.len(), 1);
}

/// The prime grid has an objective only with `objective = "min-total"`: its defaults row is
/// left out of a best search, with a note (it ran and failed, exit 1), and a block of
/// defaults alone is refused at its line; `all` still runs the defaults.
#[test]
fn knob_settings_without_an_objective_are_left_out_of_a_best_search() {
    let text = "name = \"t\"\n[[block]]\ninstances = [\"prime-grid\"]\nknobs = { objective = [\"min-total\"] }\n\
                modes = [\"best\", \"all\"]\n";
    let plan = plan(text);
    let runs: Vec<(String, SearchMode)> =
        plan.configurations.iter().map(|config| (config.variant.clone(), config.run.mode)).collect();
    let expected = [("defaults", SearchMode::All), ("objective=min-total", SearchMode::Best)];
    assert_eq!(runs.len(), 3, "{runs:?}");
    for (variant, mode) in expected {
        assert!(runs.contains(&(variant.to_string(), mode)), "{runs:?}");
    }
    assert!(!runs.contains(&("defaults".to_string(), SearchMode::Best)), "{runs:?}");
    assert_eq!(plan.notes.len(), 1, "{:?}", plan.notes);
    assert!(plan.notes[0].contains("objective=none;") && plan.notes[0].contains("no objective"), "{:?}", plan.notes);
    let defaults_only = "name = \"t\"\n[[block]]\ninstances = [\"prime-grid\"]\nmodes = [\"best\"]\n";
    let error = expand(&SweepSpec::parse(defaults_only, "test").unwrap(), 4).unwrap_err().to_string();
    assert!(error.starts_with("test:4: block[0].modes: prime-grid: the mode \"best\" needs an objective"), "{error}");
    assert!(error.ends_with("list it under the modes \"all\" or \"first\""), "{error}");
    // A block where another instance has an objective runs that one, with a note for this one.
    let mixed = "name = \"t\"\n[[block]]\ninstances = [\"prime-grid\", \"instances/knapsack_small.json\"]\nmodes = [\"best\"]\n";
    let mixed = expand(&SweepSpec::parse(mixed, "test").unwrap(), 4).expect("knapsack_small has an objective");
    let sources: Vec<&str> = mixed.configurations.iter().map(|config| config.source.as_str()).collect();
    assert_eq!(sources, ["instances/knapsack_small.json"], "{:?}", mixed.notes);
    assert!(mixed.notes.iter().any(|note| note.contains("prime-grid with knobs")), "{:?}", mixed.notes);
    // Their progress lines tell the best search from the enumeration of one setting.
    let labels: Vec<String> = plan.configurations.iter().map(Configuration::label).collect();
    assert!(labels.contains(&"prime-grid objective=min-total sequential (best)".to_string()), "{labels:?}");
    assert!(labels.contains(&"prime-grid objective=min-total sequential".to_string()), "{labels:?}");
}

#[test]
fn a_listed_knob_value_with_k_takes_each_of_the_blocks_k_values() {
    let plan = plan(
        "name = \"t\"\n[[block]]\ninstances = [\"247\"]\nknobs = { connectivity = [\"periodic:K\", \"leaves\", \"periodic:8\"] }\n\
         k_values = [1, 8]\nbaseline = false\n",
    );
    let variants: Vec<&str> = plan.configurations.iter().map(|config| config.variant.as_str()).collect();
    assert_eq!(variants, ["defaults", "connectivity=periodic:1", "connectivity=periodic:8", "connectivity=leaves"]);
}

#[test]
fn cross_runs_every_combination_once() {
    let plan = plan("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nknobs = \"cross\"\n");
    assert_eq!(plan.configurations.len(), 9);
}

#[test]
fn sequential_runs_once_and_parallel_strategies_at_each_thread_count() {
    let plan = plan(
        "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nstrategies = [\"sequential\", \"auto\"]\nthreads = [1, \"cores\", \"cores*2\"]\n",
    );
    let runs: Vec<(String, usize)> =
        plan.configurations.iter().map(|config| (config.run.strategy.to_string(), config.run.threads)).collect();
    let expected = [("sequential", 1), ("auto", 1), ("auto", 4), ("auto", 8)];
    assert_eq!(runs, expected.map(|(strategy, threads)| (strategy.to_string(), threads)));
}

#[test]
fn affinities_vary_only_parallel_strategies_and_default_to_pinned() {
    let affinities = |text: &str| -> Vec<(String, ThreadAffinity)> {
        plan(text).configurations.iter().map(|config| (config.run.strategy.to_string(), config.run.affinity)).collect()
    };
    assert_eq!(
        affinities("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\n"),
        [("sequential".into(), ThreadAffinity::Pinned)]
    );
    let listed = "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nstrategies = [\"sequential\", \"auto\"]\naffinities = [\"free\", \"pinned\"]\n";
    let expected =
        [("sequential", ThreadAffinity::Free), ("auto", ThreadAffinity::Free), ("auto", ThreadAffinity::Pinned)];
    assert_eq!(affinities(listed), expected.map(|(strategy, affinity)| (strategy.to_string(), affinity)));
}

#[test]
fn shards_partition_the_plan() {
    let plan = plan("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nknobs = \"cross\"\nstrategies = [\"sequential\", \"auto\"]\nthreads = [1, 2]\n");
    let mut union: Vec<usize> = (1..=4)
        .flat_map(|number| plan.slice(Some(Shard { number, count: 4 })).into_iter().map(|config| config.index))
        .collect();
    union.sort();
    assert_eq!(union, (0..plan.configurations.len()).collect::<Vec<_>>());
    assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err() && Shard::parse("x").is_err());
    assert_eq!(Shard::parse("2/3").unwrap(), Shard { number: 2, count: 3 });
}

#[test]
fn ids_are_stable_and_distinct() {
    let plan = plan("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nknobs = \"each\"\n");
    let ids: HashSet<&str> = plan.configurations.iter().map(|config| config.id.as_str()).collect();
    assert_eq!(ids.len(), plan.configurations.len());
    // Pinned: a change here breaks `--resume` of existing CSV files.
    assert_eq!(plan.configurations[0].id, configuration_id(&plan.configurations[0]));
    assert_eq!(fnv1a(b"rings|order=rings;pruning=bounds|all|sequential|1|padded|undo|20000000000"), "4d803acf6c635b5b");
    assert_eq!(plan.configurations[0].id, "4d803acf6c635b5b");
    // A later column (affinity) joins the key, before the node limit, only off its default.
    let with_free = self::plan("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nstrategies = [\"auto\"]\nthreads = [2]\naffinities = [\"pinned\", \"free\"]\n");
    let ids: Vec<&str> = with_free.configurations.iter().map(|config| config.id.as_str()).collect();
    assert_eq!(fnv1a(b"rings|order=rings;pruning=bounds|all|auto|2|padded|undo|20000000000"), "f8b961f26e9f4426");
    assert_eq!(
        fnv1a(b"rings|order=rings;pruning=bounds|all|auto|2|padded|undo|affinity=free|20000000000"),
        "cb0c4c0c14a5afe7"
    );
    assert_eq!(ids, ["f8b961f26e9f4426", "cb0c4c0c14a5afe7"]);
    // Runs without rule counts are another configuration; with them (the default) the id
    // is as before.
    let without = self::plan("name = \"t\"\nrule_counts = false\n[[block]]\ninstances = [\"rings\"]\n");
    let key = "rings|order=rings;pruning=bounds|all|sequential|1|padded|undo|20000000000|rule_counts=false";
    assert_eq!(without.configurations[0].id, fnv1a(key.as_bytes()));
    assert_ne!(without.configurations[0].id, "4d803acf6c635b5b");
}

#[test]
fn a_configuration_listed_again_with_other_repeats_is_refused() {
    let spec = |second: &str| {
        format!("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nrepeats = 2\n[[block]]\ninstances = [\"rings\"]\n{second}")
    };
    // Alike: one configuration.
    assert_eq!(plan(&spec("repeats = 2\n")).configurations.len(), 1);
    let parsed = SweepSpec::parse(&spec("repeats = 5\n"), "t.toml").unwrap();
    let error = expand(&parsed, 1).unwrap_err().to_string();
    assert!(error.contains("block[1]: rings") && error.contains("listed by block[0] too, with repeats 2"), "{error}");
}

#[test]
fn a_missing_instance_becomes_one_configuration_that_will_fail() {
    let plan = plan("name = \"t\"\n[[block]]\ninstances = [\"no/such/file.json\"]\nknobs = \"each\"\n");
    assert_eq!(plan.configurations.len(), 1);
    assert!(plan.instances["no/such/file.json"].is_err());
}

#[test]
fn the_first_alternative_that_loads_is_run() {
    let planned =
        plan("name = \"t\"\n[[block]]\ninstances = [[\"no/such.json\", \"rings\"], [\"a.json\", \"b.json\"]]\n");
    let sources: Vec<&str> = planned.configurations.iter().map(|config| config.source.as_str()).collect();
    assert_eq!(sources, ["rings", "a.json"]);
    assert!(planned.notes.is_empty(), "a missing alternative is passed over without a word");
    let folder = tempfile::tempdir().unwrap();
    let broken = folder.path().join("broken.json");
    std::fs::write(&broken, "{").unwrap();
    let text = format!("name = \"t\"\n[[block]]\ninstances = [[{:?}, \"rings\"]]\n", broken.to_str().unwrap());
    let fallen_back = plan(&text);
    assert_eq!(fallen_back.configurations[0].source, "rings");
    let notes = &fallen_back.notes;
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("broken.json` exists but does not load ("), "{}", notes[0]);
    assert!(notes[0].ends_with("`rings` runs in its place"), "{}", notes[0]);
}

#[test]
fn a_listed_knob_no_family_has_is_an_error() {
    let spec =
        SweepSpec::parse("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nknobs = { colour = [\"red\"] }\n", "s")
            .unwrap();
    assert!(expand(&spec, 2).unwrap_err().to_string().contains("block[0].knobs.colour"));
}
