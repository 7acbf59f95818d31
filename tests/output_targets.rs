//! End-to-end tests of where `solve --solutions FILE` and `--profile FILE` write: a FIFO
//! is streamed into and stays a FIFO, `/dev/null` stays a character device, a symlink
//! stays a link and its target gets the content; a replaced regular file keeps its permission
//! bits; the file standard output or error goes to is written through that stream. Both naming
//! one regular file (however spelled) is refused, and so is a file this user may not write, a
//! name ending in `/`, or standard output beside `--json`.
//! `report` keeps a results folder's README that is a link to a page elsewhere a link.

mod common;

use common::{make_fifo, run, text};
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

fn solve_ok(arguments: &[&str]) {
    let output = run(arguments);
    assert!(output.status.success(), "{arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn solutions_stream_into_a_fifo_that_stays_a_fifo() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let fifo = folder.path().join("solutions");
    if !make_fifo(&fifo) {
        eprintln!("mkfifo is missing: skipped");
        return;
    }
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(reader_path).expect("the FIFO opens").read_to_string(&mut text).expect("it reads");
        text
    });
    solve_ok(&["solve", "rings", "--all", "--solutions", fifo.to_str().expect("UTF-8")]);
    let text = reader.join().expect("the reader");
    assert!(!text.is_empty() && text.lines().all(|line| line.contains("\"solution\"")), "{text}");
    assert!(std::fs::symlink_metadata(&fifo).expect("still there").file_type().is_fifo());
}

#[test]
fn solutions_and_profile_into_dev_null_leave_it_a_character_device() {
    solve_ok(&["solve", "rings", "--all", "--solutions", "/dev/null", "--profile", "/dev/null"]);
    assert!(std::fs::metadata("/dev/null").expect("/dev/null").file_type().is_char_device());
    // A device that refuses the write: the run fails (exit 1), naming the flag.
    let full = run(&["solve", "rings", "--all", "--profile", "/dev/full"]);
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--profile /dev/full: No space left on device"), "{stderr}");
}

#[test]
fn a_symlinked_solutions_or_profile_file_stays_a_link_and_its_target_gets_the_content() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let (solutions_link, profile_link) = (folder.path().join("solutions.jsonl"), folder.path().join("profile.csv"));
    std::os::unix::fs::symlink("real-solutions.jsonl", &solutions_link).expect("a link");
    std::os::unix::fs::symlink("real-profile.csv", &profile_link).expect("a link");
    solve_ok(&[
        "solve",
        "rings",
        "--all",
        "--solutions",
        solutions_link.to_str().expect("UTF-8"),
        "--profile",
        profile_link.to_str().expect("UTF-8"),
    ]);
    for link in [&solutions_link, &profile_link] {
        assert!(std::fs::symlink_metadata(link).expect("the link").file_type().is_symlink(), "{}", link.display());
    }
    let solutions = std::fs::read_to_string(folder.path().join("real-solutions.jsonl")).expect("the target");
    assert!(solutions.lines().count() > 0 && solutions.contains("\"solution\""), "{solutions}");
    let profile = std::fs::read_to_string(folder.path().join("real-profile.csv")).expect("the target");
    assert!(profile.starts_with("component,depth,nodes"), "{profile}");
}

#[test]
fn replaced_solutions_and_profile_files_keep_their_permission_bits() {
    use std::os::unix::fs::PermissionsExt;
    let folder = tempfile::tempdir().expect("a temporary folder");
    let (solutions, profile) = (folder.path().join("solutions.jsonl"), folder.path().join("profile.csv"));
    for (file, mode) in [(&solutions, 0o600), (&profile, 0o640)] {
        std::fs::write(file, "old").expect("the old file");
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode)).expect("its mode");
    }
    let (solutions_arg, profile_arg) = (solutions.to_str().expect("UTF-8"), profile.to_str().expect("UTF-8"));
    solve_ok(&["solve", "rings", "--all", "--solutions", solutions_arg, "--profile", profile_arg]);
    for (file, mode) in [(&solutions, 0o600), (&profile, 0o640)] {
        let metadata = std::fs::metadata(file).expect("the new file");
        assert_eq!(metadata.permissions().mode() & 0o777, mode, "{}", file.display());
        assert!(metadata.len() > 3, "{} was replaced", file.display());
    }
}

#[test]
fn a_solutions_or_profile_file_this_user_may_not_write_is_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: `geteuid` has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        eprintln!("root may write any file: skipped");
        return;
    }
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("kept.txt");
    std::fs::write(&file, "precious").expect("the file");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).expect("read-only");
    for flag in ["--solutions", "--profile"] {
        let output = run(&["solve", "rings", "--all", flag, file.to_str().expect("UTF-8")]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("is not writable by this user"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&file).expect("kept"), "precious");
    }
}

#[test]
fn solutions_or_profile_to_standard_output_beside_json_is_refused() {
    for flag in ["--solutions", "--profile"] {
        let output = run(&["solve", "rings", "--all", "--json", flag, "-"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("the standard output holds the --json report"), "{stderr}");
        assert!(output.stdout.is_empty(), "nothing printed");
    }
}

#[test]
fn solutions_and_profile_naming_one_regular_file_are_refused_before_the_run() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let csv = folder.path().join("profile.csv");
    let csv = csv.to_str().expect("UTF-8");
    let svg = folder.path().join("profile.svg");
    for solutions in [csv, svg.to_str().expect("UTF-8")] {
        let output = run(&["solve", "rings", "--all", "--solutions", solutions, "--profile", csv]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("--solutions {solutions} is also where --profile writes")), "{stderr}");
    }
    assert_eq!(std::fs::read_dir(folder.path()).expect("the folder").count(), 0, "nothing was written");
    // Other spellings of the same files: through `..`, and through a linked folder.
    let inner = folder.path().join("d");
    std::fs::create_dir(&inner).expect("a folder");
    std::os::unix::fs::symlink(&inner, folder.path().join("link")).expect("a link");
    let csv = inner.join("x.csv");
    let (csv, dotted, linked) = (
        csv.to_str().expect("UTF-8"),
        format!("{}/../d/x.svg", text(&inner)),
        format!("{}/link/x.csv", text(folder.path())),
    );
    for solutions in [dotted.as_str(), linked.as_str()] {
        let output = run(&["solve", "rings", "--all", "--solutions", solutions, "--profile", csv]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("is also where --profile writes"), "{stderr}");
    }
    assert_eq!(std::fs::read_dir(&inner).expect("the folder").count(), 0, "nothing was written");
}

/// Standard output or error sent to a regular file, and named again as an output (`/dev/fd/1`,
/// `/proc/self/fd/2`, the file's own name): written through the stream, not replaced by a
/// new file while the stream writes on into the old one (the report was lost).
#[test]
fn an_output_naming_the_file_standard_output_or_error_writes_goes_through_that_stream() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let out = folder.path().join("out.txt");
    for (solutions, stream) in [("/dev/fd/1", 1), ("/proc/self/fd/1", 1), (text(&out), 1), ("/dev/fd/2", 2)] {
        let file = std::fs::File::create(&out).expect("the output file");
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench"));
        command.args(["solve", "prime-grid", "--all", "--solutions", solutions]);
        if stream == 1 {
            command.stdout(file);
        } else {
            command.stderr(file);
        }
        let status = command.status().expect("the binary runs");
        assert!(status.success(), "{solutions}");
        let written = std::fs::read_to_string(&out).expect("the output file");
        assert_eq!(written.lines().filter(|line| line.contains("\"solution\"")).count(), 4, "{solutions}: {written}");
        let report = if stream == 1 { "answer:" } else { "4 solution(s) written to" };
        assert!(written.contains(report), "{solutions}: the stream's own lines are kept: {written}");
    }
    // Beside --json, a name of the standard output's file is the standard output.
    let file = std::fs::File::create(&out).expect("the output file");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(["solve", "rings", "--all", "--json", "--solutions", "/dev/fd/1"])
        .stdout(file)
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn an_output_path_ending_in_a_slash_is_refused_before_the_run() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let missing = format!("{}/nd/", text(folder.path()));
    for (flag, name) in
        [("--solutions", missing.clone()), ("--profile", missing.clone()), ("--solutions", format!("{missing}."))]
    {
        let output = run(&["solve", "rings", "--all", flag, &name]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("which names a folder"), "{stderr}");
    }
    let output =
        run(&["explain", "rings", "--parallel", "steal", "--threads", "2", "--repeats", "1", "--out", &missing]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(std::fs::read_dir(folder.path()).expect("the folder").count(), 0, "nothing was written");
}

/// Ctrl-C, SIGTERM or SIGHUP during `solve --solutions FILE` removes the temporary file the
/// solutions were going to and leaves no FILE: nothing half-written stays behind. Ctrl-C
/// exits 130; the other two end the process by their signal, as they would without it.
#[test]
fn a_stopping_signal_during_solve_removes_the_unfinished_solutions_file() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let (status, stderr) = solve_stopped_by(signal);
        if signal == libc::SIGINT {
            assert_eq!(status.code(), Some(130), "{stderr}");
            assert!(stderr.contains("stopped by Ctrl-C; no solutions file written"), "{stderr}");
        } else {
            assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(signal), "{signal}: {stderr}");
        }
    }
}

/// Runs `solve --solutions FILE` into a new folder, sends `signal` once the temporary file
/// exists, and asserts that the folder is empty after the exit; returns the exit status
/// and standard error.
fn solve_stopped_by(signal: libc::c_int) -> (std::process::ExitStatus, String) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("solutions.jsonl");
    let instance = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/prime_grid_enumeration.json");
    // The post's brute force over the enumeration instance runs for minutes: it is still
    // searching when the signal comes.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(["solve", instance, "--all", "--mode", "brute", "--solutions", file.to_str().expect("UTF-8")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let listing = || std::fs::read_dir(folder.path()).expect("the folder").count();
    let started = std::time::Instant::now();
    while listing() == 0 {
        assert!(started.elapsed().as_secs() < 60, "no temporary file after a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // The handlers are installed before the temporary file is named to them; a moment more
    // lets the search start.
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let output = child.wait_with_output().expect("the binary exits");
    let left: Vec<_> =
        std::fs::read_dir(folder.path()).expect("the folder").map(|entry| entry.unwrap().path()).collect();
    assert!(left.is_empty(), "signal {signal} left behind: {left:?}");
    (output.status, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// A results folder whose README.md and summary link to files elsewhere (a wiki's checkout,
/// say): `report` writes through the links and leaves them; it used to replace each link
/// with a file.
#[test]
fn report_writes_through_a_symlinked_readme_and_leaves_the_link() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let results = folder.path().join("results");
    std::fs::create_dir(&results).expect("the results folder");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report");
    for file in ["fixture-runs.csv", "fixture-counts.csv"] {
        std::fs::copy(fixtures.join(file), results.join(file)).expect("the report fixture");
    }
    let readme = results.join("README.md");
    std::os::unix::fs::symlink("../page.md", &readme).expect("a link");
    // The sweep's summary linked elsewhere too: written through its link as well.
    let summary = results.join("fixture-summary.csv");
    std::os::unix::fs::symlink("../summary.csv", &summary).expect("a link");
    let output = run(&["report", "--out", results.to_str().expect("UTF-8"), "--quiet"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for link in [&readme, &summary] {
        assert!(std::fs::symlink_metadata(link).expect("the link").file_type().is_symlink(), "{}", link.display());
    }
    let page = std::fs::read_to_string(folder.path().join("page.md")).expect("the linked page");
    assert!(page.contains("fixture"), "{page}");
    let rows = std::fs::read_to_string(folder.path().join("summary.csv")).expect("the linked summary");
    assert!(rows.starts_with("sweep,") && rows.lines().count() > 1, "{rows}");
    // A README that is a FIFO is not streamed into (nothing may read it: report would wait
    // for ever): refused as the user's to move away, naming it, before anything is written.
    std::fs::remove_file(&readme).expect("the link");
    std::fs::write(folder.path().join("summary.csv"), "sentinel").expect("the linked summary");
    if !make_fifo(&readme) {
        eprintln!("mkfifo is missing: the FIFO case skipped");
        return;
    }
    let output = run(&["report", "--out", results.to_str().expect("UTF-8"), "--quiet"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("README.md: is a FIFO") && stderr.contains("move it away"), "{stderr}");
    let rows = std::fs::read_to_string(folder.path().join("summary.csv")).expect("the linked summary");
    assert_eq!(rows, "sentinel", "the summary was not rewritten");
    // A folder where a summary goes is refused the same way.
    std::fs::remove_file(&readme).expect("the FIFO");
    std::fs::remove_file(&summary).expect("the link");
    std::fs::create_dir(&summary).expect("a folder");
    let output = run(&["report", "--out", results.to_str().expect("UTF-8"), "--quiet"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("fixture-summary.csv: is a folder"), "{stderr}");
    assert!(!readme.exists(), "no README was written");
}
