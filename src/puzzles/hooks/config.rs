//! The knobs of Hooks as plain enums.

use crate::puzzles::grid::ConnectivityCheck;

knob_enum! {
    /// How the hook placement is decided.
    pub enum PlacementStrategy {
        /// Enumerate and prefilter all layouts at the root, then fill each survivor.
        TwoPhase = "two-phase",
        /// Place one hook per level, filling its cells before placing the next.
        Integrated = "integrated",
    }
}

knob_enum! {
    /// Which undecided cell is decided next.
    pub enum CellChoice {
        /// Row by row from the top.
        RowMajor = "row-major",
        /// Row by row from the bottom, each left to right: the post's order (its cell 0 is
        /// the bottom-left corner).
        BottomUp = "bottom-up",
        /// Outside in, clockwise.
        Spiral = "spiral",
        /// A cell the rules already settle, else one of the region closest to its sum.
        MostConstrained = "most-constrained",
        /// A cell the rules already settle, else one of the hook with the fewest undecided
        /// cells, in the region with the fewest.
        TightestHook = "tightest-hook",
    }
}

knob_enum! {
    /// Which rules prune partial grids.
    pub enum Rules {
        /// The post's checks: complete regions, hook counts, 2x2.
        Basic = "basic",
        /// Also partial region sums against what the hooks can still give.
        Derived = "derived",
        /// Also one table of hook counts completing every region at once (`derived` asks
        /// each region alone, so two regions may count on the same digits).
        Joint = "joint",
    }
}

knob_enum! {
    /// What a cell whose value the rules already settle branches on.
    pub enum ForcedCells {
        /// Both values, as any other cell; the excluded one dies in its own node.
        TryBoth = "try-both",
        /// Only the value the rules leave, so the doomed sibling is never a node.
        SingleChild = "single-child",
    }
}

knob_enum! {
    /// What an undecided cell cut off from the filled cells means for its hook.
    pub enum Stranded {
        /// Nothing until it is decided (filling it then breaks connectivity).
        Ignore = "ignore",
        /// It can only be left empty, so a hook whose digits no longer fit in its cells that
        /// can still join the filled ones is a dead end (`connectivity=incremental` only).
        HookCount = "hook-count",
    }
}

knob_enum! {
    /// How the counts the rules and the cell choice read are kept.
    pub enum Bookkeeping {
        /// Recomputed from the cell sets where they are read.
        Recompute = "recompute",
        /// Kept up to date on every move and undo: open cells per region and hook, settled
        /// hooks, cells of hooks larger than a number.
        Incremental = "incremental",
    }
}

knob_enum! {
    /// Where each solution's answer (its key in the answer tally) comes from.
    pub enum AnswerSource {
        /// From the model's cell sets at the solution: the empty regions flooded on the
        /// bitboard, no grid built (see `answer.rs`).
        FromState = "from-state",
        /// From the solution grid, through the answer type's general code (a grid of
        /// sums, a board and a list of regions per solution): the reference.
        FromGrid = "from-grid",
    }
}

/// The knobs of Hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HooksConfig {
    /// Placement strategy.
    pub placement: PlacementStrategy,
    /// Cell order.
    pub order: CellChoice,
    /// Pruning rules.
    pub rules: Rules,
    /// When connectivity is checked.
    pub connectivity: ConnectivityCheck,
    /// How settled cells branch.
    pub forced: ForcedCells,
    /// How counts are kept.
    pub counts: Bookkeeping,
    /// What cells cut off from the filled ones mean.
    pub stranded: Stranded,
    /// Where each solution's answer comes from.
    pub answer: AnswerSource,
}
