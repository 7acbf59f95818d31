//! The environment every record carries: git commit, crate and compiler versions, CPU,
//! core count, host, the machine's identity, and the time of the run.
//!
//! The commit and the compiler version are captured at build time by `build.rs`; the rest
//! is read once per process.

use std::time::{SystemTime, UNIX_EPOCH};

/// Where and with what a sweep ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// `git rev-parse --short=12 HEAD` at build time, `-dirty` appended for uncommitted
    /// changes; `unknown` outside a git checkout.
    pub git_commit: String,
    /// The crate's version (`Cargo.toml`).
    pub crate_version: String,
    /// `rustc --version` of the compiler that built the binary.
    pub rustc_version: String,
    /// The CPU model (`/proc/cpuinfo`), `unknown` where it cannot be read.
    pub cpu_model: String,
    /// `std::thread::available_parallelism()` (1 when unknown).
    pub available_parallelism: usize,
    /// The machine's host name (tells shards apart).
    pub hostname: String,
    /// This machine as booted now ([`machine_id`]): `report` compares times only between
    /// runs of one machine.
    pub machine_id: String,
}

impl Environment {
    /// Reads the environment of this process.
    pub fn detect() -> Environment {
        Environment {
            git_commit: env!("BACKTRACK_BENCH_GIT_COMMIT").to_string(),
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            rustc_version: env!("BACKTRACK_BENCH_RUSTC_VERSION").to_string(),
            cpu_model: cpu_model(),
            available_parallelism: crate::machine_guard::available_cpus(),
            hostname: hostname(),
            machine_id: machine_id(),
        }
    }
}

fn cpu_model() -> String {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    text.lines()
        .find_map(|line| {
            let (key, value) = line.split_once(':')?;
            matches!(key.trim(), "model name" | "Model" | "cpu model" | "Hardware").then(|| value.trim().to_string())
        })
        .filter(|model| !model.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The machine's host name (`unknown` when it cannot be read).
pub fn hostname() -> String {
    #[cfg(unix)]
    {
        let mut buffer = [0u8; 256];
        // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
        let status = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) };
        if status == 0 {
            let end = buffer.iter().position(|&byte| byte == 0).unwrap_or(buffer.len());
            return String::from_utf8_lossy(&buffer[..end]).into_owned();
        }
    }
    std::env::var("HOSTNAME").or_else(|_| std::env::var("COMPUTERNAME")).unwrap_or_else(|_| "unknown".to_string())
}

/// Names the machine instead of [`machine_id`]'s hash, for machines that should compare
/// although they differ by boot or host name (a reboot of the same hardware, containers on
/// one host), or that should not although they share both.
pub const MACHINE_VARIABLE: &str = "BACKTRACK_BENCH_MACHINE";

/// This machine as booted now: 16 hex digits of the BLAKE3 hash of the host name and the
/// kernel's boot id (`/proc/sys/kernel/random/boot_id`, random at each boot), or the value
/// of [`MACHINE_VARIABLE`] when it is set. Two virtual machines made from one image share
/// the CPU model string, the host name and even `/etc/machine-id`, but never a boot id; a
/// reboot gives another id too, which is fair for timing, as frequency, cache and
/// neighbour state start afresh. Where there is no boot id (not Linux) the host name alone
/// is hashed. Read once per process.
pub fn machine_id() -> String {
    static MACHINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MACHINE
        .get_or_init(|| match std::env::var(MACHINE_VARIABLE) {
            Ok(name) if !name.trim().is_empty() => name.trim().to_string(),
            _ => {
                let boot_id = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
                hash_machine(&hostname(), boot_id.trim())
            }
        })
        .clone()
}

/// The identity of a machine named `host` with boot id `boot_id` (empty when unknown).
fn hash_machine(host: &str, boot_id: &str) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(host.as_bytes());
    hasher.update(&[0]);
    hasher.update(boot_id.as_bytes());
    hasher.finalize().to_hex()[..16].to_string()
}

/// The current time as RFC 3339 UTC with milliseconds (`2026-11-22T04:29:57.123Z`); such
/// strings sort chronologically.
pub fn timestamp_now() -> String {
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    format_timestamp(since_epoch.as_secs(), since_epoch.subsec_millis())
}

/// Formats seconds since the Unix epoch as RFC 3339 UTC.
pub fn format_timestamp(seconds: u64, millis: u32) -> String {
    let days = (seconds / 86_400) as i64;
    let second_of_day = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    )
}

/// Whether `text` is a time as [`format_timestamp`] writes it (`YYYY-MM-DDTHH:MM:SS`, a
/// fraction of a second or none, `Z`) on a day of the calendar at a time of the clock (a
/// leap second allowed). Runs are ordered by it as text: a shape alone let
/// `2026-99-99T99:99:99Z` sort after every real run and replace it.
pub fn is_timestamp(text: &str) -> bool {
    let shape = b"dddd-dd-ddTdd:dd:dd";
    let Some(rest) = text.get(shape.len()..).and_then(|rest| rest.strip_suffix('Z')) else { return false };
    let fraction_ok = rest.is_empty()
        || rest
            .strip_prefix('.')
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
    let shaped = shape.iter().zip(text.as_bytes()).all(|(&want, &byte)| match want {
        b'd' => byte.is_ascii_digit(),
        _ => byte == want,
    });
    if !(fraction_ok && shaped) {
        return false;
    }
    let number = |from: usize, to: usize| text[from..to].parse::<u32>().unwrap_or(u32::MAX);
    let (year, month, day) = (number(0, 4), number(5, 7), number(8, 10));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (1..=12).contains(&month)
        && (1..=days_in_month).contains(&day)
        && number(11, 13) < 24
        && number(14, 16) < 60
        && number(17, 19) <= 60
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// User and system CPU time of this process so far, in nanoseconds (zeros where unknown).
pub fn process_cpu_ns() -> (u64, u64) {
    #[cfg(unix)]
    {
        // SAFETY: getrusage fills the zeroed struct it is given; RUSAGE_SELF is always valid.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let nanos = |time: libc::timeval| time.tv_sec as u64 * 1_000_000_000 + time.tv_usec as u64 * 1000;
            return (nanos(usage.ru_utime), nanos(usage.ru_stime));
        }
    }
    (0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(format_timestamp(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_timestamp(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(format_timestamp(1_795_321_797, 123), "2026-11-22T04:29:57.123Z");
    }

    /// What the writer writes the reader takes, every day from 1970 to 2200 (leap days and
    /// the century years among them), and what no calendar has it refuses.
    #[test]
    fn every_written_timestamp_is_read_as_one_and_no_impossible_day_is() {
        for day in 0..84_000u64 {
            let written = format_timestamp(day * 86_400 + 86_399, 999);
            assert!(is_timestamp(&written), "{written}");
        }
        assert!(is_timestamp("2028-02-29T23:59:60.5Z") && is_timestamp("2026-11-22T04:29:57Z"));
        for impossible in [
            "2026-99-99T99:99:99.999Z",
            "2026-02-29T10:00:00Z",
            "2100-02-29T10:00:00Z",
            "2026-04-31T10:00:00Z",
            "0000-00-00T00:00:00.000Z",
            "2026-11-22T24:00:00Z",
            "2026-11-22 04:29:57Z",
            "2026-11-22T04:29:57.Z",
            "abc",
        ] {
            assert!(!is_timestamp(impossible), "{impossible}");
        }
    }

    #[test]
    fn the_environment_is_filled_in() {
        let environment = Environment::detect();
        assert!(!environment.git_commit.is_empty() && !environment.rustc_version.is_empty());
        assert!(environment.rustc_version.starts_with("rustc"), "{}", environment.rustc_version);
        assert!(environment.available_parallelism >= 1);
        assert_eq!(environment.machine_id, machine_id(), "read once, the same for every record");
    }

    #[test]
    fn machines_differ_by_host_or_boot() {
        let one = hash_machine("vm", "2b1e0c1a-0000-4000-8000-000000000001");
        assert_eq!(one.len(), 16);
        assert_eq!(one, hash_machine("vm", "2b1e0c1a-0000-4000-8000-000000000001"));
        assert_ne!(one, hash_machine("vm", "2b1e0c1a-0000-4000-8000-000000000002"), "a reboot or another VM");
        assert_ne!(one, hash_machine("vm2", "2b1e0c1a-0000-4000-8000-000000000001"));
        // The separator keeps `ab`+`c` apart from `a`+`bc`.
        assert_ne!(hash_machine("ab", "c"), hash_machine("a", "bc"));
    }
}
