//! A family with a bug on purpose, chosen by its `fault` knob: N-Queens (a queen per row,
//! columns tried from 0 up) whose model panics in `apply`, `branch`, `undo` or
//! `solution()` at the nodes under the root's child 1 (column 1 for the first queen) at
//! depth 3 (at the leaves for `solution`), or in `rule_names`, claims a `max_depth()` one
//! short of the tree, or reads a global counter or a global set of the nodes seen in
//! `branch`, so that its moves do not replay, or offers no move at the root in a process
//! where [`OTHER_PROCESS_VARIABLE`] is set (a tree that differs between processes: `split`
//! plans it, `run-part` cannot replay the plan's paths).
//!
//! The instance's data may name the fault too (`{"n": 8, "fault": "apply"}`), for the
//! commands that take no knob flags (`scaling-check`); the knob, when not `none`, wins.
//! The puzzle's own methods see its data, not the knobs: its faults `verify` and
//! `answer-key` (a panic in `Puzzle::verify` or `Puzzle::answer_key` at the solutions
//! under the root's child 1), `parse` and `component-names` are named in the data only.
//! `Puzzle::config` panics on the knob text [`CONFIG_FAULT`] and
//! `Puzzle::instance_from_argument` on the argument [`ARGUMENT_FAULT`], neither a listed
//! value: registration reads every listed knob value, and would panic itself.
//!
//! Shared by the tests of `tests/model_faults.rs` and by the `broken_model` example, a
//! binary with this family on the workbench's command line for the CLI tests:
//! `cargo run --example broken_model -- solve 8 --fault apply --parallel steal --threads 2`.

#![allow(dead_code)]

use backtrack_bench::knob_enum;
use backtrack_bench::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use backtrack_bench::puzzles::answer_tally::AnswerTally;
use backtrack_bench::puzzles::view::{CellView, GridView, View};
use backtrack_bench::puzzles::{DataError, Puzzle};
use backtrack_bench::search::{Branch, Model, RuleCounter, RuleId};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

knob_enum! {
    /// The bug the model has.
    pub enum Fault {
        /// None: plain N-Queens.
        None = "none",
        /// `apply` panics on entering a faulty node.
        Apply = "apply",
        /// `branch` panics at a faulty node.
        Branch = "branch",
        /// `undo` panics on leaving a faulty node.
        Undo = "undo",
        /// `solution()` panics at a faulty solution.
        Solution = "solution",
        /// `max_depth()` is one less than the number of rows.
        MaxDepth = "max-depth",
        /// `branch` at the last row reads a global counter: every fifth call, the row is a
        /// dead end. The tree then depends on the order nodes are visited in.
        NonReplayable = "non-replayable",
        /// `branch` keeps a global set of the nodes it has branched (a transposition table
        /// outside do/undo) and calls a node it has seen before a dead end. One search
        /// branches each node once and counts right; a parallel run replays the path to each
        /// subproblem, so the nodes on it are branched twice: the engine's replay check stops
        /// the run ("moves do not replay").
        RemembersNodes = "remembers-nodes",
        /// In a process where [`OTHER_PROCESS_VARIABLE`] is set, the root is a dead end; in
        /// any other, plain N-Queens. A model whose tree depends on its process (a file it
        /// reads, the clock, the host): `split` without the variable plans the tree, and
        /// `run-part` with it cannot replay the plan's paths ("moves do not replay").
        ProcessDependent = "process-dependent",
        /// The puzzle's `verify` panics at a faulty solution (named in the data only).
        Verify = "verify",
        /// The puzzle's `verify` rejects the solutions whose first queen is in column 2
        /// (index 1): a check that fails without a panic (named in the data only).
        VerifyRejects = "verify-rejects",
        /// The puzzle's `answer_key` panics at a faulty solution (named in the data only).
        AnswerKey = "answer-key",
        /// The puzzle's `parse` panics (named in the data only).
        Parse = "parse",
        /// The puzzle's `component_names` panics (named in the data only).
        ComponentNames = "component-names",
        /// The model's `rule_names` panics.
        RuleNames = "rule-names",
        /// `apply` counts the moves it makes and `undo` forgets to count them back; past
        /// `n` moves counted, `branch` calls every node a dead end. A state cloned at every
        /// node (`--state clone`) hides the bug; `undo` on one state shows it.
        UndoForgets = "undo-forgets",
        /// `rule_names` names 17 rules, one more than the per-rule counters hold.
        TooManyRules = "too-many-rules",
    }
}

/// The `fault` knob text on which `Puzzle::config` panics.
pub const CONFIG_FAULT: &str = "panic-in-config";

/// The instance argument on which `Puzzle::instance_from_argument` panics.
pub const ARGUMENT_FAULT: &str = "panic-in-argument";

/// The environment variable that makes the `process-dependent` model's root a dead end.
pub const OTHER_PROCESS_VARIABLE: &str = "BROKEN_MODEL_OTHER_PROCESS";

/// The depth of the faulty nodes (under the root's child 1).
pub const FAULT_DEPTH: usize = 3;

/// Calls of `branch` at the last row by every non-replayable model (reset by `models`).
static LAST_ROW_CALLS: AtomicU64 = AtomicU64::new(0);

/// The nodes branched by every model whose fault is `remembers-nodes` (reset by `models`).
static BRANCHED: Mutex<Option<HashSet<Vec<u8>>>> = Mutex::new(None);

/// Whether the node reached by `columns` was branched before (and remembers it now).
fn branched_before(columns: &[u8]) -> bool {
    let mut seen = BRANCHED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    !seen.get_or_insert_with(HashSet::new).insert(columns.to_vec())
}

const RULE_ATTACK: RuleId = 0;
const RULE_HIDDEN: RuleId = 1;

/// The instance: the board size, and the fault its data names.
pub struct BrokenQueens {
    n: usize,
    fault: Fault,
}

/// The model: the queens' columns, row by row.
#[derive(Debug, Clone)]
pub struct BrokenModel {
    n: usize,
    fault: Fault,
    columns: Vec<u8>,
    /// Moves applied and not undone, as the `undo-forgets` model counts them.
    applied: usize,
}

/// Panics with the fault's name and the node's path when `fault` is the bug `present`
/// and the node reached by `path` on a board of `n` rows is faulty.
fn fail_at(present: Fault, fault: Fault, n: usize, path: &[u8]) {
    let depth = match fault {
        Fault::Solution | Fault::Verify | Fault::AnswerKey => n,
        _ => FAULT_DEPTH,
    };
    if present == fault && path.len() == depth && path.first() == Some(&1) {
        panic!("{} fault injected at {path:?}", fault.name());
    }
}

impl BrokenModel {
    /// Panics when `fault` is the model's bug and the node reached by `path` is faulty.
    fn fail_at(&self, fault: Fault, path: &[u8]) {
        fail_at(self.fault, fault, self.n, path);
    }

    fn attacks(&self, column: u8) -> bool {
        let row = self.columns.len();
        self.columns
            .iter()
            .enumerate()
            .any(|(other_row, &other)| other == column || usize::from(other.abs_diff(column)) == row - other_row)
    }
}

impl Model for BrokenModel {
    type Move = u8;
    type Solution = Vec<u8>;
    const REJECTS_BEFORE_CHANGING: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        if self.fault == Fault::RuleNames {
            panic!("{} fault injected", Fault::RuleNames.name());
        }
        if self.fault == Fault::TooManyRules {
            return &["attack", "hidden", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q"];
        }
        &["attack", "hidden"]
    }

    fn max_depth(&self) -> usize {
        if self.fault == Fault::MaxDepth {
            self.n - 1
        } else {
            self.n
        }
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<u8>, counters: &mut C) -> Branch {
        self.fail_at(Fault::Branch, &self.columns);
        if self.columns.len() == self.n {
            return Branch::Solution;
        }
        if self.fault == Fault::RemembersNodes {
            counters.check(RULE_HIDDEN);
            if branched_before(&self.columns) {
                return Branch::DeadEnd(RULE_HIDDEN);
            }
        }
        if self.fault == Fault::ProcessDependent && self.columns.is_empty() {
            counters.check(RULE_HIDDEN);
            return Branch::DeadEnd(RULE_HIDDEN);
        }
        if self.fault == Fault::NonReplayable && self.columns.len() == self.n - 1 {
            counters.check(RULE_HIDDEN);
            if LAST_ROW_CALLS.fetch_add(1, Ordering::Relaxed).is_multiple_of(5) {
                return Branch::DeadEnd(RULE_HIDDEN);
            }
        }
        if self.fault == Fault::UndoForgets && self.applied > self.n {
            counters.check(RULE_HIDDEN);
            return Branch::DeadEnd(RULE_HIDDEN);
        }
        moves.extend(0..self.n as u8);
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, column: u8, counters: &mut C) -> Result<(), RuleId> {
        counters.check(RULE_ATTACK);
        if self.attacks(column) {
            return Err(RULE_ATTACK);
        }
        self.columns.push(column);
        self.applied += 1;
        let path = self.columns.clone();
        self.fail_at(Fault::Apply, &path);
        Ok(())
    }

    fn undo(&mut self, _column: u8) {
        self.fail_at(Fault::Undo, &self.columns);
        self.columns.pop();
        if self.fault != Fault::UndoForgets {
            self.applied -= 1;
        }
    }

    fn solution(&self) -> Vec<u8> {
        self.fail_at(Fault::Solution, &self.columns);
        self.columns.clone()
    }
}

impl Puzzle for BrokenQueens {
    const FAMILY: &'static str = "broken_model";
    const KNOBS: &'static [KnobSpec] = &[KnobSpec {
        name: "fault",
        values: Fault::VALUES,
        default: "none",
        help: "The model's bug: a panic in apply, branch, undo, solution or rule_names, a max_depth() too small, moves that do not replay (in one process, or between processes).",
    }];
    type Config = Fault;
    type Model = BrokenModel;
    type AnswerKey = ();

    fn parse(data: &Value) -> Result<BrokenQueens, DataError> {
        let fault = match data.get("fault").map(|fault| fault.as_str().and_then(|name| Fault::parse(name, None))) {
            None => Fault::None,
            Some(Some(fault)) => fault,
            Some(None) => return Err(DataError::new("fault", format!("expected one of {:?}", Fault::VALUES))),
        };
        if fault == Fault::Parse {
            panic!("{} fault injected", fault.name());
        }
        match data.get("n").and_then(Value::as_u64) {
            Some(n @ 4..=16) => Ok(BrokenQueens { n: n as usize, fault }),
            _ => Err(DataError::new("n", "expected the board size, 4 to 16")),
        }
    }

    fn config(knobs: &KnobValues) -> Result<Fault, KnobError> {
        if knobs.get("fault").map(String::as_str) == Some(CONFIG_FAULT) {
            panic!("config fault injected");
        }
        KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?.knob("fault")
    }

    fn describe(fault: &Fault) -> Vec<(&'static str, String)> {
        vec![("fault", fault.name())]
    }

    fn component_names(&self) -> Vec<String> {
        if self.fault == Fault::ComponentNames {
            panic!("{} fault injected", self.fault.name());
        }
        vec![format!("{n}x{n}", n = self.n)]
    }

    fn models(&self, knob: &Fault) -> Vec<BrokenModel> {
        let fault = if *knob == Fault::None { self.fault } else { *knob };
        // The fault shows only in a process with the variable set (read once per model set).
        let fault = match fault {
            Fault::ProcessDependent if std::env::var_os(OTHER_PROCESS_VARIABLE).is_none() => Fault::None,
            fault => fault,
        };
        // Each run starts the hidden counter afresh, so that two sequential runs agree.
        if fault == Fault::NonReplayable {
            LAST_ROW_CALLS.store(0, Ordering::Relaxed);
        }
        if fault == Fault::RemembersNodes {
            *BRANCHED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
        }
        vec![BrokenModel { n: self.n, fault, columns: Vec::with_capacity(self.n), applied: 0 }]
    }

    fn solution_text(&self, solution: &Vec<u8>) -> String {
        solution.iter().map(|column| (column + 1).to_string()).collect::<Vec<_>>().join(",")
    }

    fn view(&self, model: &BrokenModel) -> View {
        let mut cells = vec![CellView::Empty; self.n * self.n];
        for (row, &column) in model.columns.iter().enumerate() {
            cells[row * self.n + usize::from(column)] = CellView::Placed(1);
        }
        View::Grid(GridView { size: self.n, cells, groups: None, clues: None })
    }

    fn render(&self, solution: &Vec<u8>) -> String {
        self.solution_text(solution)
    }

    fn verify(&self, _component: usize, solution: &Vec<u8>) -> Result<(), String> {
        fail_at(self.fault, Fault::Verify, self.n, solution);
        if self.fault == Fault::VerifyRejects && solution.first() == Some(&1) {
            return Err(format!(
                "{} fault: the solution {}",
                Fault::VerifyRejects.name(),
                self.solution_text(solution)
            ));
        }
        let model = BrokenModel { n: self.n, fault: Fault::None, columns: Vec::new(), applied: 0 };
        let mut placed = model;
        for &column in solution {
            if placed.attacks(column) {
                return Err(format!("the queen of row {} is attacked", placed.columns.len() + 1));
            }
            placed.columns.push(column);
        }
        match placed.columns.len() == self.n {
            true => Ok(()),
            false => Err(format!("{} queens on {} rows", placed.columns.len(), self.n)),
        }
    }

    fn answer_key(&self, _component: usize, solution: &Vec<u8>) {
        fail_at(self.fault, Fault::AnswerKey, self.n, solution);
    }

    fn answer(&self, tallies: &[AnswerTally<(), Vec<u8>>]) -> Value {
        json!(tallies.first().map_or(0, AnswerTally::solutions))
    }

    fn instance_from_argument(text: &str) -> Option<Value> {
        if text == ARGUMENT_FAULT {
            panic!("instance_from_argument fault injected");
        }
        Some(json!({ "n": text.parse::<u64>().ok()? }))
    }
}
