//! The thread pool a run borrows: built once, before any clock starts, never rayon's global.

use std::fmt;

/// The most threads a pool may have (far above any machine this runs on; a guard against
/// typing a node count where a thread count was meant).
pub const MAX_THREADS: usize = 1024;

/// A rayon thread pool of a fixed size, built by the caller before timing starts and lent
/// to every run that needs threads ([`crate::parallel::search`] never builds one itself).
pub struct Pool {
    inner: rayon::ThreadPool,
    threads: usize,
}

impl Pool {
    /// A pool of `threads` worker threads, named `bb-worker-<index>`.
    pub fn new(threads: usize) -> Result<Pool, PoolError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(PoolError {
                message: format!("thread count must be between 1 and {MAX_THREADS}, not {threads}"),
            });
        }
        let inner = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|index| format!("bb-worker-{index}"))
            .build()
            .map_err(|error| PoolError { message: format!("cannot start {threads} threads: {error}") })?;
        Ok(Pool { inner, threads })
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    pub(crate) fn rayon(&self) -> &rayon::ThreadPool {
        &self.inner
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool").field("threads", &self.threads).finish()
    }
}

/// A pool that could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolError {
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PoolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_of_zero_or_absurdly_many_threads_are_refused() {
        assert!(Pool::new(0).unwrap_err().message.contains("between 1 and 1024"));
        assert!(Pool::new(MAX_THREADS + 1).is_err());
        assert_eq!(Pool::new(3).map(|pool| pool.threads()), Ok(3));
    }
}
