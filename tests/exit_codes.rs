//! The exit codes the tool can give are documented alike in `--help` and the README.

/// Every exit code: success, failure, bad input, a model's panic, a panic (a bug), Ctrl-C.
const CODES: [&str; 6] = ["0", "1", "2", "3", "101", "130"];

#[test]
fn help_and_readme_list_every_exit_code() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench")).arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout).replace('\n', " ");
    let listed = &help[help.find("Exit codes:").expect("--help lists the exit codes")..];
    for code in CODES {
        assert!(listed.contains(&format!("{code} ")), "--help lacks exit code {code}: {listed}");
    }
    let readme = include_str!("../README.md");
    let table = &readme[readme.find("Exit codes, every one").expect("the README lists the exit codes")..];
    for code in CODES {
        assert!(table.contains(&format!("| `{code}` |")), "the README lacks exit code {code}");
    }
}

/// Output that cannot be written is a failure (1), help included: `--help > /dev/full` used
/// to exit 0 with nothing written.
#[test]
fn help_that_cannot_be_written_fails() {
    let program = env!("CARGO_BIN_EXE_backtrack-bench");
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("/dev/full is missing: skipped");
        return;
    };
    for arguments in [&["--help"][..], &["solve", "--help"], &["--version"], &["list"]] {
        let output =
            std::process::Command::new(program).args(arguments).stdout(full.try_clone().unwrap()).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}: {stderr}");
        assert!(stderr.contains("No space left on device"), "{arguments:?}: {stderr}");
    }
}

/// A reader that has gone (`| head` that has read enough) is not a failure: help into a
/// pipe whose reading end is closed before the program starts exits 0, silently.
#[test]
fn help_into_a_closed_pipe_exits_0() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .arg("--help")
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// `solve --solutions -` into a pipe whose reader is gone (`| head`) stops quietly with
/// success, as every other output to a closed pipe does; it used to exit 1 naming the
/// broken pipe.
#[test]
fn solutions_into_a_closed_pipe_exit_0() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
        .args(["solve", "rings", "--all", "--solutions", "-"])
        .stdout(writer)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

/// Standard error closed (`2>&1 | head -1` whose reader has gone, or `2>&-`) loses the notes
/// and progress lines, not the work: a sweep, a split and a report finish and exit 0. Each
/// note was an `eprintln!`, whose failed write panicked (exit 101) and stopped a sweep
/// halfway, its remaining runs lost.
#[test]
fn commands_with_standard_error_closed_finish_their_work() {
    let folder = tempfile::tempdir().unwrap();
    let spec = folder.path().join("spec.toml");
    let spec_text = "name = \"s\"\nrepeats = 2\n[[block]]\ninstances = [\"rings\", \"prime-grid\"]\n";
    std::fs::write(&spec, spec_text).unwrap();
    let results = folder.path().join("results");
    let (spec, results_text) = (spec.to_str().unwrap(), results.to_str().unwrap());
    let split = folder.path().join("split");
    let commands: [&[&str]; 3] = [
        &["sweep", "--spec", spec, "--out", results_text],
        &["report", "--out", results_text],
        &["split", "rings", "--parts", "3", "--out", split.to_str().unwrap()],
    ];
    for arguments in commands {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
            .args(arguments)
            .stderr(writer)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{arguments:?}");
    }
    let runs = std::fs::read_to_string(results.join("s-runs.csv")).unwrap();
    assert_eq!(runs.lines().count(), 1 + 2 * 2, "every run recorded: {runs}");
    assert!(results.join("s-runs.csv.complete").exists() && results.join("README.md").exists());
    assert!(split.join("plan.json").exists());
}
