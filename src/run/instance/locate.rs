//! Where a value sits in JSON text, by its key path (`data.grids[3].givens[5][5]`), so that
//! an error about a value names the line of that value and not the first line that happens
//! to mention its key. The text has already been parsed by serde_json: this scanner only
//! skips values, it does not validate them, and it never fails on odd input (it gives up).

/// One step of a key path: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// Splits `data.grids[3].givens[5]` into its steps; `None` when it is not such a path.
fn steps(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for part in path.split('.').filter(|part| !part.is_empty()) {
        let (key, mut rest) = part.split_once('[').map_or((part, ""), |(key, rest)| (key, rest));
        if !key.is_empty() {
            steps.push(Step::Key(key.to_string()));
        }
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']')?;
            steps.push(Step::Index(index.parse().ok()?));
            rest = after.strip_prefix('[').unwrap_or(after);
        }
    }
    Some(steps)
}

/// The 1-based line of the value at `path` in `text`; when the path ends early (a missing
/// key, an index past the end), the line of the deepest value on it that exists.
pub fn line_of_path(text: &str, path: &str) -> Option<usize> {
    let steps = steps(path)?;
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    for step in &steps {
        match find_child(bytes, at, step) {
            Some(child) => at = child,
            None => break,
        }
    }
    (at < bytes.len()).then(|| line_at(bytes, at))
}

/// The 1-based line of byte `offset`.
pub fn line_at(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset.min(bytes.len())].iter().filter(|&&byte| byte == b'\n').count() + 1
}

/// The start of the child `step` of the container starting at `at`. Of repeated keys the
/// last is the one serde_json keeps, so the last is returned.
fn find_child(bytes: &[u8], at: usize, step: &Step) -> Option<usize> {
    let (open, close) = match (bytes.get(at)?, step) {
        (b'{', Step::Key(_)) => (b'{', b'}'),
        (b'[', Step::Index(_)) => (b'[', b']'),
        _ => return None,
    };
    debug_assert_eq!(bytes[at], open);
    let mut position = skip_space(bytes, at + 1);
    let mut found = None;
    let mut index = 0;
    while *bytes.get(position)? != close {
        let value_start = match step {
            Step::Key(wanted) => {
                let key_end = skip_string(bytes, position)?;
                let key: Option<String> = std::str::from_utf8(&bytes[position..key_end])
                    .ok()
                    .and_then(|quoted| serde_json::from_str(quoted).ok());
                let colon = skip_space(bytes, key_end);
                if bytes.get(colon) != Some(&b':') {
                    return found;
                }
                let value_start = skip_space(bytes, colon + 1);
                if key.as_deref() == Some(wanted.as_str()) {
                    found = Some(value_start);
                }
                value_start
            }
            Step::Index(wanted) => {
                if index == *wanted {
                    return Some(position);
                }
                position
            }
        };
        index += 1;
        position = skip_space(bytes, skip_value(bytes, value_start)?);
        match bytes.get(position) {
            Some(b',') => position = skip_space(bytes, position + 1),
            _ => break,
        }
    }
    found
}

fn skip_space(bytes: &[u8], mut position: usize) -> usize {
    while bytes.get(position).is_some_and(|byte| byte.is_ascii_whitespace()) {
        position += 1;
    }
    position
}

/// The end (one past the closing quote) of the string starting at `position`.
fn skip_string(bytes: &[u8], position: usize) -> Option<usize> {
    if bytes.get(position) != Some(&b'"') {
        return None;
    }
    let mut index = position + 1;
    loop {
        match bytes.get(index)? {
            b'\\' => index += 2,
            b'"' => return Some(index + 1),
            _ => index += 1,
        }
    }
}

/// The end of the value starting at `position`.
fn skip_value(bytes: &[u8], position: usize) -> Option<usize> {
    match bytes.get(position)? {
        b'"' => skip_string(bytes, position),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut index = position;
            loop {
                match bytes.get(index)? {
                    b'"' => {
                        index = skip_string(bytes, index)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(index + 1);
                        }
                    }
                    _ => {}
                }
                index += 1;
            }
        }
        _ => {
            let mut index = position;
            while bytes
                .get(index)
                .is_some_and(|byte| !matches!(byte, b',' | b']' | b'}') && !byte.is_ascii_whitespace())
            {
                index += 1;
            }
            Some(index)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n \"a\": {\"b\": [1,\n  [2, 3],\n  {\"c\": \"x]\\\"\"}\n ]},\n \"b\": 4,\n \"b\": 5\n}";

    #[test]
    fn paths_split_into_keys_and_indices() {
        assert_eq!(
            steps("data.grids[3].givens[5][2]"),
            Some(vec![
                Step::Key("data".into()),
                Step::Key("grids".into()),
                Step::Index(3),
                Step::Key("givens".into()),
                Step::Index(5),
                Step::Index(2)
            ])
        );
        assert_eq!(steps("a[x]"), None);
    }

    #[test]
    fn values_are_found_on_their_own_line() {
        assert_eq!(line_of_path(TEXT, "a.b[0]"), Some(2));
        assert_eq!(line_of_path(TEXT, "a.b[1][1]"), Some(3));
        assert_eq!(line_of_path(TEXT, "a.b[2].c"), Some(4));
        // The last of repeated keys is the one the parser keeps.
        assert_eq!(line_of_path(TEXT, "b"), Some(7));
    }

    #[test]
    fn a_path_that_ends_early_names_the_deepest_value_found() {
        assert_eq!(line_of_path(TEXT, "a.b[2].missing"), Some(4));
        assert_eq!(line_of_path(TEXT, "a.b[9]"), Some(2));
        assert_eq!(line_of_path(TEXT, ""), Some(1));
    }
}
