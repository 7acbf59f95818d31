//! The paths of 0.1.0 that later versions moved, kept as deprecated aliases so that a
//! family written against 0.1.0 still builds (with a warning naming the new path).
//! `examples/old_paths.rs` is such a family: `cargo test` builds it, so a path that
//! moves without an alias here breaks the build, not a user.
//!
//! Items whose signature changed have no alias: docs/library.md's migration table says
//! what to write instead. (`puzzles::knobs` keeps its alias in `puzzles` itself.)

/// 0.1.0's `backtrack_bench::instance`: now [`crate::run::instance`].
#[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance`")]
pub mod instance {
    pub use crate::run::instance::{builtin_names, load, parse, parse_bytes, Instance, MAX_FILE_BYTES, SCHEMA};
    pub use crate::run::InstanceError;

    /// The built-in instances (name, file, description): now `BUILTIN_INSTANCES`.
    pub const BUILTIN: &[(&str, &str, &str)] = crate::run::instance::BUILTIN_INSTANCES;
}

/// 0.1.0's `backtrack_bench::registry`: now [`crate::run`]'s `register` and `Family`.
#[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::{register, Family}`")]
pub mod registry {
    pub use crate::run::{register, Family};
}

/// 0.1.0's `backtrack_bench::solve`: the settings and reports now live in [`crate::run`],
/// and `solve::run(..)` is `run::solve(..)`.
#[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run` (`solve::run` is `run::solve`)")]
pub mod solve {
    pub use crate::run::{
        ComponentReport, ParallelSummary, RuleReport, RunError, RunReport, RunSettings, SearchMode, WorkerTotals,
    };

    /// Solves `instance` as `settings` say: now [`crate::run::solve`].
    pub fn run(instance: &crate::run::Instance, settings: &RunSettings) -> Result<RunReport, RunError> {
        crate::run::solve(instance, settings)
    }
}
