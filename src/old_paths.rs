//! The paths of 0.1.0 that later versions moved, kept as deprecated aliases so that a
//! family written against 0.1.0 still builds, with a warning naming the new path.
//! `examples/old_paths.rs` is such a family: `cargo test` builds it, so a path that
//! moves without an alias here breaks the build, not a user.
//!
//! rustc warns where a deprecated item is used, not where a path merely passes through a
//! deprecated module to a re-exported one: so the types here are deprecated type aliases,
//! the functions deprecated wrappers, the constants deprecated copies, each of which warns
//! at the user's line. Items whose signature changed have no alias: docs/library.md's
//! migration table says what to write instead. (`puzzles::knobs` keeps its alias in
//! `puzzles` itself.)

/// 0.1.0's `backtrack_bench::instance`: now [`crate::run::instance`].
#[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance`")]
pub mod instance {
    use crate::run::instance as moved;
    use std::path::Path;

    /// An instance: now [`crate::run::Instance`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::Instance`")]
    pub type Instance = moved::Instance;
    /// Why an instance did not load: now [`crate::run::InstanceError`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::InstanceError`")]
    pub type InstanceError = crate::run::InstanceError;
    /// The largest instance file: now [`crate::run::instance::MAX_FILE_BYTES`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance::MAX_FILE_BYTES`")]
    pub const MAX_FILE_BYTES: u64 = moved::MAX_FILE_BYTES;
    /// The instance schema tag: now [`crate::run::instance::SCHEMA`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance::SCHEMA`")]
    pub const SCHEMA: &str = moved::SCHEMA;
    /// The built-in instances (name, file, description): now `BUILTIN_INSTANCES`.
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance::BUILTIN_INSTANCES`")]
    pub const BUILTIN: &[(&str, &str, &str)] = moved::BUILTIN_INSTANCES;

    /// Now [`crate::run::instance::builtin_names`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance::builtin_names`")]
    pub fn builtin_names() -> Vec<&'static str> {
        moved::builtin_names()
    }

    /// Now [`crate::run::instance::load`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance::load`")]
    pub fn load(name_or_path: &str) -> Result<moved::Instance, crate::run::InstanceError> {
        moved::load(name_or_path)
    }

    /// Now [`crate::run::instance::parse`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance::parse`")]
    pub fn parse(text: &str, path: &Path, source: &str) -> Result<moved::Instance, crate::run::InstanceError> {
        moved::parse(text, path, source)
    }

    /// Now [`crate::run::instance::parse_bytes`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::instance::parse_bytes`")]
    pub fn parse_bytes(bytes: &[u8], path: &Path, source: &str) -> Result<moved::Instance, crate::run::InstanceError> {
        moved::parse_bytes(bytes, path, source)
    }
}

/// 0.1.0's `backtrack_bench::registry`: now [`crate::run`]'s `register` and `Family`.
#[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::{register, Family}`")]
pub mod registry {
    use crate::puzzles::Puzzle;

    /// A registered family: now [`crate::run::Family`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::Family`")]
    pub type Family = crate::run::Family;

    /// Now [`crate::run::register`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::register`")]
    pub fn register<P: Puzzle + 'static>() -> crate::run::Family {
        crate::run::register::<P>()
    }
}

/// 0.1.0's `backtrack_bench::solve`: the settings and reports now live in [`crate::run`],
/// and `solve::run(..)` is `run::solve(..)`.
#[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run` (`solve::run` is `run::solve`)")]
pub mod solve {
    /// Declares each name as a deprecated alias of the type of that name in `crate::run`.
    macro_rules! moved_to_run {
        ($($name:ident),* $(,)?) => {$(
            #[doc = concat!("Now [`crate::run::", stringify!($name), "`].")]
            #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run`, under the same name")]
            pub type $name = crate::run::$name;
        )*};
    }
    moved_to_run!(
        ComponentReport,
        ParallelSummary,
        RuleReport,
        RunError,
        RunReport,
        RunSettings,
        SearchMode,
        WorkerTotals
    );

    /// Solves `instance` as `settings` say: now [`crate::run::solve`].
    #[deprecated(since = "0.2.0", note = "moved to `backtrack_bench::run::solve`")]
    pub fn run(
        instance: &crate::run::Instance,
        settings: &crate::run::RunSettings,
    ) -> Result<crate::run::RunReport, crate::run::RunError> {
        crate::run::solve(instance, settings)
    }
}
