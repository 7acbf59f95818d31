//! One search split into parts that any batch system runs: `split` writes a plan (the
//! frontier's subproblems grouped into N parts balanced by estimated subtree size),
//! `run-part` searches one part and writes what it found, `merge` checks that every part
//! is there once, from the same plan and build, and adds them up exactly into the report
//! `solve --json` prints. The tool opens no socket: the batch system (Slurm, a Kubernetes
//! Indexed Job, GNU parallel, a shell loop) runs the parts, a shared or copied-back folder
//! collects them. See docs/cluster.md.
//!
//! This layer reads and writes files and sees families only through the run layer
//! ([`crate::run::Prepared`]); the frontier listing, the searches and the rebuilding of
//! the solutions are the run layer's ([`crate::run::parts`]).

mod balance;
pub mod check;
pub mod incumbent;
pub mod key;
pub(crate) mod merge;
pub mod part_plan;
pub mod plan;
mod plan_folder;
pub mod validate;

pub use balance::{balance, round_robin};
pub use merge::{merge, status};

use crate::environment::{hostname, timestamp_now, Environment};
use crate::files::atomic_write::write_atomically;
use crate::knobs::KnobValues;
use crate::run::parts::{PartRequest, SplitRequest};
use crate::run::{self, Family, Instance, RunError, RunSettings};
use incumbent::{Exchange, EXCHANGE_INTERVAL};
use part_plan::{load_part_plan, part_plan_bytes, part_plan_path, write_part_plans};
use plan::{
    build_id, instance_hash, part_path, parts_folder, plan_path, subproblem_text, Balance, PartFile, Plan,
    PlanInstance, PlanObjective, PlanPart, ShareRecord, SubproblemRecord, Tool, PART_SCHEMA, PLAN_SCHEMA,
};
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

/// Subproblems wanted per part (Embarrassingly Parallel Search uses 30 to 100 per worker).
pub const SUBPROBLEMS_PER_PART: usize = 30;
/// The most parts a plan may have: at least [`SUBPROBLEMS_PER_PART`] each within the cap
/// on listed subproblems.
pub const MAX_PARTS: usize = crate::parallel::MAX_SUBPROBLEMS / SUBPROBLEMS_PER_PART;
/// Look-ahead probes spread over all subproblems for their estimates (each gets between
/// 2 and 32).
const PROBE_BUDGET: usize = 16_384;
/// Seed of the probes.
const PROBE_SEED: u64 = 1;

/// What kind of failure a `ClusterError` is: the command's exit code follows from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClusterFailure {
    /// Bad input: flags, files, missing or foreign parts, a plan that does not fit this
    /// build's tree (exit 2).
    BadInput,
    /// A failure while running: writing files (exit 1).
    Failed,
    /// The family's code panicked (exit 3).
    ModelPanicked,
}

/// Why a cluster command failed, and what kind of failure it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterError {
    /// Bad input, a failure while running, or the family's panic.
    pub kind: ClusterFailure,
    /// What was wrong and what to do.
    pub message: String,
}

impl ClusterError {
    /// Bad input.
    pub fn bad_input(message: impl Into<String>) -> ClusterError {
        ClusterError { kind: ClusterFailure::BadInput, message: message.into() }
    }

    /// A failure while running.
    pub fn failed(message: impl Into<String>) -> ClusterError {
        ClusterError { kind: ClusterFailure::Failed, message: message.into() }
    }

    /// The run layer's `error`: the family's panic keeps its message as `solve` prints it;
    /// anything else is bad input, after `context` (the file or part it concerns, with
    /// its `: `; empty for none).
    pub fn of_run(error: RunError, context: &str) -> ClusterError {
        match error {
            RunError::ModelPanicked(_) | RunError::ModelContract(_) => {
                ClusterError { kind: ClusterFailure::ModelPanicked, message: error.to_string() }
            }
            other => ClusterError::bad_input(format!("{context}{other}")),
        }
    }
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ClusterError {}

/// What `split` wrote.
#[derive(Debug, Clone)]
pub struct SplitSummary {
    /// The plan.
    pub plan: Plan,
    /// Whether the folder already held this very plan (then only a lost key, digest or
    /// part's plan was written).
    pub unchanged: bool,
    /// Whether a new key was written (a new folder, or a plan whose key was lost).
    pub new_key: bool,
}

/// Makes the plan of `instance` with `knobs` in `parts` parts, without writing it; for an
/// optimising model, with every part's incumbent starting from `incumbent` (the value of
/// a solution known beforehand) when given.
pub fn make_plan(
    instance: &Instance,
    knobs: &KnobValues,
    parts: usize,
    incumbent: Option<i64>,
) -> Result<Plan, ClusterError> {
    if !(1..=MAX_PARTS).contains(&parts) {
        return Err(ClusterError::bad_input(format!("--parts {parts}: expected 1 to {MAX_PARTS}")));
    }
    let prepared = run::prepare(instance, knobs).map_err(|error| ClusterError::of_run(error, ""))?;
    let wanted = parts * SUBPROBLEMS_PER_PART;
    let probes = (PROBE_BUDGET / wanted).clamp(2, 32);
    let keep = RunSettings::default().solutions_to_keep;
    let request = SplitRequest { wanted, keep, probes, seed: PROBE_SEED, incumbent };
    let listing = prepared.split(&request).map_err(|error| ClusterError::of_run(error, ""))?;
    let grouping = match listing.sense {
        Some(_) => round_robin(&listing.estimates, parts),
        None => balance(&listing.estimates, parts),
    };
    let plan_parts = grouping
        .parts
        .iter()
        .enumerate()
        .map(|(index, members)| PlanPart {
            part: index + 1,
            estimated_nodes: members.iter().map(|&member| listing.estimates[member]).sum::<f64>().round() as u64,
            subproblems: members.iter().map(|&member| subproblem_text(&listing.subproblems[member])).collect(),
            estimates: members.iter().map(|&member| listing.estimates[member].round() as u64).collect(),
        })
        .collect();
    Ok(Plan {
        schema: PLAN_SCHEMA.to_string(),
        tool: Tool { version: env!("CARGO_PKG_VERSION").to_string(), build: build_id() },
        instance: PlanInstance {
            source: instance.source.clone(),
            id: instance.id.clone(),
            title: instance.title.clone(),
            family: instance.family.name().to_string(),
            content_hash: instance_hash(instance.family.name(), &instance.data),
            data: instance.data.clone(),
        },
        knobs: knobs.clone(),
        mode: if listing.sense.is_some() { "best" } else { "all" }.to_string(),
        keep,
        depth: listing.depth,
        subproblem_count: listing.subproblems.len(),
        balance: Balance {
            method: grouping.method.to_string(),
            probes,
            seed: PROBE_SEED,
            estimated_nodes: listing.estimates.iter().sum::<f64>().round() as u64,
            estimate_max_part_nodes: grouping.estimate_max.round() as u64,
            round_robin_max_part_nodes: grouping.round_robin_max.round() as u64,
        },
        lister: listing.lister.iter().map(ShareRecord::of).collect(),
        part_count: parts,
        parts: plan_parts,
        objective: listing.sense.map(|sense| PlanObjective {
            sense: sense.name().to_string(),
            seed: incumbent,
            start: listing
                .lister
                .iter()
                .map(|share| match (share.best, incumbent) {
                    (Some(best), Some(seed)) => Some(if sense.score(best) >= sense.score(seed) { best } else { seed }),
                    (best, seed) => best.or(seed),
                })
                .collect(),
        }),
    })
}

/// The bytes of `plan` as `plan.json` holds them.
pub fn plan_bytes(plan: &Plan) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(plan).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// `split`: makes the plan (see [`make_plan`]) and writes the plan folder: `dir/parts/`,
/// `dir/plans/`, a fresh key `dir/key` and `dir/plan.json` last; a failure removes what
/// it wrote (`plan_folder`). A folder that already holds another plan is refused; the same plan is
/// left as it is, its digest and part plans restored where missing. One split writes a
/// folder at a time (`plan_folder::SplitLock`): two at once (every task of an array running
/// `split && run-part`) left one's key beside the other's digest, and every part refused.
pub fn split(
    instance: &Instance,
    knobs: &KnobValues,
    parts: usize,
    incumbent: Option<i64>,
    dir: &Path,
) -> Result<SplitSummary, ClusterError> {
    let plan = make_plan(instance, knobs, parts, incumbent)?;
    let bytes = plan_bytes(&plan);
    let lock = plan_folder::SplitLock::acquire(dir)?;
    let written = write_or_keep(dir, &plan, &bytes);
    lock.release(written.is_ok());
    written.map(|(unchanged, new_key)| SplitSummary { plan, unchanged, new_key })
}

/// Writes `plan` (as `bytes`) into `dir` under the split lock; says whether `dir` held it
/// already and whether a new key was written.
fn write_or_keep(dir: &Path, plan: &Plan, bytes: &[u8]) -> Result<(bool, bool), ClusterError> {
    let path = plan_path(dir);
    let plan_hash = key::content_hash(bytes);
    // Bounded: a FIFO in place of plan.json is not read (it would block `split`).
    if let Ok(existing) = plan::read_bytes(&path) {
        if existing == bytes {
            let (key, only_missing) = match key::key_path(dir).exists() {
                true => {
                    let key = key::read_key(dir)?;
                    // A digest lost or not of this key is the plan's, signed with the key
                    // the parts are signed with: written again, the folder works again.
                    if !key::plan_digest_verifies(dir, &plan_hash).unwrap_or(false) {
                        let digest = key::plan_digest(&key, &plan_hash);
                        write_atomically(&key::plan_digest_path(dir), digest.as_bytes())
                            .map_err(|error| ClusterError::failed(error.to_string()))?;
                    }
                    (key, true)
                }
                // The parts signed with the lost key cannot be checked: refused while any
                // is there (a new key silently cost every finished part). With none, the
                // plan's digest and every part's plan are signed anew with a new key (left
                // signed with the lost one, they had every part refused).
                false => {
                    plan_folder::refuse_losing_parts(dir, &plan_hash, None, &[key::key_path(dir)])?;
                    let key = key::write_new_key(dir)?;
                    let digest = key::plan_digest(&key, &plan_hash);
                    write_atomically(&key::plan_digest_path(dir), digest.as_bytes())
                        .map_err(|error| ClusterError::failed(error.to_string()))?;
                    (key, false)
                }
            };
            write_part_plans(dir, plan, bytes, &key, only_missing, &mut Vec::new())?;
            return Ok((true, !only_missing));
        }
        return Err(ClusterError::bad_input(format!(
            "{}: the folder already holds another plan; choose another --out folder or remove it",
            path.display()
        )));
    }
    // No plan (a new folder, one whose plan.json was removed, or a split killed before
    // it): a new key is written, so finished parts of this same plan must not be there.
    let old_key = key::key_path(dir).exists().then(|| key::read_key(dir).ok()).flatten();
    let mut lost = vec![path.clone()];
    if old_key.is_none() {
        lost.push(key::key_path(dir));
    }
    plan_folder::refuse_losing_parts(dir, &plan_hash, old_key.as_ref(), &lost)?;
    plan_folder::write_plan_folder(dir, plan, bytes)?;
    Ok((false, true))
}

/// The instance a plan carries.
pub fn plan_instance(instance: &PlanInstance) -> Result<Instance, ClusterError> {
    let family = Family::from_name(&instance.family).ok_or_else(|| {
        ClusterError::bad_input(format!(
            "plan.json: instance.family: `{}` is not a family of this build",
            instance.family
        ))
    })?;
    Ok(Instance {
        source: instance.source.clone(),
        id: instance.id.clone(),
        title: instance.title.clone(),
        family,
        data: instance.data.clone(),
        expected: None,
    })
}

/// Refuses a plan made by another build (its paths may mean other nodes here).
pub fn check_build(tool: &Tool, dir: &Path) -> Result<(), ClusterError> {
    let here = build_id();
    if tool.build != here {
        return Err(ClusterError::bad_input(format!(
            "{}: made by build {}, this is build {here}: run every part and the merge with the build that split",
            plan_path(dir).display(),
            tool.build
        )));
    }
    Ok(())
}

/// The part to run: `part` when given, else `SLURM_ARRAY_TASK_ID`, else
/// `JOB_COMPLETION_INDEX` + 1 (a Kubernetes Indexed Job counts from 0).
pub fn part_from_environment(part: Option<usize>) -> Result<usize, ClusterError> {
    if let Some(part) = part {
        return Ok(part);
    }
    let read = |name: &str| std::env::var(name).ok().filter(|value| !value.trim().is_empty());
    if let Some(value) = read("SLURM_ARRAY_TASK_ID") {
        return value.trim().parse().map_err(|_| {
            ClusterError::bad_input(format!("SLURM_ARRAY_TASK_ID=`{value}`: expected a part number from 1"))
        });
    }
    if let Some(value) = read("JOB_COMPLETION_INDEX") {
        return value.trim().parse::<usize>().ok().and_then(|index| index.checked_add(1)).ok_or_else(|| {
            ClusterError::bad_input(format!("JOB_COMPLETION_INDEX=`{value}`: expected an index from 0"))
        });
    }
    Err(ClusterError::bad_input(
        "no part given: name it (run-part DIR K, K from 1), or run under a Slurm job array (SLURM_ARRAY_TASK_ID) \
         or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)",
    ))
}

/// How `run-part` runs its part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartOptions {
    /// Threads that share the part's subproblems.
    pub threads: usize,
    /// For an optimising model: how often the other parts' incumbents are read.
    pub exchange: Duration,
}

impl PartOptions {
    /// `threads` threads, the incumbents read every [`EXCHANGE_INTERVAL`].
    pub fn threads(threads: usize) -> PartOptions {
        PartOptions { threads, exchange: EXCHANGE_INTERVAL }
    }
}

/// What `run-part` wrote, and what went wrong without failing it.
#[derive(Debug, Clone)]
pub struct PartRun {
    /// The part's file as written.
    pub file: PartFile,
    /// A failure to publish the incumbent (the part's own file is complete; the other
    /// parts searched with a staler incumbent).
    pub warning: Option<String>,
    /// Other parts' incumbent files the part ignored, and why (unreadable, another
    /// plan's, a digest that does not verify): `merge` refuses them.
    pub ignored: Vec<String>,
}

/// Refuses a `DIR/parts` that is not a folder: before a part's search (its file could not
/// be written after it; the system said only "File exists") and before a merge lists it.
fn check_parts_folder(dir: &Path) -> Result<(), ClusterError> {
    let parts = parts_folder(dir);
    match std::fs::metadata(&parts) {
        Ok(metadata) if !metadata.is_dir() => Err(ClusterError::bad_input(format!(
            "{}: is not a folder; the parts write their files into it (split makes it): remove it or split again",
            parts.display()
        ))),
        _ => Ok(()),
    }
}

/// `run-part`: searches part `part` of the plan in `dir` as `options` say and writes
/// `dir/parts/K.json` atomically (replacing an earlier run's, with the same counts; for an
/// optimising model the counts depend on when the incumbents arrived, the best does not).
pub fn run_part(dir: &Path, part: usize, options: PartOptions) -> Result<PartRun, ClusterError> {
    let started_at = timestamp_now();
    let started_unix_ns = unix_ns();
    let clock = Instant::now();
    // A split killed before plan.json left part plans a part could run, signed with a key
    // the split run again replaces: refused before the search (docs/cluster.md).
    if let Some(unfinished) = plan_folder::unfinished_split(dir) {
        return Err(unfinished);
    }
    let (plan, subproblems) = load_part_plan(dir, part)?;
    check_build(&plan.tool, dir)?;
    check_parts_folder(dir)?;
    // Read before the search: a part that cannot sign its file should not spend hours.
    let key = key::read_key(dir)?;
    // Likewise one that could not write it (a read-only or full folder): the file it will
    // write is tried first, as a temporary file made and removed.
    let parts = parts_folder(dir);
    std::fs::create_dir_all(&parts)
        .and_then(|()| crate::files::atomic_write::probe_writable(&parts, &format!("{part}.json")))
        .map_err(|error| ClusterError::failed(format!("{}: cannot write the part's file: {error}", parts.display())))?;
    let part_plan_hash = key::content_hash(&part_plan_bytes(&plan));
    let instance = plan_instance(&plan.instance)?;
    let prepared = run::prepare(&instance, &plan.knobs).map_err(|error| ClusterError::of_run(error, ""))?;
    let subproblems = &subproblems;
    let threads = options.threads;
    let exchange = match &plan.objective {
        Some(objective) => {
            let sense = objective.sense(&part_plan_path(dir, part))?;
            Some(Exchange::new(dir, part, &plan.plan_hash, key.clone(), sense, &objective.start, objective.seed))
        }
        None => None,
    };
    let publish = |component: usize, value: i64, path: &[u32]| {
        if let Some(exchange) = &exchange {
            exchange.publish(component, value, path);
        }
    };
    let request = PartRequest {
        subproblems,
        keep: plan.keep,
        threads,
        incumbents: exchange.as_ref().map(Exchange::incumbents).unwrap_or_default(),
        publish: exchange.as_ref().map(|_| &publish as &run::parts::Publish<'_>),
    };
    let search = || prepared.run_part(&request);
    let outcome = match &exchange {
        Some(exchange) => exchange.run_while(options.exchange, search),
        None => search(),
    }
    .map_err(|error| {
        // Moves that do not replay are the model's bug or an edited plan: the plan says which
        // when it can (the edit is bad input, exit 2).
        let replay_failed = matches!(&error, RunError::ModelPanicked(run) if run.panic.moves_do_not_replay);
        match replay_failed.then(|| part_plan::edit_of(dir, part, &plan)).flatten() {
            Some(edit) => ClusterError::bad_input(format!("part {part}: its moves do not replay: {edit}")),
            None => ClusterError::of_run(error, &format!("{}: part {part}: ", plan_path(dir).display())),
        }
    })?;
    let environment = Environment::detect();
    let mut file = PartFile {
        schema: PART_SCHEMA.to_string(),
        part,
        part_count: plan.part_count,
        plan_hash: plan.plan_hash.clone(),
        part_plan_hash,
        build: build_id(),
        host: hostname(),
        cpu_model: environment.cpu_model,
        threads: request.threads.max(1),
        started: started_at,
        ended: timestamp_now(),
        started_unix_ns,
        ended_unix_ns: unix_ns(),
        wall_ns: u64::try_from(clock.elapsed().as_nanos()).unwrap_or(u64::MAX),
        search_ns: outcome.subproblems.iter().map(|timing| timing.ns).sum(),
        components: outcome.components.iter().map(ShareRecord::of).collect(),
        subproblems: subproblems
            .iter()
            .zip(&outcome.subproblems)
            .map(|(subproblem, timing)| SubproblemRecord {
                subproblem: subproblem_text(subproblem),
                nodes: timing.nodes,
                ns: timing.ns,
            })
            .collect(),
        digest: String::new(),
    };
    key::sign(&key, &mut file);
    let mut bytes = serde_json::to_vec_pretty(&file).map_err(|error| ClusterError::failed(error.to_string()))?;
    bytes.push(b'\n');
    write_atomically(&part_path(dir, part), &bytes).map_err(|error| ClusterError::failed(error.to_string()))?;
    Ok(PartRun {
        file,
        warning: exchange.as_ref().and_then(Exchange::error),
        ignored: exchange.as_ref().map(Exchange::ignored).unwrap_or_default(),
    })
}

/// Now, in nanoseconds since the Unix epoch.
fn unix_ns() -> u64 {
    let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since_epoch.as_nanos()).unwrap_or(u64::MAX)
}
