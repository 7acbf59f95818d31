//! Part files checked as data before anything is added up: every invariant `merge` and
//! `explain --cluster` rely on, each violation named by file, field and what was wrong.
//!
//! A part file is the output of a process on another machine; the keyed digest says it
//! was written by a holder of the folder's key and not changed since, not that what it
//! says is possible. So the counts must add up inside the file (nodes the sum of the
//! nodes per depth, prunes per rule the sums of the prunes per depth, solutions the sum of
//! the answer keys' counts), in checked arithmetic (a sum past 64 bits is refused, never
//! wrapped); every vector has the lengths of the plan's rules and depths; the solution
//! paths are distinct and lie under the part's own subproblems; the part ran the part's
//! plan made from `plan.json` (its knobs, instance and subproblems); and its clock is
//! possible (an end after its start, search time within wall time times threads).

use super::key::content_hash;
use super::part_plan::{part_plan_bytes, part_plan_of, part_plan_path, PartPlan};
use super::plan::{parse_json, parse_path, read_bytes, LoadedPlan, PartFile, ShareRecord, PART_PLAN_SCHEMA};
use crate::format::excerpt;
use crate::run::parts::{ChildPath, Counts};
use std::collections::{BTreeSet, HashSet};
use std::path::Path;

/// Checks `file`, read from `path`, as part `file.part` of `loaded`'s plan, whose identity
/// (part number, plan hash, build, subproblems, component count) the caller has checked.
/// The error is one line: `path: field: what was wrong`.
pub fn check_part_file(path: &Path, file: &PartFile, loaded: &LoadedPlan) -> Result<(), String> {
    let at = |message: String| format!("{}: {message}", path.display());
    check_clock(file).map_err(at)?;
    check_part_plan(file, loaded).map_err(at)?;
    let plan = &loaded.plan;
    let subproblems = loaded.subproblems.get(file.part.wrapping_sub(1)).map(Vec::as_slice).unwrap_or_default();
    for (component, (record, reference)) in file.components.iter().zip(&plan.lister).enumerate() {
        let prefix = format!("components[{component}]");
        check_counts(&format!("{prefix}.counts"), &record.counts, &reference.counts).map_err(at)?;
        check_answers(&prefix, record).map_err(at)?;
        let roots: Vec<&ChildPath> =
            subproblems.iter().filter(|subproblem| subproblem.component == component).map(|s| &s.path).collect();
        check_kept(&prefix, record, plan.keep, &roots).map_err(at)?;
    }
    check_subproblem_nodes(file, loaded).map_err(at)
}

/// Checks the plan's own shares (the nodes above the frontier) for the same internal
/// sums; their lengths are the reference the parts are held to.
pub fn check_plan_counts(loaded: &LoadedPlan) -> Result<(), String> {
    for (component, record) in loaded.plan.lister.iter().enumerate() {
        let prefix = format!("lister[{component}]");
        check_counts(&format!("{prefix}.counts"), &record.counts, &record.counts)
            .and_then(|()| check_answers(&prefix, record))
            .map_err(|message| format!("{}: {message}", super::plan::plan_path(&loaded.dir).display()))?;
    }
    Ok(())
}

/// A part's clock: it ends after it starts, its search time is the sum of its
/// subproblems' times, and its threads searched no longer than its wall time each.
fn check_clock(file: &PartFile) -> Result<(), String> {
    if file.threads == 0 {
        return Err("threads: 0: a part runs on at least one thread".to_string());
    }
    if file.ended_unix_ns < file.started_unix_ns {
        return Err(format!(
            "ended_unix_ns {} is before started_unix_ns {}: a part cannot end before it starts",
            file.ended_unix_ns, file.started_unix_ns
        ));
    }
    let summed = checked_sum(file.subproblems.iter().map(|record| record.ns))
        .ok_or_else(|| "subproblems[].ns: their sum does not fit in 64 bits".to_string())?;
    if summed != file.search_ns {
        return Err(format!("search_ns {} is not the sum of subproblems[].ns ({summed})", file.search_ns));
    }
    // Each thread searches at most the part's wall time: more is a clock that cannot be.
    let most = u128::from(file.wall_ns) * file.threads as u128;
    if u128::from(file.search_ns) > most {
        return Err(format!(
            "search_ns {} is longer than wall_ns {} times threads {}: the part searched longer than it ran",
            file.search_ns, file.wall_ns, file.threads
        ));
    }
    Ok(())
}

/// The part ran the part's plan made from `plan.json`: the hash it recorded is that
/// plan's. When `plans/K.json` is there and differs, the fields that differ are named.
fn check_part_plan(file: &PartFile, loaded: &LoadedPlan) -> Result<(), String> {
    let Some(part) = loaded.plan.parts.get(file.part.wrapping_sub(1)) else {
        return Err(format!("part: {} is not a part of the plan", file.part));
    };
    let expected = part_plan_of(&loaded.plan, &loaded.hash, part);
    if file.part_plan_hash == content_hash(&part_plan_bytes(&expected)) {
        return Ok(());
    }
    let path = part_plan_path(&loaded.dir, file.part);
    let differing = read_bytes(&path)
        .ok()
        .and_then(|bytes| parse_json::<PartPlan>(&bytes, &path, PART_PLAN_SCHEMA).ok())
        .map(|found| differing_fields(&PartPlan { digest: String::new(), ..found }, &expected))
        .filter(|fields| !fields.is_empty());
    Err(match differing {
        Some(fields) => format!(
            "part_plan_hash: the part ran {}, whose {} differ from plan.json's: run the part again from an \
             unedited plan",
            path.display(),
            fields.join(", ")
        ),
        None => format!(
            "part_plan_hash {}: the part ran a plan other than its part of plan.json (its plans/{}.json was \
             edited before it ran): run the part again",
            file.part_plan_hash, file.part
        ),
    })
}

/// The top-level fields in which two part plans differ.
fn differing_fields(found: &PartPlan, expected: &PartPlan) -> Vec<String> {
    let (found, expected) = (serde_json::to_value(found), serde_json::to_value(expected));
    let (Ok(serde_json::Value::Object(found)), Ok(serde_json::Value::Object(expected))) = (found, expected) else {
        return Vec::new();
    };
    let names: BTreeSet<&String> = found.keys().chain(expected.keys()).collect();
    names.into_iter().filter(|name| found.get(*name) != expected.get(*name)).map(|name| format!("`{name}`")).collect()
}

/// `counts`' internal sums, and its lengths against `reference` (the plan's share of the
/// same component: the model's rules and depths).
fn check_counts(prefix: &str, counts: &Counts, reference: &Counts) -> Result<(), String> {
    let rules = reference.rule_checks.len();
    let depths = reference.nodes_per_depth.len();
    // A share that searched nothing of this component (a part without its subproblems)
    // has no vectors at all; its node count must then be 0, which the sum below checks.
    let untouched = counts.rule_checks.is_empty()
        && counts.rule_prunes.is_empty()
        && counts.nodes_per_depth.is_empty()
        && counts.prunes_per_depth.is_empty();
    if untouched {
        return match (counts.nodes, counts.solutions) {
            (0, 0) => Ok(()),
            (nodes, solutions) => {
                Err(format!("{prefix}: {nodes} nodes and {solutions} solutions with no per-rule or per-depth counts"))
            }
        };
    }
    let lengths = [
        ("rule_checks", counts.rule_checks.len(), rules, "the plan's rules"),
        ("rule_prunes", counts.rule_prunes.len(), rules, "the plan's rules"),
        ("nodes_per_depth", counts.nodes_per_depth.len(), depths, "the plan's depths"),
        ("prunes_per_depth", counts.prunes_per_depth.len(), reference.prunes_per_depth.len(), "the plan's depths"),
    ];
    for (field, found, expected, what) in lengths {
        if found != expected {
            return Err(format!("{prefix}.{field}: {found} entries, expected {expected} ({what})"));
        }
    }
    for (depth, row) in counts.prunes_per_depth.iter().enumerate() {
        if row.len() != rules {
            return Err(format!(
                "{prefix}.prunes_per_depth[{depth}]: {} entries, expected {rules} (one per rule; the rows are ragged)",
                row.len()
            ));
        }
    }
    let sum = checked_sum(counts.nodes_per_depth.iter().copied())
        .ok_or_else(|| format!("{prefix}.nodes_per_depth: its sum does not fit in 64 bits"))?;
    if sum != counts.nodes {
        return Err(format!("{prefix}.nodes {} is not the sum of {prefix}.nodes_per_depth ({sum})", counts.nodes));
    }
    for (rule, &prunes) in counts.rule_prunes.iter().enumerate() {
        let sum = checked_sum(counts.prunes_per_depth.iter().map(|row| row[rule]))
            .ok_or_else(|| format!("{prefix}.prunes_per_depth: the sum for rule {rule} does not fit in 64 bits"))?;
        if sum != prunes {
            return Err(format!(
                "{prefix}.rule_prunes[{rule}] {prunes} is not the sum of {prefix}.prunes_per_depth[..][{rule}] ({sum})"
            ));
        }
    }
    Ok(())
}

/// A share's answer keys count each of its solutions once: their counts and the unlisted
/// solutions add up to its solutions, without passing 64 bits (so the merged tally, whose
/// total is the checked sum of the solutions, cannot wrap either).
fn check_answers(prefix: &str, record: &ShareRecord) -> Result<(), String> {
    let answers = &record.answers;
    if let Some(index) = answers.keys.iter().position(|key| key.solutions == 0) {
        return Err(format!("{prefix}.answers.keys[{index}].solutions: 0; a listed key has at least one solution"));
    }
    let counted = checked_sum(answers.keys.iter().map(|key| key.solutions).chain([answers.unlisted_solutions]))
        .ok_or_else(|| format!("{prefix}.answers: the keys' solutions and unlisted_solutions overflow 64 bits"))?;
    if counted != record.counts.solutions {
        return Err(format!(
            "{prefix}.answers: the keys' solutions and unlisted_solutions add up to {counted}, not \
             {prefix}.counts.solutions ({})",
            record.counts.solutions
        ));
    }
    Ok(())
}

/// The kept solutions and the keys' representatives: paths, distinct, under one of the
/// part's subproblems of the component (`roots`); no more kept than the plan keeps or
/// than the share found.
fn check_kept(prefix: &str, record: &ShareRecord, keep: usize, roots: &[&ChildPath]) -> Result<(), String> {
    let kept = record.solutions.len();
    if kept > keep || kept as u64 > record.counts.solutions {
        return Err(format!(
            "{prefix}.solutions: {kept} paths, more than the plan keeps ({keep}) or than the share found ({})",
            record.counts.solutions
        ));
    }
    let lengths: BTreeSet<usize> = roots.iter().map(|root| root.len()).collect();
    let roots: HashSet<&[u32]> = roots.iter().map(|root| root.as_slice()).collect();
    let representatives = record.answers.keys.iter().map(|key| &key.solution).collect();
    for (field, texts) in
        [("solutions", record.solutions.iter().collect()), ("answers.keys[].solution", representatives)]
    {
        let texts: Vec<&String> = texts;
        let mut seen = HashSet::with_capacity(texts.len());
        for text in texts {
            let quoted = excerpt(text);
            let path = parse_path(text).ok_or_else(|| format!("{prefix}.{field}: `{quoted}` is not a path (3.1.2)"))?;
            if !lengths.iter().any(|&length| path.len() >= length && roots.contains(&path[..length])) {
                return Err(format!("{prefix}.{field}: `{quoted}` is not under any of the part's subproblems"));
            }
            if !seen.insert(path) {
                return Err(format!("{prefix}.{field}: `{quoted}` is listed twice"));
            }
        }
    }
    Ok(())
}

/// The subproblems' nodes add up to the components' nodes: each node of the part lies in
/// exactly one of its subproblems.
fn check_subproblem_nodes(file: &PartFile, loaded: &LoadedPlan) -> Result<(), String> {
    let subproblems = loaded.subproblems.get(file.part.wrapping_sub(1)).map(Vec::as_slice).unwrap_or_default();
    let mut per_component = vec![0u64; file.components.len()];
    for (subproblem, record) in subproblems.iter().zip(&file.subproblems) {
        let Some(total) = per_component.get_mut(subproblem.component) else { continue };
        *total = total
            .checked_add(record.nodes)
            .ok_or_else(|| "subproblems[].nodes: their sum does not fit in 64 bits".to_string())?;
    }
    for (component, (summed, record)) in per_component.iter().zip(&file.components).enumerate() {
        if *summed != record.counts.nodes {
            return Err(format!(
                "components[{component}].counts.nodes {} is not the sum of its subproblems[].nodes ({summed})",
                record.counts.nodes
            ));
        }
    }
    Ok(())
}

/// The sum of `values`, or `None` past 64 bits.
pub fn checked_sum(values: impl IntoIterator<Item = u64>) -> Option<u64> {
    values.into_iter().try_fold(0u64, u64::checked_add)
}
