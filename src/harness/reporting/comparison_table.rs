//! A comparison (`report --baseline`, or each sweep against its previous run) as Markdown:
//! a one-line count of what changed, then the configurations flagged by [`super::compare`],
//! printed by `report` and appended to `results/README.md`.

use super::compare::{Change, MachineMatch, MIN_CHANGE, MIN_CHANGE_SHORT, MIN_RUNS_TO_JUDGE, SHORT_CALL_NS};
use crate::format::{count, markdown_code_cell as code_cell, markdown_text as escape, TimeUnit};
use crate::statistics::ChangeVerdict;
use std::fmt::Write as _;

/// What changed, in one line: `changed: 3 configurations faster, 1 slower, 36 within noise`,
/// then the configurations whose times were not compared (other or unknown machines, too
/// few runs), the node counts that differ and the best values that changed, if any (a
/// configuration whose best value changed is counted there, not with the node counts).
pub fn changed_line(changes: &[Change]) -> String {
    let verdicts =
        |verdict: ChangeVerdict| changes.iter().filter(|change| change.time_verdict() == Some(verdict)).count();
    let faster = verdicts(ChangeVerdict::Faster);
    let noun = if faster == 1 { "configuration" } else { "configurations" };
    let mut line = format!(
        "changed: {faster} {noun} faster, {} slower, {} within noise",
        verdicts(ChangeVerdict::Slower),
        verdicts(ChangeVerdict::NoChange)
    );
    let machines = |machine: MachineMatch| changes.iter().filter(|change| change.machine == machine).count();
    let other = machines(MachineMatch::Other);
    if other > 0 {
        let _ = write!(line, "; {other} on another machine (times not compared)");
    }
    let few = changes.iter().filter(|change| change.machine == MachineMatch::Same && change.few_runs).count();
    if few > 0 {
        let _ = write!(line, "; {few} with fewer than {MIN_RUNS_TO_JUDGE} runs a side (times not judged)");
    }
    let unknown = machines(MachineMatch::Unknown);
    if unknown > 0 {
        let _ =
            write!(line, "; {unknown} machine unknown (a log older than its `machine_id` column; times not compared)");
    }
    let nodes = changes.iter().filter(|change| change.nodes_changed() && !change.best_changed()).count();
    if nodes > 0 {
        let _ = write!(line, "; {nodes} with other node counts");
    }
    let best = changes.iter().filter(|change| change.best_changed()).count();
    if best > 0 {
        let _ = write!(line, "; {best} with another best value");
    }
    line
}

/// A comparison as Markdown; `against` names what the runs were compared with (Markdown).
pub fn comparison_markdown(against: &str, changes: &[Change]) -> String {
    let mut text = String::new();
    let flagged: Vec<&Change> = changes.iter().filter(|change| change.flagged()).collect();
    let regressions = flagged.iter().filter(|change| change.regression()).count();
    // Shown too: times that moved between machines, as such rather than faster or slower.
    let listed: Vec<&Change> =
        changes.iter().filter(|change| change.flagged() || change.moved_across_machines()).collect();
    let _ = writeln!(text, "## Changes against {against}\n");
    let _ = writeln!(text, "{}\n", changed_line(changes));
    let _ = writeln!(
        text,
        "{} configurations in both, {} flagged, {regressions} regression(s). A time change is flagged when the \
         95% bootstrap interval of now / before excludes 1 and the ratio is beyond ±{:.0}% (±{:.0}% for calls under {}); a node count when it \
         differs (not compared for parallel first-solution searches, whose counts vary from run to run). \
         Times are compared only between runs of one machine (`machine_id`) with at least {MIN_RUNS_TO_JUDGE} runs a side: \"other machine\", \"machine unknown\" and \"too few runs\" are neither faster nor slower. \
         Regressions are the slower ones, those with other node counts and those with another best value; `--fail-on-change` fails on them only.\n",
        changes.len(),
        flagged.len(),
        MIN_CHANGE * 100.0,
        MIN_CHANGE_SHORT * 100.0,
        crate::format::duration(SHORT_CALL_NS)
    );
    if listed.is_empty() {
        return text;
    }
    let unit = TimeUnit::for_column(listed.iter().map(|change| change.baseline_ns));
    let _ = writeln!(
        text,
        "| sweep | instance | configuration | strategy | threads | before ({0}) | now ({0}) | now / before [95% CI] | nodes before | nodes now | verdict |",
        unit.symbol()
    );
    text.push_str("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for change in listed {
        let run = &change.current;
        let verdict = match change.verdict_text() {
            "slower" => "**slower**",
            text => text,
        };
        let nodes_note = match (change.nodes_changed(), change.best_changed()) {
            (_, true) => "; **best value changed**",
            (true, false) => "; **nodes changed**",
            (false, false) => "",
        };
        let busy_note = if change.busy_runs_kept { "; ⚠ busy-machine runs" } else { "" };
        let ratio = change.time.ratio;
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {:.3} [{:.3}, {:.3}] | {} | {} | {verdict}{nodes_note}{busy_note} |",
            escape(&run.sweep),
            code_cell(&run.source),
            escape(&run.variant),
            run.strategy,
            run.threads,
            unit.number(change.baseline_ns),
            unit.number(change.current_ns),
            ratio.estimate,
            ratio.low,
            ratio.high,
            count(change.baseline_nodes),
            count(change.current_nodes)
        );
    }
    text.push('\n');
    text
}
