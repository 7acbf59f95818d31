//! Loading `puzzle-instance/v1` files: JSON syntax, the common keys, and the family's own
//! `data` block, with errors that name the file, the line and what was wrong.

use crate::registry::Family;
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// The schema tag every instance file carries.
pub const SCHEMA: &str = "puzzle-instance/v1";

/// Files larger than this are refused before parsing (instances are a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The instances shipped in `instances/`, by short name, embedded in the binary so the
/// short names work from any directory.
pub const BUILTIN: &[(&str, &str, &str)] = &[
    ("rings", "olympic_rings.json", include_str!("../instances/olympic_rings.json")),
    ("prime-grid", "prime_grid.json", include_str!("../instances/prime_grid.json")),
    ("hooks7", "hooks_7.json", include_str!("../instances/hooks_7.json")),
    ("247", "twenty_four_seven_2x2_2.json", include_str!("../instances/twenty_four_seven_2x2_2.json")),
];

/// A loaded, validated instance.
#[derive(Debug, Clone)]
pub struct Instance {
    /// Where it came from: the short name or the path as given.
    pub source: String,
    /// The file's `id`.
    pub id: String,
    /// The file's `title` (empty when absent).
    pub title: String,
    /// The puzzle family.
    pub family: Family,
    /// The family's `data` block (already validated by the family's parser).
    pub data: Value,
    /// The `expected` block, when the file has one.
    pub expected: Option<Value>,
}

/// Why an instance could not be loaded. Every variant names the file.
#[derive(Debug)]
pub enum InstanceError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        bytes: u64,
    },
    /// The file is not valid JSON.
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A common key is missing or wrong, or the `data` block is invalid for the family.
    Content {
        /// The file.
        path: PathBuf,
        /// The line where the offending key appears, when it can be found.
        line: Option<usize>,
        /// The key (`family`, `data.grids[1].north`, ...).
        key: String,
        /// What was wrong and what is allowed.
        message: String,
    },
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceError::Read { path, source } => write!(f, "{}: cannot read the file: {source}", path.display()),
            InstanceError::TooLarge { path, bytes } => write!(
                f,
                "{}: the file is {bytes} bytes; instance files are limited to {MAX_FILE_BYTES} bytes",
                path.display()
            ),
            InstanceError::Syntax { path, line, column, message } => {
                write!(f, "{}:{line}:{column}: not valid JSON: {message}", path.display())
            }
            InstanceError::Content { path, line, key, message } => {
                write!(f, "{}", path.display())?;
                if let Some(line) = line {
                    write!(f, ":{line}")?;
                }
                write!(f, ": {key}: {message}")
            }
        }
    }
}

impl std::error::Error for InstanceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InstanceError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The short names of the built-in instances, for help and error messages.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(name, _, _)| *name).collect()
}

/// Loads `name_or_path`: a built-in short name (`rings`, `prime-grid`, `hooks7`, `247`),
/// a path to an instance file, or, when no such file exists, a short argument that a
/// family turns into an instance (see `Puzzle::instance_from_argument`).
pub fn load(name_or_path: &str) -> Result<Instance, InstanceError> {
    if let Some((_, file, text)) = BUILTIN.iter().find(|(name, _, _)| *name == name_or_path) {
        let path = Path::new("instances").join(file);
        return parse(text, &path, name_or_path);
    }
    let path = PathBuf::from(name_or_path);
    if !path.exists() {
        if let Some(instance) = from_argument(name_or_path) {
            return instance;
        }
    }
    let bytes = std::fs::metadata(&path).map_err(|source| InstanceError::Read { path: path.clone(), source })?.len();
    if bytes > MAX_FILE_BYTES {
        return Err(InstanceError::TooLarge { path, bytes });
    }
    let text = std::fs::read_to_string(&path).map_err(|source| InstanceError::Read { path: path.clone(), source })?;
    parse(&text, &path, name_or_path)
}

/// Parses and validates instance text; `path` is used in messages.
pub fn parse(text: &str, path: &Path, source: &str) -> Result<Instance, InstanceError> {
    let root: Value = serde_json::from_str(text).map_err(|error| InstanceError::Syntax {
        path: path.to_path_buf(),
        line: error.line(),
        column: error.column(),
        message: strip_position(&error.to_string()),
    })?;
    let content_error = |key: &str, message: String| InstanceError::Content {
        path: path.to_path_buf(),
        line: line_of_key(text, key),
        key: key.to_string(),
        message,
    };
    let object = root.as_object().ok_or_else(|| content_error("", "the file must hold one JSON object".into()))?;
    match object.get("schema").and_then(Value::as_str) {
        Some(SCHEMA) => {}
        Some(other) => return Err(content_error("schema", format!("`{other}` is not supported; expected `{SCHEMA}`"))),
        None => return Err(content_error("schema", format!("missing; expected \"schema\": \"{SCHEMA}\""))),
    }
    let family_name = object.get("family").and_then(Value::as_str).ok_or_else(|| {
        content_error("family", format!("missing or not a string; expected one of {}", family_list()))
    })?;
    let family = Family::from_name(family_name).ok_or_else(|| {
        content_error("family", format!("unknown family `{family_name}`; expected one of {}", family_list()))
    })?;
    let id = match object.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(_) => return Err(content_error("id", "expected a string".into())),
        None => path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default(),
    };
    let title = object.get("title").and_then(Value::as_str).unwrap_or_default().to_string();
    let data = object.get("data").ok_or_else(|| content_error("data", "missing; the puzzle's own block".into()))?;
    family.validate(data).map_err(|error| {
        let key = if error.key.is_empty() { "data".to_string() } else { format!("data.{}", error.key) };
        content_error(&key, error.message)
    })?;
    Ok(Instance {
        source: source.to_string(),
        id,
        title,
        family,
        data: data.clone(),
        expected: object.get("expected").cloned(),
    })
}

/// The instance that the first family accepting `argument` builds from it, or why its
/// `data` block is not valid (`nqueens` given `40` for a board of at most 32).
fn from_argument(argument: &str) -> Option<Result<Instance, InstanceError>> {
    Family::all().into_iter().find_map(|family| {
        let data = family.instance_from_argument(argument)?;
        if let Err(error) = family.validate(&data) {
            let key = if error.key.is_empty() { "data".to_string() } else { format!("data.{}", error.key) };
            let message = format!("{} (read by family `{}`)", error.message, family.name());
            return Some(Err(InstanceError::Content { path: PathBuf::from(argument), line: None, key, message }));
        }
        Some(Ok(Instance {
            source: argument.to_string(),
            id: format!("{}-{argument}", family.name()),
            title: String::new(),
            family,
            data,
            expected: None,
        }))
    })
}

fn family_list() -> String {
    Family::all().iter().map(|family| family.name()).collect::<Vec<_>>().join(", ")
}

/// serde_json appends " at line L column C"; the position is printed separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_string(),
        None => message.to_string(),
    }
}

/// The 1-based line where the last named key of `key_path` first appears as `"key":`.
fn line_of_key(text: &str, key_path: &str) -> Option<usize> {
    let last = key_path.rsplit('.').next()?.split('[').next()?;
    if last.is_empty() {
        return None;
    }
    let needle = format!("\"{last}\"");
    let offset = text.find(&needle)?;
    Some(text[..offset].matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> String {
        parse(text, Path::new("bad.json"), "bad.json").unwrap_err().to_string()
    }

    #[test]
    fn every_builtin_instance_loads() {
        for name in builtin_names() {
            let instance = load(name).unwrap_or_else(|error| panic!("{error}"));
            assert!(instance.expected.is_some(), "{name}");
        }
    }

    #[test]
    fn syntax_errors_name_file_line_and_column() {
        assert_eq!(error_of("{\n  \"schema\": ,\n}"), "bad.json:2:13: not valid JSON: expected value");
    }

    #[test]
    fn unknown_family_lists_the_known_ones() {
        let message = error_of("{\"schema\": \"puzzle-instance/v1\",\n \"family\": \"sudoku\", \"data\": {}}");
        assert!(
            message.starts_with("bad.json:2: family: unknown family `sudoku`; expected one of olympic_rings"),
            "{message}"
        );
    }

    #[test]
    fn bad_data_names_the_key_and_its_line() {
        let text =
            include_str!("../instances/olympic_rings.json").replace("\"ring_target\": 11", "\"ring_target\": \"x\"");
        let message = error_of(&text);
        assert!(message.contains("data.ring_target: expected an integer, found a string"), "{message}");
        assert!(message.starts_with("bad.json:"), "{message}");
    }
}
