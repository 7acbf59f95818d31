//! The knobs of the 0/1 knapsack as plain enums.

knob_enum! {
    /// The order in which the items are decided, one per depth.
    pub enum ItemOrder {
        /// By value per unit of weight, best first (ties: the earlier item in the file),
        /// so that the fractional bound is a prefix sum and a search in them.
        Ratio = "ratio",
        /// In the order the instance lists them.
        Index = "index",
    }
}

knob_enum! {
    /// What bounds the value a child can still reach.
    pub enum BoundKind {
        /// Dantzig's bound: the value so far plus the greedy fill of the items left in
        /// ratio order, the last one taken in part (rounded down).
        Dantzig = "dantzig",
        /// The value so far plus every item left: valid, weak; shows what the bound buys.
        None = "none",
    }
}

/// The knobs of the knapsack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnapsackConfig {
    /// The order in which the items are decided.
    pub order: ItemOrder,
    /// The bound of a child.
    pub bound: BoundKind,
}
