//! Loading `puzzle-instance/v1` files: JSON syntax, the common keys, and the family's own
//! `data` block, with errors that name the file, the line and what was wrong.

mod argument;
mod control_text;
pub use control_text::{escape_controls, holds_control};
mod locate;
mod unique_keys;

use super::error::{PanickedRun, RunError};
use super::family::{self, Family};
use super::program::program_name;
use serde_json::Value;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The schema tag every instance file carries.
pub const SCHEMA: &str = "puzzle-instance/v1";

/// Files larger than this are refused before parsing (instances are a few kilobytes). At
/// most one byte more is ever read, so pipes and devices (`/dev/stdin`, `/dev/zero`) are
/// bounded too.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The instances shipped in `instances/`, by short name, embedded in the binary so the
/// short names work from any directory.
pub const BUILTIN_INSTANCES: &[(&str, &str, &str)] = &[
    ("rings", "olympic_rings.json", include_str!("../../../instances/olympic_rings.json")),
    ("prime-grid", "prime_grid.json", include_str!("../../../instances/prime_grid.json")),
    ("hooks7", "hooks_7.json", include_str!("../../../instances/hooks_7.json")),
    ("247", "twenty_four_seven_2x2_2.json", include_str!("../../../instances/twenty_four_seven_2x2_2.json")),
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
#[non_exhaustive]
pub enum InstanceError {
    /// No file has this name, and it is neither a built-in instance nor an argument a
    /// family takes.
    Missing {
        /// The argument as given.
        path: PathBuf,
        /// What else the argument was tried as, and what was wrong with it.
        tried: String,
    },
    /// The path names a directory, not an instance file.
    NotAFile {
        /// The directory.
        path: PathBuf,
    },
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
        /// Its size in bytes, when it has one (pipes and devices do not say).
        bytes: Option<u64>,
    },
    /// The file is not UTF-8 text.
    Encoding {
        /// The file.
        path: PathBuf,
        /// 1-based line of the first byte that is not UTF-8.
        line: usize,
        /// 1-based column (in bytes) of that byte.
        column: usize,
        /// The byte.
        byte: u8,
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
    /// The family's own code panicked reading the file's `data` block (`Puzzle::parse`)
    /// or the argument (`Puzzle::instance_from_argument`): a bug in the family, not in the
    /// file.
    FamilyPanicked {
        /// The file, or the argument as given.
        path: PathBuf,
        /// The family, its function and the panic.
        panic: Box<PanickedRun>,
    },
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceError::Missing { path, tried } => write!(f, "{}: no such file; {tried}", path.display()),
            InstanceError::NotAFile { path } => write!(
                f,
                "{}: a directory, not an instance file; give the path of a file (`.json`, or a format a family reads)",
                path.display()
            ),
            InstanceError::Read { path, source } => write!(f, "{}: cannot read the file: {source}", path.display()),
            InstanceError::TooLarge { path, bytes } => {
                write!(f, "{}: the file is ", path.display())?;
                match bytes {
                    Some(bytes) => write!(f, "{bytes} bytes")?,
                    None => write!(f, "longer than {MAX_FILE_BYTES} bytes")?,
                }
                write!(f, "; instance files are limited to {MAX_FILE_BYTES} bytes (16 MiB)")
            }
            InstanceError::Encoding { path, line, column, byte } => write!(
                f,
                "{}:{line}:{column}: not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8",
                path.display()
            ),
            InstanceError::Syntax { path, line, column, message } => {
                write!(f, "{}:{line}:{column}: not valid JSON: {message}", path.display())?;
                if (*line, *column) == (1, 1) {
                    // Not JSON from its first byte: most likely a family's own format under a
                    // name without its extension (`/dev/stdin`, `graph.txt`).
                    let extensions: Vec<String> = super::family::Family::all()
                        .into_iter()
                        .flat_map(|family| {
                            family.file_extensions().iter().map(move |ext| format!(".{ext} ({})", family.name()))
                        })
                        .collect();
                    if !extensions.is_empty() {
                        write!(
                            f,
                            "; a file is read as JSON unless its name ends in a family's own extension: {}",
                            extensions.join(", ")
                        )?;
                    }
                }
                Ok(())
            }
            InstanceError::Content { path, line, key, message } => {
                write!(f, "{}", path.display())?;
                if let Some(line) = line {
                    write!(f, ":{line}")?;
                }
                if key.is_empty() {
                    write!(f, ": {message}")
                } else {
                    write!(f, ": {key}: {message}")
                }
            }
            InstanceError::FamilyPanicked { path, panic } => write!(f, "{}: {panic}", path.display()),
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
    BUILTIN_INSTANCES.iter().map(|(name, _, _)| *name).collect()
}

/// A short instance argument this program offers, with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortForm {
    /// The argument as typed (`6x10`, `rings`).
    pub argument: &'static str,
    /// The family that reads it, for a registered family's short form; `None` for a
    /// built-in instance.
    pub family: Option<&'static str>,
    /// The built-in instance's file under `instances/`; `None` for a family's short form.
    pub file: Option<&'static str>,
}

/// The short instance arguments this program offers, for help and `list`: each registered
/// family's declared short forms (`Puzzle::SHORT_FORMS`) first, then the built-in
/// instances' names unless the built-in families are withheld.
pub fn short_forms() -> Vec<ShortForm> {
    let mut forms: Vec<ShortForm> = Family::registered()
        .into_iter()
        .flat_map(|family| {
            family.short_forms().iter().map(move |&argument| ShortForm {
                argument,
                family: Some(family.name()),
                file: None,
            })
        })
        .collect();
    if family::builtin_families_offered() {
        forms.extend(BUILTIN_INSTANCES.iter().map(|&(argument, file, _)| ShortForm {
            argument,
            family: None,
            file: Some(file),
        }));
    }
    forms
}

/// Loads `name_or_path`: a built-in short name (`rings`, `prime-grid`, `hooks7`, `247`),
/// a path to an instance file, or, when no such file exists, a short argument that a
/// family turns into an instance (see `Puzzle::instance_from_argument`). Where the
/// built-in families are withheld, their short names are not looked at first, and one
/// that is nothing else is refused as not offered.
pub fn load(name_or_path: &str) -> Result<Instance, InstanceError> {
    let builtin = BUILTIN_INSTANCES.iter().find(|(name, _, _)| *name == name_or_path);
    if let Some((_, file, text)) = builtin.filter(|_| family::builtin_families_offered()) {
        let path = Path::new("instances").join(file);
        return parse(text, &path, name_or_path);
    }
    let path = PathBuf::from(name_or_path);
    if !path.exists() {
        if let Some(instance) = argument::from_argument(name_or_path) {
            return instance;
        }
        if builtin.is_some() {
            return Err(InstanceError::Content {
                path,
                line: None,
                key: String::new(),
                message: format!(
                    "a built-in instance, which {} does not offer; its families: {}",
                    program_name(),
                    family_list()
                ),
            });
        }
    }
    match std::fs::metadata(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Err(argument::missing(name_or_path)),
        Ok(metadata) if metadata.is_dir() => return Err(InstanceError::NotAFile { path }),
        // Any other failure is reported by the read below, with the system's reason.
        _ => {}
    }
    let bytes = read_bounded(&path)?;
    let own_format = path.extension().and_then(|extension| Family::for_extension(&extension.to_string_lossy()));
    match own_format {
        Some(family) => parse_own_format(family, &bytes, &path, name_or_path),
        None => parse_bytes(&bytes, &path, name_or_path),
    }
}

/// [`load`], and where that fails for a relative path missing from the working folder, the
/// same path in the crate's source folder (the shipped workloads of the presets and of
/// `scaling-check`'s defaults, from any folder of a machine that built the tool). The
/// instance keeps `source` as its source.
pub(crate) fn load_here_or_in_the_crate(source: &str) -> Result<Instance, InstanceError> {
    load(source).or_else(|error| {
        let Some(fallback) = in_the_crate(source) else { return Err(error) };
        let mut instance = load(&fallback.to_string_lossy())?;
        instance.source = source.to_string();
        Ok(instance)
    })
}

/// Where a relative `source` missing from the working folder is found in the crate's
/// source folder, if it is there.
pub(crate) fn in_the_crate(source: &str) -> Option<PathBuf> {
    let path = Path::new(source);
    let fallback = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    (path.is_relative() && !path.exists() && fallback.exists()).then_some(fallback)
}

/// Reads an instance file written in `family`'s own format (`Puzzle::FILE_EXTENSIONS`):
/// UTF-8 text, handed to the family's `data_from_file`, whose data block is then checked
/// as a JSON instance's is. Errors name the file and, where the family says, the line.
fn parse_own_format(family: Family, bytes: &[u8], path: &Path, source: &str) -> Result<Instance, InstanceError> {
    let text = utf8_text(bytes, path)?;
    let content_error = |line: Option<usize>, key: &str, message: String| InstanceError::Content {
        path: path.to_path_buf(),
        line,
        key: key.to_string(),
        message: format!("{message} (read as a `{}` file by family `{}`)", extension_of(path), family.name()),
    };
    // A byte order mark, as some editors write, is no part of the text (a JSON instance
    // is read past one too).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let data = match family.data_from_file(text) {
        Err(RunError::ModelPanicked(panic)) => {
            return Err(InstanceError::FamilyPanicked { path: path.to_path_buf(), panic })
        }
        Err(other) => return Err(content_error(None, "", other.to_string())),
        Ok(Err(error)) => {
            // The family may quote the line, which is the file's text: shown as escapes.
            let message = control_text::escape_controls(&error.message);
            return Err(content_error(Some(error.line).filter(|&line| line > 0), "", message));
        }
        Ok(Ok(data)) => data,
    };
    family.check_data(&data).map_err(|error| match error {
        RunError::ModelPanicked(panic) => InstanceError::FamilyPanicked { path: path.to_path_buf(), panic },
        RunError::Data(error) => content_error(None, &data_key(&error.key), error.message),
        other => content_error(None, "data", other.to_string()),
    })?;
    let id = control_text::id_from_file_name(path);
    Ok(Instance { source: source.to_string(), id, title: String::new(), family, data, expected: None })
}

/// The extension of `path`, as written.
fn extension_of(path: &Path) -> String {
    path.extension().map(|extension| extension.to_string_lossy().into_owned()).unwrap_or_default()
}

/// `bytes` as UTF-8 text; an error names the line and column of the first byte that is not.
fn utf8_text<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, InstanceError> {
    std::str::from_utf8(bytes).map_err(|error| {
        let offset = error.valid_up_to();
        let line_start = bytes[..offset].iter().rposition(|&byte| byte == b'\n').map_or(0, |newline| newline + 1);
        InstanceError::Encoding {
            path: path.to_path_buf(),
            line: locate::line_at(bytes, offset),
            column: offset - line_start + 1,
            byte: bytes[offset],
        }
    })
}

/// Parses and validates the bytes of an instance file: UTF-8 text (an error names the line
/// of the first byte that is not), then [`parse`]. Never panics, whatever the bytes.
pub fn parse_bytes(bytes: &[u8], path: &Path, source: &str) -> Result<Instance, InstanceError> {
    parse(utf8_text(bytes, path)?, path, source)
}

/// Reads at most [`MAX_FILE_BYTES`] + 1 bytes of `path`: enough to tell an oversized file,
/// whether it is a regular file, a pipe or an endless device.
fn read_bounded(path: &Path) -> Result<Vec<u8>, InstanceError> {
    let read_error = |source| InstanceError::Read { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let size = file.metadata().ok().filter(|metadata| metadata.is_file()).map(|metadata| metadata.len());
    if let Some(bytes) = size.filter(|&bytes| bytes > MAX_FILE_BYTES) {
        return Err(InstanceError::TooLarge { path: path.to_path_buf(), bytes: Some(bytes) });
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(read_error)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(InstanceError::TooLarge { path: path.to_path_buf(), bytes: size });
    }
    Ok(bytes)
}

/// Parses and validates instance text; `path` is used in messages. A leading UTF-8 byte
/// order mark is skipped.
pub fn parse(text: &str, path: &Path, source: &str) -> Result<Instance, InstanceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut root: Value = serde_json::from_str(text).map_err(|error| InstanceError::Syntax {
        path: path.to_path_buf(),
        line: error.line(),
        column: error.column(),
        message: strip_position(&error.to_string()),
    })?;
    unique_keys::check_unique_keys(text).map_err(|error| InstanceError::Syntax {
        path: path.to_path_buf(),
        line: error.line(),
        column: error.column(),
        message: strip_position(&error.to_string()),
    })?;
    let content_error = |key: &str, message: String| InstanceError::Content {
        path: path.to_path_buf(),
        line: locate::line_of_path(text, key),
        key: key.to_string(),
        message,
    };
    // (A file that is not an object is refused below, as such.)
    if let Some(found) = root.is_object().then(|| control_text::first_control_character(&root)).flatten() {
        let code = u32::from(found.character);
        return Err(InstanceError::Content {
            path: path.to_path_buf(),
            // Located by the keys as they are; shown with them escaped.
            line: locate::line_of_path(text, found.raw_path.strip_prefix('.').unwrap_or(&found.raw_path)),
            key: found.shown_path.strip_prefix('.').unwrap_or(&found.shown_path).to_string(),
            message: format!(
                "holds the control character U+{code:04X}; names and ids are printed to terminals and reports, \
                 where it would act instead of reading as text"
            ),
        });
    }
    let kind = crate::puzzles::data::kind(&root);
    let object = root.as_object_mut().ok_or_else(|| {
        content_error(
            "",
            format!(
                "the file holds {kind}; an instance file holds one JSON object with the keys schema, family and data"
            ),
        )
    })?;
    match object.get("schema").and_then(Value::as_str) {
        Some(SCHEMA) => {}
        Some(other) => return Err(content_error("schema", format!("`{other}` is not supported; expected `{SCHEMA}`"))),
        None => return Err(content_error("schema", format!("missing; expected \"schema\": \"{SCHEMA}\""))),
    }
    let family_name = object.get("family").and_then(Value::as_str).ok_or_else(|| {
        content_error("family", format!("missing or not a string; expected one of {}", family_list()))
    })?;
    let family = Family::from_name(family_name).ok_or_else(|| {
        if Family::is_withheld(family_name) {
            let offered = format!("{} does not offer it; its families: {}", program_name(), family_list());
            return content_error("family", format!("`{family_name}` is a built-in family, but {offered}"));
        }
        content_error("family", format!("unknown family `{family_name}`; expected one of {}", family_list()))
    })?;
    let id = match object.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(_) => return Err(content_error("id", "expected a string".into())),
        None => control_text::id_from_file_name(path),
    };
    let title = object.get("title").and_then(Value::as_str).unwrap_or_default().to_string();
    let data = object.get("data").ok_or_else(|| content_error("data", "missing; the puzzle's own block".into()))?;
    family.check_data(data).map_err(|error| match error {
        RunError::ModelPanicked(panic) => InstanceError::FamilyPanicked { path: path.to_path_buf(), panic },
        RunError::Data(error) => content_error(&data_key(&error.key), error.message),
        other => content_error("data", other.to_string()),
    })?;
    // Moved out, not cloned: the rest of the file is dropped.
    let data = object.remove("data").expect("checked above");
    Ok(Instance { source: source.to_string(), id, title, family, data, expected: object.remove("expected") })
}

/// The instance file's key of the family's data key `key` (`data` for the block itself).
fn data_key(key: &str) -> String {
    if key.is_empty() {
        "data".to_string()
    } else {
        format!("data.{key}")
    }
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
        // Not JSON from the first byte: the families' own formats are named.
        let message = error_of("p edge 3 2\ne 1 2\n");
        assert!(
            message.starts_with("bad.json:1:1: not valid JSON: expected value; a file is read as JSON unless its name")
                && message.contains(".clq (max_clique)"),
            "{message}"
        );
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
        let text = include_str!("../../../instances/olympic_rings.json")
            .replace("\"ring_target\": 11", "\"ring_target\": \"x\"");
        let message = error_of(&text);
        assert!(message.contains("data.ring_target: expected an integer, found a string"), "{message}");
        assert!(message.starts_with("bad.json:"), "{message}");
    }

    /// `grids[3].givens[5][5] = 99` in the indented seed file: the error names the line of
    /// that entry, not the first line that mentions `"givens"` (grid 0's).
    #[test]
    fn a_bad_value_in_a_later_grid_names_its_own_line() {
        let seed = include_str!("../../../instances/twenty_four_seven_2x2_2.json");
        let mut lines: Vec<String> = seed.lines().map(str::to_string).collect();
        let givens_lines: Vec<usize> =
            lines.iter().enumerate().filter(|(_, line)| line.contains("\"givens\"")).map(|(index, _)| index).collect();
        let row = givens_lines[3] + 1 + 5;
        let mut entries: Vec<String> = lines[row].split(',').map(str::to_string).collect();
        entries[5] = " 99".to_string();
        lines[row] = entries.join(",");
        let message = error_of(&lines.join("\n"));
        assert!(
            message.starts_with(&format!("bad.json:{}: data.grids[3].givens[5][5]: 99 is out of range", row + 1)),
            "{message}"
        );
        assert_ne!(row, givens_lines[0] + 1 + 5);
    }

    #[test]
    fn a_missing_key_names_the_line_of_the_object_that_lacks_it() {
        let seed = include_str!("../../../instances/twenty_four_seven_2x2_2.json");
        let names: Vec<usize> =
            seed.lines().enumerate().filter(|(_, line)| line.contains("\"name\"")).map(|(index, _)| index).collect();
        let text: String = seed
            .lines()
            .enumerate()
            .filter(|(index, _)| *index != names[2])
            .map(|(_, line)| format!("{line}\n"))
            .collect();
        let message = error_of(&text);
        // The grid's `{` is on the line before its (removed) name.
        assert!(message.starts_with(&format!("bad.json:{}: data.grids[2].name: missing key", names[2])), "{message}");
    }

    #[test]
    fn a_byte_order_mark_is_accepted() {
        let text = format!("\u{feff}{}", include_str!("../../../instances/olympic_rings.json"));
        assert!(parse(&text, Path::new("bom.json"), "bom.json").is_ok());
    }

    #[test]
    fn a_top_level_value_that_is_not_an_object_says_what_it_is() {
        assert_eq!(
            error_of("\n[1, 2]"),
            "bad.json:2: the file holds an array; an instance file holds one JSON object with the keys schema, \
             family and data"
        );
    }

    #[test]
    fn invalid_utf8_names_the_line_and_column() {
        let directory = tempfile::tempdir().expect("temporary folder");
        let path = directory.path().join("latin1.json");
        std::fs::write(&path, b"{\n  \"title\": \"caf\xe9\"\n}").expect("write");
        let message = load(path.to_str().expect("UTF-8 path")).unwrap_err().to_string();
        assert!(message.ends_with("latin1.json:2:16: not UTF-8 text (byte 0xe9); save the file as UTF-8"), "{message}");
    }

    #[test]
    fn reading_stops_one_byte_past_the_limit_on_endless_devices() {
        let message = load("/dev/zero").unwrap_err().to_string();
        assert_eq!(
            message,
            format!(
                "/dev/zero: the file is longer than {MAX_FILE_BYTES} bytes; instance files are limited to \
                     {MAX_FILE_BYTES} bytes (16 MiB)"
            )
        );
    }
}
