//! Tests of the sweep spec's parsing and its error messages.

use super::*;

/// The message of the error parsing `text` as `s.toml` gives (the spec must be refused).
fn error(text: &str) -> String {
    SweepSpec::parse(text, "s.toml").unwrap_err().to_string()
}

#[test]
fn every_preset_parses() {
    for name in preset_names() {
        let spec = SweepSpec::preset(name).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(spec.name, name);
    }
}

#[test]
fn block_settings_inherit_and_override_the_top_level() {
    let spec = SweepSpec::parse(
        "name = \"t\"\nrepeats = 3\nwarmup = 1\n[[block]]\ninstances = [\"rings\"]\n[[block]]\ninstances = [\"rings\"]\nrepeats = 5\nknobs = { order = \"each\", pruning = [\"none\"] }\nvary = \"cross\"\n",
        "test",
    )
    .unwrap();
    assert_eq!((spec.blocks[0].repeats, spec.blocks[0].warmup), (3, 1));
    assert_eq!(spec.blocks[1].repeats, 5);
    let KnobSelection::Listed { values, cross } = &spec.blocks[1].knobs else { panic!("listed knobs") };
    assert!(*cross);
    assert_eq!(values["order"], KnobValueList::Each);
    assert_eq!(values["pruning"], KnobValueList::Values(vec!["none".into()]));
}

#[test]
fn errors_name_the_key() {
    assert_eq!(
        error("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nthreads = [\"lots\"]"),
        "s.toml:4: block[0].threads: `lots` is not a thread count; expected an integer from 1 to 1024, `cores`, `cores*N`, `cores+N` or a range `A..B` of those"
    );
    assert!(error("name = \"t\"\n[[block]]\ninstance = [\"rings\"]")
        .starts_with("s.toml:3: block[0].instance: unknown key"));
    assert!(error("name = \"a b\"\n[[block]]\ninstances = [\"rings\"]").contains("not a valid sweep name"));
    assert!(error("name = \"t\"").contains("block: missing"));
    assert!(error("name = \"t\"\nblock = 3").contains("block: expected [[block]] tables, found an integer"));
    assert!(error("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nmodes = [\"some\"]").contains("block[0].modes"));
}

#[test]
fn errors_name_the_line_of_the_bad_value() {
    let spec = "name = \"t\"\nrepeats = 2\n\n[[block]]\ninstances = [\"rings\"]\n\n[[block]]\ninstances = [\"rings\"]\nstrategies = [\"auto\",\n  \"bogus\"]\n";
    assert!(
        error(spec).starts_with("s.toml:9: block[1].strategies: invalid parallel strategy `bogus`"),
        "{}",
        error(spec)
    );
    assert!(error("name = \"t\"\nwarmup = -1\n[[block]]\ninstances = [\"rings\"]\n").starts_with("s.toml:2: warmup:"));
    let baseline = "name = \"t\"\n[baselines.olympic_rings]\norder = 3\n[[block]]\ninstances = [\"rings\"]\n";
    assert!(error(baseline).starts_with("s.toml:3: baselines.olympic_rings.order:"), "{}", error(baseline));
    // A TOML syntax error carries the line of the parser's span.
    assert!(error("name = \"t\"\n[[block]\n").starts_with("s.toml:2: "), "{}", error("name = \"t\"\n[[block]\n"));
}

#[test]
fn run_dimension_values_are_kept_as_listed_and_absent_ones_are_empty() {
    let spec = SweepSpec::parse(
        "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\naffinities = [\"free\", \"pinned\"]\n",
        "s",
    )
    .unwrap();
    for (dimension, values) in RUN_DIMENSIONS.iter().zip(&spec.blocks[0].run_values) {
        let expected: &[&str] = if dimension.key == "affinities" { &["free", "pinned"] } else { &[] };
        assert_eq!(values, expected, "{}", dimension.key);
    }
}

#[test]
fn overrides_replace_every_block() {
    let mut spec = SweepSpec::preset("quick").unwrap();
    spec.apply(&Overrides {
        threads: Some(crate::run::thread_list::parse_thread_list("1,4").unwrap()),
        repeats: Some(7),
        name: Some("mine".into()),
        ..Overrides::default()
    });
    assert_eq!(spec.name, "mine");
    assert!(spec.blocks.iter().all(|block| block.repeats == 7 && block.threads.len() == 2));
}

#[test]
fn a_key_without_a_value_says_what_is_wrong() {
    let error = SweepSpec::parse("name =", "e.toml").unwrap_err().to_string();
    assert!(error.starts_with("e.toml:1: ") && error.len() > "e.toml:1: ".len() + 10, "{error}");
}

#[test]
fn an_absurd_warmup_is_refused_with_its_line() {
    let spec = "name = \"t\"\nwarmup = 9223372036854775807\n[[block]]\ninstances = [\"rings\"]\n";
    assert!(
        error(spec).starts_with("s.toml:2: warmup: 9223372036854775807; at most 10000 (warm-ups"),
        "{}",
        error(spec)
    );
    let spec = "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nwarmup = 20000\n";
    assert!(error(spec).starts_with("s.toml:4: block[0].warmup: 20000"), "{}", error(spec));
}

#[test]
fn repeats_past_a_million_are_refused_rather_than_wrapped() {
    // 2^32 would wrap to 0 repeats as a `u32`: a sweep that runs nothing and exits 0.
    let spec = "name = \"t\"\nrepeats = 4294967296\n[[block]]\ninstances = [\"rings\"]\n";
    assert!(error(spec).starts_with("s.toml:2: repeats: 4294967296; at most 1000000"), "{}", error(spec));
    let spec = "name = \"t\"\nmin_repeats = 4294967297\n[[block]]\ninstances = [\"rings\"]\n";
    assert!(error(spec).starts_with("s.toml:2: min_repeats: 4294967297; at most 1000000"), "{}", error(spec));
    let spec = "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\nrepeats = 1000001\n";
    assert!(error(spec).starts_with("s.toml:4: block[0].repeats: 1000001"), "{}", error(spec));
    let spec = "name = \"t\"\nrepeats = 1000000\n[[block]]\ninstances = [\"rings\"]\n";
    assert_eq!(SweepSpec::parse(spec, "s.toml").unwrap().blocks[0].repeats, 1_000_000);
    // Past TOML's own integers the parser names no key: the message does.
    let spec = "name = \"t\"\nrepeats = 99999999999999999999\n[[block]]\ninstances = [\"rings\"]\n";
    assert!(error(spec).starts_with("s.toml:2: repeats: number too large"), "{}", error(spec));
    // Inside a table, with the table's name as the spec's other errors give it.
    let spec = "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\n[[block]]\ninstances = [\"rings\"]\nnode_limit = -99999999999999999999\n";
    assert!(error(spec).starts_with("s.toml:6: block[1].node_limit: number too small"), "{}", error(spec));
    let spec =
        "name = \"t\"\n[baselines.olympic_rings]\norder = 99999999999999999999\n[[block]]\ninstances = [\"rings\"]\n";
    assert!(error(spec).starts_with("s.toml:3: baselines.olympic_rings.order: number too large"), "{}", error(spec));
    // A sub-table of the second block, a spaced header, a string with a line like a header.
    let spec = "name = \"t\"\n[[block]]\ninstances = [\"rings\"]\n[[ block ]]\ninstances = [\"rings\"]\n[block.knobs]\norder = 99999999999999999999\n";
    assert!(error(spec).starts_with("s.toml:7: block[1].knobs.order: number too large"), "{}", error(spec));
    let spec = "name = \"t\"\ndescription = \"\"\"\n[draft]\n\"\"\"\nrepeats = 99999999999999999999\n[[block]]\ninstances = [\"rings\"]\n";
    assert!(error(spec).starts_with("s.toml:5: repeats: number too large"), "{}", error(spec));
}

#[test]
fn an_instance_with_a_control_character_is_refused_shown_escaped() {
    let spec = "name = \"t\"\n[[block]]\ninstances = [\"rings\\u0007\"]\n";
    assert!(error(spec).contains("block[0].instances: `rings\\u{7}` holds a control character"), "{}", error(spec));
    // An empty one was taken for the crate's folder when its run came.
    for instances in ["[\"\"]", "[\"rings\", \" \"]", "[[\"rings\", \"\"]]"] {
        let spec = format!("name = \"t\"\n[[block]]\ninstances = {instances}\n");
        assert!(error(&spec).contains("s.toml:3: block[0].instances: an empty instance"), "{}", error(&spec));
    }
}
