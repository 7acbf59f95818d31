//! Who the running program is: the name, about text and version a user's binary gives
//! itself through [`crate::Workbench`] (`backtrack-bench` and its own when none is given).
//!
//! Why process-wide, as the family registry is (`family`'s note): the name is printed by
//! every layer that talks to a person (the command line's help, usage and error prefix,
//! the results folder's README, the loader's "not offered by ..." error), and threading a
//! value through each of those calls would touch every command for one string. Like the
//! registry it is set once, before a command runs (`set_program`), and only read after.

use std::sync::OnceLock;

/// The name the workbench's own binary goes by.
pub const WORKBENCH_NAME: &str = "backtrack-bench";

/// The workbench's own version (the library's crate version).
pub const WORKBENCH_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this build came from (`-dirty` when the tree had changes), as split plans
/// and parts record it: `merge` refuses parts of another build, so `--version` says it.
const WORKBENCH_COMMIT: &str = env!("BACKTRACK_BENCH_GIT_COMMIT");

/// A program's name, about text and version, as help, `--version` and errors show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The name in usage lines and error prefixes (`pentomino-bench`).
    pub name: String,
    /// One line for `--help`; `None`: the workbench's own description.
    pub about: Option<String>,
    /// What `--version` prints after the name; `None`: the workbench's version.
    pub version: Option<String>,
}

impl Program {
    /// The workbench's own binary: `backtrack-bench`, its description and version.
    pub fn workbench() -> Program {
        Program { name: WORKBENCH_NAME.to_string(), about: None, version: None }
    }

    /// Whether this is the workbench's own binary, not a user's.
    pub fn is_workbench(&self) -> bool {
        self.name == WORKBENCH_NAME
    }

    /// The version text `--version` prints after the name: the one given, else the
    /// workbench's own for its binary, else which workbench version a user's binary was
    /// built on (`(built on backtrack-bench 0.2.0, build 1a2b3c4d5e6f)`), so a report of a bug can say.
    pub fn version_text(&self) -> String {
        match &self.version {
            Some(version) => version.clone(),
            None if self.is_workbench() => format!("{WORKBENCH_VERSION} (build {WORKBENCH_COMMIT})"),
            None => format!("(built on {WORKBENCH_NAME} {WORKBENCH_VERSION}, build {WORKBENCH_COMMIT})"),
        }
    }
}

static PROGRAM: OnceLock<Program> = OnceLock::new();

/// Makes `program` the running program; the first call wins (it is made once, before a
/// command runs), so a later one returns `false` and changes nothing.
pub(crate) fn set_program(program: Program) -> bool {
    PROGRAM.set(program).is_ok()
}

/// The running program ([`Program::workbench`] unless `set_program` said otherwise).
pub fn program() -> &'static Program {
    PROGRAM.get_or_init(Program::workbench)
}

/// The running program's name, for messages (`pentomino-bench: error: ...`).
pub fn program_name() -> &'static str {
    &program().name
}
