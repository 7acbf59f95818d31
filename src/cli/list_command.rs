//! `list`: the short instance arguments this program offers and every family's knobs,
//! registered families first, as text or one JSON object.

use super::args::ListArgs;
use super::failure::Failure;
use crate::run::instance::{self, ShortForm};
use crate::run::Family;
use serde_json::json;
use std::io::{self, Write};

/// Prints the list to stdout.
pub fn run(args: &ListArgs) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let text = serde_json::to_string_pretty(&list_json()).map_err(Failure::failed)?;
        writeln!(out, "{text}")?;
    } else {
        out.write_all(list_text().as_bytes())?;
    }
    Ok(())
}

/// Where a short form comes from, as the list shows it.
fn origin(form: &ShortForm) -> String {
    match (form.family, form.file) {
        (_, Some(file)) => format!("instances/{file}"),
        (Some(family), None) => format!("family {family}"),
        (None, None) => String::new(),
    }
}

/// The list as text: the short instance arguments, then each family's knobs.
pub fn list_text() -> String {
    let mut text = String::new();
    let forms = instance::short_forms();
    if !forms.is_empty() {
        text.push_str("Instances by short name (or give a path to a puzzle-instance/v1 file):\n");
        for form in &forms {
            text.push_str(&format!("  {:<12} {}\n", form.argument, origin(form)));
        }
    }
    for family in Family::all() {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!("Knobs of {}:\n", family.name()));
        if family.knobs().is_empty() {
            text.push_str("  (none)\n");
        }
        for spec in family.knobs() {
            text.push_str(&format!("  --{} <{}>  [default: {}]\n", spec.name, spec.values.join("|"), spec.default));
            text.push_str(&format!("      {}\n", spec.help));
        }
    }
    text
}

/// The list as one JSON object: `instances` (each with its `name` and its `file` or
/// `family`) and `families` (each with its knobs).
pub fn list_json() -> serde_json::Value {
    let instances: Vec<serde_json::Value> = instance::short_forms()
        .iter()
        .map(|form| match (form.file, form.family) {
            (Some(file), _) => json!({ "name": form.argument, "file": format!("instances/{file}") }),
            (None, family) => json!({ "name": form.argument, "family": family }),
        })
        .collect();
    let families: Vec<serde_json::Value> = Family::all()
        .iter()
        .map(|family| {
            let knobs: Vec<serde_json::Value> = family
                .knobs()
                .iter()
                .map(|spec| json!({ "name": spec.name, "values": spec.values, "default": spec.default, "help": spec.help }))
                .collect();
            json!({ "name": family.name(), "knobs": knobs })
        })
        .collect();
    json!({ "instances": instances, "families": families })
}
