//! The noisy-machine guard: while a sweep or `explain` runs, a background thread samples `/proc` every
//! 250 ms (three small reads: cheap enough not to load the machine itself) and warns when
//! other processes use the CPUs, so that timings taken then can be marked.
//!
//! Thresholds: a run is *quiet* when other processes used at most [`OTHER_CPU_LIMIT`] of
//! the CPUs this process may run on, over the run (or over the last [`MIN_WINDOW`] for a
//! shorter run: the kernel counts CPU time in 10 ms ticks). Before the runs, a 1-minute
//! load average above `cores - 0.5` is warned about too. It knows `/proc`, never a search.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Other processes' share of the CPUs above which a run is not quiet.
pub const OTHER_CPU_LIMIT: f64 = 0.10;
/// The shortest interval a share is measured over.
pub const MIN_WINDOW: Duration = Duration::from_secs(1);
/// The fewest ticks (10 ms of one CPU each) over which a shorter interval's share is judged:
/// a tick or two counted to the wrong process is then 2% at most.
const MIN_JUDGED_TICKS: u64 = 100;
const SAMPLE_INTERVAL: Duration = Duration::from_millis(250);
const KEPT_SAMPLES: usize = 16;

/// One reading of the counters.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    at: Instant,
    busy_ticks: u64,
    total_ticks: u64,
    own_ticks: u64,
    load_average: f64,
}

/// A point a run's interval starts from ([`MachineGuard::mark`]).
#[derive(Debug, Clone, Copy)]
pub struct GuardMark(Option<Sample>);

/// What the machine did over an interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MachineSnapshot {
    /// 1-minute load average at the end (this process's own threads included).
    pub load_average: f64,
    /// Other processes' share of this process's CPUs, 0 to 1.
    pub other_cpu_share: f64,
    /// `other_cpu_share <= OTHER_CPU_LIMIT`, or the interval too short to judge.
    pub quiet: bool,
    /// Whether the interval was at least [`MIN_WINDOW`] long or spans [`MIN_JUDGED_TICKS`]
    /// of the allowed CPUs' ticks. A shorter one (only in the guard's first second, before
    /// it has a sample that old) spans a few of the kernel's 10 ms ticks, where one tick
    /// counted to another process makes a share of 10% or more: such a share is not judged
    /// (a 0.25 s `explain` called 14 of 50 rounds busy on an idle machine).
    pub judged: bool,
}

/// The machine columns of one run's record (empty where `/proc` could not be read).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RunMachineState {
    /// Whether the machine was quiet over the run.
    pub machine_quiet: Option<bool>,
    /// Other processes' CPU share over the run.
    pub other_cpu_share: Option<f64>,
    /// 1-minute load average at the end of the run.
    pub load_average: Option<f64>,
    /// Peak resident memory in KiB (of the run when the peak could be reset before it).
    pub peak_rss_kib: Option<u64>,
}

/// The background sampler.
pub struct MachineGuard {
    samples: Arc<Mutex<VecDeque<Sample>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// The CPUs this process may run on (`std::thread::available_parallelism`, 1 when
/// unknown): the one place the tool reads it.
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |count| count.get())
}

impl MachineGuard {
    /// Starts sampling; `warn` receives one line when the machine turns busy (at most once
    /// per 30 s) and, at once, when the load average is already high.
    pub fn start(warn: impl Fn(&str) + Send + 'static) -> MachineGuard {
        let samples = Arc::new(Mutex::new(VecDeque::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let first = read_sample();
        let cores = available_cpus() as f64;
        if let Some(sample) = first.filter(|sample| sample.load_average > cores - 0.5) {
            warn(&format!(
                "warning: the machine is busy already (load average {:.2} on {cores} cores); timings will be noisy",
                sample.load_average
            ));
        }
        if let Some(governors) = cpu_governors().filter(|governors| governors != "performance") {
            warn(&format!(
                "warning: CPU frequency governor `{governors}` (not `performance`): the clock may change speed during the runs"
            ));
        }
        let thread = first.map(|first| {
            samples.lock().expect("not poisoned").push_back(first);
            let (samples, stop) = (Arc::clone(&samples), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut last_warning: Option<Instant> = None;
                while !stop.load(Ordering::Relaxed) {
                    // Parked rather than asleep: `halt` unparks it, so the end of a sweep
                    // (or its interruption) does not wait out the interval.
                    std::thread::park_timeout(SAMPLE_INTERVAL);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(now) = read_sample() else { continue };
                    let mut kept = samples.lock().expect("not poisoned");
                    let start = window_start(&kept, now.at);
                    kept.push_back(now);
                    if kept.len() > KEPT_SAMPLES {
                        kept.pop_front();
                    }
                    drop(kept);
                    let share = start.map_or(0.0, |start| other_share(&start, &now));
                    if share > OTHER_CPU_LIMIT && last_warning.is_none_or(|at| at.elapsed() > Duration::from_secs(30)) {
                        last_warning = Some(Instant::now());
                        warn(&format!(
                            "warning: other processes are using {:.0}% of the CPUs; timings taken now are noisy",
                            share * 100.0
                        ));
                    }
                }
            })
        });
        MachineGuard { samples, stop, thread }
    }

    /// The start of a run's interval.
    pub fn mark(&self) -> GuardMark {
        GuardMark(read_sample())
    }

    /// The machine over the interval from `mark` to now (at least [`MIN_WINDOW`] long);
    /// `None` where `/proc` cannot be read.
    pub fn snapshot_since(&self, mark: &GuardMark) -> Option<MachineSnapshot> {
        let now = read_sample()?;
        let mut start = mark.0?;
        if now.at.duration_since(start.at) < MIN_WINDOW {
            if let Ok(kept) = self.samples.lock() {
                start = window_start(&kept, now.at).unwrap_or(start);
            }
        }
        let share = other_share(&start, &now);
        let ticks = now.total_ticks.saturating_sub(start.total_ticks);
        let judged = now.at.duration_since(start.at) >= MIN_WINDOW || ticks >= MIN_JUDGED_TICKS;
        Some(MachineSnapshot {
            load_average: now.load_average,
            other_cpu_share: share,
            quiet: !judged || share <= OTHER_CPU_LIMIT,
            judged,
        })
    }

    /// The record columns of a run that started at `mark` (peak memory read now).
    pub fn run_state(&self, mark: &GuardMark) -> RunMachineState {
        let snapshot = self.snapshot_since(mark);
        RunMachineState {
            machine_quiet: snapshot.map(|s| s.quiet),
            other_cpu_share: snapshot.map(|s| s.other_cpu_share),
            load_average: snapshot.map(|s| s.load_average),
            peak_rss_kib: peak_memory::read_kib(),
        }
    }

    /// Stops the sampler.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

impl Drop for MachineGuard {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The newest kept sample at least [`MIN_WINDOW`] before `now` (else the oldest).
fn window_start(kept: &VecDeque<Sample>, now: Instant) -> Option<Sample> {
    kept.iter().rev().find(|sample| now.duration_since(sample.at) >= MIN_WINDOW).or(kept.front()).copied()
}

/// Other processes' busy ticks over all allowed CPUs' ticks between two samples.
fn other_share(start: &Sample, end: &Sample) -> f64 {
    let total = end.total_ticks.saturating_sub(start.total_ticks);
    let busy = end.busy_ticks.saturating_sub(start.busy_ticks);
    let own = end.own_ticks.saturating_sub(start.own_ticks);
    if total == 0 {
        return 0.0;
    }
    (busy.saturating_sub(own) as f64 / total as f64).clamp(0.0, 1.0)
}

fn read_sample() -> Option<Sample> {
    let allowed = allowed_cpus();
    let (busy_ticks, total_ticks) = parse_cpu_ticks(&std::fs::read_to_string("/proc/stat").ok()?, &allowed)?;
    let own_ticks = parse_own_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)?;
    let load_average = parse_load_average(&std::fs::read_to_string("/proc/loadavg").ok()?)?;
    Some(Sample { at: Instant::now(), busy_ticks, total_ticks, own_ticks, load_average })
}

/// The CPUs this process may run on (empty: all).
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: sched_getaffinity fills the zeroed set it is given, of the size passed.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) } != 0 {
        return Vec::new();
    }
    (0..libc::CPU_SETSIZE as usize).filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) }).collect()
}

/// Busy and total ticks summed over the `cpuN` lines of `/proc/stat` whose N is allowed
/// (all when `allowed` is empty). Busy excludes idle and iowait.
fn parse_cpu_ticks(stat: &str, allowed: &[usize]) -> Option<(u64, u64)> {
    let mut sums = None;
    for line in stat.lines() {
        let mut fields = line.split_whitespace();
        // `cpuN` lines only (the `cpu` line sums every CPU, allowed or not).
        let Some(Ok(cpu)) = fields.next().and_then(|name| name.strip_prefix("cpu")).map(str::parse::<usize>) else {
            continue;
        };
        if !allowed.is_empty() && !allowed.contains(&cpu) {
            continue;
        }
        let ticks: Vec<u64> = fields.take(8).filter_map(|field| field.parse().ok()).collect();
        if ticks.len() < 8 {
            continue;
        }
        let total: u64 = ticks.iter().sum();
        let (busy, total_so_far) = sums.unwrap_or((0, 0));
        sums = Some((busy + total - ticks[3] - ticks[4], total_so_far + total));
    }
    sums
}

/// utime + stime of `/proc/self/stat` (fields 14 and 15; the name in parentheses may hold spaces).
fn parse_own_ticks(stat: &str) -> Option<u64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// The 1-minute load average of `/proc/loadavg`.
fn parse_load_average(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

/// The CPU frequency governors in use (`performance`, or several joined by `,`), where readable.
pub fn cpu_governors() -> Option<String> {
    let mut governors: Vec<String> = std::fs::read_dir("/sys/devices/system/cpu")
        .ok()?
        .flatten()
        .filter_map(|entry| std::fs::read_to_string(entry.path().join("cpufreq/scaling_governor")).ok())
        .map(|text| text.trim().to_string())
        .collect();
    governors.sort();
    governors.dedup();
    (!governors.is_empty()).then(|| governors.join(","))
}

/// Peak resident memory of this process.
pub mod peak_memory {
    /// Resets the peak (`echo 5 > /proc/self/clear_refs`); false where not allowed, and
    /// then [`read_kib`] gives the peak of the whole process so far.
    pub fn reset() -> bool {
        std::fs::write("/proc/self/clear_refs", "5").is_ok()
    }

    /// The peak since the last [`reset`]: VmHWM of `/proc/self/status`, else `ru_maxrss`.
    pub fn read_kib() -> Option<u64> {
        std::fs::read_to_string("/proc/self/status").ok().and_then(|text| parse_vm_hwm(&text)).or_else(max_rss_kib)
    }

    pub(super) fn parse_vm_hwm(status: &str) -> Option<u64> {
        let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    fn max_rss_kib() -> Option<u64> {
        // SAFETY: getrusage fills the zeroed struct it is given; RUSAGE_SELF is always valid.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        (unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0).then_some(usage.ru_maxrss as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_under_a_second_is_not_judged() {
        if read_sample().is_none() {
            return; // no /proc here: nothing is judged either way
        }
        let guard = MachineGuard::start(|_| {});
        let snapshot = guard.snapshot_since(&guard.mark()).expect("/proc was read");
        assert!(!snapshot.judged && snapshot.quiet, "{snapshot:?}");
    }

    const STAT: &str = "cpu  300 0 100 1000 50 0 0 0 0 0\n\
                        cpu0 100 0 50 500 25 0 0 0 0 0\n\
                        cpu1 200 0 50 500 25 0 0 0 0 0\n\
                        intr 12345\n";

    #[test]
    fn proc_stat_sums_busy_and_total_ticks_of_the_allowed_cpus() {
        assert_eq!(parse_cpu_ticks(STAT, &[]), Some((400, 1450)));
        assert_eq!(parse_cpu_ticks(STAT, &[1]), Some((250, 775)));
        assert_eq!(parse_cpu_ticks("intr 1\n", &[]), None);
    }

    #[test]
    fn own_ticks_skip_a_process_name_with_spaces() {
        let stat = "4242 (my (odd) name) R 1 2 3 4 5 6 7 8 9 10 31 9 0 0 20 0 1 0";
        assert_eq!(parse_own_ticks(stat), Some(40));
        assert_eq!(parse_load_average("1.25 0.80 0.50 2/345 6789\n"), Some(1.25));
        assert_eq!(peak_memory::parse_vm_hwm("VmPeak:\t 2000 kB\nVmHWM:\t  1536 kB\n"), Some(1536));
    }

    #[test]
    fn the_share_of_other_processes_excludes_our_own_ticks() {
        let at = Instant::now();
        let sample =
            |busy, total, own| Sample { at, busy_ticks: busy, total_ticks: total, own_ticks: own, load_average: 0.0 };
        // 200 ticks of 2 CPUs: 120 busy, 100 of them ours -> others used 10%.
        assert_eq!(other_share(&sample(0, 0, 0), &sample(120, 200, 100)), 0.1);
        assert_eq!(other_share(&sample(5, 5, 5), &sample(5, 5, 5)), 0.0);
    }
}
