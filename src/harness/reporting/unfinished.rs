//! Sweeps that did not finish: a run log without its completion mark (`S-runs.csv.complete`,
//! written when the sweep or shard ran every configuration) was stopped before its end:
//! Ctrl-C, SIGTERM, a kill or a crash. `report` reported such a sweep like a finished one
//! (`1 configurations, 3 measured runs` and exit 0), so a summary of part of the plan read
//! as the whole; it now says, on stderr and in the sweep's section of the README, which
//! sweep is unfinished and the command that completes it.

use crate::format::{markdown_code as code, shell_word};
use crate::harness::storing::history::completion_mark;
use crate::harness::storing::record::RunRecord;
use crate::harness::storing::results_folder::Shard;
use std::path::{Path, PathBuf};

/// A sweep with run logs that lack their completion mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    /// The sweep's name.
    pub sweep: String,
    /// The file names of its unmarked run logs.
    pub logs: Vec<String>,
    /// One `sweep ... --resume` command per unmarked log (its shard's, for a shard log).
    pub commands: Vec<String>,
}

/// Said after the commands: the run's flags other than the spec, name, folder and shard
/// (`--threads`, `--repeats`, ...) are in no row, and a resume with other ones would run
/// another plan.
const OTHER_FLAGS: &str = "with the run's other flags, such as --threads or --repeats, if it had any";

impl Unfinished {
    /// The unmarked logs among `files`, the run logs of `sweep` in `folder` (`records`:
    /// their rows, which name the spec), or `None` when every one has its mark.
    pub fn of(folder: &Path, sweep: &str, files: &[PathBuf], records: &[RunRecord], program: &str) -> Option<Self> {
        let unmarked: Vec<&PathBuf> = files.iter().filter(|file| !completion_mark(file).exists()).collect();
        if unmarked.is_empty() {
            return None;
        }
        let logs = unmarked.iter().map(|file| file.file_name().unwrap_or_default().to_string_lossy().into_owned());
        let logs: Vec<String> = logs.collect();
        let spec = spec_arguments(sweep, records);
        let commands = logs
            .iter()
            .map(|log| {
                let shard = Shard::of_log(sweep, log).map(|shard| format!(" --shard {shard}")).unwrap_or_default();
                format!("{program} sweep {spec} --out {}{shard} --resume", shell_word(&folder.display().to_string()))
            })
            .collect();
        Some(Unfinished { sweep: sweep.to_string(), logs, commands })
    }

    /// The note on stderr.
    pub fn note(&self) -> String {
        let commands: Vec<String> = self.commands.iter().map(|command| format!("`{command}`")).collect();
        let logs: Vec<String> = self.logs.iter().map(|log| format!("`{log}`")).collect();
        self.text(&logs, &commands)
    }

    /// The README's paragraph: the same words, each name and command a code span.
    pub fn markdown(&self) -> String {
        let commands: Vec<String> = self.commands.iter().map(|command| code(command)).collect();
        let logs: Vec<String> = self.logs.iter().map(|log| code(log)).collect();
        format!("⚠ {}.", self.text(&logs, &commands))
    }

    fn text(&self, logs: &[String], commands: &[String]) -> String {
        let verb = if commands.len() == 1 { "completes" } else { "complete" };
        format!(
            "sweep {} did not finish (no completion mark beside {}: stopped before its end by Ctrl-C, SIGTERM, a \
             kill or a crash), so its summary holds only the runs recorded: {} {verb} it ({OTHER_FLAGS})",
            code(&self.sweep),
            logs.join(", "),
            commands.join(" and ")
        )
    }
}

/// The flags that name the sweep's spec and name, from the spec its rows record (`preset
/// quick` or a file's path); `...` when they record none or several.
fn spec_arguments(sweep: &str, records: &[RunRecord]) -> String {
    let mut specs: Vec<&str> = records.iter().map(|record| record.spec.as_str()).collect();
    specs.sort_unstable();
    specs.dedup();
    match specs.as_slice() {
        // A preset's sweep is named after it unless `--name` said otherwise.
        [spec] => match spec.strip_prefix("preset ") {
            Some(preset) if preset == sweep => format!("--preset {preset}"),
            Some(preset) => format!("--preset {preset} --name {sweep}"),
            // A spec file's own name is not in the rows: `--name` makes it this sweep's.
            None if !spec.is_empty() => format!("--spec {} --name {sweep}", shell_word(spec)),
            None => format!("... --name {sweep}"),
        },
        _ => format!("... --name {sweep}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_log_without_its_mark_gets_its_command() {
        let folder = tempfile::tempdir().unwrap();
        let logs: Vec<PathBuf> = ["s-runs.shard-1-of-2.csv", "s-runs.shard-2-of-2.csv"]
            .iter()
            .map(|name| folder.path().join(name))
            .collect();
        for log in &logs {
            std::fs::write(log, "").unwrap();
        }
        std::fs::write(completion_mark(&logs[0]), "finished\n").unwrap();
        let unfinished = Unfinished::of(folder.path(), "s", &logs, &[], "bb").expect("shard 2 has no mark");
        assert_eq!(unfinished.logs, ["s-runs.shard-2-of-2.csv"]);
        let out = shell_word(&folder.path().display().to_string());
        assert_eq!(unfinished.commands, [format!("bb sweep ... --name s --out {out} --shard 2/2 --resume")]);
        std::fs::write(completion_mark(&logs[1]), "finished\n").unwrap();
        assert_eq!(Unfinished::of(folder.path(), "s", &logs, &[], "bb"), None);
    }
}
