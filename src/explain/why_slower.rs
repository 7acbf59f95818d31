//! The one line the harness's "why slower" column shows for a configuration: the outcome
//! and the largest causes of its decomposition, from summary medians alone.

use super::decompose::{decompose, Outcome};
use super::measurements::Measurements;
use crate::format;

/// The short text of the harness's "why slower" column: the outcome and the causes at or
/// above 10% of the gross loss, with their numbers.
pub fn why_slower_text(m: &Measurements) -> String {
    let verdict = decompose(m);
    let mut parts: Vec<String> = verdict.bugs.iter().map(|bug| format!("BUG: {bug}")).collect();
    if verdict.outcome == Outcome::CloseToIdeal {
        parts.push(format!(
            "not slow: {} of the ideal speedup",
            format::percent(verdict.speedup / m.threads.max(1) as f64)
        ));
        return parts.join("; ");
    }
    parts.extend(
        verdict
            .causes
            .iter()
            .filter(|cause| cause.share >= 0.10)
            .map(|cause| format!("{} {} ({})", cause.kind, format::percent(cause.share), cause.number)),
    );
    if parts.is_empty() {
        parts.push("no cause above 10% of the lost time".to_string());
    }
    let not_measured: Vec<&str> =
        verdict.causes.iter().filter(|cause| !cause.measured).map(|cause| cause.kind.name()).collect();
    if not_measured.is_empty() {
        parts.join(", ")
    } else {
        format!("{}; not measured here: {}", parts.join(", "), not_measured.join(", "))
    }
}
