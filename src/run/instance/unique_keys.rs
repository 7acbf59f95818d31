//! A check that no JSON object of an instance file repeats a key. serde_json keeps the last
//! value of a repeated key without a word, so `"ring_target": 11, "ring_target": 12` would
//! search for 12 while the reader of the file sees 11 first; the check refuses the file
//! instead, at the line of the second key.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// Walks `text` (already valid JSON) and fails at the first repeated key of an object, the
/// error carrying its line and column.
pub fn check_unique_keys(text: &str) -> Result<(), serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // Deep files are allowed: the parse that came first already bounded the nesting.
    UniqueKeys::deserialize(&mut deserializer).map(|_| ())
}

/// Any JSON value, walked only to find repeated keys.
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<UniqueKeys, D::Error> {
        deserializer.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_unit<E: de::Error>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<UniqueKeys, A::Error> {
        while items.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = entries.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "the key `{key}` appears twice in one object; JSON readers disagree on which value counts, \
                     so keep one"
                )));
            }
            entries.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_refused_at_its_line() {
        let text = "{\n  \"data\": {\n    \"ring_target\": 11,\n    \"ring_target\": 12\n  }\n}\n";
        let error = check_unique_keys(text).unwrap_err();
        assert_eq!(error.line(), 4);
        assert!(error.to_string().contains("the key `ring_target` appears twice"), "{error}");
    }

    #[test]
    fn the_same_key_in_two_objects_is_fine() {
        assert!(check_unique_keys(r#"{"a": {"x": 1}, "b": [{"x": 2}, {"x": 3}], "c": null}"#).is_ok());
    }
}
