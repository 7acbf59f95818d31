//! Control characters refused in an instance file's text: its id, title, names and every
//! other string or key are printed to terminals and written into reports, where an escape
//! sequence or a line break would act instead of reading as text. An id taken from the
//! file's name has them written as escapes instead.

use serde_json::Value;
use std::path::Path;

/// Where a control character was found: the key path as shown (`data.spot\nname`, keys
/// escaped), the same path with its keys as they are (what `locate` reads to find the
/// line), and the character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlFound {
    /// The key path with its keys escaped, for the message.
    pub shown_path: String,
    /// The key path with its keys as they are, for finding the line.
    pub raw_path: String,
    /// The first control character found.
    pub character: char,
}

/// The first string or key in `value` that holds a control character; `None` when there
/// is none. The paths are built only on the way back from a find, so a large file costs
/// one walk.
pub fn first_control_character(value: &Value) -> Option<ControlFound> {
    let prefixed = |found: ControlFound, shown: &str, raw: &str| ControlFound {
        shown_path: format!("{shown}{}", found.shown_path),
        raw_path: format!("{raw}{}", found.raw_path),
        character: found.character,
    };
    match value {
        Value::String(text) => control_in(text).map(|character| ControlFound {
            shown_path: String::new(),
            raw_path: String::new(),
            character,
        }),
        Value::Array(items) => items.iter().enumerate().find_map(|(index, item)| {
            let step = format!("[{index}]");
            first_control_character(item).map(|found| prefixed(found, &step, &step))
        }),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            let (shown, raw) = (format!(".{}", key.escape_debug()), format!(".{key}"));
            match control_in(key) {
                Some(character) => Some(ControlFound { shown_path: shown, raw_path: raw, character }),
                None => first_control_character(item).map(|found| prefixed(found, &shown, &raw)),
            }
        }),
        _ => None,
    }
}

/// The id of an instance that names none: its file's name without the extension, with any
/// control character in it written as an escape (`\u{1b}`), since the id is printed as the
/// text of the file does not say and a file name is not refused for what it holds.
pub fn id_from_file_name(path: &Path) -> String {
    escape_controls(&path.file_stem().map(|stem| stem.to_string_lossy()).unwrap_or_default())
}

/// `text` with every control character written as an escape (`\u{1b}`, `\n`): for text
/// from a file that is shown to a person, such as a family's message about a line of a
/// file in its own format, which may quote the line.
pub fn escape_controls(text: &str) -> String {
    text.chars()
        .map(|character| match acts_on_the_terminal(character) {
            true => character.escape_default().to_string(),
            false => character.to_string(),
        })
        .collect()
}

/// Whether `text` holds a character refused (or escaped) here.
pub fn holds_control(text: &str) -> bool {
    control_in(text).is_some()
}

fn control_in(text: &str) -> Option<char> {
    text.chars().find(|&character| acts_on_the_terminal(character))
}

/// A control character, or one of Unicode's direction embeddings, overrides and isolates,
/// which turn the text after them around on screen (a name could then read as another).
/// The plain direction marks (U+200E, U+200F, U+061C) change no order and stay.
fn acts_on_the_terminal(character: char) -> bool {
    character.is_control() || matches!(character, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_control_character_is_found_with_its_key_path() {
        assert_eq!(first_control_character(&json!({ "id": "rings", "data": { "n": [1, "a"] } })), None);
        let escape = json!({ "id": "rings", "data": { "rings": [["a", "b"], ["c", "d\u{1b}[2J"]] } });
        let found = first_control_character(&escape).expect("found");
        assert_eq!((found.shown_path.as_str(), found.character), (".data.rings[1][1]", '\u{1b}'));
        let in_a_key = json!({ "data": { "spot\nname": 1 } });
        let found = first_control_character(&in_a_key).expect("found");
        assert_eq!((found.shown_path.as_str(), found.raw_path.as_str()), (".data.spot\\nname", ".data.spot\nname"));
        assert_eq!(found.character, '\n');
    }

    #[test]
    fn an_id_from_a_file_name_writes_control_characters_as_escapes() {
        assert_eq!(id_from_file_name(Path::new("graphs/brock200_1.clq")), "brock200_1");
        assert_eq!(id_from_file_name(Path::new("a\u{1b}[2Jb\nc.clq")), "a\\u{1b}[2Jb\\nc");
        assert_eq!(id_from_file_name(Path::new("é café.json")), "é café");
        assert_eq!(id_from_file_name(Path::new("gpj.\u{202e}exe.json")), "gpj.\\u{202e}exe");
        assert!(holds_control("a\u{2066}b") && !holds_control("plain name") && !holds_control("\u{200f}abc"));
    }
}
