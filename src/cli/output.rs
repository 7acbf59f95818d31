//! Text output for people: reports, tables, numbers with thousands separators.

use super::failure::Failure;
use crate::format;
use crate::run::instance::Instance;
use crate::run::{RunReport, SearchMode};
use std::io::{self, Write};

/// Answers shown before a long list of them is cut (`--json` prints them all).
const ANSWERS_SHOWN: usize = 12;

/// The answer as JSON text, with every long list in it cut to its first few values and
/// the number left out (`--json` prints them all); a histogram of answers (several
/// solutions) as its counts.
fn answer_text(answer: &serde_json::Value) -> String {
    use serde_json::Value;
    if let Some(text) = histogram_text(answer) {
        return text;
    }
    match answer {
        Value::Array(values) if values.len() > ANSWERS_SHOWN => {
            let shown: Vec<String> = values.iter().take(ANSWERS_SHOWN).map(answer_text).collect();
            format!("[{}, ... and {} more]", shown.join(","), format::count((values.len() - ANSWERS_SHOWN) as u64))
        }
        Value::Array(values) => format!("[{}]", values.iter().map(answer_text).collect::<Vec<_>>().join(",")),
        Value::Object(fields) => {
            let shown: Vec<String> = fields
                .iter()
                .map(|(name, value)| format!("{}:{}", Value::from(name.as_str()), answer_text(value)))
                .collect();
            format!("{{{}}}", shown.join(","))
        }
        other => other.to_string(),
    }
}

/// A histogram answer (`{"solutions", "distinct", "counts"}`) as `N solutions, D distinct
/// answers: A (xC), ...`, its first few answers shown; `None` for any other answer.
fn histogram_text(answer: &serde_json::Value) -> Option<String> {
    let solutions = answer.get("solutions")?.as_u64()?;
    let distinct = answer.get("distinct")?.as_u64()?;
    let counts = answer.get("counts")?.as_array()?;
    let shown: Vec<String> = counts
        .iter()
        .take(ANSWERS_SHOWN)
        .map(|entry| {
            let count = entry.get("solutions").and_then(serde_json::Value::as_u64).unwrap_or(0);
            format!(
                "{} (x{})",
                answer_text(entry.get("answer").unwrap_or(&serde_json::Value::Null)),
                format::count(count)
            )
        })
        .collect();
    let mut text = format!(
        "{} solutions, {} distinct answer(s): {}",
        format::count(solutions),
        format::count(distinct),
        shown.join(", ")
    );
    if counts.len() > ANSWERS_SHOWN {
        text.push_str(&format!(", ... and {} more answers", format::count((counts.len() - ANSWERS_SHOWN) as u64)));
    }
    if let Some(unlisted) = answer.get("unlisted_solutions").and_then(serde_json::Value::as_u64) {
        text.push_str(&format!(" ({} solutions with larger answers not listed)", format::count(unlisted)));
    }
    Some(text)
}

/// Prints `report` as text or, with `json`, as the JSON `solve --json` prints, in one write
/// (stdout flushes at every line otherwise); a kept solution that fails the independent
/// check is a failure (exit 1), after the report is out.
pub fn print_report(instance: &Instance, report: &RunReport, json: bool) -> Result<(), Failure> {
    let mut out = Vec::with_capacity(16 * 1024);
    if json {
        serde_json::to_writer_pretty(&mut out, report).map_err(Failure::failed)?;
        out.push(b'\n');
    } else {
        write_report(&mut out, instance, report)?;
    }
    io::stdout().lock().write_all(&out)?;
    let failures: Vec<String> = report
        .components
        .iter()
        .flat_map(|component| {
            component.verify_failures.iter().map(move |failure| format!("{}: {failure}", component.name))
        })
        .collect();
    if let Some(first) = failures.first() {
        // The line names the first failure itself: the text output has no other place for
        // it, and the JSON's `verify_failures` lists them all.
        let more = match failures.len() - 1 {
            0 => String::new(),
            more => format!(" (and {more} more: verify_failures in --json)"),
        };
        return Err(Failure::failed(format!("a solution failed the independent check (a model bug): {first}{more}")));
    }
    Ok(())
}

/// Writes a run report for a person.
pub fn write_report(out: &mut impl Write, instance: &Instance, report: &RunReport) -> io::Result<()> {
    let title = if instance.title.is_empty() { &instance.id } else { &instance.title };
    writeln!(out, "{title}")?;
    writeln!(out, "instance: {} ({}), family {}", report.source, report.instance, report.puzzle)?;
    writeln!(out, "knobs:    {}", report.knob_text())?;
    writeln!(out)?;
    // Each grid of a several-grid instance has its line, also when a limit left one searched.
    let several = report.components.len() as u64 + report.unsearched_components > 1;
    for component in &report.components {
        if several {
            writeln!(
                out,
                "{}: {} solution(s), {} nodes, {}",
                component.name,
                format::count(component.solutions),
                format::count(component.nodes),
                format::duration_ns(component.elapsed_ns)
            )?;
        }
        for drawing in &component.rendered {
            writeln!(out, "{drawing}")?;
            writeln!(out)?;
        }
        // Drawn from the kept solutions: of an optimising run only the best are kept, and
        // the others reached are not "more" of them.
        if component.solutions_kept as usize > component.rendered.len() {
            let more = component.solutions_kept - component.rendered.len() as u64;
            writeln!(out, "({} more kept, not drawn)", format::count(more))?;
            writeln!(out)?;
        }
    }
    let search = report.search_words();
    writeln!(
        out,
        "solutions: {}{} ({search}{})",
        format::count(report.solutions),
        if report.solutions_overflow { " or more: the product of the grids' counts overflows 64 bits" } else { "" },
        match (report.complete, report.stop) {
            (true, _) => String::new(),
            (false, reason) => format!(
                ", stopped by the {}: incomplete{}",
                reason.unwrap_or("node-limit").replace('-', " "),
                match report.unsearched_components {
                    0 => String::new(),
                    count => format!(", {} grid(s) not started", format::count(count)),
                }
            ),
        }
    )?;
    writeln!(out, "answer:    {}", answer_text(&report.answer))?;
    if let Some(objective) = &report.objective {
        writeln!(out, "best:      {}", objective_text(objective))?;
    }
    let kept: u64 = report.components.iter().map(|component| component.solutions_kept).sum();
    // The command line keeps the default number of solutions: a component that kept that
    // many may have dropped solutions as good as the kept ones.
    let cap = crate::run::RunSettings::default().solutions_to_keep as u64;
    let capped = report.components.iter().any(|component| component.sample && component.solutions_kept >= cap);
    if report.optimises() && report.mode == SearchMode::Best && report.components.iter().any(|c| c.sample) {
        // `--best` keeps one (a split search's merge too), of equally good ones reached as well.
        // The flags that keep more are `solve`'s: a split branch and bound plans one best.
        let more = match report.split_parts() {
            Some(_) => "a split search keeps one; solve --all keeps every optimal one",
            None => "--all keeps every optimal one; --solutions FILE writes every one reached",
        };
        writeln!(
            out,
            "kept:      one best solution{} (others reached were worse, or as good: {more})",
            if report.components.len() > 1 { " per component" } else { "" }
        )?;
    } else if report.optimises() && capped {
        writeln!(
            out,
            "kept:      a sample of {} solution(s) of the best value, the most kept (others reached may be as \
             good; --solutions FILE writes every one reached)",
            format::count(kept)
        )?;
    } else if report.optimises() && report.components.iter().any(|component| component.sample) {
        // Every solution reached is counted, but only the best-valued ones are kept.
        writeln!(
            out,
            "kept:      {} solution(s) of the best value (the others reached were worse; --solutions FILE \
             writes every one reached)",
            format::count(kept)
        )?;
    } else if report.components.iter().any(|component| component.sample) {
        let of_each = if report.components.len() > 1 { " of each component" } else { "" };
        writeln!(
            out,
            "kept:      a sample of {} solution(s), the smallest{of_each} (the answer counts every solution; \
             --solutions FILE writes them all)",
            format::count(kept)
        )?;
    }
    writeln!(
        out,
        "nodes:     {}   time: {}   ({})",
        format::count(report.nodes),
        format::duration_ns(report.elapsed_ns),
        format::node_rate(report.nodes, report.elapsed_ns)
    )?;
    if let Some(parts) = report.split_parts() {
        // A merged split search: no pool, steals or workers of its own to report.
        writeln!(
            out,
            "split:     {}, {} (the nodes above them counted in the plan); the time is the parts' searches \
             summed",
            format::counted(parts as u64, "part", "parts"),
            format::counted(report.parallel.subproblems, "subproblem", "subproblems")
        )?;
    } else if report.strategy != "sequential" {
        write_parallel(out, report)?;
    }
    if !report.rules.is_empty() {
        writeln!(out)?;
        writeln!(out, "{:<24} {:>14} {:>14}", "rule", "checks", "prunes")?;
        for rule in &report.rules {
            writeln!(out, "{:<24} {:>14} {:>14}", rule.name, format::count(rule.checks), format::count(rule.prunes))?;
        }
    }
    Ok(())
}

/// An optimisation's outcome in words: the best value, whether it is proven, and when.
fn objective_text(objective: &crate::run::ObjectiveReport) -> String {
    let sense = if objective.sense == "max" { "maximum" } else { "minimum" };
    let seed_unbeaten = objective.seed.filter(|_| !objective.proven);
    let mut text = match (objective.best, objective.target, objective.reached) {
        _ if seed_unbeaten.is_some() => format!(
            "none better than the seed {} (the whole tree searched: the {sense} is the seed's value, if it is a \
             solution's",
            seed_unbeaten.unwrap_or_default()
        ),
        (Some(best), Some(target), Some(true)) => format!("{best} (reaches the target {target}; not proven optimal"),
        (None, Some(target), _) if objective.proven || objective.reached == Some(false) => {
            format!("none reaches the target {target} (proven: the whole tree was cut or searched")
        }
        (Some(best), _, _) if objective.proven => format!("{best} (the {sense}, proven optimal"),
        (Some(best), _, _) => format!("{best} (the best found, not proven optimal"),
        (None, _, _) if objective.proven => format!("no solution (proven: the {sense} does not exist"),
        (None, _, _) => "no solution found (not proven: the search was cut short".to_string(),
    };
    if let Some(at) = objective.time_to_best_ns {
        text += &format!("; found after {}", format::duration_ns(at));
    }
    if let Some(proof) = objective.time_to_proof_ns {
        text += &format!(", proven after {}", format::duration_ns(proof));
    }
    text += &format!("; {} improvement(s) of the incumbent)", format::count(objective.improvements));
    text
}

/// The parallel accounting of a run: one line for the run, one row per worker.
fn write_parallel(out: &mut impl Write, report: &RunReport) -> io::Result<()> {
    let parallel = &report.parallel;
    writeln!(out)?;
    writeln!(
        out,
        "parallel:  {} on {} thread(s) ({}), counters {}, state {}; waking the pool took {} (before the clock)",
        report.strategy,
        report.threads,
        report.affinity,
        report.counters,
        report.state,
        format::duration_ns(report.parallel.pool_wake_ns)
    )?;
    writeln!(
        out,
        "           {} subproblems, {} steals, imbalance {:.2}, idle {:.1}%, cpu user {} system {}",
        format::count(parallel.subproblems),
        format::count(parallel.steals),
        parallel.imbalance,
        parallel.idle_share * 100.0,
        format::duration_ns(parallel.user_cpu_ns),
        format::duration_ns(parallel.system_cpu_ns)
    )?;
    writeln!(
        out,
        "           task time median {} p90 {}, task size median {} nodes{}",
        format::duration_ns(parallel.task_ns_median),
        format::duration_ns(parallel.task_ns_p90),
        format::count(parallel.task_nodes_median),
        if parallel.probe_nodes > 0 {
            format!(", {} nodes spent choosing the frontier depth", format::count(parallel.probe_nodes))
        } else {
            String::new()
        }
    )?;
    if report.mode == crate::run::SearchMode::First {
        writeln!(
            out,
            "           first solution after {}, all stopped {} later, {} nodes after the first",
            format::duration_ns(parallel.first_solution_ns),
            format::duration_ns(parallel.stop_latency_ns),
            format::count(parallel.nodes_after_first)
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:>6} {:>14} {:>8} {:>8} {:>9} {:>8} {:>12} {:>12} {:>12} {:>12}",
        "worker", "nodes", "tasks", "stolen", "split off", "given", "busy", "idle", "task median", "task nodes"
    )?;
    for worker in &report.workers {
        writeln!(
            out,
            "{:>6} {:>14} {:>8} {:>8} {:>9} {:>8} {:>12} {:>12} {:>12} {:>12}",
            worker.worker,
            format::count(worker.nodes),
            format::count(worker.tasks),
            format::count(worker.stolen),
            format::count(worker.split_off),
            format::count(worker.given_away),
            format::duration_ns(worker.busy_ns),
            format::duration_ns(worker.idle_ns),
            format::duration_ns(worker.task_ns_median),
            format::count(worker.task_nodes_median)
        )?;
    }
    Ok(())
}
