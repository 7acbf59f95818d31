//! Reading a family's `data` block: typed access to keys with errors that name the key.

use super::DataError;
use serde_json::Value;

/// The object at `path` (for messages) with typed getters.
#[derive(Clone, Copy)]
pub struct Fields<'a> {
    path: &'a str,
    object: &'a serde_json::Map<String, Value>,
}

impl<'a> Fields<'a> {
    /// Views `value`, found at `path`, as an object.
    pub fn of(value: &'a Value, path: &'a str) -> Result<Fields<'a>, DataError> {
        match value.as_object() {
            Some(object) => Ok(Fields { path, object }),
            None => Err(DataError::new(path, format!("expected an object, found {}", kind(value)))),
        }
    }

    /// The full path of `key` inside `data`.
    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The value of `key`, or an error if it is missing.
    pub fn get(&self, key: &str) -> Result<&'a Value, DataError> {
        self.object.get(key).ok_or_else(|| DataError::new(self.key_path(key), "missing key"))
    }

    /// The value of `key` if present and not null.
    pub fn get_optional(&self, key: &str) -> Option<&'a Value> {
        self.object.get(key).filter(|value| !value.is_null())
    }

    /// `key` as an integer in `range`.
    pub fn integer(&self, key: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, DataError> {
        integer_in(self.get(key)?, &self.key_path(key), range)
    }

    /// `key` as any integer, for a range check of the caller's own that tells the family's
    /// range: `None` for an integer past 64 bits signed (a number out of range all the
    /// same, not another type).
    pub fn any_integer(&self, key: &str) -> Result<Option<i64>, DataError> {
        let value = self.get(key)?;
        if value.is_u64() && !value.is_i64() {
            return Ok(None);
        }
        integer_in(value, &self.key_path(key), i64::MIN..=i64::MAX).map(Some)
    }

    /// `key` as a string.
    pub fn string(&self, key: &str) -> Result<&'a str, DataError> {
        let value = self.get(key)?;
        value
            .as_str()
            .ok_or_else(|| DataError::new(self.key_path(key), format!("expected a string, found {}", kind(value))))
    }

    /// `key` as an array.
    pub fn array(&self, key: &str) -> Result<&'a Vec<Value>, DataError> {
        array_of(self.get(key)?, &self.key_path(key))
    }

    /// `key` as an array of integers in `range`, of exactly `length` entries if given.
    pub fn integers(
        &self,
        key: &str,
        length: Option<usize>,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Vec<i64>, DataError> {
        integers_in(self.get(key)?, &self.key_path(key), length, range)
    }

    /// `key` as a `rows` x `columns` matrix of integers in `range`.
    pub fn matrix(
        &self,
        key: &str,
        rows: usize,
        columns: usize,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Vec<Vec<i64>>, DataError> {
        let path = self.key_path(key);
        let outer = array_of(self.get(key)?, &path)?;
        if outer.len() != rows {
            return Err(DataError::new(path, format!("expected {rows} rows, found {}", outer.len())));
        }
        outer
            .iter()
            .enumerate()
            .map(|(row, value)| integers_in(value, &format!("{path}[{row}]"), Some(columns), range.clone()))
            .collect()
    }
}

/// `value` (at `path`) as an integer in `range`.
pub fn integer_in(value: &Value, path: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, DataError> {
    match value.as_i64() {
        Some(number) if range.contains(&number) => Ok(number),
        Some(number) => Err(DataError::new(
            path,
            format!("{number} is out of range; expected {} to {}", range.start(), range.end()),
        )),
        // Past 64 bits signed: an integer all the same, so say the range, not the type.
        None if value.is_u64() || value.as_f64().is_some_and(|number| number.abs() >= i64::MAX as f64) => {
            Err(DataError::new(path, format!("{value} is out of range; expected {} to {}", range.start(), range.end())))
        }
        None => Err(DataError::new(path, format!("expected an integer, found {}", kind(value)))),
    }
}

/// `value` (at `path`) as an array.
pub fn array_of<'a>(value: &'a Value, path: &str) -> Result<&'a Vec<Value>, DataError> {
    value.as_array().ok_or_else(|| DataError::new(path, format!("expected an array, found {}", kind(value))))
}

/// `value` (at `path`) as an array of integers in `range`, of exactly `length` if given.
pub fn integers_in(
    value: &Value,
    path: &str,
    length: Option<usize>,
    range: std::ops::RangeInclusive<i64>,
) -> Result<Vec<i64>, DataError> {
    let items = array_of(value, path)?;
    if let Some(length) = length {
        if items.len() != length {
            return Err(DataError::new(path, format!("expected {length} entries, found {}", items.len())));
        }
    }
    // An entry's path is needed only for a message: formatting it for every entry was
    // most of the instructions spent loading the seed 24/7 instance.
    items
        .iter()
        .enumerate()
        .map(|(index, item)| match item.as_i64() {
            Some(number) if range.contains(&number) => Ok(number),
            _ => integer_in(item, &format!("{path}[{index}]"), range.clone()),
        })
        .collect()
}

/// A short name of a JSON value's type, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
