//! The knobs of Olympic Rings as plain enums.

knob_enum! {
    /// The order in which open spots are decided.
    pub enum SpotOrder {
        /// In order of first appearance reading the rings in file order (the post's
        /// left-to-right order: rg, gk, k, ky, yb).
        Rings = "rings",
        /// In the order the instance's `unknowns` lists them.
        Listed = "listed",
        /// At each node, an open spot of the ring with the fewest open spots.
        MostConstrained = "most-constrained",
    }
}

knob_enum! {
    /// How early a wrong ring sum is detected.
    pub enum Pruning {
        /// Only complete assignments are checked.
        None = "none",
        /// A ring is checked as soon as all its spots are filled.
        Rings = "rings",
        /// A partly filled ring is rejected when even the smallest or largest unused values
        /// cannot bring it to the target.
        Bounds = "bounds",
    }
}

/// The knobs of Olympic Rings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingsConfig {
    /// Spot order.
    pub order: SpotOrder,
    /// Pruning.
    pub pruning: Pruning,
}
