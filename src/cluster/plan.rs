//! The files of a split search: `plan.json` (what to run, written once by `split`) and
//! `parts/K.json` (what part K found, written by `run-part`), their schema tags, hashes
//! and the text form of paths, with reading that names the file, line and key.

use super::ClusterError;
use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::fnv::fnv1a;
use crate::format::excerpt;
use crate::knobs::KnobValues;
use crate::run::parts::{path_text, AnswerShare, ChildPath, ComponentShare, Counts, Subproblem};
use crate::search::Sense;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The schema tag of `plan.json`. v2: every share carries its answer keys. v3: the folder
/// holds a key (`DIR/key`) and the plan's hash is BLAKE3.
pub const PLAN_SCHEMA: &str = "backtrack-bench-plan/v3";
/// The schema tag of a part's file. v2: every share carries its answer keys, and the
/// start and end times in nanoseconds. v3: the hash of the part's plan as it ran, and a
/// digest keyed with the folder's key.
pub const PART_SCHEMA: &str = "backtrack-bench-part/v3";
/// The schema tag of `plans/K.json`, the one part's plan that `run-part` reads. v3: the
/// plan's hash is BLAKE3.
pub const PART_PLAN_SCHEMA: &str = "backtrack-bench-part-plan/v3";
/// The largest plan or part file read (a plan of the most subproblems is tens of MB).
pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// This build: the crate's version and the commit it was built from.
pub fn build_id() -> String {
    format!("{}+{}", env!("CARGO_PKG_VERSION"), env!("BACKTRACK_BENCH_GIT_COMMIT"))
}

/// The content hash of an instance: its family and its `data` block as compact JSON, by
/// FNV-1a (a label, not a check against edits: the plan's own hash is BLAKE3).
pub fn instance_hash(family: &str, data: &Value) -> String {
    let mut bytes = family.as_bytes().to_vec();
    bytes.push(b'\n');
    bytes.extend(serde_json::to_vec(data).unwrap_or_default());
    format!("fnv1a64:{}", fnv1a(&bytes))
}

/// The tool that wrote a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// `CARGO_PKG_VERSION`.
    pub version: String,
    /// [`build_id`].
    pub build: String,
}

/// The instance a plan splits, carried whole so that every part runs the same one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanInstance {
    /// The instance as given to `split`.
    pub source: String,
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its family.
    pub family: String,
    /// [`instance_hash`] of the family and data.
    pub content_hash: String,
    /// Its `data` block.
    pub data: Value,
}

/// How the subproblems were grouped into parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    /// `estimate` (largest estimated subtrees first, each to the lightest part) or
    /// `round-robin` (subproblem i to part i mod N), whichever predicted the smaller
    /// largest part.
    pub method: String,
    /// Look-ahead probes per subproblem for its estimate.
    pub probes: usize,
    /// Seed of the probes.
    pub seed: u64,
    /// Estimated nodes below the frontier, over every subproblem.
    pub estimated_nodes: u64,
    /// The largest part's estimated nodes when grouped by estimate.
    pub estimate_max_part_nodes: u64,
    /// The largest part's estimated nodes when grouped round-robin.
    pub round_robin_max_part_nodes: u64,
}

/// One component's share, as files write it: counts, the solutions' paths as text, and
/// the answer keys of every solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareRecord {
    /// The counts.
    pub counts: Counts,
    /// Paths of the kept solutions, smallest solution first (`3.0.12`, `root`).
    pub solutions: Vec<String>,
    /// Every solution's answer key, counted.
    pub answers: AnswersRecord,
    /// For an optimising model: the objective value of the kept solutions, for a reader
    /// (the merge replays the solutions and reads their values itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<i64>,
}

/// A share's answer keys: per key (ascending), its smallest solution's path and how many
/// solutions have it; the merge replays each path for its key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswersRecord {
    /// One entry per listed key.
    pub keys: Vec<KeyRecord>,
    /// Solutions whose key is not listed (more distinct keys than a tally lists).
    pub unlisted_solutions: u64,
}

/// One answer key: the path of its smallest solution and its number of solutions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    /// The path of the key's smallest solution.
    pub solution: String,
    /// Solutions with this key.
    pub solutions: u64,
}

impl ShareRecord {
    /// The record of `share`.
    pub fn of(share: &ComponentShare) -> ShareRecord {
        ShareRecord {
            counts: share.counts.clone(),
            solutions: share.solutions.iter().map(|path| path_text(path)).collect(),
            answers: AnswersRecord {
                keys: share
                    .answers
                    .keys
                    .iter()
                    .map(|(path, count)| KeyRecord { solution: path_text(path), solutions: *count })
                    .collect(),
                unlisted_solutions: share.answers.unlisted,
            },
            best: share.best,
        }
    }
}

/// One part of a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanPart {
    /// The part's number, from 1.
    pub part: usize,
    /// Estimated nodes of its subproblems.
    pub estimated_nodes: u64,
    /// Its subproblems as `COMPONENT:PATH` (`0:3.0.12`), in frontier order.
    pub subproblems: Vec<String>,
    /// The estimated nodes of each subproblem.
    pub estimates: Vec<u64>,
}

/// `plan.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// [`PLAN_SCHEMA`].
    pub schema: String,
    /// The tool that wrote it; parts must be run, and merged, by the same build.
    pub tool: Tool,
    /// The instance.
    pub instance: PlanInstance,
    /// The family knobs as given (defaults for the others).
    pub knobs: KnobValues,
    /// `all`: every solution (first-solution searches are not split); `best`: the best
    /// solution of an optimising model, by branch and bound.
    pub mode: String,
    /// Solutions kept per component (the smallest), as `solve` keeps them.
    pub keep: usize,
    /// The depth of the frontier.
    pub depth: usize,
    /// Subproblems in all.
    pub subproblem_count: usize,
    /// How the subproblems were grouped.
    pub balance: Balance,
    /// Per component: the nodes above the frontier, counted once here, and their solutions.
    pub lister: Vec<ShareRecord>,
    /// The number of parts.
    pub part_count: usize,
    /// The parts, in order.
    pub parts: Vec<PlanPart>,
    /// For an optimising model: what the parts share (absent from an enumeration's plan).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<PlanObjective>,
}

/// The objective of a split optimisation search: the parts share an incumbent through the
/// plan folder (`incumbent/`), and the merge reports the best over all of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanObjective {
    /// `max` or `min`.
    pub sense: String,
    /// The value given to `split --incumbent`, if any.
    pub seed: Option<i64>,
    /// Per component: the value every part's incumbent starts from (the lister's best or
    /// the seed, whichever is better).
    pub start: Vec<Option<i64>>,
}

impl PlanObjective {
    /// The sense named by [`PlanObjective::sense`], or an error naming the file `path`.
    pub fn sense(&self, path: &Path) -> Result<Sense, ClusterError> {
        match self.sense.as_str() {
            "max" => Ok(Sense::Maximise),
            "min" => Ok(Sense::Minimise),
            other => Err(ClusterError::bad_input(format!(
                "{}: objective.sense: expected `max` or `min`, found `{other}`",
                path.display()
            ))),
        }
    }
}

/// One subproblem's record in a part's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubproblemRecord {
    /// `COMPONENT:PATH`, as in the plan.
    pub subproblem: String,
    /// Nodes of its subtree.
    pub nodes: u64,
    /// Wall time of its search.
    pub ns: u64,
}

/// `parts/K.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartFile {
    /// [`PART_SCHEMA`].
    pub schema: String,
    /// The part's number, from 1.
    pub part: usize,
    /// The number of parts of the plan.
    pub part_count: usize,
    /// The hash of the plan file it ran ([`content_hash`](super::key::content_hash) of
    /// its bytes).
    pub plan_hash: String,
    /// The hash of the part's plan it ran (`plans/K.json` as read), which the merge
    /// compares with the part's plan made from `plan.json`: a knob edited in `plans/K.json`
    /// makes a part of another search.
    pub part_plan_hash: String,
    /// The build that ran it.
    pub build: String,
    /// The host it ran on.
    pub host: String,
    /// That host's CPU model.
    pub cpu_model: String,
    /// Threads that shared its subproblems.
    pub threads: usize,
    /// When it started (RFC 3339, UTC).
    pub started: String,
    /// When it ended.
    pub ended: String,
    /// When it started, in nanoseconds since the Unix epoch (for `explain --cluster`).
    pub started_unix_ns: u64,
    /// When it ended, in nanoseconds since the Unix epoch.
    pub ended_unix_ns: u64,
    /// Wall time from reading the plan to the end of the last subproblem.
    pub wall_ns: u64,
    /// Wall time of its subproblems' searches, summed.
    pub search_ns: u64,
    /// Per component: its counts and solutions.
    pub components: Vec<ShareRecord>,
    /// Each subproblem's nodes and time, in the plan's order.
    pub subproblems: Vec<SubproblemRecord>,
    /// The keyed digest of everything above (the file with this field empty, compact),
    /// made with the folder's key ([`super::key`]).
    pub digest: String,
}

impl super::key::SignedFile for PartFile {
    fn digest_field(&mut self) -> &mut String {
        &mut self.digest
    }
}

/// A subproblem as plans write it: `COMPONENT:PATH`.
pub fn subproblem_text(subproblem: &Subproblem) -> String {
    format!("{}:{}", subproblem.component, path_text(&subproblem.path))
}

/// Reads a path written by `path_text`.
pub fn parse_path(text: &str) -> Option<ChildPath> {
    if text == "root" {
        return Some(Vec::new());
    }
    text.split('.').map(|index| index.parse::<u32>().ok()).collect()
}

/// Reads a subproblem written by [`subproblem_text`].
pub fn parse_subproblem(text: &str) -> Option<Subproblem> {
    let (component, path) = text.split_once(':')?;
    Some(Subproblem { component: component.parse().ok()?, path: parse_path(path)? })
}

/// The bytes of `path`: a regular file of at most [`MAX_FILE_BYTES`], a FIFO or device
/// refused before it is opened (so `merge` and `run-part` never wait on one).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, ClusterError> {
    read_bounded(path, ReadKind::ClusterFile).map_err(|refused| ClusterError::bad_input(refused.to_string()))
}

/// Parses `bytes` of `path` as a `T` whose `schema` key must be `schema`.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8], path: &Path, schema: &str) -> Result<T, ClusterError> {
    let at = |error: serde_json::Error| {
        ClusterError::bad_input(format!("{}:{}:{}: {}", path.display(), error.line(), error.column(), strip(&error)))
    };
    let value: Value = serde_json::from_slice(bytes).map_err(at)?;
    match value.get("schema").and_then(Value::as_str) {
        Some(found) if found == schema => {}
        Some(found) if found.split_once('/').map(|(kind, _)| kind) == schema.split_once('/').map(|(kind, _)| kind) => {
            return Err(ClusterError::bad_input(format!(
                "{}: written in format `{found}`, this build reads `{schema}`: split again and run every part \
                 with this build",
                path.display()
            )))
        }
        found => {
            return Err(ClusterError::bad_input(format!(
                "{}: schema: expected `{schema}`, found {}",
                path.display(),
                found.map_or("none".to_string(), |found| format!("`{found}`"))
            )))
        }
    }
    // Read again from the bytes rather than from `value`, so that an error has its line and
    // column.
    serde_json::from_slice(bytes).map_err(at)
}

/// The reader's message without its position (given as `FILE:LINE:COLUMN` before it); a
/// count that is a fraction or past 64 bits, which the reader calls a floating point, said
/// as such.
fn strip(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let message = match message.rfind(" at line ") {
        Some(index) => message[..index].to_string(),
        None => message,
    };
    match message.strip_prefix("invalid type: floating point ") {
        Some(rest) if rest.ends_with("expected u64") || rest.ends_with("expected i64") => format!(
            "{}: not a whole number in range (counts and times are whole numbers from 0 to {}; values fit in 64 \
             bits)",
            rest.split(',').next().unwrap_or(rest),
            u64::MAX
        ),
        _ => message,
    }
}

/// The plan file of folder `dir`.
pub fn plan_path(dir: &Path) -> PathBuf {
    dir.join("plan.json")
}

/// `DIR/parts/`, where the parts write their files.
pub fn parts_folder(dir: &Path) -> PathBuf {
    dir.join("parts")
}

/// The file of part `part` in folder `dir`.
pub fn part_path(dir: &Path, part: usize) -> PathBuf {
    parts_folder(dir).join(format!("{part}.json"))
}

/// A plan read from its folder, with the hash of its bytes.
#[derive(Debug, Clone)]
pub struct LoadedPlan {
    /// The plan.
    pub plan: Plan,
    /// [`content_hash`](super::key::content_hash) of the file's bytes.
    pub hash: String,
    /// The folder.
    pub dir: PathBuf,
    /// Each part's subproblems, decoded.
    pub subproblems: Vec<Vec<Subproblem>>,
}

/// Reads and checks `dir/plan.json`: its schema, its parts numbered 1..=N, its
/// subproblems, and the hash of its instance.
pub fn load_plan(dir: &Path) -> Result<LoadedPlan, ClusterError> {
    let path = plan_path(dir);
    // A split killed before plan.json: said so, rather than "cannot read: No such file".
    if let Some(unfinished) = super::plan_folder::unfinished_split(dir) {
        return Err(unfinished);
    }
    let bytes = read_bytes(&path)?;
    let plan: Plan = parse_json(&bytes, &path, PLAN_SCHEMA)?;
    let bad = |message: String| ClusterError::bad_input(format!("{}: {message}", path.display()));
    if plan.parts.len() != plan.part_count {
        return Err(bad(format!("part_count says {} but {} parts are listed", plan.part_count, plan.parts.len())));
    }
    let mut subproblems = Vec::with_capacity(plan.parts.len());
    for (index, part) in plan.parts.iter().enumerate() {
        if part.part != index + 1 {
            return Err(bad(format!("parts[{index}].part is {}, expected {}", part.part, index + 1)));
        }
        let decoded: Option<Vec<Subproblem>> = part.subproblems.iter().map(|text| parse_subproblem(text)).collect();
        let decoded =
            decoded.ok_or_else(|| bad(format!("parts[{index}].subproblems: expected COMPONENT:PATH (0:3.1.2)")))?;
        if let Some(subproblem) = decoded.iter().find(|subproblem| subproblem.component >= plan.lister.len()) {
            return Err(bad(format!("parts[{index}]: component {} is not in the plan", subproblem.component)));
        }
        subproblems.push(decoded);
    }
    let hash = instance_hash(&plan.instance.family, &plan.instance.data);
    if hash != plan.instance.content_hash {
        return Err(bad(format!(
            "instance.content_hash: the data hashes to {hash}, not {}; the plan was edited",
            plan.instance.content_hash
        )));
    }
    Ok(LoadedPlan { plan, hash: super::key::content_hash(&bytes), dir: dir.to_path_buf(), subproblems })
}

/// Reads a share record's answer keys.
pub fn parse_answers(record: &ShareRecord, path: &Path) -> Result<AnswerShare, ClusterError> {
    let keys = record
        .answers
        .keys
        .iter()
        .map(|key| {
            let text = &key.solution;
            parse_path(text).map(|solution| (solution, key.solutions)).ok_or_else(|| {
                ClusterError::bad_input(format!(
                    "{}: answers.keys: `{}` is not a path (3.1.2)",
                    path.display(),
                    excerpt(text)
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(AnswerShare { keys, unlisted: record.answers.unlisted_solutions })
}

/// Reads a share record's solution paths.
pub fn parse_solutions(record: &ShareRecord, path: &Path) -> Result<Vec<ChildPath>, ClusterError> {
    record
        .solutions
        .iter()
        .map(|text| {
            parse_path(text).ok_or_else(|| {
                ClusterError::bad_input(format!(
                    "{}: solutions: `{}` is not a path (3.1.2)",
                    path.display(),
                    excerpt(text)
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_back_as_written() {
        for path in [vec![], vec![0], vec![3, 0, 12], vec![9, 10, 99, 100, 4_294_967_295]] {
            let text = path_text(&path);
            assert_eq!(parse_path(&text), Some(path.clone()), "{text}");
        }
        assert_eq!(path_text(&[3, 0, 12]), "3.0.12");
        assert_eq!(path_text(&[]), "root");
    }
}
