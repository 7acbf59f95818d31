//! The independent checker: an assignment against the rules as the puzzle states them.

use super::OlympicRings;

/// Checks that `solution` (a value per open spot, in `unknowns` order) uses the pool once
/// each and brings every ring to the target; the error names the first rule that fails.
pub(super) fn check(rings: &OlympicRings, solution: &[i32]) -> Result<(), String> {
    let mut used = solution.to_vec();
    used.sort_unstable();
    if used != rings.pool {
        return Err(format!("values {used:?} are not the pool {:?} used once each", rings.pool));
    }
    for (name, ring) in rings.ring_names.iter().zip(&rings.rings) {
        let sum: i32 =
            ring.iter().map(|&spot| rings.fixed[spot].unwrap_or_else(|| solution[rings.unknown_index(spot)])).sum();
        if sum != rings.target {
            return Err(format!("ring {name} sums to {sum}, not {}", rings.target));
        }
    }
    Ok(())
}
