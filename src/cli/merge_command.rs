//! `merge`: add up the parts of a split search into one report, or list their status
//! (exit code 2 when a file there is one `merge` refuses).

use super::args::MergeArgs;
use super::failure::Failure;
use super::output::print_report;
use crate::cluster;
use crate::format;
use crate::format::shell_word;
use std::io::Write;

/// Runs `merge` with the parsed flags.
pub fn run(args: &MergeArgs) -> Result<(), Failure> {
    if args.status {
        return print_status(args);
    }
    let (report, instance) = cluster::merge(&args.dir).map_err(Failure::from)?;
    print_report(&instance, &report, args.json)
}

fn print_status(args: &MergeArgs) -> Result<(), Failure> {
    let status = cluster::status(&args.dir).map_err(Failure::from)?;
    let dir = args.dir.display();
    let mut out = std::io::stdout().lock();
    let parts = format::counted(status.part_count as u64, "part", "parts");
    writeln!(out, "{dir}: {} of {parts} done", status.done.len())?;
    writeln!(out, "done: {}", ranges(&status.done))?;
    writeln!(out, "missing: {}", ranges(&status.missing))?;
    if !status.doubled.is_empty() {
        writeln!(out, "doubled: {} (more than one file each: keep one, remove the others)", ranges(&status.doubled))?;
    }
    for problem in &status.problems {
        writeln!(out, "problem: {problem}")?;
    }
    if !status.missing.is_empty() {
        let list: Vec<String> = status.missing.iter().map(usize::to_string).collect();
        let (program, word) = (crate::run::program_name(), shell_word(&dir.to_string()));
        writeln!(out, "rerun here:  for k in {}; do {program} run-part {word} $k; done", list.join(" "))?;
        writeln!(out, "rerun on Slurm:  scripts/cluster/submit.sh --array {} {word}", ranges(&status.missing))?;
    } else if status.problems.is_empty() {
        writeln!(out, "next: {} merge {}", crate::run::program_name(), shell_word(&dir.to_string()))?;
    }
    if !status.problems.is_empty() {
        // The status is printed, and the exit code says what merge would: these files are
        // refused (exit 2), as a script polling the status must learn.
        return Err(Failure::bad_input(format!(
            "{dir}: merge refuses {} file(s), each named on a `problem:` line above: remove a file of another plan \
             or build (left from an earlier split), and run again the part of a file refused for what it holds",
            status.problems.len()
        )));
    }
    Ok(())
}

/// `1-3,5` for [1, 2, 3, 5]; `none` for none.
fn ranges(parts: &[usize]) -> String {
    if parts.is_empty() {
        return "none".to_string();
    }
    let mut pieces = Vec::new();
    let mut start = parts[0];
    for window in 0..parts.len() {
        let end = parts[window];
        if parts.get(window + 1) != Some(&(end + 1)) {
            pieces.push(if start == end { start.to_string() } else { format!("{start}-{end}") });
            if let Some(&next) = parts.get(window + 1) {
                start = next;
            }
        }
    }
    pieces.join(",")
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn part_lists_print_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3,5,7-8");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(ranges(&[]), "none");
    }
}
