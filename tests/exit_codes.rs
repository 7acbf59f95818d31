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
