//! What `--resume` finds already done: per configuration, the runs the folder's run logs
//! hold, and whether the configuration is finished.
//!
//! A configuration is finished when it has all its repeats, when its last outcome would
//! repeat (`error`, `panic`, `verify-failed`, `limit`), or when its stopping rule ended it
//! early (a precise enough median, or its time budget). The last is not in any row, so it is
//! read from the order of the log: the sweep runs one configuration at a time, so one
//! followed by rows of another in the same log was finished, and every configuration of a
//! log with its completion mark was. Only the last configuration of an unmarked log (the one
//! a kill or Ctrl-C stopped) gets more runs; a finished sweep resumed runs nothing.

use super::instance_digests::{digest, read_digests};
use super::plan::SweepPlan;
use crate::harness::error::HarnessError;
use crate::harness::storing::history::completion_mark;
use crate::harness::storing::record::{status, RunRecord};
use crate::harness::storing::results_folder::{find_runs_files, read_runs};
use crate::run::instance::Instance;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What the run logs already hold for one configuration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recorded {
    /// Measured runs.
    pub runs: u32,
    /// The next repeat number.
    pub next_repeat: u32,
    /// A failure, a node-limit stop, or a stop by the configuration's stopping rule: no
    /// further repeats.
    pub finished: bool,
}

/// What the folder's run logs of `plan`'s sweep already hold.
#[derive(Debug, Default)]
pub struct RecordedRuns {
    /// Per configuration id.
    pub runs: HashMap<String, Recorded>,
    /// Notes about skipped lines.
    pub notes: Vec<String>,
    /// Per configuration id, why its recorded runs were of another instance than its source
    /// now loads (the file was replaced since): new runs would be summarized with them as
    /// one configuration, so one that is to run more is refused ([`refuse_another_instance`]).
    pub other_instance: HashMap<String, String>,
    /// Per run log, the sources of planned configurations it holds runs of (their digests
    /// beside it stay those of the instances the runs searched).
    pub sources_with_runs: HashMap<PathBuf, HashSet<String>>,
}

/// What the folder's run logs of `plan`'s sweep already hold, per configuration id.
pub fn recorded_runs(plan: &SweepPlan, out_dir: &Path) -> Result<RecordedRuns, HarnessError> {
    let files = match find_runs_files(out_dir) {
        Ok(mut files) => files.remove(&plan.sweep).unwrap_or_default(),
        Err(HarnessError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(error),
    };
    // The instance each planned configuration runs now, by id, and its digest by source.
    let running: HashMap<&str, (&str, &Instance)> = plan
        .configurations
        .iter()
        .filter_map(|config| match plan.instances.get(&config.source) {
            Some(Ok(instance)) => Some((config.id.as_str(), (config.source.as_str(), instance))),
            _ => None,
        })
        .collect();
    let digests_now: HashMap<&str, String> =
        running.values().map(|&(source, instance)| (source, digest(instance))).collect();
    let mut recorded: HashMap<String, Recorded> = HashMap::new();
    let mut notes = Vec::new();
    let mut other_instance = HashMap::new();
    let mut sources_with_runs: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    for file in files {
        let (records, skipped) = read_runs(std::slice::from_ref(&file))?;
        notes.extend(skipped);
        let searched = read_digests(&file).unwrap_or_else(|why| {
            notes.push(format!("{why}: the instances of this log's runs are not compared with the files now"));
            None
        });
        let marked_complete = completion_mark(&file).exists();
        let mut previous: Option<&str> = None;
        for record in records.iter().filter(|record| record.sweep == plan.sweep) {
            if let Some(earlier) = previous.filter(|&earlier| earlier != record.config_id) {
                // The sweep moved on from `earlier`: its rule said stop.
                recorded.entry(earlier.to_string()).or_default().finished = true;
            }
            previous = Some(&record.config_id);
            if let Some(&(source, instance)) = running.get(record.config_id.as_str()) {
                sources_with_runs.entry(file.clone()).or_default().insert(source.to_string());
                let edited = searched.as_ref().and_then(|searched| {
                    let then = searched.sources.get(source)?;
                    (*then != digests_now[source]).then(|| edited_instance(record, source, &file))
                });
                if let Some(why) = another_instance(record, source, instance, &file).or(edited) {
                    other_instance.entry(record.config_id.clone()).or_insert(why);
                }
            }
            let entry = recorded.entry(record.config_id.clone()).or_default();
            entry.next_repeat = entry.next_repeat.max(record.repeat.saturating_add(1));
            if record.measured() {
                entry.runs += 1;
            }
            if record.status != status::OK || marked_complete {
                entry.finished = true;
            }
        }
    }
    Ok(RecordedRuns { runs: recorded, notes, other_instance, sources_with_runs })
}

/// Refuses to run `pending` configurations (those given more runs) whose recorded runs were
/// of another instance than they load now. A finished configuration, or another shard's,
/// gets no run that would join them, and is left as it is.
pub fn refuse_another_instance<'a>(
    pending: impl IntoIterator<Item = &'a str>,
    other_instance: &HashMap<String, String>,
) -> Result<(), HarnessError> {
    match pending.into_iter().find_map(|id| other_instance.get(id)) {
        Some(why) => Err(HarnessError::Argument { flag: "--resume", message: why.clone() }),
        None => Ok(()),
    }
}

/// Why `record` (of `file`) is of another instance than `source` now holds (another family
/// or instance id), if it is. A row of an instance that failed to load names none, and is
/// not compared.
fn another_instance(record: &RunRecord, source: &str, instance: &Instance, file: &Path) -> Option<String> {
    let family = instance.family.name();
    if record.instance.is_empty() || (record.instance == instance.id && record.puzzle == family) {
        return None;
    }
    Some(format!(
        "{}: configuration {} holds runs of instance `{}` (family `{}`), but `{source}` now holds `{}` (family \
             `{family}`): the instance changed since those runs, and its runs would be summarized with theirs; run \
             without --resume to start again (the earlier runs are kept in history/)",
        file.display(),
        record.config_id,
        record.instance,
        record.puzzle,
        instance.id
    ))
}

/// Why `record` (of `file`) cannot be joined by new runs when `source` holds the same
/// instance id and family as its runs searched, with other data (the file was edited since).
fn edited_instance(record: &RunRecord, source: &str, file: &Path) -> String {
    format!(
        "{}: configuration {} holds runs of `{source}` (instance `{}`) as it was then, and its data changed since \
         (same id and family): its new runs would be summarized with theirs; run without --resume to start again \
         (the earlier runs are kept in history/)",
        file.display(),
        record.config_id,
        record.instance
    )
}

/// A note when the folder's logs hold configurations `plan` does not have: the spec or a
/// flag (`--node-limit`, a knob) changed since those runs, or what the ids are made of did
/// (an instance that loads now, `cores` on a machine of another size, a family's new knob
/// in another build). Their rows stay and `report` shows them beside this plan's; the
/// user hears it before the runs, where the log would otherwise mix two plans in silence.
/// Not a refusal: shards on machines of different sizes resume one folder by design.
pub fn other_plan_note(plan: &SweepPlan, recorded: &HashMap<String, Recorded>) -> Option<String> {
    let planned: std::collections::HashSet<&str> =
        plan.configurations.iter().map(|config| config.id.as_str()).collect();
    let foreign = recorded.keys().filter(|id| !planned.contains(id.as_str())).count();
    (foreign > 0).then(|| {
        format!(
            "--resume: the folder's run logs of sweep `{}` hold {foreign} configuration(s) this plan does not have \
             (the spec, a flag such as --node-limit, an instance's loading, the core count behind `cores` or the \
             build differ from those runs): their rows stay, and `report` shows them beside this plan's; to keep \
             the runs apart, run without --resume (the earlier run is kept in history/)",
            plan.sweep
        )
    })
}

/// Whether a configuration planned for `repeats` runs needs no more.
pub fn is_done(done: Recorded, repeats: u32) -> bool {
    done.finished || done.runs >= repeats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::storing::csv_log::write_rows;
    use crate::harness::storing::history::mark_complete;
    use crate::harness::storing::record::RunRecord;
    use crate::harness::sweeping::spec::SweepSpec;

    /// Configuration `name`'s id, as a run writes one (16 hex digits).
    fn id(name: &str) -> String {
        format!("{name:0>16}")
    }

    fn record(name: &str, repeat: u32) -> RunRecord {
        RunRecord {
            sweep: "t".into(),
            config_id: id(name),
            repeat,
            status: status::OK.into(),
            threads: 1,
            ..RunRecord::plausible()
        }
    }

    #[test]
    fn a_configuration_followed_by_another_or_in_a_marked_log_is_finished() {
        let folder = tempfile::tempdir().unwrap();
        let spec = SweepSpec::parse("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\n", "t.toml").unwrap();
        let plan = super::super::plan::expand(&spec, 1).unwrap();
        let runs = folder.path().join("t-runs.csv");
        let rows = [record("a", 0), record("b", 0), record("b", 1), record("c", 0)];
        write_rows(&runs, &rows, &RunRecord::header()).unwrap();
        let recorded = recorded_runs(&plan, folder.path()).unwrap().runs;
        assert_eq!(recorded[&id("a")], Recorded { runs: 1, next_repeat: 1, finished: true });
        assert_eq!(recorded[&id("b")], Recorded { runs: 2, next_repeat: 2, finished: true });
        // The last one may have been stopped by a kill: it goes on.
        assert_eq!(recorded[&id("c")], Recorded { runs: 1, next_repeat: 1, finished: false });
        assert!(!is_done(recorded[&id("c")], 3) && is_done(recorded[&id("c")], 1));
        mark_complete(&runs).unwrap();
        let recorded = recorded_runs(&plan, folder.path()).unwrap().runs;
        assert!(recorded[&id("c")].finished);
    }

    #[test]
    fn a_log_of_configurations_the_plan_lacks_is_told_before_the_runs() {
        let spec = SweepSpec::parse("name = \"t\"\n[[block]]\ninstances = [\"rings\"]\n", "t.toml").unwrap();
        let plan = super::super::plan::expand(&spec, 1).unwrap();
        let own = plan.configurations[0].id.clone();
        let mut recorded = HashMap::from([(own, Recorded::default())]);
        assert_eq!(other_plan_note(&plan, &recorded), None);
        // Fewer recorded than planned: a spec that grew resumes without a word.
        assert_eq!(other_plan_note(&plan, &HashMap::new()), None);
        recorded.insert("0123456789abcdef".into(), Recorded::default());
        let note = other_plan_note(&plan, &recorded).expect("a note");
        assert!(note.contains("hold 1 configuration(s) this plan does not have"), "{note}");
    }
}
