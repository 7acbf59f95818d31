//! The main thread's stack limit, raised before a command runs so that a deep sequential
//! search has the stack an engine worker has.

use crate::parallel::WORKER_STACK_BYTES;

/// The least stack limit a command runs under: an engine worker's stack.
const COMMAND_STACK_BYTES: libc::rlim_t = WORKER_STACK_BYTES as libc::rlim_t;

/// Raises the soft limit of the main thread's stack to [`COMMAND_STACK_BYTES`] (at most the
/// hard limit) where it is lower. Linux grows the main thread's stack on demand up to the
/// limit in force at each fault, below it stays free address space of at least 128 MiB, so
/// two system calls give the command the room a thread of its own would (that cost about 83 K
/// instructions and 0.4 ms a process). Child processes inherit the raised limit.
pub fn raise_the_stack_limit() {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `getrlimit` and `setrlimit` read or write the struct they are given, nothing
    // else; a refusal leaves the limit as it was.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_STACK, &mut limit) != 0 {
            return;
        }
        if let Some(raised) = raised_stack_limit(limit.rlim_cur, limit.rlim_max) {
            limit.rlim_cur = raised;
            libc::setrlimit(libc::RLIMIT_STACK, &limit);
        }
    }
}

/// The soft stack limit to set, given the soft and hard ones: `None` where the soft one is
/// already [`COMMAND_STACK_BYTES`] or more (or unlimited).
fn raised_stack_limit(soft: libc::rlim_t, hard: libc::rlim_t) -> Option<libc::rlim_t> {
    let wanted = COMMAND_STACK_BYTES.min(hard);
    (soft != libc::RLIM_INFINITY && soft < wanted).then_some(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_limit_is_raised_to_the_commands_floor_within_the_hard_limit() {
        let infinity = libc::RLIM_INFINITY;
        assert_eq!(raised_stack_limit(8 << 20, infinity), Some(COMMAND_STACK_BYTES));
        assert_eq!(raised_stack_limit(8 << 20, 32 << 20), Some(32 << 20), "no further than the hard limit");
        assert_eq!(raised_stack_limit(8 << 20, 8 << 20), None);
        assert_eq!(raised_stack_limit(1 << 30, infinity), None, "a larger limit is kept");
        assert_eq!(raised_stack_limit(infinity, infinity), None, "so is none");
    }
}
