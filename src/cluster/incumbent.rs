//! The incumbent of a split optimisation search, shared by its parts through the plan
//! folder: each part publishes its best solution of each component (value and path) in a
//! file of its own, `incumbent/K.json`, replaced atomically at each improvement, and reads
//! every part's file when it starts and at intervals while it runs. One writer per file
//! and a maximum taken by every reader: no lock, on any shared folder a cluster has.
//!
//! Each file carries a keyed digest made with the plan folder's key ([`super::key`]). A
//! running part ignores a file whose digest does not verify (and says so when it ends):
//! stopping would let whoever can write the folder, without the key, stop every part.
//! `merge` refuses such a file, naming it, since a part may have cut its search by it.
//! Nor does the merge trust a signed one: it replays each published path and checks the
//! value claimed (see docs/cluster.md for what a forged file can still do to a run).

use super::key::{key_path, sign, signed_by, Key};
use super::plan::{parse_json, parse_subproblem, subproblem_text};
use super::ClusterError;
use crate::files::atomic_write::write_atomically_unsynced;
use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::run::parts::Subproblem;
use crate::search::{Incumbent, Sense, NO_SCORE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The schema tag of `incumbent/K.json`.
pub const INCUMBENT_SCHEMA: &str = "backtrack-bench-incumbent/v1";
/// How often a running part reads the other parts' incumbents, unless told otherwise: a
/// listing of a folder of at most a few hundred small files, cheap beside a search that is
/// worth splitting, and soon enough that a part rarely searches long under a stale value.
pub const EXCHANGE_INTERVAL: Duration = Duration::from_millis(200);

/// One component's best solution as a part published it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedSolution {
    /// `COMPONENT:PATH`: the solution's node.
    pub solution: String,
    /// Its objective value, as the part computed it (the merge checks it).
    pub value: i64,
    /// When it was published, in nanoseconds since the Unix epoch.
    pub published_unix_ns: u64,
    /// How many improvements of this component the part published, this one included.
    pub improvements: u64,
}

/// `incumbent/K.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncumbentFile {
    /// [`INCUMBENT_SCHEMA`].
    pub schema: String,
    /// The hash of the plan the part ran.
    pub plan_hash: String,
    /// The part that wrote it.
    pub part: usize,
    /// Its best solution of each component it found one in.
    pub solutions: Vec<PublishedSolution>,
    /// The keyed digest of the rest of the file (`blake3-keyed:...`), made with the plan
    /// folder's key; missing (empty) in a file written without it, which is refused.
    #[serde(default)]
    pub digest: String,
}

impl super::key::SignedFile for IncumbentFile {
    fn digest_field(&mut self) -> &mut String {
        &mut self.digest
    }
}

impl PublishedSolution {
    /// The solution's component and path, or an error naming `path` (the file).
    pub fn subproblem(&self, path: &Path) -> Result<Subproblem, ClusterError> {
        parse_subproblem(&self.solution).ok_or_else(|| {
            ClusterError::bad_input(format!(
                "{}: solution `{}`: expected COMPONENT:PATH (0:3.1.2)",
                path.display(),
                self.solution
            ))
        })
    }
}

/// The folder of the incumbent files of the plan in `dir`.
pub fn incumbent_dir(dir: &Path) -> PathBuf {
    dir.join("incumbent")
}

/// The incumbent file of part `part` of the plan in `dir`.
pub fn incumbent_path(dir: &Path, part: usize) -> PathBuf {
    incumbent_dir(dir).join(format!("{part}.json"))
}

/// Every incumbent file in `dir`'s folder of the plan hashed `plan_hash` signed with
/// `key`, and what is wrong with the others (unreadable, not a regular file, too large,
/// another plan's, a digest that does not verify). A missing folder holds none.
pub fn read_published(dir: &Path, plan_hash: &str, key: &Key) -> (Vec<(PathBuf, IncumbentFile)>, Vec<String>) {
    let folder = incumbent_dir(dir);
    let mut names: Vec<PathBuf> = match std::fs::read_dir(&folder) {
        Ok(entries) => entries.filter_map(Result::ok).map(|entry| entry.path()).collect(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), Vec::new()),
        Err(error) => return (Vec::new(), vec![format!("{}: cannot list: {error}", folder.display())]),
    };
    names.retain(|path| {
        let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        !name.starts_with('.') && name.ends_with(".json")
    });
    names.sort();
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for path in names {
        match read_one(&path, plan_hash, key) {
            Ok(file) => files.push((path, file)),
            Err(problem) => problems.push(problem),
        }
    }
    (files, problems)
}

/// One incumbent file of this plan, read by the tool's one bounded reader (a pipe in its
/// place would block the reader).
fn read_one(path: &Path, plan_hash: &str, key: &Key) -> Result<IncumbentFile, String> {
    let bytes = read_bounded(path, ReadKind::Incumbent).map_err(|refused| refused.to_string())?;
    let file: IncumbentFile = parse_json(&bytes, path, INCUMBENT_SCHEMA).map_err(|error| error.message)?;
    if file.plan_hash != plan_hash {
        return Err(format!(
            "{}: from another plan (plan hash {}, this plan's {plan_hash})",
            path.display(),
            file.plan_hash
        ));
    }
    // A part publishes under its own number: a signed file under another name is a copy.
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    if name != format!("{}.json", file.part) {
        return Err(format!(
            "{}: written by part {}, not under its name ({}.json)",
            path.display(),
            file.part,
            file.part
        ));
    }
    if !signed_by(key, &file) {
        let folder = path.parent().and_then(Path::parent).unwrap_or(Path::new("."));
        return Err(format!(
            "{}: digest: does not verify with the plan's key ({}): the file was edited after its part wrote it, \
             or written without the plan's key",
            path.display(),
            key_path(folder).display()
        ));
    }
    Ok(file)
}

/// What a part has published so far, one entry per component.
struct Published {
    solutions: Vec<Option<PublishedSolution>>,
    /// The first failure to write the file (the search goes on: the part's own file
    /// holds its best, the others only search with a staler incumbent).
    error: Option<String>,
}

/// A running part's side of the exchange: its components' incumbents, raised by what the
/// other parts publish and published when its own search improves them.
pub struct Exchange {
    dir: PathBuf,
    part: usize,
    plan_hash: String,
    key: Key,
    sense: Sense,
    incumbents: Vec<Arc<Incumbent>>,
    published: Mutex<Published>,
    /// Why files of other parts were ignored, once each.
    ignored: Mutex<BTreeSet<String>>,
}

impl Exchange {
    /// The exchange of part `part` of the plan in `dir` (hashed `plan_hash`, its files
    /// signed with `key`), whose components' incumbents start at `start` (values of
    /// `sense`'s objective) and count only solutions better than `seed` (`split
    /// --incumbent`'s value, no solution of this search).
    pub fn new(
        dir: &Path,
        part: usize,
        plan_hash: &str,
        key: Key,
        sense: Sense,
        start: &[Option<i64>],
        seed: Option<i64>,
    ) -> Exchange {
        let floor = seed.map_or(NO_SCORE, |seed| sense.score(seed));
        let incumbents = start
            .iter()
            .map(|value| value.map_or_else(Incumbent::new, |value| Incumbent::seeded_above(sense.score(value), floor)))
            .collect();
        Exchange {
            dir: dir.to_path_buf(),
            part,
            plan_hash: plan_hash.to_string(),
            key,
            sense,
            incumbents,
            published: Mutex::new(Published { solutions: vec![None; start.len()], error: None }),
            ignored: Mutex::new(BTreeSet::new()),
        }
    }

    /// Each component's incumbent, for the part's searches.
    pub fn incumbents(&self) -> &[Arc<Incumbent>] {
        &self.incumbents
    }

    /// Raises each incumbent to the best value published in the folder. Files that cannot
    /// be read, are another plan's or do not verify with the key are skipped and kept for
    /// [`Exchange::ignored`]: a forged value never cuts this part's search, and the merge
    /// refuses the file, naming it.
    pub fn read_others(&self) {
        let (files, problems) = read_published(&self.dir, &self.plan_hash, &self.key);
        if !problems.is_empty() {
            self.ignored.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend(problems);
        }
        for (_, file) in files {
            for published in &file.solutions {
                let Some(subproblem) = parse_subproblem(&published.solution) else {
                    continue;
                };
                if let Some(incumbent) = self.incumbents.get(subproblem.component) {
                    incumbent.offer(self.sense.score(published.value));
                }
            }
        }
    }

    /// Publishes the solution at `path` of `component`, of objective `value`, when it beats
    /// what this part published before: its file is rewritten whole, atomically.
    pub fn publish(&self, component: usize, value: i64, path: &[u32]) {
        let mut published = self.published.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(slot) = published.solutions.get(component) else {
            return;
        };
        if slot.as_ref().is_some_and(|before| self.sense.score(before.value) >= self.sense.score(value)) {
            return;
        }
        let improvements = slot.as_ref().map_or(0, |before| before.improvements) + 1;
        let solution = subproblem_text(&Subproblem { component, path: path.to_vec() });
        published.solutions[component] =
            Some(PublishedSolution { solution, value, published_unix_ns: super::unix_ns(), improvements });
        let mut file = IncumbentFile {
            schema: INCUMBENT_SCHEMA.to_string(),
            plan_hash: self.plan_hash.clone(),
            part: self.part,
            solutions: published.solutions.iter().flatten().cloned().collect(),
            digest: String::new(),
        };
        sign(&self.key, &mut file);
        let mut bytes = serde_json::to_vec_pretty(&file).unwrap_or_default();
        bytes.push(b'\n');
        let target = incumbent_path(&self.dir, self.part);
        let written = std::fs::create_dir_all(incumbent_dir(&self.dir))
            .map_err(|error| format!("{}: cannot create: {error}", incumbent_dir(&self.dir).display()))
            .and_then(|()| write_atomically_unsynced(&target, &bytes).map_err(|error| error.to_string()));
        if let Err(error) = written {
            published.error.get_or_insert(error);
        }
    }

    /// Runs `work` while a thread reads the other parts' incumbents every `interval`.
    pub fn run_while<T>(&self, interval: Duration, work: impl FnOnce() -> T) -> T {
        self.read_others();
        std::thread::scope(|scope| {
            let (stop, stopped) = channel::<()>();
            scope.spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(interval) {
                    self.read_others();
                }
            });
            let result = work();
            drop(stop);
            result
        })
    }

    /// Why other parts' incumbent files were ignored (each reason once).
    pub fn ignored(&self) -> Vec<String> {
        self.ignored.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).iter().cloned().collect()
    }

    /// The first failure to publish, if any.
    pub fn error(&self) -> Option<String> {
        self.published.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).error.clone()
    }
}
