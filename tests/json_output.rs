//! End-to-end tests of `--json` for `list` and `estimate` (`explain --json` is tested in
//! tests/explain.rs): one JSON object on stdout, with the fields the text shows.

use std::process::Command;

fn json_of(arguments: &[&str]) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_backtrack-bench")).args(arguments).output().expect("the binary runs");
    assert!(output.status.success(), "{arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| panic!("{arguments:?}: not one JSON object: {error}"))
}

#[test]
fn list_json_names_every_builtin_instance_and_each_family_knob_with_its_default() {
    let list = json_of(&["list", "--json"]);
    let names: Vec<&str> =
        list["instances"].as_array().expect("instances").iter().filter_map(|entry| entry["name"].as_str()).collect();
    assert_eq!(names, ["rings", "prime-grid", "hooks7", "247"]);
    let families = list["families"].as_array().expect("families");
    assert!(families.len() >= 4, "{families:?}");
    for family in families {
        for knob in family["knobs"].as_array().expect("knobs") {
            let values: Vec<&str> =
                knob["values"].as_array().expect("values").iter().filter_map(|v| v.as_str()).collect();
            let default = knob["default"].as_str().expect("a default");
            let accepted = values.iter().any(|value| {
                *value == default
                    || value.strip_suffix(":K").is_some_and(|form| default.starts_with(&format!("{form}:")))
            });
            assert!(accepted, "{}: default {default} not among {values:?}", family["name"]);
        }
    }
}

#[test]
fn estimate_json_holds_its_settings_and_one_entry_per_component() {
    let estimate = json_of(&["estimate", "247", "--probes", "20", "--seed", "7", "--json"]);
    assert_eq!((estimate["probes"].as_u64(), estimate["seed"].as_u64()), (Some(20), Some(7)));
    assert_eq!(estimate["method"], "stratified");
    let components = estimate["components"].as_array().expect("components");
    assert_eq!(components.len(), 4, "Twenty Four Seven 2x2 #2 has four grids");
    assert!(components.iter().all(|component| component["estimated_nodes"].as_f64().is_some_and(|nodes| nodes >= 1.0)));
    // The probes follow the seed: the same seed gives the same estimates (times differ).
    let again = json_of(&["estimate", "247", "--probes", "20", "--seed", "7", "--json"]);
    let nodes = |value: &serde_json::Value| -> Vec<f64> {
        value["components"]
            .as_array()
            .expect("components")
            .iter()
            .filter_map(|c| c["estimated_nodes"].as_f64())
            .collect()
    };
    assert_eq!(nodes(&estimate), nodes(&again));
}
