//! The thread pool a run borrows: built once, before any clock starts, never rayon's global.

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The longest a held thread waits for [`Pool::release`] before it goes back to rayon on
/// its own: a strategy that never releases loses at most this, and never deadlocks.
const LONGEST_HOLD: Duration = Duration::from_millis(10);

/// The stack of every worker thread. A worker searches its subproblems with the engine's
/// recursion, one nest of calls per depth (about 230 bytes a depth in a release build), on a
/// thread of its own whose default stack (2 MiB) a model 9,500 deep overflowed (a knapsack of
/// 10,000 items that all fit aborted the process). 64 MiB holds some 280,000 depths; it is
/// address space only until a search goes that deep.
pub const WORKER_STACK_BYTES: usize = 64 << 20;

/// The most threads a pool may have (far above any machine this runs on; a guard against
/// typing a node count where a thread count was meant).
pub const MAX_THREADS: usize = 1024;

crate::run_knob_enum! {
    /// Where the pool's threads may run.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum ThreadAffinity("thread affinity") {
        /// Thread `i` pinned to the `i`-th CPU the process may use (round robin when there
        /// are more threads than CPUs). Unpinned on a 2-core VM, the second worker of a 4 ms
        /// search joined 2 to 4 ms late in most runs (likely woken on the busy CPU and moved
        /// only at a later balancing tick); pinned, it joins at once.
        #[default]
        Pinned = "pinned" => "pool thread i on the i-th allowed CPU (default)",
        /// Wherever the operating system puts them.
        Free = "free" => "threads placed and moved by the operating system",
    }
}

/// Checks a thread count against the pool's range: the one range check of the crate, used
/// by the thread-count parsers of the run settings and by [`Pool::with_affinity`] alike.
pub fn check_thread_count(threads: usize) -> Result<usize, String> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(format!("`{threads}` threads: a thread count must be between 1 and {MAX_THREADS}"))
    }
}

/// A rayon thread pool of a fixed size, built by the caller before timing starts and lent
/// to every run that needs threads ([`crate::parallel::search`] never builds one itself).
pub struct Pool {
    /// The rayon pool; empty in a [`Pool::calling_thread`] pool until a strategy that needs
    /// threads asks for it.
    inner: OnceLock<rayon::ThreadPool>,
    threads: usize,
    affinity: ThreadAffinity,
    /// How many times [`Pool::release`] was called: a hold spins while the count is the one
    /// it began under. A count, not a flag: a hold whose thread starts it only after the
    /// release (a thread that was not running) ends at once, where with a flag it saw the
    /// next hold's `false` and spun on through that hold (the next `hold` waited for it to
    /// run out: a minute in the test below, up to [`LONGEST_HOLD`] in a run).
    releases: Arc<AtomicU64>,
    /// How long a held thread waits for the release at most ([`LONGEST_HOLD`]; a test
    /// lengthens it to tell a release from a hold that ran out).
    longest_hold: Duration,
    /// Holds ended, one per thread and hold, released or run out (for the tests).
    holds_ended: Arc<AtomicUsize>,
}

impl Pool {
    /// A pool of `threads` worker threads, named `bb-worker-<index>`, pinned to CPUs. A run
    /// wakes them with [`Pool::hold`] before its clock starts.
    pub fn new(threads: usize) -> Result<Pool, PoolError> {
        Pool::with_affinity(threads, ThreadAffinity::Pinned)
    }

    /// A pool of `threads` worker threads placed as `affinity` says (see [`Pool::new`]).
    pub fn with_affinity(threads: usize, affinity: ThreadAffinity) -> Result<Pool, PoolError> {
        check_thread_count(threads).map_err(|message| PoolError { message })?;
        let inner = OnceLock::new();
        // Set just above, so it cannot already hold a pool.
        let _ = inner.set(build_rayon(threads, affinity)?);
        Ok(Pool {
            inner,
            threads,
            affinity,
            releases: Arc::new(AtomicU64::new(0)),
            longest_hold: LONGEST_HOLD,
            holds_ended: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// A pool of one thread that starts nothing: for `sequential`, which runs on the calling
    /// thread. Starting, pinning and joining a thread it does not use cost a short run more
    /// than its search. A strategy that does ask this pool for
    /// threads gets one, started (unpinned) at that moment.
    pub fn calling_thread() -> Pool {
        Pool {
            inner: OnceLock::new(),
            threads: 1,
            affinity: ThreadAffinity::Free,
            releases: Arc::new(AtomicU64::new(0)),
            longest_hold: LONGEST_HOLD,
            holds_ended: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Wakes every thread and keeps it awake, spinning, until [`Pool::release`]; returns
    /// once every thread is awake, with the time that took.
    ///
    /// An idle pool thread sleeps, and a thread woken ahead of time falls asleep again
    /// within microseconds. So a run holds the pool before its clock starts and releases it
    /// just before it hands out work, and the wake time is reported on its own. Measured on
    /// a 2-core VM with pinned threads (medians of 9 runs): the prime-grid brute force with
    /// `auto` on 2 threads took 14.2 ms unheld against 7.6 ms held; hooks7 with `steal`,
    /// 4.6 against 3.2 ms. Held threads yield between looks, so the thread that prepares
    /// the run still gets a CPU.
    pub fn hold(&self) -> Duration {
        let start = Instant::now();
        let awake = self.keep_awake();
        while awake.load(Ordering::Acquire) < self.threads {
            std::thread::yield_now();
        }
        start.elapsed()
    }

    /// Keeps every thread spinning until [`Pool::release`], as [`Pool::hold`] does, without
    /// waiting for them: a thread still awake from the last job is held at once, one that
    /// is not running is held when it runs. For the gap between two searches of one run,
    /// where waiting for every thread would cost a scheduler tick per search on a busy
    /// machine. Returns the count of threads held so far.
    pub fn keep_awake(&self) -> Arc<AtomicUsize> {
        let held_under = self.releases.load(Ordering::Acquire);
        let awake = Arc::new(AtomicUsize::new(0));
        let (releases, counter) = (Arc::clone(&self.releases), Arc::clone(&awake));
        let (longest_hold, ended) = (self.longest_hold, Arc::clone(&self.holds_ended));
        self.rayon().spawn_broadcast(move |_| {
            counter.fetch_add(1, Ordering::AcqRel);
            let held_at = Instant::now();
            while releases.load(Ordering::Acquire) == held_under && held_at.elapsed() < longest_hold {
                std::thread::yield_now();
            }
            ended.fetch_add(1, Ordering::AcqRel);
        });
        awake
    }

    /// Lets the threads held by [`Pool::hold`] go (they take the work handed out next).
    pub fn release(&self) {
        self.releases.fetch_add(1, Ordering::AcqRel);
    }

    /// Runs `job(seat)` once for every seat `0..threads()`, each on whichever pool thread
    /// is free first, and returns when all have run.
    ///
    /// Unlike a broadcast, which runs the job on every thread and so waits for each one to
    /// be scheduled, a seat whose thread is not running yet is taken by the next thread
    /// that is free (a late seat finds the work done and returns at once). With one other
    /// CPU-bound process on a 2-core machine, a broadcast per grid waited a scheduler tick
    /// (4 ms) for the pinned thread sharing its CPU: 1,000 seed grids took 4.0 s against
    /// 0.19 s on a quiet machine.
    pub(crate) fn run_seats(&self, job: impl Fn(usize) + Sync) {
        let next = AtomicUsize::new(0);
        let (next, job) = (&next, &job);
        self.rayon().scope(|scope| {
            for _ in 0..self.threads {
                scope.spawn(move |_| job(next.fetch_add(1, Ordering::Relaxed)));
            }
        });
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The rayon pool behind this one (built on first use, its threads pinned as asked):
    /// for a caller that times a job on every worker, as the machinery costs do.
    pub fn rayon(&self) -> &rayon::ThreadPool {
        self.inner.get_or_init(|| match build_rayon(self.threads, self.affinity) {
            Ok(pool) => pool,
            Err(error) => panic!("{error}"),
        })
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool").field("threads", &self.threads).finish()
    }
}

/// Starts `threads` rayon threads named `bb-worker-<index>`, placed as `affinity` says.
fn build_rayon(threads: usize, affinity: ThreadAffinity) -> Result<rayon::ThreadPool, PoolError> {
    let cpus = if affinity == ThreadAffinity::Pinned { allowed_cpus() } else { Vec::new() };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|index| format!("bb-worker-{index}"))
        .stack_size(WORKER_STACK_BYTES)
        .start_handler(move |index| {
            if let Some(&cpu) = cpus.get(index.checked_rem(cpus.len()).unwrap_or(0)) {
                pin_current_thread(cpu);
            }
        })
        .build()
        .map_err(|error| PoolError { message: format!("cannot start {threads} threads: {error}") })
}

/// The CPUs this process may run on, in order (empty where that cannot be read).
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set, and sched_getaffinity only writes
    // into the set whose size it is given.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&cpu| libc::CPU_ISSET(cpu, &set)).collect()
    }
}

/// Pins the calling thread to `cpu`; a failure leaves it unpinned.
fn pin_current_thread(cpu: usize) {
    // SAFETY: as above; the set is built locally and passed with its size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
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

    #[test]
    fn a_calling_thread_pool_starts_its_thread_only_when_asked() {
        let pool = Pool::calling_thread();
        assert_eq!(pool.threads(), 1);
        assert!(pool.inner.get().is_none());
        assert_eq!(pool.rayon().install(rayon::current_num_threads), 1);
    }

    #[test]
    fn kept_awake_threads_spin_until_released_and_then_take_seats() {
        // Held for up to a minute unless released: a release that did nothing would keep
        // the threads far past the waits below.
        let pool = Pool { longest_hold: Duration::from_secs(60), ..Pool::new(3).expect("a pool of three") };
        let awake = pool.keep_awake();
        // Every thread runs the holding job (the count would stay short of 3 otherwise, and
        // the test hang).
        while awake.load(Ordering::Acquire) < 3 {
            std::thread::yield_now();
        }
        // Held: none leaves before the release, however long it waits.
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(pool.holds_ended.load(Ordering::Acquire), 0, "a held thread left before the release");
        let released_at = Instant::now();
        pool.release();
        while pool.holds_ended.load(Ordering::Acquire) < 3 {
            std::thread::yield_now();
        }
        assert!(released_at.elapsed() < Duration::from_secs(30), "the threads left only when their hold ran out");
        let seats = AtomicUsize::new(0);
        pool.run_seats(|_| {
            seats.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(seats.load(Ordering::Relaxed), 3);
        // Kept awake again right after a job, as a run does between components, and
        // released by the next search, whose seats every thread still takes; a later hold
        // finds every thread free again.
        pool.keep_awake();
        pool.release();
        pool.run_seats(|_| {
            seats.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(seats.load(Ordering::Relaxed), 6);
        // A thread that ran its seat before its part of the hold above runs that part now:
        // released already, it ends at once and does not hold up the next hold.
        let waited = pool.hold();
        assert!(waited < Duration::from_secs(30), "a hold waited {waited:?} for an earlier, released one");
        pool.release();
        while pool.holds_ended.load(Ordering::Acquire) < 9 {
            std::thread::yield_now();
        }
    }
}
