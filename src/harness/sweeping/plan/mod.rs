//! A sweep's plan: the spec expanded into an ordered list of configurations, each with a
//! stable id, and the deterministic slice of it that one shard runs.
//!
//! The order and the ids depend only on the spec, the instances' families and the core
//! count (for `cores` thread expressions), so every machine of a sharded sweep computes the
//! same plan and `--resume` recognises what a previous run recorded.

use super::dimensions::cross_runs;
use super::spec::{Block, KnobSelection, KnobValueList, SweepSpec};
use crate::files::bounded_read::special_file_at;
use crate::fnv::fnv1a;
use crate::harness::error::HarnessError;
use crate::harness::storing::results_folder::Shard;
use crate::knobs::{cross_product, expand_values, KnobSpec, KnobValues};
use crate::parallel::Strategy;
use crate::run::instance::{self, Instance};
use crate::run::thread_list::check_the_cap;
use crate::run::Family;
use crate::run::{RunError, RunSettings, SearchMode};
use crate::statistics::StoppingRule;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

/// Solutions kept per component of a sweep run for the independent check (all are counted).
pub const SOLUTIONS_CHECKED: usize = 16;

/// The most configurations a sweep may have. The `full` preset has 2,400; a plan holds
/// about 1.4 KB a configuration, so a few lines of spec (a cross of every knob over a
/// thousand `k_values`, at a hundred thread counts) asked for a hundred million of them
/// and filled memory before anything was said.
pub const MAX_CONFIGURATIONS: usize = 100_000;

/// One configuration: everything that defines a run except the repeat number.
#[derive(Debug, Clone, PartialEq)]
pub struct Configuration {
    /// Position in the whole sweep (0-based); shards slice by it.
    pub index: usize,
    /// Stable id: a hash of the source and the run description (16 hex digits).
    pub id: String,
    /// The instance as the spec names it (short name or path).
    pub source: String,
    /// `defaults`, `baseline`, or the knobs that differ from the defaults (`order=listed`).
    pub variant: String,
    /// The run description: every knob of the family (defaults filled in), mode, node
    /// limit, strategy, threads, counters, state, affinity; what `solve::run` takes.
    pub run: RunSettings,
    /// Timed runs.
    pub repeats: u32,
    /// Untimed warm-up runs.
    pub warmup: u32,
}

impl Configuration {
    /// The knobs as `name=value` joined by `;` (the CSV form).
    pub fn knob_text(&self) -> String {
        knob_text(&self.run.knobs)
    }

    /// A one-line description for progress output.
    pub fn label(&self) -> String {
        let run = &self.run;
        let threads = if run.strategy == Strategy::Sequential { String::new() } else { format!(" x{}", run.threads) };
        // The mode only where it is not the whole tree: a best-value run and an enumeration
        // of one configuration would read alike.
        let mode = if run.mode == SearchMode::All { String::new() } else { format!(" ({})", run.mode) };
        format!("{} {} {}{threads}{mode}", self.source, self.variant, run.strategy)
    }
}

/// `name=value` pairs joined by `;`.
pub fn knob_text(knobs: &KnobValues) -> String {
    knobs.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join(";")
}

/// A sweep expanded into configurations, with its instances loaded once.
#[derive(Debug)]
pub struct SweepPlan {
    /// The sweep's name.
    pub sweep: String,
    /// The spec's description.
    pub description: String,
    /// Where the spec came from (`preset quick`, or the file's path).
    pub origin: String,
    /// Every configuration, in order, without duplicates.
    pub configurations: Vec<Configuration>,
    /// Instances by source; an instance that failed to load holds why, and its
    /// configurations are recorded as errors (or panics) when run.
    pub instances: BTreeMap<String, Result<Instance, LoadFailure>>,
    /// Per-configuration time budget in seconds.
    pub config_budget_s: f64,
    /// Measured runs every configuration gets at least (see [`SweepSpec::min_repeats`]).
    pub min_repeats: Option<u32>,
    /// The median interval's relative width at which repeats stop (0: off).
    pub target_ci: f64,
    /// What the user should hear of the plan's choices before it runs: an alternative
    /// instance that exists but does not load, passed over for the next.
    pub notes: Vec<String>,
}

impl SweepPlan {
    /// When `config` stops repeating: at least the spec's `min_repeats` (capped by the
    /// configuration's `repeats`), at most its `repeats`, early once the median's interval
    /// is as narrow as `target_ci` or the time budget is spent. Without `min_repeats` the
    /// interval stops nothing (every configuration runs `repeats` times), but the budget
    /// still does, after one timed run: a spec of a million repeats must not run forever.
    pub fn stopping_rule(&self, config: &Configuration) -> StoppingRule {
        StoppingRule {
            min_runs: self.min_repeats.unwrap_or(1).min(config.repeats),
            max_runs: config.repeats,
            target_relative_width: if self.min_repeats.is_some() { self.target_ci } else { 0.0 },
            time_budget: Some(Duration::try_from_secs_f64(self.config_budget_s).unwrap_or(Duration::MAX)),
        }
    }

    /// The configurations a shard runs (all of them without a shard).
    pub fn slice(&self, shard: Option<Shard>) -> Vec<&Configuration> {
        self.configurations.iter().filter(|config| shard.is_none_or(|shard| shard.contains(config.index))).collect()
    }
}

/// Expands `spec` for a machine with `cores` available threads, loading each instance once.
pub fn expand(spec: &SweepSpec, cores: usize) -> Result<SweepPlan, HarnessError> {
    let mut instances: BTreeMap<String, Result<Instance, LoadFailure>> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut configurations = Vec::new();
    // Per instance and knob setting of a best search: whether its models lack an objective.
    let mut objectives: HashMap<(String, String), bool> = HashMap::new();
    // Each configuration's index and the block that listed it first.
    let mut seen: HashMap<String, (usize, usize)> = HashMap::new();
    for (block_index, block) in spec.blocks.iter().enumerate() {
        // `cores*N` may pass the pool's cap on a large machine: refuse it here, not per run.
        if let Err(refused) = check_the_cap(&block.threads, cores) {
            let message = format!("block[{block_index}].threads: {refused}");
            return Err(HarnessError::spec_at(&spec.origin, block.line_of("threads"), message));
        }
        let sources = choose_instances(block, block_index, &mut instances, &mut notes);
        check_listed_knobs(spec, block, block_index, &sources, &instances)?;
        // Instances and knob settings whose models have no objective are not run for the best
        // solution (the defaults row of a family whose objective is a knob, say), with a note;
        // a block left with none for a best search is refused, naming the last one left out.
        let (mut best_kept, mut best_refusal) = (false, None);
        for source in &sources {
            let loaded = instances.entry(source.clone()).or_insert_with(|| load_instance(source)).clone();
            let knob_sets = match &loaded {
                Ok(instance) => knob_sets(spec, block, instance.family).map_err(|message| {
                    let message = format!("block[{block_index}].knobs: {source}: {message}");
                    HarnessError::spec_at(&spec.origin, block.line_of("knobs"), message)
                })?,
                Err(_) => vec![("defaults".to_string(), KnobValues::new())],
            };
            if let Ok(instance) = &loaded {
                for (_, knobs) in &knob_sets {
                    instance.family.check_knobs(knobs).map_err(|error| {
                        let (origin, line) = (spec.origin.clone(), block.line_of("knobs"));
                        let message = format!("block[{block_index}].knobs: {error}");
                        match error {
                            RunError::ModelPanicked(_) => HarnessError::FamilyPanicked { origin, line, message },
                            _ => HarnessError::spec_at(origin, line, message),
                        }
                    })?;
                }
            }
            for (variant, knobs) in knob_sets {
                let base = RunSettings {
                    knobs,
                    node_limit: block.node_limit,
                    time_limit: None,
                    rule_counts: spec.rule_counts,
                    solutions_to_keep: SOLUTIONS_CHECKED,
                    ..RunSettings::default()
                };
                for run in cross_runs(base, &block.run_values, &thread_counts(block, cores)) {
                    if let Ok(instance) = &loaded {
                        refuse_best_without_objective(instance.family, &run).map_err(|message| {
                            let message = format!("block[{block_index}].modes: {source}: {message}");
                            HarnessError::spec_at(&spec.origin, block.line_of("modes"), message)
                        })?;
                        if run.mode == SearchMode::Best {
                            // Looked at once per instance and knob setting: the models are built.
                            let key = (source.clone(), knob_text(&run.knobs));
                            let first_look = !objectives.contains_key(&key);
                            let missing = *objectives.entry(key).or_insert_with(|| lacks_objective(instance, &run));
                            if missing {
                                if first_look {
                                    notes.push(format!(
                                        "block[{block_index}]: {source} with knobs `{}` is not searched for the \
                                         best solution: it has no objective with them",
                                        knob_text(&run.knobs)
                                    ));
                                }
                                best_refusal = Some((source.clone(), instance.family.name()));
                                continue;
                            }
                            best_kept = true;
                        }
                    }
                    let mut config = Configuration {
                        index: 0,
                        id: String::new(),
                        source: source.clone(),
                        variant: variant.clone(),
                        run,
                        repeats: block.repeats,
                        warmup: block.warmup,
                    };
                    config.id = configuration_id(&config);
                    if configurations.len() == MAX_CONFIGURATIONS && !seen.contains_key(&config.id) {
                        let message = format!(
                            "block[{block_index}]: the sweep has more than {MAX_CONFIGURATIONS} configurations \
                             (instances, knob settings, modes, strategies and thread counts multiplied); \
                             narrow this block or split the sweep into several"
                        );
                        return Err(HarnessError::spec_at(&spec.origin, block.line_of(""), message));
                    }
                    match seen.get(&config.id) {
                        None => {
                            seen.insert(config.id.clone(), (configurations.len(), block_index));
                            config.index = configurations.len();
                            configurations.push(config);
                        }
                        Some(&(index, first_block)) => {
                            refuse_other_repeats(&configurations[index], first_block, &config, block_index)
                                .map_err(|message| HarnessError::spec_at(&spec.origin, block.line_of(""), message))?;
                        }
                    }
                }
            }
        }
        if let (false, Some((source, family))) = (best_kept, best_refusal) {
            let message = format!(
                "block[{block_index}].modes: {source}: the mode \"best\" needs an objective, and the family \
                 `{family}` declares none for this instance and these knobs; list it under the modes \"all\" or \"first\""
            );
            return Err(HarnessError::spec_at(&spec.origin, block.line_of("modes"), message));
        }
    }
    Ok(SweepPlan {
        sweep: spec.name.clone(),
        description: spec.description.clone(),
        origin: spec.origin.clone(),
        configurations,
        instances,
        config_budget_s: spec.config_budget_s,
        min_repeats: spec.min_repeats,
        target_ci: spec.target_ci,
        notes,
    })
}

/// Refuses a search for the best solution of a family that has no objective with any
/// knobs: the run would only fail (the family's knobs may still leave a model without one,
/// which the run reports).
fn refuse_best_without_objective(family: Family, run: &RunSettings) -> Result<(), String> {
    if run.mode == SearchMode::Best && !family.optimises() {
        return Err(format!(
            "the family `{}` declares no objective, so it has no best solution; list it in a block whose modes are \"all\" or \"first\"",
            family.name()
        ));
    }
    Ok(())
}

/// Whether `run`'s knobs build models of `instance` without the objective its mode needs,
/// as the run would find. A failure to build them (a panic of the family's code too) is the
/// run's to record.
fn lacks_objective(instance: &Instance, run: &RunSettings) -> bool {
    let goal = crate::run::prepare(instance, &run.knobs).and_then(|prepared| prepared.check_goal(run));
    matches!(goal, Err(RunError::Objective(_)))
}

/// Why an instance of a sweep did not load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadFailure {
    /// The error, as a run record carries it.
    pub message: String,
    /// Whether the family's own code panicked reading it (a `panic` record, not an `error`:
    /// the bug is the family's, not the file's).
    pub family_panicked: bool,
}

impl From<instance::InstanceError> for LoadFailure {
    fn from(error: instance::InstanceError) -> LoadFailure {
        let family_panicked = matches!(error, instance::InstanceError::FamilyPanicked { .. });
        LoadFailure { message: error.to_string(), family_panicked }
    }
}

/// Loads an instance by short name or path; a relative path missing from the working
/// directory is also looked up in the crate's source folder (so presets work from anywhere).
fn load_instance(source: &str) -> Result<Instance, LoadFailure> {
    if let Some(what) = special_file_at(source) {
        // `solve` reads a pipe (`solve /dev/stdin`); a sweep would wait on one with no
        // writer before its first run, its dry run too.
        let message =
            format!("{source}: is {what}, not a regular file; a sweep reads instances only from regular files");
        return Err(LoadFailure { message, family_panicked: false });
    }
    instance::load_here_or_in_the_crate(source).map_err(LoadFailure::from)
}

/// The block's instances: of each entry's alternatives, the first that loads (else the
/// first, whose error its configurations will record). Every instance tried is cached. An
/// alternative passed over that exists (a file that does not load, not a missing one) is
/// told in `notes`: the sweep would otherwise measure the next in silence.
fn choose_instances(
    block: &Block,
    block_index: usize,
    instances: &mut BTreeMap<String, Result<Instance, LoadFailure>>,
    notes: &mut Vec<String>,
) -> Vec<String> {
    let mut chosen = Vec::new();
    for alternatives in &block.instances {
        let mut loads =
            |source: &String| instances.entry(source.clone()).or_insert_with(|| load_instance(source)).is_ok();
        let Some(position) = alternatives.iter().position(&mut loads) else {
            chosen.push(alternatives[0].clone());
            continue;
        };
        for passed in alternatives[..position].iter().filter(|source| exists_somewhere(source)) {
            let why = instances[passed].as_ref().err().map_or(String::new(), |failure| failure.message.clone());
            notes.push(format!(
                "block[{block_index}].instances: `{passed}` exists but does not load ({why}); `{}` runs in its place",
                alternatives[position]
            ));
        }
        chosen.push(alternatives[position].clone());
    }
    chosen
}

/// Whether `source` names a file where `load_instance` looks: as given, or in the crate.
fn exists_somewhere(source: &str) -> bool {
    std::path::Path::new(source).exists() || instance::in_the_crate(source).is_some()
}

/// Rejects a listed knob that no family of the block has (a typo would otherwise vanish).
fn check_listed_knobs(
    spec: &SweepSpec,
    block: &Block,
    block_index: usize,
    sources: &[String],
    instances: &BTreeMap<String, Result<Instance, LoadFailure>>,
) -> Result<(), HarnessError> {
    let KnobSelection::Listed { values, .. } = &block.knobs else { return Ok(()) };
    let families: Vec<Family> = sources
        .iter()
        .filter_map(|source| instances.get(source).and_then(|loaded| loaded.as_ref().ok()).map(|i| i.family))
        .collect();
    if families.is_empty() {
        return Ok(());
    }
    for knob in values.keys() {
        if !families.iter().any(|family| family.knobs().iter().any(|spec| spec.name == knob)) {
            let names: Vec<&str> = families.iter().map(|family| family.name()).collect();
            return Err(HarnessError::spec_at(
                &spec.origin,
                block.line_of("knobs"),
                format!(
                    "block[{block_index}].knobs.{knob}: no family of this block ({}) has this knob",
                    names.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// The block's thread counts for the parallel strategies on `cores` threads, without repeats.
fn thread_counts(block: &Block, cores: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = block.threads.iter().flat_map(|count| count.resolve(cores)).collect();
    let mut seen = HashSet::new();
    counts.retain(|count| seen.insert(*count));
    counts
}

/// The knob sets of a block for one family, each with its variant label; the defaults first.
fn knob_sets(spec: &SweepSpec, block: &Block, family: Family) -> Result<Vec<(String, KnobValues)>, String> {
    let specs = family.knobs();
    let defaults: KnobValues = specs.iter().map(|spec| (spec.name.to_string(), spec.default.to_string())).collect();
    let baseline = spec.baselines.get(family.name()).map(|values| {
        let mut knobs = defaults.clone();
        knobs.extend(values.iter().map(|(name, value)| (name.clone(), value.clone())));
        knobs
    });
    let all_values = |knob: &KnobSpec| expand_values(knob, knob.values, &block.k_values);
    // Per knob of the family, in spec order: the values to vary (None: keep the default).
    let varied: Vec<(&KnobSpec, Vec<String>)> = match &block.knobs {
        KnobSelection::Defaults => Vec::new(),
        KnobSelection::Each | KnobSelection::Cross => specs.iter().map(|knob| (knob, all_values(knob))).collect(),
        KnobSelection::Listed { values, .. } => specs
            .iter()
            .filter_map(|knob| {
                values.get(knob.name).map(|list| match list {
                    KnobValueList::Each => (knob, all_values(knob)),
                    KnobValueList::Values(list) => (knob, with_k_values(list, &block.k_values)),
                })
            })
            .collect(),
    };
    let cross = matches!(block.knobs, KnobSelection::Cross | KnobSelection::Listed { cross: true, .. });
    let mut sets: Vec<KnobValues> = vec![defaults.clone()];
    if let Some(baseline) = baseline.as_ref().filter(|_| block.include_baseline) {
        sets.push(baseline.clone());
    }
    if cross {
        // Counted before it is made: the product grows with every knob's list.
        let combinations = varied.iter().fold(1usize, |product, (_, values)| product.saturating_mul(values.len()));
        if combinations > MAX_CONFIGURATIONS {
            return Err(format!(
                "the cross of its knobs' values has {} combinations, past the {MAX_CONFIGURATIONS} configurations \
                 a sweep may have; cross fewer knobs or values",
                if combinations == usize::MAX { "more than 2^64".to_string() } else { combinations.to_string() }
            ));
        }
        sets.extend(cross_product(&defaults, &varied));
    } else {
        for (knob, values) in &varied {
            for value in values {
                let mut knobs = defaults.clone();
                knobs.insert(knob.name.to_string(), value.clone());
                sets.push(knobs);
            }
        }
    }
    let mut seen = HashSet::new();
    sets.retain(|knobs| seen.insert(knob_text(knobs)));
    Ok(sets.into_iter().map(|knobs| (variant_label(&knobs, &defaults, baseline.as_ref()), knobs)).collect())
}

/// A listed knob's values with each `HEAD:K` written once per K of the block's `k_values`
/// (a value with its number, `periodic:8`, is kept as written).
fn with_k_values(list: &[String], k_values: &[u32]) -> Vec<String> {
    let mut seen = HashSet::new();
    list.iter()
        .flat_map(|value| match value.strip_suffix(":K") {
            Some(head) => k_values.iter().map(|k| format!("{head}:{k}")).collect(),
            None => vec![value.clone()],
        })
        .filter(|value| seen.insert(value.clone()))
        .collect()
}

/// Refuses a configuration listed again by block `block_index` with other repeats or
/// warm-ups than block `first_block` gave it: it runs once, with the first block's, and the
/// second block's would be dropped without a word. Listed again alike, it is one configuration.
fn refuse_other_repeats(
    first: &Configuration,
    first_block: usize,
    again: &Configuration,
    block_index: usize,
) -> Result<(), String> {
    if (first.repeats, first.warmup) == (again.repeats, again.warmup) {
        return Ok(());
    }
    Err(format!(
        "block[{block_index}]: {} is listed by block[{first_block}] too, with repeats {} and warmup {}, and here with \
         repeats {} and warmup {}: a configuration runs once, with one setting; list it in one block, or give both \
         the same repeats and warmup",
        first.label(),
        first.repeats,
        first.warmup,
        again.repeats,
        again.warmup
    ))
}

/// `defaults`, `baseline`, or the changed knobs (`order=listed+pruning=none`).
fn variant_label(knobs: &KnobValues, defaults: &KnobValues, baseline: Option<&KnobValues>) -> String {
    if knobs == defaults {
        return "defaults".to_string();
    }
    if Some(knobs) == baseline {
        return "baseline".to_string();
    }
    knobs
        .iter()
        .filter(|(name, value)| defaults.get(*name) != Some(*value))
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join("+")
}

/// The run columns configuration ids were first written with; every one is in every key.
const FIRST_ID_COLUMNS: [&str; 6] = ["mode", "strategy", "threads", "counters", "state", "node_limit"];

/// The stable id of a configuration: FNV-1a over the source and the run description's
/// columns. A run column added after ids were first written (like `affinity`) joins the key
/// as `|column=value` only when it differs from its default in [`RunSettings::default`], so
/// every existing configuration keeps its id (and `--resume` of older files keeps working)
/// without this function knowing the new column.
fn configuration_id(config: &Configuration) -> String {
    let mut key = format!("{}|{}", config.source, config.knob_text());
    let defaults = RunSettings::default().column_values();
    for ((column, value), default) in RunSettings::COLUMNS.iter().zip(config.run.column_values()).zip(defaults) {
        if FIRST_ID_COLUMNS.contains(column) {
            key.push_str(&format!("|{value}"));
        } else if value != default {
            key.push_str(&format!("|{column}={value}"));
        }
    }
    // Runs without rule counts time another build of the search loop: kept apart from those
    // with them (a spec switched between a run and its `--resume` would mix the two), and,
    // as a new run column's, joining the key only when off leaves every existing id as it was.
    if !config.run.rule_counts {
        key.push_str("|rule_counts=false");
    }
    // FNV-1a (64 bits, 16 hex digits), the crate's one small hash whose value never changes
    // between Rust versions: the ids are written in the runs files, and `--resume` matches
    // them, so this hash must stay.
    fnv1a(key.as_bytes())
}

#[cfg(test)]
mod tests;
