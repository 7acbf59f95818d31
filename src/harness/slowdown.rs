//! EXPLAIN HOOK: the place where a later `explain` analysis says why more threads were
//! slower. Its answer fills the `why_slower` column of `<sweep>-summary.csv` and the "why"
//! column of the threads tables in `results/README.md`.
//!
//! `summary` calls [`why_slower`] for every completed configuration with more than one
//! thread; the function decides itself whether the configuration was slower (than the
//! sequential row, or than fewer threads of the same strategy) and returns a short reason,
//! or an empty string. Everything it may use is in the summary rows: speedup, search
//! overhead (node ratio), parallel overhead at one thread, subproblems per worker, steals,
//! idle share, imbalance, CPU per wall time.

use super::summary::SummaryRow;

/// Why `row` (more than one thread) was slower than expected, given every row of its group
/// (same instance, knobs, mode and state: the sequential row and each strategy and thread
/// count). Empty: no explanation (yet).
///
/// This is a stub on purpose: the `explain` analysis replaces its body. Keep the signature.
pub fn why_slower(row: &SummaryRow, group: &[&SummaryRow]) -> String {
    let _ = (row, group);
    String::new()
}
