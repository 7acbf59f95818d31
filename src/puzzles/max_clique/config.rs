//! The knobs of maximum clique as plain enums.

knob_enum! {
    /// The vertex order the search colours and lists candidates in (vertices are
    /// renumbered once, at the root, so that this order is the order of the bits).
    pub enum VertexOrder {
        /// Non-increasing degree, ties by file order (Tomita's MCQ): the colouring meets the
        /// well-connected vertices first, which gives fewer colours, so tighter bounds.
        Degree = "degree",
        /// As the file numbers the vertices.
        Index = "index",
    }
}

knob_enum! {
    /// What bounds the clique a child can still reach.
    pub enum BoundKind {
        /// The clique so far plus the colour of the vertex in a greedy colouring of the
        /// candidates (MCQ / BBMC): a colour class holds at most one vertex of a clique.
        Colour = "colour",
        /// The clique so far plus the candidates left (Carraghan and Pardalos): valid,
        /// weak; shows what the colouring buys.
        Size = "size",
    }
}

/// The knobs of maximum clique.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CliqueConfig {
    /// The vertex order.
    pub order: VertexOrder,
    /// The bound of a child.
    pub bound: BoundKind,
}
