//! What a family author needs, in one import: `use backtrack_bench::prelude::*;`.
//!
//! The prelude is the stable surface of the library: the model contract, the family
//! contract, the knob vocabulary, the run entry points and the testing helpers. An item
//! here keeps its name and meaning within a minor version; when one moves, its old path
//! stays as a deprecated alias for a version and `CHANGELOG.md` says what to write.
//! The modules it draws from (`search`, `parallel`, `knobs`, `puzzles`, `run`, `testing`)
//! are public and stable; the rest of the crate (`cli`, `explain`, `scaling`,
//! `statistics`, `machine_guard`, `format`, `watch`, `cluster`, `harness`) is the workbench's own machinery,
//! crate-private, and what its tests need of it is under the hidden, unpromised
//! `backtrack_bench::unstable` (docs/library.md, "What is stable").

pub use crate::knob_enum;
pub use crate::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
pub use crate::puzzles::answer_tally::AnswerTally;
pub use crate::puzzles::view::{CellView, GridView, View};
pub use crate::puzzles::{DataError, FileFormatError, Puzzle};
pub use crate::run::{RunError, RunReport, RunSettings, SearchMode};
pub use crate::search::{Branch, Model, MoveCursor, Objective, Opened, RuleCounter, RuleId, Sense};
pub use crate::testing::{
    assert_parity_across_strategies, assert_parity_across_strategies_at, check_parity_across_strategies,
    check_parity_across_strategies_at, default_thread_counts, ParityCase,
};
pub use crate::{count_nodes, instance_of, Workbench};
