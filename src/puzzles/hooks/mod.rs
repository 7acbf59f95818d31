//! Hooks (Jane Street, Hooks #7, February 2021): place the n L-shaped hooks of an n x n
//! grid, then fill hook k with k copies of k so that the filled cells are connected, no
//! 2x2 block is full, and every region has the same sum.
//!
//! # The search
//!
//! Hook k is the outer row and column of a k x k square; the (k-1)-square sits in one of
//! its four corners, so a placement (a *layout*) is one corner per hook n..2. Cells are
//! then decided one at a time: filled with their hook's digit, or left empty. Givens are
//! decided as soon as their cell's hook is known, without a search level of their own.
//! The common region sum is forced by the data (the digits total n(n+1)(2n+1)/6 and the
//! regions tile the grid); when it cannot exist the root is a dead end.
//!
//! - `placement=two-phase` follows the post: the root enumerates the 4^(n-1) layouts and
//!   keeps those that pass a prefilter derived from the data alone: givens fit their hooks
//!   and their hook counts, given digits fill no 2x2 block and can still connect, and each
//!   region's sum is reachable as a bounded subset sum of its cells' hook numbers (hook k
//!   gives at most k digits, and at least as many as its cells outside the region cannot
//!   hold). The enumeration walks hook by hook and stops a partial layout as soon as a
//!   region fails, which gives the same survivors as testing the 4^(n-1) complete ones.
//!   Each survivor is one child of the root ([`HookMove::Layout`]); below it the cells are
//!   filled. Hooks #7: 65,536 layouts, 138 survive (the post's five hand-made checks kept
//!   416). The prefilter is not counted in the nodes, as in the post.
//! - `placement=integrated`: hooks are placed one per level, largest first
//!   ([`HookMove::Hook`], four corners each), and right after hook k is placed its cells
//!   are filled, before hook k-1 is placed. With `rules=derived`, every placement is
//!   checked at once on the regions it touches, a cell not placed yet counting as any digit
//!   up to the largest hook still to place, so a partial layout dies as soon as some region
//!   can no longer be completed. (Placing every hook before filling would just be
//!   two-phase with its enumeration spread over levels; filling in between lets the
//!   digits of the outer hooks prune the inner placements.)
//!
//! The moves mean the same from the root whatever happened before, so a subproblem is a
//! plain list of moves replayed on a fresh model.
//!
//! # Knobs
//!
//! - `order`: the next cell among those placed and undecided: `row-major` (from the top),
//!   `bottom-up` (rows from the bottom, the post's order: its small bottom regions complete
//!   early, which `basic` rules need), `spiral` (outside in), `most-constrained` (a cell
//!   the rules already settle: its hook has all its digits or blanks, it would fill a 2x2
//!   block, its digit exceeds what its region still needs; else, in the region closest to
//!   its sum, a cell of the largest hook there), or `tightest-hook` (a cell the rules
//!   already settle; else, in the placed hook with the fewest undecided cells, the cell in
//!   the region with the fewest: such a hook is close to having all its digits or all its
//!   blanks, which settles its other cells).
//! - `rules`: `basic` is the post's set (a region is checked when complete, hook counts,
//!   2x2); `derived` adds, after every move, the bounded-subset-sum test on the region of
//!   the move (the partial sum never above the target and still reachable with the digits
//!   the undecided cells' hooks can give), and on every region of a settled hook (all its
//!   digits, or all its blanks, placed). `joint` asks instead, once every hook is placed,
//!   for one table of counts (digits of hook k in region r) that completes every region at
//!   once, so two regions cannot both count on the same digits (rule `region-counts`; see
//!   `joint.rs`). The table found is kept per depth and most moves only update it; the
//!   two-phase prefilter applies the test to each complete layout too.
//! - `connectivity`: `leaves`, `periodic:K` and `every-node` flood-fill from the filled
//!   cells through undecided ones (see [`ConnectivityCheck`]); `incremental` keeps the
//!   group that can still join the filled cells and updates it per move with a local test
//!   on the ring of eight cells around the move, flooding only when that test cannot tell
//!   (see `reach.rs` and `rings.rs`). Every setting checks complete grids exactly.
//! - `forced`: `try-both` branches on both values of every cell; `single-child` branches
//!   a cell the rules already settle (its hook has all its digits or all its blanks, it
//!   would fill a 2x2 block, its digit exceeds its region's need) on the one value left,
//!   so the sibling that would die at once is never a node. Same solutions, fewer nodes.
//! - `counts`: `recompute` counts a region's open cells per hook, the settled hooks and
//!   the cells too large for their region from the cell sets each time a rule or the cell
//!   choice reads them; `incremental` keeps those counts and masks up to date on every
//!   move and undo. Same nodes, fewer instructions per node.
//! - `stranded`: with `connectivity=incremental`, `hook-count` treats an undecided cell
//!   that can no longer join the filled cells as empty in its hook's count: a hook whose
//!   cells still joinable number fewer than its digits is a dead end (rule `hook-reach`).
//!   `ignore` leaves such a cell to the connectivity rule when it is decided.
//! - `answer`: `from-state` (the default) reads each solution's answer from the model's
//!   cell sets, the empty regions flooded on the bitboard (`answer.rs`); `from-grid` builds
//!   the grid and runs the answer type's general code. Same answers; on the enumeration
//!   workload the general code cost about as much as the search.
//!
//! # Limits
//!
//! Sides 1 to 11 ([`crate::puzzles::grid::Board::MAX_SIZE`]: cells are bits of a `u128`); two-phase then
//! enumerates at most 4^10 = 1,048,576 layouts (about 0.6 s when every one survives, as
//! on an 11x11 grid with a single region).

mod answer;
mod choice;
mod config;
mod geometry;
mod joint;
mod layouts;
mod model;
mod parse;
mod reach;
mod rings;
mod rules;
mod shared;
mod sums;
#[cfg(test)]
mod tests;
mod verify;

pub use config::{AnswerSource, Bookkeeping, CellChoice, ForcedCells, HooksConfig, PlacementStrategy, Rules, Stranded};
pub use model::{HookMove, HooksModel};
pub use parse::Given;

use super::answer_tally::{histogram, AnswerTally};
use super::answer_type::GridAnswer;
use super::{DataError, Puzzle};
use crate::knobs::{Knob, KnobError, KnobReader, KnobSpec, KnobValues};
use crate::puzzles::grid::{CellOrder, ConnectivityCheck};
use serde_json::Value;
use std::sync::Arc;

/// A Hooks instance: the grid side, the regions and the givens.
#[derive(Debug, Clone)]
pub struct Hooks {
    size: usize,
    /// Cells (`r * n + c`) of each region.
    regions: Vec<Vec<usize>>,
    /// The common sum if the instance states it.
    region_sum: Option<u32>,
    givens: Vec<Given>,
    /// How a solved grid becomes the answer.
    answer_type: GridAnswer,
}

impl Hooks {
    /// Side of the grid.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The common region sum every solution has, or `None` when the regions cannot all
    /// have the same sum (then there is no solution).
    pub fn common_sum(&self) -> Option<u32> {
        parse::common_sum(self.size, self.regions.len(), self.region_sum)
    }

    /// The two-phase prefilter: how many layouts it examines (4^(n-1)) and the codes of
    /// those that pass.
    pub fn prefilter(&self) -> (u64, Vec<u32>) {
        let config = HooksConfig {
            placement: PlacementStrategy::TwoPhase,
            order: CellChoice::RowMajor,
            rules: Rules::Derived,
            connectivity: ConnectivityCheck::Leaves,
            forced: ForcedCells::TryBoth,
            counts: Bookkeeping::Incremental,
            stranded: Stranded::Ignore,
            answer: AnswerSource::FromState,
        };
        let survivors = match self.common_sum() {
            Some(_) => self.model(&config).surviving_layouts(),
            None => Vec::new(),
        };
        (geometry::layout_count(self.size), survivors)
    }

    fn model(&self, config: &HooksConfig) -> HooksModel {
        let order = match config.order {
            CellChoice::RowMajor | CellChoice::MostConstrained | CellChoice::TightestHook => CellOrder::RowMajor,
            CellChoice::Spiral => CellOrder::Spiral,
            CellChoice::BottomUp => CellOrder::RowMajor,
        }
        .cells(self.size);
        let order = match config.order {
            CellChoice::BottomUp => order.chunks(self.size).rev().flatten().copied().collect(),
            _ => order,
        };
        let givens: Vec<(usize, u8)> =
            self.givens.iter().map(|given| (given.row * self.size + given.column, given.value)).collect();
        let shared = shared::Shared::new(self.size, self.common_sum(), &self.regions, &givens, &order);
        HooksModel::new(Arc::new(shared), config)
    }
}

impl Puzzle for Hooks {
    const FAMILY: &'static str = "hooks";
    const KNOBS: &'static [KnobSpec] = &[
        KnobSpec {
            name: "placement",
            values: PlacementStrategy::VALUES,
            default: "two-phase",
            help: "two-phase: enumerate the 4^(n-1) hook layouts at the root, keep those the data allows, fill each; integrated: place one hook per level and fill its cells before placing the next",
        },
        KnobSpec {
            name: "order",
            values: CellChoice::VALUES,
            default: "tightest-hook",
            help: "next cell: row-major (row by row from the top), bottom-up (rows from the bottom, the OCaml post's order), spiral (outside in), most-constrained (a cell the rules settle, else one of the region closest to its sum), or tightest-hook (a cell the rules settle, else one of the hook with the fewest undecided cells, in the region with the fewest)",
        },
        KnobSpec {
            name: "rules",
            values: Rules::VALUES,
            default: "joint",
            help: "basic: the post's checks (complete regions, hook counts, 2x2); derived: also partial region sums against the digits the hooks can still give, region by region; joint: one table of hook counts must complete every region at once (rule region-counts; two regions cannot both count on the same digits)",
        },
        KnobSpec {
            name: "connectivity",
            values: ConnectivityCheck::VALUES,
            default: "incremental",
            help: "when the filled cells are checked for connectivity: at leaves, every K-th depth, every node, or incrementally per move (local ring test, flood fill when needed)",
        },
        KnobSpec {
            name: "forced",
            values: ForcedCells::VALUES,
            default: "single-child",
            help: "a cell the rules already settle (its hook has all its digits or blanks, it would fill a 2x2 block, its digit exceeds its region's need): try-both branches on both values like any cell; single-child branches on the settled value only",
        },
        KnobSpec {
            name: "counts",
            values: &["recompute", "incremental"],
            default: "incremental",
            help: "recompute: region and hook counts recomputed from the cell sets where the rules read them; incremental: kept up to date on every move and undo (same nodes, fewer instructions)",
        },
        KnobSpec {
            name: "stranded",
            values: &["ignore", "hook-count"],
            default: "ignore",
            help: "an undecided cell cut off from the filled cells: ignore until it is decided; hook-count: it can only stay empty, so a hook left with fewer cells that can join the filled ones than its digits is a dead end (rule hook-reach; needs connectivity=incremental, else ignored)",
        },
        KnobSpec {
            name: "answer",
            values: AnswerSource::VALUES,
            default: "from-state",
            help: "where each solution's answer comes from: from-state floods the empty regions on the model's bitboard; from-grid builds the grid and runs the answer type's general code (same answers)",
        },
    ];
    type Config = HooksConfig;
    type Model = HooksModel;
    type AnswerKey = u64;

    fn parse(data: &Value) -> Result<Self, DataError> {
        parse::parse(data)
    }

    fn config(knobs: &KnobValues) -> Result<HooksConfig, KnobError> {
        let reader = KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?;
        Ok(HooksConfig {
            placement: reader.knob("placement")?,
            order: reader.knob("order")?,
            rules: reader.knob("rules")?,
            connectivity: reader.knob("connectivity")?,
            forced: reader.knob("forced")?,
            counts: reader.knob("counts")?,
            stranded: reader.knob("stranded")?,
            answer: reader.knob("answer")?,
        })
    }

    fn describe(config: &HooksConfig) -> Vec<(&'static str, String)> {
        vec![
            ("placement", config.placement.name()),
            ("order", config.order.name()),
            ("rules", config.rules.name()),
            ("connectivity", config.connectivity.name()),
            ("forced", config.forced.name()),
            ("counts", config.counts.name()),
            ("stranded", config.stranded.name()),
            ("answer", config.answer.name()),
        ]
    }

    fn component_names(&self) -> Vec<String> {
        vec!["grid".to_string()]
    }

    fn models(&self, config: &HooksConfig) -> Vec<HooksModel> {
        vec![self.model(config)]
    }

    /// One character per cell, row-major, `0` = empty; sides 10 and 11 write their two
    /// largest digits as `a` and `b` so that every cell stays one character.
    fn solution_text(&self, solution: &Vec<u8>) -> String {
        solution.iter().map(|&digit| char::from_digit(u32::from(digit), 36).unwrap_or('?')).collect()
    }

    fn view(&self, model: &HooksModel) -> crate::puzzles::view::View {
        model.view()
    }

    fn render(&self, solution: &Vec<u8>) -> String {
        solution
            .chunks(self.size)
            .map(|row| {
                row.iter()
                    .map(|&digit| if digit == 0 { ".".to_string() } else { digit.to_string() })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, _component: usize, solution: &Vec<u8>) -> Result<(), String> {
        verify::check(self, solution)
    }

    fn answer_key(&self, _component: usize, solution: &Vec<u8>) -> u64 {
        self.answer_type.of_grids(self.size, [&solution[..]])
    }

    fn answer_key_here(&self, _component: usize, model: &HooksModel) -> Option<u64> {
        model.answer_from_state.then(|| model.answer_here(self.answer_type))
    }

    /// The grid's answer for a single solution; for several, how many have each answer.
    fn answer(&self, tallies: &[AnswerTally<u64, Vec<u8>>]) -> Value {
        tallies.first().map_or(Value::Null, |tally| histogram(tally, |&answer| Value::from(answer)))
    }
}
