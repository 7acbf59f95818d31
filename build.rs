//! Build script: records the git commit and the compiler version for the sweep records
//! (`harness::environment`), as the environment variables `BACKTRACK_BENCH_GIT_COMMIT` and
//! `BACKTRACK_BENCH_RUSTC_VERSION`.

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    // `--untracked-files=no`: a stray file in the checkout does not change what was built.
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|status| !status.is_empty());
    let suffix = if dirty && commit != "unknown" { "-dirty" } else { "" };
    println!("cargo:rustc-env=BACKTRACK_BENCH_GIT_COMMIT={commit}{suffix}");

    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BACKTRACK_BENCH_RUSTC_VERSION={version}");

    // Rerun when the commit, the branch, the index or the sources change (naming any path
    // turns off cargo's default of rerunning on every file of the package).
    for path in ["build.rs", "Cargo.toml", "src"] {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        for file in ["HEAD", "index"] {
            println!("cargo:rerun-if-changed={}", Path::new(&git_dir).join(file).display());
        }
    }
    if let (Some(common_dir), Some(branch)) =
        (git(&["rev-parse", "--git-common-dir"]), git(&["rev-parse", "--symbolic-full-name", "HEAD"]))
    {
        for file in [branch.as_str(), "packed-refs"] {
            let path = Path::new(&common_dir).join(file);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}

/// Runs git in the package folder; `None` when git is missing or fails. Optional locks are
/// off so that `git status` does not rewrite the index (which would retrigger this script).
fn git(arguments: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(arguments)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .current_dir(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string()))
        .output()
        .ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}
