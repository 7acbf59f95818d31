//! Control characters refused in an instance file's text: its id, title, names and every
//! other string or key are printed to terminals and written into reports, where an escape
//! sequence or a line break would act instead of reading as text. An id taken from the
//! file's name has them written as escapes instead.

use serde_json::Value;
use std::path::Path;

/// The key path (`data.rings[2]`, as `locate` reads it) of the first string or key in
/// `value` that holds a control character, and that character; `None` when there is none.
/// The path is built only on the way back from a find, so a large file costs one walk.
pub fn first_control_character(value: &Value) -> Option<(String, char)> {
    match value {
        Value::String(text) => control_in(text).map(|character| (String::new(), character)),
        Value::Array(items) => items.iter().enumerate().find_map(|(index, item)| {
            first_control_character(item).map(|(path, character)| (format!("[{index}]{path}"), character))
        }),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            let shown = key.escape_debug();
            match control_in(key) {
                Some(character) => Some((format!(".{shown}"), character)),
                None => first_control_character(item).map(|(path, character)| (format!(".{shown}{path}"), character)),
            }
        }),
        _ => None,
    }
}

/// The id of an instance that names none: its file's name without the extension, with any
/// control character in it written as an escape (`\u{1b}`), since the id is printed as the
/// text of the file does not say and a file name is not refused for what it holds.
pub fn id_from_file_name(path: &Path) -> String {
    let stem = path.file_stem().map(|stem| stem.to_string_lossy()).unwrap_or_default();
    stem.chars()
        .map(|character| match character.is_control() {
            true => character.escape_default().to_string(),
            false => character.to_string(),
        })
        .collect()
}

fn control_in(text: &str) -> Option<char> {
    text.chars().find(|character| character.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_control_character_is_found_with_its_key_path() {
        assert_eq!(first_control_character(&json!({ "id": "rings", "data": { "n": [1, "a"] } })), None);
        let escape = json!({ "id": "rings", "data": { "rings": [["a", "b"], ["c", "d\u{1b}[2J"]] } });
        assert_eq!(first_control_character(&escape), Some((".data.rings[1][1]".to_string(), '\u{1b}')));
        let in_a_key = json!({ "data": { "spot\nname": 1 } });
        assert_eq!(first_control_character(&in_a_key), Some((".data.spot\\nname".to_string(), '\n')));
    }

    #[test]
    fn an_id_from_a_file_name_writes_control_characters_as_escapes() {
        assert_eq!(id_from_file_name(Path::new("graphs/brock200_1.clq")), "brock200_1");
        assert_eq!(id_from_file_name(Path::new("a\u{1b}[2Jb\nc.clq")), "a\\u{1b}[2Jb\\nc");
        assert_eq!(id_from_file_name(Path::new("é café.json")), "é café");
    }
}
