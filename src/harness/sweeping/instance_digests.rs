//! What each instance held when a sweep's runs searched it, kept beside the run log, so that
//! `--resume` refuses to add runs to those of an instance file edited in place since.
//!
//! The run records name an instance by its id and family only: a file whose data changed
//! and whose id did not was resumed as the same instance, and its new runs summarized with
//! the old ones. The digest covers the family, the id and the data (keys in sorted order, so
//! that a file whose keys only moved is the same instance).

use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::harness::error::HarnessError;
use crate::harness::storing::csv_log::write_atomically;
use crate::harness::storing::results_folder::digests_file_for;
use crate::run::instance::Instance;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The digest of each instance source (the name or path a spec gives) a run log's runs
/// searched, as written beside the log.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceDigests {
    /// Per source, the digest of the instance the log's runs of it searched.
    pub sources: BTreeMap<String, String>,
}

/// The digest of what a run of `instance` searches: its family, its id and its data, the
/// data's objects with their keys sorted (a file whose keys only moved is the same instance).
pub fn digest(instance: &Instance) -> String {
    let mut data = instance.data.clone();
    data.sort_all_objects();
    let text = format!("{}\n{}\n{data}", instance.family.name(), instance.id);
    blake3::hash(text.as_bytes()).to_hex()[..32].to_string()
}

/// The digests beside `runs_file`: `Ok(None)` when there are none (a log written before
/// digests were kept), `Err` with what was wrong when the file cannot be read as digests.
pub fn read_digests(runs_file: &Path) -> Result<Option<InstanceDigests>, String> {
    let path = digests_file_for(runs_file);
    let bytes = match read_bounded(&path, ReadKind::InstanceDigests) {
        Ok(bytes) => bytes,
        Err(refused) if refused.not_found => return Ok(None),
        Err(refused) => return Err(refused.to_string()),
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|error| format!("{}: not instance digests: {error}", path.display()))
}

/// Writes the digests beside `runs_file` before its runs of `instances` (source and
/// instance) are appended. A source the log holds runs of (`with_runs`) keeps the digest
/// written with them, or gets none when there is none to keep (a log from before digests were
/// kept, or an unreadable file: what those runs searched is not known, and is not claimed);
/// a source the log holds no runs of gets the digest of what it holds now, which its first
/// runs will search. While the log holds runs, other sources the file names are kept.
pub fn record_digests<'a>(
    runs_file: &Path,
    instances: impl IntoIterator<Item = (&'a str, &'a Instance)>,
    with_runs: &HashSet<String>,
) -> Result<(), HarnessError> {
    let earlier = if with_runs.is_empty() { None } else { read_digests(runs_file).ok().flatten() };
    let mut digests = earlier.unwrap_or_default();
    for (source, instance) in instances {
        if !with_runs.contains(source) {
            digests.sources.insert(source.to_string(), digest(instance));
        }
    }
    let mut text = serde_json::to_string_pretty(&digests).expect("a map of strings to strings is JSON");
    text.push('\n');
    write_atomically(&digests_file_for(runs_file), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::instance::load;
    use serde_json::Value;

    #[test]
    fn the_digest_follows_the_data_and_not_the_order_of_its_keys() {
        let rings = load("rings").unwrap();
        let mut moved = rings.clone();
        let Value::Object(map) = &rings.data else { panic!("an instance's data is an object") };
        assert!(map.len() > 1, "{map:?}");
        moved.data = Value::Object(map.iter().rev().map(|(key, value)| (key.clone(), value.clone())).collect());
        assert_ne!(moved.data.to_string(), rings.data.to_string(), "the keys moved");
        assert_eq!(digest(&moved), digest(&rings));
        let mut edited = rings.clone();
        edited.data["edited"] = Value::Bool(true);
        assert_ne!(digest(&edited), digest(&rings));
        let mut renamed = rings.clone();
        renamed.id.push('2');
        assert_ne!(digest(&renamed), digest(&rings));
    }

    #[test]
    fn a_log_keeps_the_digests_of_the_sources_it_holds_runs_of_and_takes_the_others_anew() {
        let folder = tempfile::tempdir().unwrap();
        let runs = folder.path().join("t-runs.csv");
        let (rings, hooks) = (load("rings").unwrap(), load("hooks7").unwrap());
        let mut edited = rings.clone();
        edited.data["edited"] = Value::Bool(true);
        let none = HashSet::new();
        assert_eq!(read_digests(&runs), Ok(None));
        record_digests(&runs, [("rings", &rings), ("hooks7", &hooks)], &none).unwrap();
        // Runs of rings are in the log: its digest stays; hooks7 has none yet, and was edited
        // before its first run: its digest follows.
        let mut edited_hooks = hooks.clone();
        edited_hooks.data["edited"] = Value::Bool(true);
        let with_rings = HashSet::from(["rings".to_string()]);
        record_digests(&runs, [("rings", &edited), ("hooks7", &edited_hooks)], &with_rings).unwrap();
        let kept = read_digests(&runs).unwrap().unwrap();
        assert_eq!(kept.sources["rings"], digest(&rings));
        assert_eq!(kept.sources["hooks7"], digest(&edited_hooks));
        // Runs without a readable digest: none is claimed for them.
        std::fs::write(digests_file_for(&runs), "not json").unwrap();
        assert!(read_digests(&runs).unwrap_err().contains("not instance digests"));
        record_digests(&runs, [("rings", &edited), ("hooks7", &hooks)], &with_rings).unwrap();
        let written = read_digests(&runs).unwrap().unwrap();
        assert_eq!((written.sources.get("rings"), written.sources.get("hooks7")), (None, Some(&digest(&hooks))));
    }
}
