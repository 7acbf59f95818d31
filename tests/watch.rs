//! End-to-end tests of `watch`: `--max-steps N` draws N frames, counts the nodes they show
//! and says it stopped the search, a finished search ends on its solution, Ctrl-C exits with 130, a pause past a
//! minute a frame is refused.

use std::process::{Command, Stdio};

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_backtrack-bench"))
}

#[test]
fn max_steps_n_draws_n_frames_per_grid() {
    for (instance, steps, grids) in [("rings", 5, 1), ("hooks7", 7, 1), ("247", 3, 4)] {
        let output = binary()
            .args(["watch", instance, "--plain", "--max-steps", &steps.to_string()])
            .output()
            .expect("the binary runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let text = String::from_utf8(output.stdout).expect("frames are text");
        let frames = text.lines().filter(|line| line.starts_with("--- frame")).count();
        assert_eq!(frames, steps * grids, "{instance} --max-steps {steps}");
        let summary = text.lines().last().expect("a summary");
        assert!(summary.starts_with(&format!("{} frames", steps * grids)), "{summary}");
        assert!(
            summary.ends_with(&format!("(stopped by --max-steps {steps}: the search was not finished)")),
            "{summary}"
        );
        let stops = text.lines().filter(|line| line.starts_with(&format!("stopped by --max-steps {steps}"))).count();
        assert_eq!(stops, grids, "one line per grid stopped");
        // The summary's nodes are those the grids' last frames show, not one more per grid.
        let shown: u64 = text
            .lines()
            .filter(|line| line.contains(&format!("  step {steps}  ")))
            .map(|line| {
                let after = line.split("  nodes ").nth(1).expect("a status line names its nodes");
                after.split_whitespace().next().and_then(|nodes| nodes.parse::<u64>().ok()).expect("a count")
            })
            .sum();
        assert!(summary.starts_with(&format!("{} frames, {shown} nodes,", steps * grids)), "{summary}");
    }
}

#[test]
fn a_finished_search_ends_on_its_solution_with_a_legend_in_every_frame() {
    let output = binary().args(["watch", "rings", "--plain", "--max-steps", "1000"]).output().expect("the binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).expect("frames are text");
    let frames: Vec<&str> = text.split("\n--- ").collect();
    let last = frames.last().expect("frames");
    // The search backtracks past its one solution, so the final frame draws it again.
    assert!(last.starts_with("final frame: the last solution found"), "{last}");
    assert!(last.contains("unused values: none") && last.contains("last: solution"), "{last}");
    assert!(!last.contains("{?}  "), "every spot filled: {last}");
    assert!(frames.iter().all(|frame| frame.contains("<v> given")), "a legend in every frame");
    assert!(!text.contains("stopped by --max-steps"), "the search ended by itself");
    assert!(text.lines().last().expect("a summary").ends_with("1 solution"));
}

#[test]
fn ctrl_c_ends_a_watch_with_exit_code_130() {
    // A search of a million nodes, so that it is still running when interrupted.
    let mut child = binary()
        .args(["watch", "hooks7", "--rules", "basic", "--connectivity", "leaves", "--max-steps", "100000000"])
        .stdout(Stdio::null())
        .spawn()
        .expect("the binary starts");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let pid = libc::pid_t::try_from(child.id()).expect("a pid fits pid_t");
    // SAFETY: kill(2) with a pid of our own child and a valid signal number.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let status = child.wait().expect("the binary ends");
    assert_eq!(status.code(), Some(130));
}

#[test]
fn a_pause_past_a_minute_a_frame_is_refused() {
    let output = binary().args(["watch", "rings", "--delay", "60001"]).output().expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("60001 is not in 0..=60000"));
}
