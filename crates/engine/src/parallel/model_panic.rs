//! A panic in the user's model, caught on the thread where it happened and kept as a value:
//! its message, where in the source it was raised, and the moves from the root to the node
//! being searched.
//!
//! A worker that dies unwinding must not leave the others waiting for a task that will
//! never finish (rayon's `scope` resumes a task's panic only once every task has ended,
//! and the queue pool's idle workers wait for the count of unfinished tasks to reach
//! zero). So every piece of a run that calls into a model runs inside [`catch`]: a panic
//! becomes a [`ModelPanic`], the worker raises the run's stop flag, and the run returns
//! it as its error once every worker has stopped, as rayon's `join` hands a panic back to
//! its caller (DESIGN habit 17).
//!
//! The panic's location is known only to the panic hook, which runs before unwinding
//! starts. [`catch`] installs, once per process, a hook that wraps whatever hook was set
//! before it: on a thread inside [`catch`] it records the message and location and prints
//! nothing (the caller reports the error once); anywhere else it hands over to the
//! previous hook, so panics elsewhere print as they always did.

use crate::search::MovesDoNotReplay;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::Once;

/// A panic caught while a model was searched (or its puzzle read its solutions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelPanic {
    /// The panic's message (`a panic without a message` when its payload was not text).
    pub message: String,
    /// `file:line:column` of the `panic!` (or failed assertion, or bad index), when known.
    pub location: Option<String>,
    /// The moves from the root to the node being searched when it happened, as the model's
    /// `Move` prints with `{:?}`: the panic came from `branch` or `solution()` at that node,
    /// or from `apply` or `undo` of one of its children. `None` outside a search, and where
    /// the `sequential` strategy's plain loop (which keeps no path) met a panic that a second
    /// search did not meet again within its time.
    pub path: Option<String>,
    /// Whether the search stopped because a subproblem's moves did not replay (the
    /// engine's [`MovesDoNotReplay`]), not because the model itself panicked: `message`
    /// says what differed, `path` leads to the node where it did, and there is no
    /// `location` (the model raised nothing).
    pub moves_do_not_replay: bool,
}

impl ModelPanic {
    /// The error of a search stopped because the model's moves did not replay, found
    /// outside a panic (by comparing two searches of the same tree).
    pub fn moves_do_not_replay(mismatch: MovesDoNotReplay) -> ModelPanic {
        ModelPanic { message: mismatch.to_string(), location: None, path: None, moves_do_not_replay: true }
    }

    /// The same panic, at the node reached by `path`.
    pub fn at_path<Mv: fmt::Debug>(self, path: &[Mv]) -> ModelPanic {
        ModelPanic { path: Some(format!("{path:?}")), ..self }
    }
}

impl fmt::Display for ModelPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(location) = &self.location {
            write!(f, " (at {location})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ModelPanic {}

thread_local! {
    /// How many [`catch`] calls this thread is inside (they may nest).
    static CATCHING: Cell<u32> = const { Cell::new(0) };
    /// What the hook saw of the last panic on this thread inside [`catch`].
    static SEEN: RefCell<Option<(String, Option<String>)>> = const { RefCell::new(None) };
}

static QUIET_HOOK: Once = Once::new();

/// Runs `work`; a panic inside it is caught, printed by nobody, and returned as a
/// [`ModelPanic`] (without a path: the caller that knows one adds it).
///
/// With `panic = "abort"` in the build profile nothing can be caught: the process ends.
pub fn catch<R>(work: impl FnOnce() -> R) -> Result<R, ModelPanic> {
    install_quiet_hook();
    CATCHING.with(|depth| depth.set(depth.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    CATCHING.with(|depth| depth.set(depth.get() - 1));
    result.map_err(|payload| {
        let seen = SEEN.with(|seen| seen.borrow_mut().take());
        let (message, location) = seen.unwrap_or_else(|| (message_of(payload.as_ref()), None));
        let moves_do_not_replay = payload.downcast_ref::<MovesDoNotReplay>().is_some();
        let location = if moves_do_not_replay { None } else { location };
        ModelPanic { message, location, path: None, moves_do_not_replay }
    })
}

/// Installs, once, the hook described in the module's documentation, wrapping the hook
/// in place (the default one, or the binary's own).
fn install_quiet_hook() {
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
            // `try_with`: a panic while this thread's locals are being destroyed goes to
            // the previous hook.
            let caught = CATCHING.try_with(|depth| depth.get() > 0).unwrap_or(false);
            if !caught {
                previous(info);
                return;
            }
            let location = info.location().map(|location| location.to_string());
            let message = message_of(info.payload());
            let _ = SEEN.try_with(|seen| *seen.borrow_mut() = Some((message, location)));
        }));
    });
}

/// The text of a panic's payload: `panic!` gives a `&str` or a `String`, the engine's
/// replay check a [`MovesDoNotReplay`].
pub fn message_of(payload: &(dyn Any + Send)) -> String {
    if let Some(mismatch) = payload.downcast_ref::<MovesDoNotReplay>() {
        return mismatch.to_string();
    }
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caught_panic_keeps_its_message_and_the_line_it_came_from() {
        let line = line!() + 1;
        let caught = catch(|| -> u32 { panic!("the model broke at {}", 7) }).unwrap_err();
        assert_eq!(caught.message, "the model broke at 7");
        let location = caught.location.clone().expect("the hook saw the location");
        assert!(location.starts_with(&format!("{}:{line}:", file!())), "{location}");
        assert_eq!(caught.path, None);
        assert_eq!(caught.at_path(&[3u8, 1]).path.as_deref(), Some("[3, 1]"));
    }

    #[test]
    fn work_that_does_not_panic_returns_its_value() {
        assert_eq!(catch(|| 6 * 7), Ok(42));
    }

    #[test]
    fn a_nested_catch_reports_to_the_innermost_caller_only() {
        let outer = catch(|| {
            let inner = catch(|| -> u8 { panic!("inner") });
            inner.unwrap_err().message
        });
        assert_eq!(outer.as_deref(), Ok("inner"));
    }
}
