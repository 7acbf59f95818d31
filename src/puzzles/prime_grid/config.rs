//! The knobs of the prime grid as plain enums.

knob_enum! {
    /// How early the rules are applied (see the module documentation).
    pub enum Mode {
        /// Every ordered tuple of distinct candidates; all rules at the leaf (the Perl post).
        Brute = "brute",
        /// A line is checked (bound, prime) as soon as it is complete; the rest at the leaf.
        Incremental = "incremental",
        /// Each cell's values filtered before they are offered: parity, bounds on partial and
        /// completed lines, primality, distinctness as the grid fills, the total at the last cell.
        Derived = "derived",
    }
}

knob_enum! {
    /// In which order the blanks are decided (see the module documentation).
    pub enum BlankOrder {
        /// Greedily, the blank that completes the most lines first.
        LinesFirst = "lines-first",
        /// Row by row from the top: the post's order.
        RowMajor = "row-major",
    }
}

knob_enum! {
    /// What the search is after (see the module documentation).
    pub enum GridObjective {
        /// Every solution (the counts of the seed post).
        None = "none",
        /// The grid with the smallest total of its 17 numbers, proven by a bound: the
        /// seed's question, without listing every solution.
        MinTotal = "min-total",
    }
}

/// The knobs of the prime grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrimeGridConfig {
    /// How early the rules are applied.
    pub mode: Mode,
    /// In which order the blanks are decided.
    pub order: BlankOrder,
    /// Every solution, or the smallest total by branch and bound.
    pub objective: GridObjective,
}
