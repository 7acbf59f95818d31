//! `watch`: the search animated step by step in the terminal.
//!
//! An [`Observer`](crate::search::Observer) turns each engine event into a frame drawn from
//! the family's [`View`](crate::puzzles::view::View) of the model: rings as coloured
//! circles (midpoint circle algorithm), grids as coloured cells. Frames go to a terminal
//! with colours and cursor control, or as plain text when stdout is not a terminal.

mod canvas;
mod grid_art;
mod rings_art;
mod session;

pub use session::{watch_puzzle, WatchError, WatchOptions, WatchSummary};
