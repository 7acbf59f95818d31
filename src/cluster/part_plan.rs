//! `plans/K.json`: what part K runs (the build, the instance, the knobs and its own
//! subproblems), written by `split` beside `plan.json` so that a part reads a few hundred
//! bytes instead of every part's subproblems. Without it (a folder copied without
//! `plans/`), `run-part` reads its part out of `plan.json`.

use super::key::{
    check_plan_digest, content_hash, key_path, plan_digest_path, plan_digest_verifies, read_key, sign, signed_by, Key,
};
use super::plan::{
    instance_hash, load_plan, parse_json, parse_subproblem, read_bytes, Plan, PlanInstance, PlanObjective, PlanPart,
    Tool, PART_PLAN_SCHEMA,
};
use super::ClusterError;
use crate::files::atomic_write::write_atomically_unsynced;
use crate::knobs::KnobValues;
use crate::run::parts::Subproblem;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// `plans/K.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartPlan {
    /// [`PART_PLAN_SCHEMA`].
    pub schema: String,
    /// The tool that wrote the plan.
    pub tool: Tool,
    /// The hash of `plan.json` ([`content_hash`] of its bytes), which the part's file
    /// records.
    pub plan_hash: String,
    /// The part's number, from 1.
    pub part: usize,
    /// The number of parts of the plan.
    pub part_count: usize,
    /// The instance.
    pub instance: PlanInstance,
    /// The family knobs.
    pub knobs: KnobValues,
    /// Solutions kept per component.
    pub keep: usize,
    /// The part's subproblems as `COMPONENT:PATH`, as in the plan.
    pub subproblems: Vec<String>,
    /// For an optimising model: the plan's objective, whose incumbent the parts share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<PlanObjective>,
    /// The folder key's digest of the file's content without it ([`sign`]): a part's plan
    /// edited after `split` (its subproblems, its knobs) is refused before the part
    /// searches, where it was found only by `merge`, whose advice to run the part again
    /// ran the same edited plan. Empty in the plan a part runs and records the hash of.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub digest: String,
}

impl super::key::SignedFile for PartPlan {
    fn digest_field(&mut self) -> &mut String {
        &mut self.digest
    }
}

/// The file of part `part`'s plan in folder `dir`.
pub fn part_plan_path(dir: &Path, part: usize) -> PathBuf {
    dir.join("plans").join(format!("{part}.json"))
}

/// Every part's plan of `plan`, whose file hashes to `plan_hash`.
pub fn part_plans(plan: &Plan, plan_hash: &str) -> Vec<PartPlan> {
    plan.parts.iter().map(|part| part_plan_of(plan, plan_hash, part)).collect()
}

/// The plan of `part` of `plan`, whose file hashes to `plan_hash`.
pub fn part_plan_of(plan: &Plan, plan_hash: &str, part: &PlanPart) -> PartPlan {
    PartPlan {
        schema: PART_PLAN_SCHEMA.to_string(),
        tool: plan.tool.clone(),
        plan_hash: plan_hash.to_string(),
        part: part.part,
        part_count: plan.part_count,
        instance: plan.instance.clone(),
        knobs: plan.knobs.clone(),
        keep: plan.keep,
        subproblems: part.subproblems.clone(),
        objective: plan.objective.clone(),
        digest: String::new(),
    }
}

/// The bytes of a part's plan as `plans/K.json` holds them.
pub fn part_plan_bytes(part_plan: &PartPlan) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(part_plan).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Part `part`'s plan in `dir` with its subproblems decoded: from `plans/K.json`, else
/// (no such file) from `plan.json`. An error names the file and what was wrong, and says
/// when the part is not in the plan.
pub fn load_part_plan(dir: &Path, part: usize) -> Result<(PartPlan, Vec<Subproblem>), ClusterError> {
    let path = part_plan_path(dir, part);
    let mut part_plan = match std::fs::metadata(&path) {
        Ok(_) => parse_json::<PartPlan>(&read_bytes(&path)?, &path, PART_PLAN_SCHEMA)?,
        Err(_) => {
            let loaded = load_plan(dir)?;
            // Before a part searches it: an edited plan.json is bad input found now, not
            // by `merge` after the search (or as moves that do not replay).
            check_plan_digest(dir, &loaded.hash)?;
            check_part(part, loaded.plan.part_count)?;
            return Ok((
                part_plans(&loaded.plan, &loaded.hash).swap_remove(part - 1),
                loaded.subproblems[part - 1].clone(),
            ));
        }
    };
    let bad = |message: String| ClusterError::bad_input(format!("{}: {message}", path.display()));
    if !plan_digest_verifies(dir, &part_plan.plan_hash)? {
        return Err(bad(format!(
            "plan_hash: {} is not the plan this folder's {} signs: the part's plan is another split's, or was \
             edited; split again",
            part_plan.plan_hash,
            plan_digest_path(dir).display()
        )));
    }
    let key = read_key(dir)?;
    if !signed_by(&key, &part_plan) {
        return Err(bad(format!(
            "digest: does not verify with the plan's key ({}): the file was edited after split (or written by an \
             earlier version); remove it and run the same split into {} again, which writes it anew",
            key_path(dir).display(),
            dir.display()
        )));
    }
    part_plan.digest.clear();
    check_part(part, part_plan.part_count)?;
    if part_plan.part != part {
        return Err(bad(format!("part is {}, expected {part}", part_plan.part)));
    }
    let hash = instance_hash(&part_plan.instance.family, &part_plan.instance.data);
    if hash != part_plan.instance.content_hash {
        return Err(bad(format!("instance.content_hash: the data hashes to {hash}; the file was edited")));
    }
    let subproblems: Option<Vec<Subproblem>> =
        part_plan.subproblems.iter().map(|text| parse_subproblem(text)).collect();
    let subproblems = subproblems.ok_or_else(|| bad("subproblems: expected COMPONENT:PATH (0:3.1.2)".to_string()))?;
    Ok((part_plan, subproblems))
}

/// Why part `part`'s plan `part_plan` is not what `split` wrote, where `plan.json` tells:
/// `plan.json` no longer hashes to the hash the part's plan records, or the part's plan
/// differs from its part of `plan.json`. Asked only when a part's moves did not replay, to
/// tell an edited plan (bad input) from a model whose moves do not replay: it reads the
/// whole of `plan.json`. `None` where it cannot tell (no `plan.json`, or the part's plan
/// came from it).
pub fn edit_of(dir: &Path, part: usize, part_plan: &PartPlan) -> Option<String> {
    let loaded = load_plan(dir).ok()?;
    let plan_file = super::plan::plan_path(dir);
    if loaded.hash != part_plan.plan_hash {
        return Some(format!(
            "{}: hashes to {}, but part {part}'s plan was made from {}: the plan was edited or replaced after split",
            plan_file.display(),
            loaded.hash,
            part_plan.plan_hash
        ));
    }
    let written = part_plans(&loaded.plan, &loaded.hash).into_iter().nth(part.checked_sub(1)?)?;
    (written != *part_plan).then(|| {
        format!(
            "{}: differs from part {part} of {}: the file was edited after split",
            part_plan_path(dir, part).display(),
            plan_file.display()
        )
    })
}

fn check_part(part: usize, part_count: usize) -> Result<(), ClusterError> {
    if (1..=part_count).contains(&part) {
        Ok(())
    } else {
        Err(ClusterError::bad_input(format!("part {part}: the plan has parts 1 to {part_count}")))
    }
}

/// Writes every part's plan of `plan` (whose file is `plan_bytes`) into `dir/plans/`, each
/// signed with `key` and written atomically by the harness's writer; with `only_missing`,
/// only those not there yet. Each file is pushed onto `written` once written, so that a
/// caller that undoes a failed split knows them. The files are not synced one by
/// one: a sync costs milliseconds on a busy disk, hundreds of them took `split` past a
/// second, and these files are derived from `plan.json` (which is synced), so `split` into
/// the same folder rewrites any lost one.
pub fn write_part_plans(
    dir: &Path,
    plan: &Plan,
    plan_bytes: &[u8],
    key: &Key,
    only_missing: bool,
    written: &mut Vec<PathBuf>,
) -> Result<(), ClusterError> {
    for mut part_plan in part_plans(plan, &content_hash(plan_bytes)) {
        let path = part_plan_path(dir, part_plan.part);
        if only_missing && path.exists() {
            continue;
        }
        sign(key, &mut part_plan);
        write_atomically_unsynced(&path, &part_plan_bytes(&part_plan))
            .map_err(|error| ClusterError::failed(error.to_string()))?;
        written.push(path);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{make_plan, plan_bytes};

    #[test]
    fn part_plans_are_written_beside_another_writers_temporary_file_of_the_same_process_id() {
        // Containers sharing a folder often run each split as the same process id, so a
        // temporary name made of the part and the process id alone may be another
        // writer's. A folder stands in for that writer's file: it makes the clash of
        // names visible without a race.
        let instance = crate::run::instance::load("rings").expect("a built-in instance");
        let plan = make_plan(&instance, &KnobValues::new(), 2, None).expect("rings splits");
        let bytes = plan_bytes(&plan);
        let dir = tempfile::tempdir().expect("temporary folder");
        let plans = dir.path().join("plans");
        std::fs::create_dir_all(plans.join(format!(".1.json.{}.tmp", std::process::id()))).unwrap();
        let key = super::super::key::write_new_key(dir.path()).expect("a key");
        write_part_plans(dir.path(), &plan, &bytes, &key, false, &mut Vec::new()).expect("the part plans are written");
        let digest = super::super::key::plan_digest(&key, &content_hash(&bytes));
        std::fs::write(plan_digest_path(dir.path()), digest).expect("the plan's digest");
        let (first, subproblems) = load_part_plan(dir.path(), 1).expect("part 1's plan reads back");
        assert_eq!((first.part, first.part_count, first.plan_hash.as_str()), (1, 2, content_hash(&bytes).as_str()));
        assert_eq!(subproblems.len(), plan.parts[0].subproblems.len());
        let names: Vec<String> = std::fs::read_dir(&plans)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into())
            .collect();
        assert_eq!(names.iter().filter(|name| name.ends_with(".tmp")).count(), 1, "only the other's: {names:?}");
    }
}
