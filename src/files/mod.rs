//! Files the tool is given and files it writes, whoever asks: a sweep, a report or a
//! cluster plan. Below every layer that keeps files, so that none of them borrows another's
//! way of reading or writing.
//!
//! - [`bounded_read`]: every file the tool is given, read only when regular and under a
//!   cap per kind;
//! - [`atomic_write`]: a file replaced through a temporary file and a rename, so that a
//!   reader sees the old or the new one, never a part.

pub mod atomic_write;
pub mod bounded_read;
