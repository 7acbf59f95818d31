//! Grid helpers shared by the grid puzzles: cell sets as bitboards, visiting orders, and
//! the connectivity and 2x2 rules that Hooks and Twenty Four Seven have in common.

mod board;
mod connectivity;
mod order;

pub use board::{Board, CellSet};
pub use connectivity::ConnectivityCheck;
pub use order::CellOrder;
