//! `merge`: every part of a plan present once, from that plan and that build, added up
//! exactly (checked arithmetic) into the report a sequential `solve` makes; and `merge
//! --status`, the parts done and missing.

use super::incumbent::{incumbent_dir, read_published};
use super::key::{check_plan_digest, key_path, read_key, signed_by};
use super::plan::{
    load_plan, parse_answers, parse_json, parse_solutions, parts_folder, plan_path, read_bytes, LoadedPlan, PartFile,
    PART_SCHEMA,
};
use super::validate::{check_part_file, check_plan_counts};
use super::{check_build, plan_instance, ClusterError};
use crate::run::parts::{AnswerShare, AssembleInput, ChildPath, Counts};
use crate::run::{self, Instance, RunReport};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The part files found in a plan's folder, and what is wrong with them.
struct Survey {
    /// Valid part files, by part number (more than one: doubled).
    found: BTreeMap<usize, Vec<(PathBuf, PartFile)>>,
    /// Problems, each naming its part or file.
    problems: Vec<String>,
}

/// Reads every `*.json` file of `dir/parts/` and sorts them into parts of `loaded`'s plan
/// and problems (unreadable, another plan, another build, other subproblems; a digest
/// that does not verify with the folder's key; a file whose content is not possible,
/// [`check_part_file`]).
fn survey(loaded: &LoadedPlan) -> Result<Survey, ClusterError> {
    super::check_parts_folder(&loaded.dir)?;
    let folder = parts_folder(&loaded.dir);
    let mut names: Vec<PathBuf> = match std::fs::read_dir(&folder) {
        Ok(entries) => entries.filter_map(Result::ok).map(|entry| entry.path()).collect(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(ClusterError::failed(format!("{}: cannot list: {error}", folder.display()))),
    };
    names.retain(|path| {
        let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        !name.starts_with('.') && name.ends_with(".json")
    });
    names.sort();
    let plan = &loaded.plan;
    let key = read_key(&loaded.dir)?;
    let mut survey = Survey { found: BTreeMap::new(), problems: Vec::new() };
    for path in names {
        let shown = path.display().to_string();
        let file: PartFile = match read_bytes(&path).and_then(|bytes| parse_json(&bytes, &path, PART_SCHEMA)) {
            Ok(file) => file,
            Err(error) => {
                survey.problems.push(format!("{shown}: not a part file: {error}"));
                continue;
            }
        };
        let part = file.part;
        let foreign = if !(1..=plan.part_count).contains(&part) || file.part_count != plan.part_count {
            Some(format!("part {part} of {} parts, but the plan has {}", file.part_count, plan.part_count))
        } else if file.plan_hash != loaded.hash {
            Some(format!("from another plan (plan hash {}, this plan's {})", file.plan_hash, loaded.hash))
        } else if file.build != plan.tool.build {
            Some(format!("from another build ({}, the plan's {})", file.build, plan.tool.build))
        } else if file.components.len() != plan.lister.len()
            || !file.subproblems.iter().map(|record| &record.subproblem).eq(plan.parts[part - 1].subproblems.iter())
        {
            Some("its subproblems or components are not the plan's".to_string())
        } else {
            None
        };
        if let Some(why) = foreign {
            survey.problems.push(format!("part {part} ({shown}): foreign: {why}"));
            continue;
        }
        if !signed_by(&key, &file) {
            survey.problems.push(format!(
                "{shown}: digest: does not verify with the plan's key ({}): the file was edited after it was \
                 written, or written without the plan's key",
                key_path(&loaded.dir).display()
            ));
            continue;
        }
        match check_part_file(&path, &file, loaded) {
            Ok(()) => survey.found.entry(part).or_default().push((path, file)),
            Err(problem) => survey.problems.push(problem),
        }
    }
    for (part, files) in &survey.found {
        if files.len() > 1 {
            let shown: Vec<String> = files.iter().map(|(path, _)| path.display().to_string()).collect();
            survey.problems.push(format!("part {part}: doubled: {}", shown.join(" and ")));
        }
    }
    let single = survey.found.iter().filter_map(|(part, files)| match files.as_slice() {
        [(path, file)] => Some((*part, path.as_path(), file)),
        _ => None,
    });
    let (_, overflows) = summed_counts(loaded, single);
    survey.problems.extend(overflows);
    // The incumbent files the parts of a branch and bound shared, as `merge` reads them:
    // `--status` and `explain --cluster` said nothing of one `merge` then refused.
    if loaded.plan.objective.is_some() {
        let (_, incumbent_problems) = read_published(&loaded.dir, &loaded.hash, &key);
        survey.problems.extend(incumbent_problems);
    }
    Ok(survey)
}

/// The counts of the plan's lister and `parts` added up per component, and a problem for
/// each component whose sum passes 64 bits, naming the file that passed it (its total is
/// `None` from there). `merge` adds them up, and `--status` must not call a folder ready
/// that `merge` then refuses: both ask this.
fn summed_counts<'a>(
    loaded: &LoadedPlan,
    parts: impl IntoIterator<Item = (usize, &'a Path, &'a PartFile)>,
) -> (Vec<Option<Counts>>, Vec<String>) {
    let mut totals: Vec<Option<Counts>> = loaded.plan.lister.iter().map(|record| Some(record.counts.clone())).collect();
    let mut problems = Vec::new();
    for (part, path, file) in parts {
        for (component, record) in file.components.iter().enumerate() {
            let Some(total) = totals.get_mut(component).and_then(Option::as_mut) else { continue };
            if let Err(overflow) = total.add(&record.counts) {
                totals[component] = None;
                problems.push(format!(
                    "{}: components[{component}].counts: {overflow} over the plan and the parts (part {part})",
                    path.display()
                ));
            }
        }
    }
    (totals, problems)
}

/// The parts of a plan: done, missing, and the problems found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// Parts with exactly one valid file.
    pub done: Vec<usize>,
    /// Parts with no valid file.
    pub missing: Vec<usize>,
    /// Parts with more than one file (named on a problem line each): neither done nor
    /// missing, since a rerun would not help; all but one file must go.
    pub doubled: Vec<usize>,
    /// Files that are doubled, foreign or unreadable.
    pub problems: Vec<String>,
    /// The number of parts.
    pub part_count: usize,
}

/// `merge --status`: which parts of the plan in `dir` are done and which are missing.
pub fn status(dir: &Path) -> Result<Status, ClusterError> {
    let loaded = load_plan(dir)?;
    // The checks of a merge before its survey: a status that says "next: merge" where the
    // merge would refuse the plan (another build's, or edited) misleads.
    check_plan(&loaded)?;
    let mut survey = survey(&loaded)?;
    let part_count = loaded.plan.part_count;
    let done: Vec<usize> =
        (1..=part_count).filter(|part| survey.found.get(part).is_some_and(|files| files.len() == 1)).collect();
    let missing = (1..=part_count).filter(|part| !survey.found.contains_key(part)).collect();
    let doubled = (1..=part_count).filter(|part| survey.found.get(part).is_some_and(|files| files.len() > 1)).collect();
    if done.len() == part_count && survey.problems.is_empty() {
        // Every file passed: what is left of a merge's checks is its replay of the paths
        // (one that leaves the tree, from a model whose moves changed), asked of the merge
        // itself, so that "next: merge" is never followed by its refusal.
        let parts = std::mem::take(&mut survey.found)
            .into_iter()
            .filter_map(|(part, mut files)| Some((part, files.pop()?)))
            .collect();
        if let Err(error) = merge_checked(&loaded, &parts) {
            survey.problems.push(error.message);
        }
    }
    Ok(Status { done, missing, doubled, problems: survey.problems, part_count })
}

/// The plan's own checks, before any part is read: made by this build, as `split` wrote it
/// (its keyed digest), and its lister's counts consistent.
fn check_plan(loaded: &LoadedPlan) -> Result<(), ClusterError> {
    check_build(&loaded.plan.tool, &loaded.dir)?;
    check_plan_digest(&loaded.dir, &loaded.hash)?;
    check_plan_counts(loaded).map_err(ClusterError::bad_input)
}

/// Every part of the plan in `loaded`, each from its one file, after the checks a merge
/// makes before it adds anything up: the plan made by this build, and every part there
/// once, in this build's part format, from this plan (its hash), this build, with the
/// plan's part count and subproblems. The error names every part missing, doubled or
/// foreign (exit 2). `merge` and `explain --cluster` both read the parts through it: a
/// folder split again after its plan was removed still holds the old plan's parts, and
/// neither command may read them as this plan's.
pub(crate) fn checked_parts(loaded: &LoadedPlan) -> Result<BTreeMap<usize, (PathBuf, PartFile)>, ClusterError> {
    let (plan, dir) = (&loaded.plan, &loaded.dir);
    check_plan(loaded)?;
    let mut survey = survey(loaded)?;
    for part in 1..=plan.part_count {
        if !survey.found.contains_key(&part) {
            survey.problems.push(format!(
                "part {part}: missing (run: {} run-part {} {part})",
                run::program_name(),
                crate::format::shell_word(&dir.display().to_string())
            ));
        }
    }
    if !survey.problems.is_empty() {
        return Err(ClusterError::bad_input(format!(
            "{}: the parts (or the incumbent files they shared) do not match the plan, {} problem(s):\n  {}",
            dir.display(),
            survey.problems.len(),
            survey.problems.join("\n  ")
        )));
    }
    Ok(survey.found.into_iter().filter_map(|(part, mut files)| Some((part, files.pop()?))).collect())
}

/// `merge`: the report of the plan in `dir` from its parts, with the instance it ran; exit
/// 2 naming every missing, doubled or foreign part (`checked_parts`).
pub fn merge(dir: &Path) -> Result<(RunReport, Instance), ClusterError> {
    let loaded = load_plan(dir)?;
    let parts = checked_parts(&loaded)?;
    merge_checked(&loaded, &parts)
}

/// The report of `loaded`'s plan from `parts`, as [`checked_parts`] gave them: the sums,
/// and every solution path and answer key replayed (a path that does not replay is an
/// error naming its file). `merge --status` and `explain --cluster` ask it too, so that
/// neither passes a folder that `merge` refuses.
pub(crate) fn merge_checked(
    loaded: &LoadedPlan,
    parts: &BTreeMap<usize, (PathBuf, PartFile)>,
) -> Result<(RunReport, Instance), ClusterError> {
    let (plan, dir) = (&loaded.plan, loaded.dir.as_path());
    let components = plan.lister.len();
    let plan_file = plan_path(dir);
    // Every sum was found to fit by `checked_parts`; asked again, not assumed.
    let (totals, overflows) =
        summed_counts(loaded, parts.iter().map(|(part, (path, file))| (*part, path.as_path(), file)));
    if let Some(overflow) = overflows.into_iter().next() {
        return Err(ClusterError::bad_input(overflow));
    }
    let counts: Vec<Counts> = totals.into_iter().flatten().collect();
    let mut solution_lists: Vec<Vec<Vec<ChildPath>>> = Vec::with_capacity(components);
    let mut answer_lists: Vec<Vec<AnswerShare>> = Vec::with_capacity(components);
    for record in &plan.lister {
        solution_lists.push(vec![parse_solutions(record, &plan_file)?]);
        answer_lists.push(vec![parse_answers(record, &plan_file)?]);
    }
    let mut elapsed_ns = vec![0u64; components];
    let mut sources = vec![plan_file.display().to_string()];
    for (part, (path, file)) in parts {
        sources.push(path.display().to_string());
        for (component, record) in file.components.iter().enumerate() {
            solution_lists[component].push(parse_solutions(record, path)?);
            answer_lists[component].push(parse_answers(record, path)?);
        }
        for (subproblem, record) in loaded.subproblems[part - 1].iter().zip(&file.subproblems) {
            let total = &mut elapsed_ns[subproblem.component];
            *total = total.checked_add(record.ns).ok_or_else(|| {
                ClusterError::bad_input(format!(
                    "{}: subproblems[].ns: the search times summed over the parts do not fit in 64 bits",
                    path.display()
                ))
            })?;
        }
    }
    let published = match &plan.objective {
        Some(_) => published_solutions(loaded, components)?,
        None => Published::default(),
    };
    let instance = plan_instance(&plan.instance)?;
    let prepared = run::prepare(&instance, &plan.knobs).map_err(|error| ClusterError::of_run(error, ""))?;
    let input = AssembleInput {
        counts: &counts,
        solutions: solution_lists.iter().map(|lists| lists.iter().map(Vec::as_slice).collect()).collect(),
        answers: answer_lists.iter().map(|lists| lists.iter().collect()).collect(),
        keep: plan.keep,
        strategy: run::report::split_strategy(plan.part_count),
        elapsed_ns,
        published: published.solutions,
        published_files: published.files,
        sources,
        folder: dir.display().to_string(),
        seed: plan.objective.as_ref().and_then(|objective| objective.seed),
    };
    // Each error of the assembly names its file, or the folder when no one file holds it.
    let mut report = prepared.assemble(&input).map_err(|error| ClusterError::of_run(error, ""))?;
    report.parallel.subproblems = plan.subproblem_count as u64;
    if let Some(objective) = &mut report.objective {
        // The parts' clocks: from the first part's start to the publication of the best
        // value, and to the last part's end.
        let started = parts.values().map(|(_, file)| file.started_unix_ns).min().unwrap_or(0);
        let ended = parts.values().map(|(_, file)| file.ended_unix_ns).max().unwrap_or(0);
        objective.time_to_proof_ns = objective.proven.then(|| ended.saturating_sub(started));
        objective.improvements = published.improvements;
        // A best published before the first start the part files record (its part was
        // rerun after it published, and the rerun's file replaced the first one's) has no
        // time from a start this merge knows: none is given rather than 0.
        objective.time_to_best_ns = match objective.best {
            Some(best) if components == 1 => {
                let at = published.times.iter().filter(|(value, _)| *value == best).map(|&(_, at)| at).min();
                at.filter(|&at| at >= started).map(|at| at - started)
            }
            _ => None,
        };
    }
    Ok((report, instance))
}

/// What the parts of an optimising plan published to each other.
#[derive(Default)]
struct Published {
    /// Per component: each published solution's claimed value, path and file (its index
    /// in `files`).
    solutions: Vec<Vec<(i64, ChildPath, usize)>>,
    /// The incumbent files read, by index.
    files: Vec<String>,
    /// Each published solution's value and time of publication.
    times: Vec<(i64, u64)>,
    /// Improvements published, over all parts.
    improvements: u64,
}

/// The incumbent files of `loaded`'s plan: every one must be readable and of this plan (a
/// part may have cut its search by any of them), and each solution's path within the
/// plan's components; the assembly then replays each and checks its value.
fn published_solutions(loaded: &LoadedPlan, components: usize) -> Result<Published, ClusterError> {
    let key = read_key(&loaded.dir)?;
    let (files, problems) = read_published(&loaded.dir, &loaded.hash, &key);
    // The survey of `checked_parts` refused these already; a file changed since is caught here.
    if !problems.is_empty() {
        return Err(ClusterError::bad_input(format!(
            "{}: the incumbent files the parts shared are not all this plan's as its parts wrote them, {} problem(s):\n  {}",
            incumbent_dir(&loaded.dir).display(),
            problems.len(),
            problems.join("\n  ")
        )));
    }
    let mut published = Published { solutions: vec![Vec::new(); components], ..Published::default() };
    for (path, file) in files {
        let file_index = published.files.len();
        published.files.push(path.display().to_string());
        for solution in &file.solutions {
            let subproblem = solution.subproblem(&path)?;
            let Some(list) = published.solutions.get_mut(subproblem.component) else {
                return Err(ClusterError::bad_input(format!(
                    "{}: solution `{}`: component {} is not in the plan",
                    path.display(),
                    solution.solution,
                    subproblem.component
                )));
            };
            list.push((solution.value, subproblem.path, file_index));
            published.times.push((solution.value, solution.published_unix_ns));
            published.improvements = published.improvements.checked_add(solution.improvements).ok_or_else(|| {
                ClusterError::bad_input(format!(
                    "{}: improvements: the improvements published, summed, do not fit in 64 bits",
                    path.display()
                ))
            })?;
        }
    }
    Ok(published)
}
