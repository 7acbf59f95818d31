//! Sweep specs: the TOML format of `scripts/sweeps/*.toml`, the built-in presets, and the
//! command-line overrides applied on top.
//!
//! A spec says *what* to run (instances x knob values x strategies x threads x repeats);
//! `plan` turns it into the list of configurations. The format is documented in
//! `docs/harness.md`; every key is checked, and an error names the file, the line, the key
//! and what is allowed (`quick.toml:12: block[0].strategies: ...`). Run knobs are parsed
//! here (the keys of `RUN_DIMENSIONS`), each value checked by the
//! parser its command-line flag uses.

use super::dimensions::RUN_DIMENSIONS;
use super::spec_lines::{line_at, line_at_bytes, table_at, KeyLines};
use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::harness::error::HarnessError;
use crate::knobs::KnobValues;
use crate::parallel::MAX_THREADS;
use crate::run::instance::{escape_controls, holds_control};
use crate::run::settings::RunSettings;
use crate::run::thread_list::ThreadCount;
use crate::run::{Family, RunError};
use std::collections::BTreeMap;
use toml::Value;

/// The built-in presets (`--preset NAME`), embedded so they work from any directory.
pub const PRESETS: &[(&str, &str)] = &[
    ("quick", include_str!("../../../../scripts/sweeps/quick.toml")),
    ("full", include_str!("../../../../scripts/sweeps/full.toml")),
    ("scaling", include_str!("../../../../scripts/sweeps/scaling.toml")),
    ("enumeration", include_str!("../../../../scripts/sweeps/enumeration.toml")),
];

/// Default per-run node limit (per component) when a spec gives none: nothing runs forever.
pub const DEFAULT_NODE_LIMIT: u64 = 20_000_000_000;

/// Default time budget of one configuration's repeats, in seconds.
pub const DEFAULT_CONFIG_BUDGET_S: f64 = 120.0;

/// The largest `config_budget_s` accepted: one week (larger values are typos, and beyond
/// what a `Duration` holds they cannot even be waited for).
pub const MAX_CONFIG_BUDGET_S: f64 = 7.0 * 86_400.0;

/// A parsed sweep spec.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepSpec {
    /// The sweep's name: the prefix of its CSV files (`quick` -> `quick-runs.csv`).
    pub name: String,
    /// What the sweep is for (shown in the report).
    pub description: String,
    /// Where the spec came from (`preset quick` or the file path), for messages.
    pub origin: String,
    /// Once a configuration's runs have taken this long (and at least `min_repeats` were
    /// measured), its remaining repeats are skipped.
    pub config_budget_s: f64,
    /// Measured runs every configuration gets at least (capped by its `repeats`); `None`:
    /// every configuration runs exactly its `repeats`.
    pub min_repeats: Option<u32>,
    /// Past `min_repeats`, stop once the median's 95% interval is at most this wide
    /// relative to the median (0.03: about ±1.5%); 0: run all `repeats`.
    pub target_ci: f64,
    /// Count checks and prunes per rule and nodes per depth (costs a little time).
    pub rule_counts: bool,
    /// Per family: the knob values of its baseline (most naive) configuration.
    pub baselines: BTreeMap<String, KnobValues>,
    /// The blocks; the sweep is their concatenation.
    pub blocks: Vec<Block>,
}

/// One block of a sweep: the cross product of its lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Built-in short names or instance file paths; each entry lists alternatives, of
    /// which the first that loads is run (a plain string is a single alternative).
    pub instances: Vec<Vec<String>>,
    /// Which knob settings to run.
    pub knobs: KnobSelection,
    /// Also run the family's baseline configuration (from the spec's `baselines`).
    pub include_baseline: bool,
    /// The listed values of each run dimension (`modes`, `strategies`, ...), parallel to
    /// `RUN_DIMENSIONS`, each checked by its parser; empty where the key is absent (the
    /// run knob keeps its default).
    pub run_values: Vec<Vec<String>>,
    /// Thread counts for the parallel strategies (`sequential` always runs on one thread).
    pub threads: Vec<ThreadCount>,
    /// The integers substituted for `K` in knob values like `periodic:K`.
    pub k_values: Vec<u32>,
    /// Timed runs per configuration.
    pub repeats: u32,
    /// Untimed, unrecorded runs before the timed ones.
    pub warmup: u32,
    /// Per-run node limit (per component); a run that reaches it is recorded as `limit`.
    pub node_limit: u64,
    /// The line of each of the block's keys in the spec text (the block's header under the
    /// empty key), for messages about its values found later (when the plan is expanded).
    pub key_lines: BTreeMap<String, usize>,
}

impl Block {
    /// The line of `key` of this block in its spec, else of the block's header (when the
    /// block came from a spec text).
    pub fn line_of(&self, key: &str) -> Option<usize> {
        self.key_lines.get(key).or_else(|| self.key_lines.get("")).copied()
    }
}

/// Which knob settings a block runs.
#[derive(Debug, Clone, PartialEq)]
pub enum KnobSelection {
    /// Only the family's defaults.
    Defaults,
    /// The defaults, then every other value of every knob, one knob at a time.
    Each,
    /// Every combination of every knob's values.
    Cross,
    /// The listed knobs' values: one knob at a time from the defaults, or their cross product.
    Listed {
        /// Knob name -> its values.
        values: BTreeMap<String, KnobValueList>,
        /// Cross product instead of one at a time.
        cross: bool,
    },
}

/// The values of one listed knob.
#[derive(Debug, Clone, PartialEq)]
pub enum KnobValueList {
    /// Every value the family accepts.
    Each,
    /// These values.
    Values(Vec<String>),
}

/// Values given on the command line that replace the spec's, in every block.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--threads`.
    pub threads: Option<Vec<ThreadCount>>,
    /// `--repeats`.
    pub repeats: Option<u32>,
    /// `--warmup`.
    pub warmup: Option<u32>,
    /// `--node-limit`.
    pub node_limit: Option<u64>,
    /// `--name`: write `NAME-runs.csv` instead of the spec's name.
    pub name: Option<String>,
}

impl SweepSpec {
    /// The built-in preset `name`.
    pub fn preset(name: &str) -> Result<SweepSpec, HarnessError> {
        match PRESETS.iter().find(|(preset, _)| *preset == name) {
            Some((_, text)) => SweepSpec::parse(text, &format!("preset {name}")),
            None => Err(HarnessError::Argument {
                flag: "--preset",
                message: format!("no preset `{name}`; presets: {}", preset_names().join(", ")),
            }),
        }
    }

    /// Reads a spec file.
    pub fn load(path: &std::path::Path) -> Result<SweepSpec, HarnessError> {
        let bytes = read_bounded(path, ReadKind::Spec)?;
        let origin = path.display().to_string();
        let text = String::from_utf8(bytes).map_err(|error| {
            let bytes = error.as_bytes();
            let at = error.utf8_error().valid_up_to();
            let line = line_at_bytes(bytes, at);
            let column = at - bytes[..at].iter().rposition(|&byte| byte == b'\n').map_or(0, |newline| newline + 1) + 1;
            let message =
                format!("byte {column} of the line (0x{:02X}) is not UTF-8; a sweep spec is UTF-8 text", bytes[at]);
            HarnessError::spec_at(&origin, Some(line), message)
        })?;
        SweepSpec::parse(&text, &origin)
    }

    /// Parses spec text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<SweepSpec, HarnessError> {
        let root: toml::Table = text.parse().map_err(|error: toml::de::Error| {
            // Without a span the parser stopped at the end of the text.
            let line = error.span().map_or_else(|| line_at(text, text.len()), |span| line_at(text, span.start));
            let message = error.message().trim_end();
            // The parser gives no text for some errors (a key with no value at the end).
            let message = if message.is_empty() {
                "invalid TOML here: a key without a value, or a value cut off; write `key = VALUE` \
                 (strings in quotes)"
                    .to_string()
            } else if message.contains("number too large") || message.contains("number too small") {
                // The parser names neither the key nor the range.
                let before = error.span().and_then(|span| text.get(..span.start)).unwrap_or_default();
                let key = before.rsplit('\n').next().map(str::to_string);
                let key = key.and_then(|line| line.split('=').next().map(|key| key.trim().to_string()));
                // Inside a table, named as the spec's other errors name its keys.
                let table = table_at(text, line);
                let prefix = if table.is_empty() { table } else { format!("{table}.") };
                let key = key.filter(|key| !key.is_empty()).map(|key| format!("{prefix}{key}: ")).unwrap_or_default();
                format!("{key}{message}: TOML integers are -9223372036854775808 to 9223372036854775807 (docs/harness.md gives each key's range)")
            } else {
                message.to_string()
            };
            HarnessError::spec_at(origin, Some(line), message)
        })?;
        let lines = KeyLines::of(text);
        let fail = |message: String| HarnessError::spec_at(origin, Some(lines.line_of_message(&message)), message);
        check_keys(
            &root,
            "",
            &[
                "name",
                "description",
                "repeats",
                "warmup",
                "node_limit",
                "config_budget_s",
                "min_repeats",
                "target_ci",
                "rule_counts",
                "baselines",
                "block",
            ],
        )
        .map_err(fail)?;
        let name = match root.get("name") {
            Some(Value::String(name)) if valid_sweep_name(name) => name.clone(),
            Some(Value::String(name)) => return Err(fail(format!("name: `{name}` {SWEEP_NAME_RULE}"))),
            Some(_) => return Err(fail("name: expected a string".into())),
            None => return Err(fail("name: missing; the sweep's name, used in its file names".into())),
        };
        let description = optional_string(&root, "description").map_err(fail)?.unwrap_or_default();
        let repeats = optional_count(&root, "repeats", 1, MAX_REPEATS).map_err(fail)?.unwrap_or(1);
        let warmup = optional_warmup(&root).map_err(fail)?.unwrap_or(0);
        let node_limit = optional_integer(&root, "node_limit", 1).map_err(fail)?.unwrap_or(DEFAULT_NODE_LIMIT);
        let config_budget_s = match root.get("config_budget_s") {
            None => DEFAULT_CONFIG_BUDGET_S,
            Some(Value::Integer(seconds)) if *seconds > 0 && *seconds as f64 <= MAX_CONFIG_BUDGET_S => *seconds as f64,
            Some(Value::Float(seconds)) if *seconds > 0.0 && *seconds <= MAX_CONFIG_BUDGET_S => *seconds,
            Some(_) => {
                return Err(fail(format!(
                    "config_budget_s: expected a positive number of seconds, at most {MAX_CONFIG_BUDGET_S} (one week)"
                )))
            }
        };
        let min_repeats = optional_count(&root, "min_repeats", 1, MAX_REPEATS).map_err(fail)?;
        let target_ci = match root.get("target_ci") {
            None => 0.0,
            Some(Value::Float(width)) if (0.0..1.0).contains(width) => *width,
            Some(Value::Integer(0)) => 0.0,
            Some(_) => {
                return Err(fail(
                    "target_ci: expected the median interval's relative width to stop at, from 0 (off) to below 1, e.g. 0.03"
                        .into(),
                ))
            }
        };
        let rule_counts = match root.get("rule_counts") {
            None => true,
            Some(Value::Boolean(flag)) => *flag,
            Some(_) => return Err(fail("rule_counts: expected true or false".into())),
        };
        let baselines = parse_baselines(root.get("baselines")).map_err(fail)?;
        let blocks = match root.get("block") {
            Some(Value::Array(blocks)) if !blocks.is_empty() => blocks
                .iter()
                .enumerate()
                .map(|(index, block)| {
                    let mut block = parse_block(block, index, repeats, warmup, node_limit)?;
                    block.key_lines = lines.block(index);
                    Ok(block)
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(fail)?,
            None | Some(Value::Array(_)) => {
                return Err(fail("block: missing; add at least one [[block]] table with `instances`".into()))
            }
            Some(other) => {
                return Err(fail(format!(
                    "block: expected [[block]] tables, found {} {}; write each block as a [[block]] table with \
                     `instances`",
                    if other.type_str().starts_with(['a', 'i']) { "an" } else { "a" },
                    other.type_str()
                )))
            }
        };
        if let Some(least) = min_repeats {
            check_min_repeats(least, root.contains_key("repeats"), &blocks, &lines).map_err(fail)?;
        }
        Ok(SweepSpec {
            name,
            description,
            origin: origin.to_string(),
            config_budget_s,
            min_repeats,
            target_ci,
            rule_counts,
            baselines,
            blocks,
        })
    }

    /// Applies command-line overrides to every block.
    pub fn apply(&mut self, overrides: &Overrides) {
        if let Some(name) = &overrides.name {
            self.name = name.clone();
        }
        for block in &mut self.blocks {
            if let Some(threads) = &overrides.threads {
                block.threads = threads.clone();
            }
            if let Some(repeats) = overrides.repeats {
                block.repeats = repeats;
            }
            if let Some(warmup) = overrides.warmup {
                block.warmup = warmup;
            }
            if let Some(node_limit) = overrides.node_limit {
                block.node_limit = node_limit;
            }
        }
    }
}

/// The names of the built-in presets.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(name, _)| *name).collect()
}

// The rule of sweep names lives with the file names it makes (the results folder's).
pub use crate::harness::storing::results_folder::{valid_sweep_name, SWEEP_NAME_RULE};

/// Refuses a block whose `repeats` (its own, or the top level's it inherits; 1 when neither
/// is set) is below `min_repeats`: the minimum was capped in silence (10 asked, 2 ran), so
/// one of the two values is a mistake. `--repeats` still caps it (a quick trial of a spec).
fn check_min_repeats(least: u32, top_set: bool, blocks: &[Block], lines: &KeyLines) -> Result<(), String> {
    let Some((index, block)) = blocks.iter().enumerate().find(|(_, block)| block.repeats < least) else {
        return Ok(());
    };
    let (most, at) = (block.repeats, |key: &str| lines.line_of_message(key));
    let lower = format!("or lower min_repeats to at most {most}");
    Err(if block.key_lines.contains_key("repeats") {
        let key = format!("block[{index}].repeats");
        format!(
            "{key}: {most} is below min_repeats = {least} (line {}); raise {key} to at least {least} {lower}",
            at("min_repeats")
        )
    } else if top_set {
        format!(
            "min_repeats: {least} is above repeats = {most} (line {}); raise repeats to at least {least} {lower}",
            at("repeats")
        )
    } else {
        format!(
            "min_repeats: {least} is above repeats, which is 1 when not set; set repeats to at least {least} {lower}"
        )
    })
}

fn check_keys(table: &toml::Table, prefix: &str, allowed: &[&str]) -> Result<(), String> {
    for key in table.keys() {
        if !allowed.contains(&key.as_str()) {
            return Err(format!("{prefix}{key}: unknown key; allowed: {}", allowed.join(", ")));
        }
    }
    Ok(())
}

fn optional_string(table: &toml::Table, key: &str) -> Result<Option<String>, String> {
    match table.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(format!("{key}: expected a string")),
    }
}

/// The most warm-up runs per configuration: a value past it is a typo.
pub const MAX_WARMUP: u32 = 10_000;

/// The most timed runs per configuration (and the most `min_repeats`): a million runs of
/// even the quickest search is days of a sweep, and a count past `u32` would wrap.
pub const MAX_REPEATS: u32 = 1_000_000;

/// `optional_count` for `warmup`, at most [`MAX_WARMUP`], with a word on the budget.
fn optional_warmup(table: &toml::Table) -> Result<Option<u32>, String> {
    optional_count(table, "warmup", 0, MAX_WARMUP)
        .map_err(|message| format!("{message} (warm-ups also count inside config_budget_s)"))
}

/// An optional count from `minimum` to `maximum`.
fn optional_count(table: &toml::Table, key: &str, minimum: u32, maximum: u32) -> Result<Option<u32>, String> {
    match optional_integer(table, key, i64::from(minimum))? {
        Some(count) if count > u64::from(maximum) => Err(format!("{key}: {count}; at most {maximum}")),
        // At most `maximum`, a `u32`.
        count => Ok(count.map(|count| count as u32)),
    }
}

fn optional_integer(table: &toml::Table, key: &str, minimum: i64) -> Result<Option<u64>, String> {
    match table.get(key) {
        None => Ok(None),
        Some(Value::Integer(value)) if *value >= minimum => Ok(Some(*value as u64)),
        Some(_) => Err(format!("{key}: expected an integer >= {minimum}")),
    }
}

fn string_list(value: &Value, key: &str) -> Result<Vec<String>, String> {
    let Value::Array(items) = value else {
        return Err(format!("{key}: expected a list of strings"));
    };
    let list = items
        .iter()
        .map(|item| item.as_str().map(str::to_string).ok_or_else(|| format!("{key}: expected a list of strings")))
        .collect::<Result<Vec<_>, _>>()?;
    if list.is_empty() {
        return Err(format!("{key}: the list is empty"));
    }
    Ok(list)
}

fn parse_baselines(value: Option<&Value>) -> Result<BTreeMap<String, KnobValues>, String> {
    let mut baselines = BTreeMap::new();
    let Some(value) = value else { return Ok(baselines) };
    let Value::Table(families) = value else {
        return Err("baselines: expected a table of families, e.g. [baselines.hooks]".into());
    };
    for (family, knobs) in families {
        let Some(known) = Family::from_name(family) else {
            let names: Vec<&str> = Family::all().iter().map(|family| family.name()).collect();
            return Err(format!("baselines.{family}: no such family; families: {}", names.join(", ")));
        };
        let Value::Table(knobs) = knobs else {
            return Err(format!("baselines.{family}: expected a table of knob = \"value\""));
        };
        let mut values = KnobValues::new();
        for (knob, value) in knobs {
            let text = value.as_str().ok_or_else(|| format!("baselines.{family}.{knob}: expected a string"))?;
            // Knob by knob first, so that the message names the knob (and its line).
            let single = KnobValues::from([(knob.clone(), text.to_string())]);
            Family::check_knobs(known, &single)
                .map_err(|error| format!("baselines.{family}.{knob}: {}", knob_refusal(error)))?;
            values.insert(knob.clone(), text.to_string());
        }
        Family::check_knobs(known, &values).map_err(|error| format!("baselines.{family}: {}", knob_refusal(error)))?;
        baselines.insert(family.clone(), values);
    }
    Ok(baselines)
}

/// Why a family refused knob values: the knob's message (the key already names the family),
/// or the family's panic reading them.
fn knob_refusal(error: RunError) -> String {
    match error {
        RunError::Knob(error) => error.message,
        other => other.to_string(),
    }
}

fn parse_block(value: &Value, index: usize, repeats: u32, warmup: u32, node_limit: u64) -> Result<Block, String> {
    let key = |name: &str| format!("block[{index}].{name}");
    let Value::Table(table) = value else {
        return Err(format!("block[{index}]: expected a table"));
    };
    let fixed_keys =
        ["instances", "knobs", "vary", "baseline", "threads", "k_values", "repeats", "warmup", "node_limit"];
    let allowed: Vec<&str> =
        fixed_keys.into_iter().chain(RUN_DIMENSIONS.iter().map(|dimension| dimension.key)).collect();
    check_keys(table, &format!("block[{index}]."), &allowed)?;
    let instances = match table.get("instances") {
        Some(Value::Array(entries)) if !entries.is_empty() => entries
            .iter()
            .map(|entry| match entry {
                Value::String(source) => Ok(vec![source.clone()]),
                list @ Value::Array(_) => string_list(list, &key("instances")),
                _ => Err(format!("{}: expected strings, or lists of alternative strings", key("instances"))),
            })
            .map(|sources| {
                let sources = sources?;
                // An empty name was taken for the crate's folder when the run came.
                if sources.iter().any(|source| source.trim().is_empty()) {
                    return Err(format!(
                        "{}: an empty instance; each is a short name or a file path",
                        key("instances")
                    ));
                }
                // An instance is printed on terminals and written into the logs and reports.
                match sources.iter().find(|source| holds_control(source)) {
                    Some(source) => Err(format!(
                        "{}: `{}` holds a control character (shown escaped); an instance is a short name or a file \
                         path",
                        key("instances"),
                        escape_controls(source)
                    )),
                    None => Ok(sources),
                }
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(format!("{}: expected a non-empty list of instances", key("instances"))),
        None => return Err(format!("{}: missing; built-in short names or instance file paths", key("instances"))),
    };
    let cross = match table.get("vary").map(|value| value.as_str()) {
        None | Some(Some("one-at-a-time")) => false,
        Some(Some("cross")) => true,
        Some(_) => return Err(format!("{}: expected \"one-at-a-time\" or \"cross\"", key("vary"))),
    };
    let knobs = parse_knob_selection(table.get("knobs"), &key("knobs"), cross)?;
    let include_baseline = match table.get("baseline") {
        None => true,
        Some(Value::Boolean(flag)) => *flag,
        Some(_) => return Err(format!("{}: expected true or false", key("baseline"))),
    };
    // Each run knob's values are checked by its type's parser (the one its command-line flag
    // uses), so a typo fails here, naming the key and the accepted forms.
    let run_values = RUN_DIMENSIONS
        .iter()
        .map(|dimension| {
            let Some(list) = table.get(dimension.key) else { return Ok(Vec::new()) };
            let values = string_list(list, &key(dimension.key))?;
            for text in &values {
                (dimension.set)(&mut RunSettings::default(), text)
                    .map_err(|error| format!("{}: {error}", key(dimension.key)))?;
            }
            Ok(values)
        })
        .collect::<Result<Vec<_>, String>>()?;
    let threads = match table.get("threads") {
        None => vec![ThreadCount::fixed(1).expect("one thread is a thread count")],
        Some(Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|item| match item {
                Value::Integer(count) => usize::try_from(*count)
                    .map_err(|_| format!("`{count}` threads: a thread count must be between 1 and {MAX_THREADS}"))
                    .and_then(ThreadCount::fixed)
                    .map_err(|message| format!("{}: {message}", key("threads"))),
                Value::String(text) => {
                    ThreadCount::parse(text).map_err(|message| format!("{}: {message}", key("threads")))
                }
                _ => Err(format!(
                    "{}: expected integers from 1 to {MAX_THREADS} or strings like \"cores*2\"",
                    key("threads")
                )),
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(format!("{}: expected a non-empty list", key("threads"))),
    };
    let k_values = match table.get("k_values") {
        None => vec![4],
        Some(Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|item| match item {
                Value::Integer(k) if *k > 0 && *k <= u32::MAX as i64 => Ok(*k as u32),
                _ => Err(format!("{}: expected integers from 1 to {}", key("k_values"), u32::MAX)),
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(format!("{}: expected a non-empty list of integers", key("k_values"))),
    };
    Ok(Block {
        instances,
        knobs,
        include_baseline,
        run_values,
        threads,
        k_values,
        repeats: optional_count(table, "repeats", 1, MAX_REPEATS)
            .map_err(|message| format!("block[{index}].{message}"))?
            .unwrap_or(repeats),
        warmup: optional_warmup(table).map_err(|message| format!("block[{index}].{message}"))?.unwrap_or(warmup),
        node_limit: optional_integer(table, "node_limit", 1)
            .map_err(|message| format!("block[{index}].{message}"))?
            .unwrap_or(node_limit),
        key_lines: BTreeMap::new(),
    })
}

fn parse_knob_selection(value: Option<&Value>, key: &str, cross: bool) -> Result<KnobSelection, String> {
    match value {
        None => Ok(KnobSelection::Defaults),
        Some(Value::String(keyword)) => match keyword.as_str() {
            "defaults" => Ok(KnobSelection::Defaults),
            "each" => Ok(if cross { KnobSelection::Cross } else { KnobSelection::Each }),
            "cross" => Ok(KnobSelection::Cross),
            other => Err(format!("{key}: `{other}` is not a knob selection; expected \"defaults\", \"each\", \"cross\" or a table knob = [values]")),
        },
        Some(Value::Table(table)) => {
            let mut values = BTreeMap::new();
            for (knob, list) in table {
                let list = match list {
                    Value::String(keyword) if keyword == "each" => KnobValueList::Each,
                    other => KnobValueList::Values(
                        string_list(other, &format!("{key}.{knob}"))
                            .map_err(|message| format!("{message} (or \"each\")"))?,
                    ),
                };
                values.insert(knob.clone(), list);
            }
            Ok(KnobSelection::Listed { values, cross })
        }
        Some(_) => Err(format!("{key}: expected \"defaults\", \"each\", \"cross\" or a table knob = [values]")),
    }
}

#[cfg(test)]
mod tests;
