//! Instance arguments that name no file: a family's short form
//! (`Puzzle::instance_from_argument`), and, for an argument that is nothing, what was wrong
//! with it (which file is missing, which prefix no family takes, what is offered instead).

use super::{data_key, short_forms, Instance, InstanceError};
use crate::run::error::RunError;
use crate::run::family::Family;
use std::path::{Path, PathBuf};

/// The instance that the first family accepting `argument` builds from it, or why its
/// `data` block is not valid (`nqueens` given `40` for a board of at most 32), or the
/// panic of a family's code reading it.
pub(super) fn from_argument(argument: &str) -> Option<Result<Instance, InstanceError>> {
    let failed = |family: Family, error: RunError| {
        let path = PathBuf::from(argument);
        let (key, message) = match error {
            RunError::ModelPanicked(panic) => return InstanceError::FamilyPanicked { path, panic },
            RunError::Data(error) => (data_key(&error.key), error.message),
            other => ("data".to_string(), other.to_string()),
        };
        let message = format!("{message} (read by family `{}`)", family.name());
        InstanceError::Content { path, line: None, key, message }
    };
    Family::all().into_iter().find_map(|family| {
        let data = match family.instance_from_argument(argument) {
            Ok(data) => data?,
            Err(error) => return Some(Err(failed(family, error))),
        };
        if let Err(error) = family.check_data(&data) {
            return Some(Err(failed(family, error)));
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

/// The error for `argument`, which names no file and which no family took: says what else
/// it was tried as and what was wrong with it.
pub(super) fn missing(argument: &str) -> InstanceError {
    InstanceError::Missing { path: PathBuf::from(argument), tried: tried(argument) }
}

fn tried(argument: &str) -> String {
    if let Some((prefix, rest)) = format_prefix(argument) {
        return match Family::for_extension(prefix) {
            Some(family) if Path::new(rest).exists() => format!(
                "no family takes a `{prefix}:` argument; family `{}` reads `.{prefix}` files by their path: give `{rest}`",
                family.name()
            ),
            Some(family) => format!(
                "no family takes a `{prefix}:` argument, and `{rest}` does not exist either (family `{}` reads \
                 `.{prefix}` files by their path)",
                family.name()
            ),
            None => format!("no family takes a `{prefix}:` argument; {}", offered()),
        };
    }
    let extension = Path::new(argument).extension().map(|extension| extension.to_string_lossy().into_owned());
    match extension.as_deref().map(|extension| (extension, Family::for_extension(extension))) {
        Some((extension, Some(family))) => {
            return format!("there is no `.{extension}` file (family `{}`) at this path", family.name())
        }
        Some(("json", None)) => return "there is no instance file at this path".to_string(),
        _ => {}
    }
    format!("and it is not a short form: {}", offered())
}

/// `clq:graph.txt` as (`clq`, `graph.txt`): a word before the first colon and something
/// after it.
fn format_prefix(argument: &str) -> Option<(&str, &str)> {
    let (prefix, rest) = argument.split_once(':')?;
    let word = !prefix.is_empty() && prefix.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    (word && !rest.is_empty()).then_some((prefix, rest))
}

/// The short forms this program offers, for an error message.
fn offered() -> String {
    let forms: Vec<&str> = short_forms().iter().map(|form| form.argument).collect();
    if forms.is_empty() {
        "this program offers no short forms; give an instance file's path".to_string()
    } else {
        format!("this program offers {} (`list` says what each is)", forms.join(", "))
    }
}
