//! Where each key of a sweep spec stands, so that every spec error names its line.
//!
//! The lines are read from the text itself, after the TOML parser has accepted it: table
//! headers (`[baselines.hooks]`, `[[block]]`, any unknown one), `key = value` lines and
//! dotted keys (`strategies.x = [...]`), skipping the inside of strings, comments and
//! values that span lines. Every key path gets the line where it first appears
//! (`block[1].strategies`, `baselines.hooks.order`, and each path above it), so a message
//! about a key names the key's line, a message about a missing key the line of the table
//! that lacks it, and a message about the whole file line 1.

use std::collections::BTreeMap;

/// The line of every key path of a spec (`name`, `block[0]`, `block[0].threads`,
/// `baselines.hooks.order`, ...).
#[derive(Debug, Default)]
pub(super) struct KeyLines {
    paths: BTreeMap<String, usize>,
}

impl KeyLines {
    /// The lines of `text`'s keys (text the TOML parser accepted).
    pub(super) fn of(text: &str) -> KeyLines {
        KeyLines { paths: scan(text) }
    }

    /// The keys of block `index` (the first segment below `block[index]`) and their lines;
    /// the block's header line under the empty key.
    pub(super) fn block(&self, index: usize) -> BTreeMap<String, usize> {
        let head = format!("block[{index}]");
        let mut keys = BTreeMap::new();
        for (path, &line) in self.paths.range(head.clone()..) {
            let Some(rest) = path.strip_prefix(&head) else { break };
            if rest.is_empty() {
                keys.insert(String::new(), line);
            } else if let Some(key) = rest.strip_prefix('.') {
                let key = key.split(['.', '[']).next().unwrap_or_default();
                keys.entry(key.to_string()).or_insert(line);
            }
        }
        keys
    }

    /// The line of the key a message starts with (`block[2].threads: ...`,
    /// `baselines.hooks.order: ...`, `repeats: ...`; every spec message names its key
    /// first): that key's line, else the nearest table above it that is written in the file,
    /// else line 1 (a key missing from the top level, an empty file).
    pub(super) fn line_of_message(&self, message: &str) -> usize {
        let mut path = message.split(": ").next().unwrap_or_default().trim();
        loop {
            if let Some(&line) = self.paths.get(path) {
                return line;
            }
            match path.rfind(['.', '[']) {
                Some(end) => path = &path[..end],
                None => return 1,
            }
        }
    }
}

/// The 1-based line of byte `offset` of `text`.
pub(super) fn line_at(text: &str, offset: usize) -> usize {
    line_at_bytes(text.as_bytes(), offset)
}

/// The 1-based line of byte `offset` of `bytes`.
pub(super) fn line_at_bytes(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset.min(bytes.len())].iter().filter(|&&byte| byte == b'\n').count() + 1
}

/// The table path in force at 1-based line `line` of `text` (`block[1]`,
/// `baselines.hooks`; empty at the top level), as the spec's messages name it: for a line
/// the TOML parser stopped at, where no key path is known.
pub(super) fn table_at(text: &str, line: usize) -> String {
    scan_until(text, line).1.join(".")
}

/// Every key path of `text` with the line where it first appears.
fn scan(text: &str) -> BTreeMap<String, usize> {
    scan_until(text, usize::MAX).0
}

/// [`scan`] of the lines before `stop_line`, and the table in force there.
fn scan_until(text: &str, stop_line: usize) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut paths = BTreeMap::new();
    // Arrays of tables (`[[block]]`) by their raw path, with their element counts.
    let mut arrays: BTreeMap<String, usize> = BTreeMap::new();
    let mut table: Vec<String> = Vec::new();
    let mut value = ValueState::default();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if number >= stop_line {
            break;
        }
        if value.continues() {
            value.scan(line);
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("[[") {
            let keys = dotted_keys(rest).0;
            let raw = keys.join(".");
            let mut resolved = resolve(&keys[..keys.len().saturating_sub(1)], &arrays);
            let count = arrays.entry(raw).or_insert(0);
            if let Some(last) = keys.last() {
                // The array itself (`block`) at its first element, then this element.
                resolved.push(last.clone());
                record(&mut paths, &resolved, number);
                resolved.pop();
                resolved.push(format!("{last}[{count}]"));
            }
            *count += 1;
            table = resolved;
            record(&mut paths, &table, number);
        } else if let Some(rest) = trimmed.strip_prefix('[') {
            table = resolve(&dotted_keys(rest).0, &arrays);
            record(&mut paths, &table, number);
        } else {
            let (keys, rest) = dotted_keys(trimmed);
            let full: Vec<String> = table.iter().cloned().chain(keys).collect();
            record(&mut paths, &full, number);
            value.scan(rest.trim_start().strip_prefix('=').unwrap_or(rest));
        }
    }
    (paths, table)
}

/// Records every prefix of `segments` (joined by `.`) at `line`, where not yet recorded.
fn record(paths: &mut BTreeMap<String, usize>, segments: &[String], line: usize) {
    let mut path = String::new();
    for segment in segments {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(segment);
        paths.entry(path.clone()).or_insert(line);
    }
}

/// The raw keys of a header as a path: a key that names an array of tables gets the index
/// of its last element (`[block.knobs]` after two `[[block]]` -> `block[1].knobs`).
fn resolve(keys: &[String], arrays: &BTreeMap<String, usize>) -> Vec<String> {
    let mut raw = String::new();
    keys.iter()
        .map(|key| {
            if !raw.is_empty() {
                raw.push('.');
            }
            raw.push_str(key);
            match arrays.get(&raw) {
                Some(&count) if count > 0 => format!("{key}[{}]", count - 1),
                _ => key.clone(),
            }
        })
        .collect()
}

/// The dotted keys at the start of `text` (bare or quoted), and the text after them.
fn dotted_keys(text: &str) -> (Vec<String>, &str) {
    let mut keys = Vec::new();
    let mut rest = text.trim_start();
    loop {
        let (key, after) = match rest.chars().next() {
            Some(quote @ ('"' | '\'')) => {
                let body = &rest[1..];
                let end = closing_quote(body, quote).unwrap_or(body.len());
                (body[..end].to_string(), body.get(end + 1..).unwrap_or_default())
            }
            _ => {
                let end =
                    rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
                (rest[..end].to_string(), &rest[end..])
            }
        };
        if key.is_empty() && !rest.starts_with(['"', '\'']) {
            return (keys, rest);
        }
        keys.push(key);
        rest = after.trim_start();
        match rest.strip_prefix('.') {
            Some(after_dot) => rest = after_dot.trim_start(),
            None => return (keys, rest),
        }
    }
}

/// The byte index of the quote closing a string whose body starts `body` (a basic string's
/// escapes skipped).
fn closing_quote(body: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (index, character) in body.char_indices() {
        if escaped {
            escaped = false;
        } else if character == '\\' && quote == '"' {
            escaped = true;
        } else if character == quote {
            return Some(index);
        }
    }
    None
}

/// Whether a value goes on past the end of its line: open brackets or braces, or a
/// multi-line string.
#[derive(Debug, Default)]
struct ValueState {
    depth: usize,
    /// Inside a multi-line string closed by this delimiter.
    string: Option<&'static str>,
}

impl ValueState {
    fn continues(&self) -> bool {
        self.depth > 0 || self.string.is_some()
    }

    /// Follows one line of a value.
    fn scan(&mut self, line: &str) {
        let mut rest = line;
        while !rest.is_empty() {
            if let Some(delimiter) = self.string {
                match find_unescaped(rest, delimiter) {
                    Some(end) => {
                        self.string = None;
                        rest = &rest[end + delimiter.len()..];
                    }
                    None => return,
                }
                continue;
            }
            let Some(character) = rest.chars().next() else { return };
            let mut skip = character.len_utf8();
            match character {
                '#' => return,
                '"' | '\'' => {
                    let delimiter = if character == '"' { "\"\"\"" } else { "'''" };
                    if rest.starts_with(delimiter) {
                        self.string = Some(delimiter);
                        skip = delimiter.len();
                    } else {
                        skip = closing_quote(&rest[1..], character).map_or(rest.len(), |end| end + 2);
                    }
                }
                '[' | '{' => self.depth += 1,
                ']' | '}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            rest = &rest[skip..];
        }
    }
}

/// Where `delimiter` first stands in `text` outside a `\` escape (for `"""`; `'''` has none).
fn find_unescaped(text: &str, delimiter: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(delimiter) {
        let at = from + found;
        let backslashes = text[..at].bytes().rev().take_while(|&byte| byte == b'\\').count();
        if delimiter == "'''" || backslashes % 2 == 0 {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_path_gets_its_line() {
        let text = "name = \"t\" # [not.a.table]\ndescription = \"\"\"\n[not]\n\"\"\"\n[basulines.hooks]\norder = \"x\"\n\
                    [[block]]\ninstances = [\n  [\"a\", \"b\"],\n]\n[[block]]\nstrategies.x = [\"auto\"]\n[block.knobs]\norder = [\"each\"]\n";
        let lines = KeyLines::of(text);
        let line = |message: &str| lines.line_of_message(message);
        assert_eq!(line("name: x"), 1);
        assert_eq!(line("not: x"), 1);
        assert_eq!(line("basulines: unknown key"), 5);
        assert_eq!(line("basulines.hooks.order: x"), 6);
        assert_eq!(line("block[0].instances: x"), 8);
        assert_eq!(line("block[0].repeats: missing"), 7);
        assert_eq!(line("block[1].strategies: expected a list"), 12);
        assert_eq!(line("block[1].knobs.order: x"), 14);
        assert_eq!(line("block: missing"), 7);
        assert_eq!(lines.block(1).get("knobs"), Some(&13));
        assert_eq!(lines.block(1).get(""), Some(&11));
    }
}
