//! Build script: records the git commit and the compiler version for the sweep records
//! (`harness::environment`), as the environment variables `BACKTRACK_BENCH_GIT_COMMIT` and
//! `BACKTRACK_BENCH_RUSTC_VERSION`; and, on Linux with glibc, links the `backtrack-bench`
//! binary statically (see [`link_binary_statically`]).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    link_binary_statically();

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

/// The C libraries the Rust standard library links on Linux with glibc.
const GLIBC_LIBRARIES: [&str; 6] = ["c", "m", "pthread", "dl", "rt", "util"];

/// Links the `backtrack-bench` binary as a static PIE, as `-C target-feature=+crt-static`
/// would: a whole `solve 247 --all` process then starts without the dynamic loader (no
/// libgcc_s, libm and libc to map, no 3,800 relocations): `--version` took 0.91 ms
/// instead of 1.31 ms, 56 page faults fewer (docs/startup.md). `crt-static` itself cannot be
/// set for the package alone: as a rustflag it reaches the proc-macro crates too, which it
/// refuses, unless every build names `--target`. So the binary's link line resolves the
/// libraries rustc names (`-lgcc_s -lm -lc`...) to their static archives, found through
/// `cc -print-file-name`, from a folder searched before the system's, and asks for a static
/// PIE. The library, tests and benches link as before. Skipped, leaving a dynamic binary,
/// when cross-compiling, off Linux/glibc, when the static archives are missing (`libc.a`
/// comes with libc6-dev or glibc-static), or with `BACKTRACK_BENCH_DYNAMIC=1`.
fn link_binary_statically() {
    for name in ["BACKTRACK_BENCH_DYNAMIC", "CC"] {
        println!("cargo:rerun-if-env-changed={name}");
    }
    let variable = |name: &str| std::env::var(name).unwrap_or_default();
    let glibc_host = variable("CARGO_CFG_TARGET_OS") == "linux"
        && variable("CARGO_CFG_TARGET_ENV") == "gnu"
        && variable("TARGET") == variable("HOST");
    let already_static = variable("CARGO_CFG_TARGET_FEATURE").split(',').any(|feature| feature == "crt-static");
    if variable("BACKTRACK_BENCH_DYNAMIC") == "1" || !glibc_host || already_static {
        return;
    }
    let glibc: Option<Vec<(String, PathBuf)>> = GLIBC_LIBRARIES
        .iter()
        .map(|name| format!("lib{name}.a"))
        .map(|file| static_archive(&file).map(|path| (file, path)))
        .collect();
    let (Some(glibc), Some(unwinder), Some(helpers)) =
        (glibc, static_archive("libgcc_eh.a"), static_archive("libgcc.a"))
    else {
        println!(
            "cargo:warning=static C libraries not found (libc.a: libc6-dev or glibc-static): backtrack-bench is linked dynamically"
        );
        return;
    };
    let folder = PathBuf::from(variable("OUT_DIR")).join("static-libs");
    if let Err(error) = prepare_archive_folder(&folder, &glibc, &unwinder, &helpers) {
        println!(
            "cargo:warning=could not prepare {}: {error}; backtrack-bench is linked dynamically",
            folder.display()
        );
        return;
    }
    // `-L` applies to every `-l` wherever it stands, and the folder is searched before the
    // compiler's own: there each library has only its `.a`, so even after rustc's
    // `-Bdynamic` the static archive is the one found.
    println!("cargo:rustc-link-arg-bin=backtrack-bench=-L{}", folder.display());
    println!("cargo:rustc-link-arg-bin=backtrack-bench=-static-pie");
}

/// The static archive `file` as the C compiler finds it, or `None`.
fn static_archive(file: &str) -> Option<PathBuf> {
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let output = Command::new(compiler).arg(format!("-print-file-name={file}")).output().ok()?;
    let path = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
    // A compiler that does not find the file prints its bare name back.
    (output.status.success() && path.is_absolute() && path.exists()).then_some(path)
}

/// Fills `folder` with a link to each glibc archive and a `libgcc_s.a` that stands for the
/// static unwinder (`libgcc_eh.a`) and its helpers (`libgcc.a`).
fn prepare_archive_folder(
    folder: &Path,
    glibc: &[(String, PathBuf)],
    unwinder: &Path,
    helpers: &Path,
) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)?;
    for (file, archive) in glibc {
        let link = folder.join(file);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(archive, link)?;
    }
    std::fs::write(folder.join("libgcc_s.a"), format!("GROUP ( {} {} )\n", unwinder.display(), helpers.display()))
}
