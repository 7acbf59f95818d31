//! Reading the `data` block of an Olympic Rings instance: spots, pool, target and rings.

use super::OlympicRings;
use crate::puzzles::data::{array_of, integer_in, Fields};
use crate::puzzles::DataError;
use serde_json::Value;

/// The most fixed spots an instance may have (the seed has 7).
const MAX_FIXED_SPOTS: usize = 1000;

/// Reads the `data` block of an Olympic Rings instance.
pub(super) fn parse(data: &Value) -> Result<OlympicRings, DataError> {
    let fields = Fields::of(data, "")?;
    let mut spot_names: Vec<String> = Vec::new();
    let mut fixed = Vec::new();
    let fixed_object = Fields::of(fields.get("fixed")?, "fixed")?;
    for (name, value) in fields.get("fixed")?.as_object().into_iter().flatten() {
        let value = integer_in(value, &fixed_object.key_path(name), -1000..=1000)?;
        spot_names.push(name.clone());
        fixed.push(Some(value as i32));
    }
    // A ring's sum is an `i32` of at most this many values of at most 1,000 each.
    if spot_names.len() > MAX_FIXED_SPOTS {
        return Err(DataError::new("fixed", format!("at most {MAX_FIXED_SPOTS} fixed spots are supported")));
    }
    let fixed_count = spot_names.len();
    let mut unknowns = Vec::new();
    for (index, name) in fields.array("unknowns")?.iter().enumerate() {
        let name = name
            .as_str()
            .ok_or_else(|| DataError::new(format!("unknowns[{index}]"), "expected a spot name (a string)"))?;
        if let Some(earlier) = spot_names.iter().position(|known| known == name) {
            let twice = match earlier < fixed_count {
                true => format!("spot `{name}` is in `fixed` too; a spot is either fixed or unknown"),
                false => format!("spot `{name}` is listed twice"),
            };
            return Err(DataError::new(format!("unknowns[{index}]"), twice));
        }
        spot_names.push(name.to_string());
        fixed.push(None);
        unknowns.push(spot_names.len() - 1);
    }
    if unknowns.len() > 16 {
        return Err(DataError::new("unknowns", "at most 16 open spots are supported"));
    }
    let mut pool: Vec<i32> = fields.integers("pool", None, -1000..=1000)?.into_iter().map(|v| v as i32).collect();
    if pool.len() != unknowns.len() {
        return Err(DataError::new(
            "pool",
            format!("has {} values for {} unknowns; each value is used exactly once", pool.len(), unknowns.len()),
        ));
    }
    pool.sort_unstable();
    let target = fields.integer("ring_target", -100_000..=100_000)? as i32;
    let rings_value = fields.get("rings")?;
    let rings_object = rings_value
        .as_object()
        .ok_or_else(|| DataError::new("rings", "expected an object of ring name -> list of spots"))?;
    let mut ring_names = Vec::new();
    let mut rings = Vec::new();
    for (ring_name, spots) in rings_object {
        let path = format!("rings.{ring_name}");
        let spots = array_of(spots, &path)?;
        let mut members = Vec::new();
        for (index, spot) in spots.iter().enumerate() {
            let name = spot.as_str().unwrap_or("");
            let position = spot_names.iter().position(|known| known == name).ok_or_else(|| {
                DataError::new(format!("{path}[{index}]"), format!("`{spot}` is neither a fixed spot nor an unknown"))
            })?;
            if members.contains(&position) {
                return Err(DataError::new(format!("{path}[{index}]"), format!("spot `{name}` is listed twice")));
            }
            members.push(position);
        }
        ring_names.push(ring_name.clone());
        rings.push(members);
    }
    // The one answer this family gives; another name is refused, as every family refuses
    // an answer type it does not give (it was accepted and ignored).
    if let Some(answer_type) = fields.get_optional("answer_type") {
        if answer_type.as_str() != Some("assignment") {
            return Err(DataError::new(
                "answer_type",
                format!("expected \"assignment\" (the only answer type of olympic_rings), found {answer_type}"),
            ));
        }
    }
    Ok(OlympicRings { spot_names, fixed, unknowns, pool, target, ring_names, rings })
}
