//! End-to-end tests of `explain`: a real run on a small instance, its report, and bad input.

mod common;

use backtrack_bench::unstable::explain::ranks::MIN_ROUNDS_TO_RANK;
use backtrack_bench::unstable::explain::CAUSE_NAMES;
use common::run;

/// The cells of the Markdown table rows that follow the header line starting with `header`.
fn table(text: &str, header: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|line| !line.starts_with(header))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| line.trim_matches('|').split('|').map(|cell| cell.trim().to_string()).collect())
        .collect()
}

/// A printed share (`49.0% [44.1, 53.2]`) as its percentage.
fn share_percent(cell: &str) -> f64 {
    let share = cell.split('%').next().unwrap_or_default();
    share.parse().unwrap_or_else(|_| panic!("not a share: {cell}"))
}

#[test]
fn explaining_exhaustive_prime_grid_at_two_threads_writes_a_complete_report() {
    let _alone = ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let folder = tempfile::tempdir().expect("a temporary folder");
    let report_path = folder.path().join("prime.md");
    let output = run(&[
        "explain",
        "prime-grid",
        "--parallel",
        "auto",
        "--threads",
        "2",
        "--repeats",
        "1",
        "--out",
        report_path.to_str().expect("a UTF-8 path"),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report = std::fs::read_to_string(&report_path).expect("the report was written");
    let svg = std::fs::read_to_string(report_path.with_extension("svg")).expect("the plot was written");
    assert!(svg.starts_with("<svg") && svg.contains("lost time per cause"), "{}", &svg[..svg.len().min(200)]);
    assert!(report.contains("](prime.svg)"), "the report links its plot");

    // Every configuration searched the same exhaustive tree: the node ratio is exactly 1.
    let runs = table(&report, "| configuration |");
    assert_eq!(runs.len(), 7, "explained, sequential, 1 thread, 2 counter layouts, 2 state runs: {runs:?}");
    let sequential_nodes = &runs[1][2];
    assert!(runs.iter().all(|row| &row[2] == sequential_nodes), "{runs:?}");
    assert!(!report.contains("BUG"), "{report}");

    // Every cause is listed once; the printed shares are >= 0 and sum to exactly 100.0%
    // when anything was lost.
    let causes = table(&report, "| rank | cause |");
    let mut names: Vec<&str> = causes.iter().map(|row| row[1].as_str()).filter(|name| !name.starts_with('…')).collect();
    assert_eq!(names.last(), Some(&"unexplained"));
    names.sort_unstable();
    let mut expected = CAUSE_NAMES.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected);
    let search = causes.iter().find(|row| row[1] == "search overhead").expect("listed");
    assert_eq!(search[4], "node ratio 1.000");
    let shares: Vec<f64> =
        causes.iter().filter(|row| !row[1].starts_with('…')).map(|row| share_percent(&row[3])).collect();
    assert!(shares.iter().all(|share| *share >= 0.0), "{shares:?}");
    let summed: f64 = shares.iter().sum();
    assert!(summed == 0.0 || (summed - 100.0).abs() < 1e-9, "shares sum to {summed}%");
    assert!(stdout.contains("share [95% interval]"), "the verdict is printed: {stdout}");
    assert!(report.contains("Tasks are the units of work a worker took"), "{report}");
}

/// The `explain --json` verdict of the seed story (the prime-grid brute force through
/// `naive` at 2 threads), with `repeats` rounds.
fn seed_story(repeats: Option<u32>) -> serde_json::Value {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let report_path = folder.path().join("seed.md");
    let mut arguments = vec!["explain", "prime-grid", "--mode", "brute", "--parallel", "naive", "--threads", "2"];
    let rounds = repeats.map(|rounds| rounds.to_string());
    if let Some(rounds) = &rounds {
        arguments.extend(["--repeats", rounds.as_str()]);
    }
    arguments.extend(["--json", "--out", report_path.to_str().expect("a UTF-8 path")]);
    let output = run(&arguments);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("--json prints one JSON object")
}

/// The decomposition's invariants on one verdict; returns its largest cause.
fn assert_partition(verdict: &serde_json::Value) -> String {
    let causes = verdict["causes"].as_array().expect("causes");
    let shares: Vec<f64> = causes.iter().map(|cause| cause["share"].as_f64().expect("a share")).collect();
    assert!(shares.iter().all(|share| *share >= 0.0), "{shares:?}");
    let lost = verdict["lost_ns"].as_f64().expect("lost");
    assert!(lost > 0.0, "naive at 2 threads loses time: {verdict}");
    assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9, "shares sum to 1: {shares:?}");
    for cause in causes {
        let interval = &cause["share_interval"];
        assert!(interval["low"].as_f64() <= interval["high"].as_f64(), "{cause}");
    }
    let gained: f64 =
        verdict["gains"].as_array().expect("gains").iter().map(|gain| gain["gained_ns"].as_f64().unwrap_or(0.0)).sum();
    let summed: f64 = causes.iter().map(|cause| cause["lost_ns"].as_f64().unwrap_or(0.0)).sum();
    assert!((summed - gained - lost).abs() < 1e-3 * lost, "causes {summed} - gains {gained} = lost {lost}");
    // The advice says plainly that naive is the bad baseline, with the good strategy's figure.
    assert_eq!(verdict["advice"][0]["about"], "strategy", "{verdict}");
    assert_eq!(verdict["alternative"]["strategy"], "auto", "{verdict}");
    assert!(!verdict["advice"].to_string().contains("use work stealing"));
    // A verdict taken on a busy machine ranks nothing and says why.
    if verdict["cannot_rank"].as_str().is_some_and(|reason| reason.contains("machine was busy")) {
        assert!(causes.iter().all(|cause| cause["rank"].is_null()), "{verdict}");
    }
    causes[0]["name"].as_str().expect("a name").to_string()
}

/// The explained run's median time with its interval (low, estimate, high).
fn parallel_time(verdict: &serde_json::Value) -> (f64, f64, f64) {
    let interval = &verdict["parallel_ns"];
    let bound = |name: &str| interval[name].as_f64().unwrap_or_else(|| panic!("{name}: {interval}"));
    (bound("low"), bound("estimate"), bound("high"))
}

/// Whether two verdicts measured the same behaviour: each one's median time lies inside the
/// other's interval. Mere overlap is not enough: a session whose first rounds ran slow has
/// a wide interval reaching the other behaviour's times while its median, and every
/// round's shares, are of the first.
fn same_behaviour(one: &serde_json::Value, other: &serde_json::Value) -> bool {
    let ((low, estimate, high), (other_low, other_estimate, other_high)) = (parallel_time(one), parallel_time(other));
    (low..=high).contains(&other_estimate) && (other_low..=other_high).contains(&estimate)
}

/// The pairs `(above, below)` of cause names that `verdict`'s ranks order: `above`'s worst
/// rank is better than `below`'s best. Tied causes and causes without a rank are not ordered.
fn orders(verdict: &serde_json::Value) -> Vec<(String, String)> {
    let ranked: Vec<(String, u64, u64)> = verdict["causes"]
        .as_array()
        .expect("causes")
        .iter()
        .filter_map(|cause| {
            let rank = &cause["rank"];
            Some((cause["name"].as_str()?.to_string(), rank["best"].as_u64()?, rank["worst"].as_u64()?))
        })
        .collect();
    let mut pairs = Vec::new();
    for (above, _, above_worst) in &ranked {
        for (below, below_best, _) in &ranked {
            if above_worst < below_best {
                pairs.push((above.clone(), below.clone()));
            }
        }
    }
    pairs
}

/// The first contradiction between `verdicts` that measured the same behaviour (see
/// [`same_behaviour`]): one orders two causes one way, another the other way. Two verdicts
/// that each name a different sole top cause (ranked 1, not tied) are such a pair. A tie
/// makes no claim. `naive` has two behaviours on a 2-core machine, even a quiet one: at
/// about 15 ms for the seed story waiting for the first task leads (about 47% against 39%
/// for per-node cost), at about 24 ms per-node cost leads (41% against 28%) with idle time
/// between tasks grown from 13% to 30%. An explanation that changed with them would be
/// right to, so runs of different behaviours are not compared.
fn contradiction(verdicts: &[serde_json::Value]) -> Option<String> {
    let ordered: Vec<Vec<(String, String)>> = verdicts.iter().map(orders).collect();
    for (first, one) in verdicts.iter().enumerate() {
        for (second, other) in verdicts.iter().enumerate().skip(first + 1) {
            if !same_behaviour(one, other) {
                let (a, b) = (parallel_time(one), parallel_time(other));
                eprintln!("runs {first} and {second} measured different behaviour ({a:?} vs {b:?} ns): not compared");
                continue;
            }
            for (above, below) in &ordered[first] {
                if ordered[second].contains(&(below.clone(), above.clone())) {
                    return Some(format!(
                        "run {first} ranks {above:?} above {below:?}, run {second} the other way: {:?} vs {:?}",
                        ordered[first], ordered[second]
                    ));
                }
            }
        }
    }
    None
}

/// Timed tests of this file run one at a time: two explains at once would share the CPUs.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Three explanations of the seed story, each with the fewest rounds that may rank
/// ([`MIN_ROUNDS_TO_RANK`]), keep the decomposition's invariants and never contradict each
/// other's ranks. Whether a verdict ranks at all depends on how its runs scatter (a busy
/// machine ranks nothing), never on how fast the machine is; what it ranks must hold.
#[test]
fn repeated_seed_story_explanations_partition_the_loss_and_agree_on_the_top_cause() {
    let _alone = ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let rounds = MIN_ROUNDS_TO_RANK as u32;
    let verdicts: Vec<serde_json::Value> = (0..3).map(|_| seed_story(Some(rounds))).collect();
    verdicts.iter().for_each(|verdict| {
        assert_partition(verdict);
    });
    let orders: Vec<_> = verdicts.iter().map(orders).collect();
    eprintln!("ranked pairs (above, below) of the three verdicts: {orders:?}");
    assert_eq!(contradiction(&verdicts), None);
}

/// The check above fails on the contradiction CI once met: two runs of 3 rounds each named
/// a sole top cause, different ones, with overlapping times.
#[test]
fn the_agreement_check_catches_two_verdicts_that_order_two_causes_both_ways() {
    let verdict = |top: &str, second: &str, tied: &str| {
        serde_json::json!({
            "parallel_ns": {"low": 30e6, "estimate": 32e6, "high": 34e6},
            "causes": [
                {"name": top, "rank": {"best": 1, "worst": 1}},
                {"name": second, "rank": {"best": 2, "worst": 3}},
                {"name": tied, "rank": {"best": 2, "worst": 3}},
                {"name": "unexplained", "rank": null},
            ]
        })
    };
    let waiting = verdict("waiting for first task", "per-node cost", "tail");
    let per_node = verdict("per-node cost", "waiting for first task", "tail");
    let message = contradiction(&[waiting.clone(), per_node.clone()]).expect("opposite sole top causes");
    assert!(message.contains("\"waiting for first task\" above \"per-node cost\""), "{message}");
    // The same order twice, or a tie against an order, is no contradiction.
    assert_eq!(contradiction(&[waiting.clone(), waiting.clone()]), None);
    let tied = serde_json::json!({
        "parallel_ns": {"low": 31e6, "estimate": 33e6, "high": 35e6},
        "causes": [
            {"name": "per-node cost", "rank": {"best": 1, "worst": 2}},
            {"name": "waiting for first task", "rank": {"best": 1, "worst": 2}},
            {"name": "tail", "rank": {"best": 3, "worst": 3}},
        ]
    });
    assert_eq!(contradiction(&[waiting.clone(), tied]), None);
    // Runs of another behaviour are not compared: times apart, or a wide interval that
    // reaches the other's times around a median that is not among them.
    let mut slower = per_node.clone();
    slower["parallel_ns"] = serde_json::json!({"low": 60e6, "estimate": 62e6, "high": 64e6});
    assert_eq!(contradiction(&[waiting.clone(), slower]), None);
    let mut slow_start = per_node;
    slow_start["parallel_ns"] = serde_json::json!({"low": 33e6, "estimate": 48e6, "high": 50e6});
    assert_eq!(contradiction(&[waiting, slow_start]), None);
}

/// With fewer rounds than [`MIN_ROUNDS_TO_RANK`] no interval can back a rank, so `explain`
/// ranks no cause and says why (or that the machine was busy, which it checks first).
#[test]
fn three_rounds_are_too_few_for_explain_to_rank_a_cause() {
    let _alone = ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let verdict = seed_story(Some(3));
    assert_partition(&verdict);
    assert!(verdict["causes"].as_array().expect("causes").iter().all(|cause| cause["rank"].is_null()), "{verdict}");
    let reason = verdict["cannot_rank"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with("too few rounds to rank the causes (3;") || reason.contains("machine was busy"),
        "{reason}"
    );
}

/// The causes ranked first in `verdict` (one, or the group tied at the top), sorted.
fn top_causes(verdict: &serde_json::Value) -> Vec<String> {
    let causes = verdict["causes"].as_array().expect("causes");
    let mut top: Vec<String> = causes
        .iter()
        .filter(|cause| cause["rank"]["best"] == 1)
        .map(|cause| cause["name"].as_str().unwrap_or_default().to_string())
        .collect();
    top.sort_unstable();
    top
}

/// The check, for a quiet machine: ten adaptive `explain` runs of the seed story
/// name the same top cause: the same single cause ranked 1, or the same group of causes
/// tied at rank 1 (shares within 10 points of each other, or a difference whose interval
/// reaches 0), in every one of the ten. Slow (about 30 s on two cores) and timing-bound,
/// so CI skips it: `cargo test --release --test explain -- --ignored`.
#[test]
#[ignore]
fn ten_seed_story_explanations_name_the_same_top_cause() {
    let _alone = ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let verdicts: Vec<serde_json::Value> = (0..10).map(|_| seed_story(None)).collect();
    for verdict in &verdicts {
        assert!(
            verdict["cannot_rank"].as_str().is_none_or(|reason| !reason.contains("busy")),
            "needs a quiet machine: {}",
            verdict["cannot_rank"]
        );
    }
    let tops: Vec<Vec<String>> = verdicts
        .iter()
        .map(|verdict| {
            assert_partition(verdict);
            top_causes(verdict)
        })
        .collect();
    assert!(!tops[0].is_empty(), "the first verdict ranks no cause: {}", verdicts[0]);
    assert!(tops.iter().all(|top| top == &tops[0]), "the top causes differ between runs: {tops:?}");
    eprintln!("top of all ten verdicts: {:?}", tops[0]);
}

/// With two other threads spinning on the CPUs (this test process is another process to
/// the `explain` it starts), the verdict says the machine was busy and ranks no cause,
/// rather than naming a top cause that the next batch of runs would not confirm.
#[test]
fn a_busy_machine_makes_explain_withhold_its_ranks() {
    let _alone = ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let cpus = std::thread::available_parallelism().map_or(2, |count| count.get());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spinners: Vec<_> = (0..cpus)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut spins = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    spins = std::hint::black_box(spins.wrapping_add(1));
                }
            })
        })
        .collect();
    let verdict = seed_story(Some(3));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spinners.into_iter().for_each(|spinner| spinner.join().expect("a spinner ends"));
    assert_partition(&verdict);
    let reason = verdict["cannot_rank"].as_str().unwrap_or_default();
    assert!(reason.contains("machine was busy"), "{verdict}");
    assert!(verdict["machine"]["other_cpu_share"].as_f64().is_some_and(|share| share > 0.1), "{verdict}");
    assert!(top_causes(&verdict).is_empty(), "{verdict}");
}

#[test]
fn explain_refuses_bad_input_with_exit_code_2() {
    for (arguments, message) in [
        (vec!["explain", "prime-grid"], "explain needs a parallel strategy"),
        (vec!["explain", "prime-grid", "--parallel", "fast"], "parallel strategy"),
        (vec!["explain", "prime-grid", "--parallel", "auto", "--threads", "0"], "between 1 and 1024"),
        (vec!["explain", "no-such-instance", "--parallel", "auto"], "no-such-instance"),
        (vec!["explain", "prime-grid", "--parallel", "auto", "--mode", "fastest"], "fastest"),
        (vec!["explain", "prime-grid", "--parallel", "auto", "--repeats", "0"], "repeats"),
    ] {
        let output = run(&arguments);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}: {stderr}");
        assert!(stderr.contains(message), "{arguments:?}: {stderr}");
    }
}

#[test]
fn explain_help_describes_every_flag() {
    let output = run(&["explain", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    for flag in ["--first", "--repeats", "--out", "--parallel", "--threads", "--counters", "--state", "--mode"] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("A/B"), "{help}");
}

#[test]
fn a_report_path_that_cannot_be_written_is_refused_before_the_runs() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let report = folder.path().join("report.md");
    std::fs::create_dir(&report).expect("a folder where the report would go");
    let report = report.to_str().expect("UTF-8");
    let svg = folder.path().join("report.svg");
    std::fs::create_dir(folder.path().join("other.svg")).expect("a folder where a plot would go");
    let other = folder.path().join("other.md");
    let cases = [
        (report, "report.md: is a folder"),
        (svg.to_str().expect("UTF-8"), "must not end in .svg"),
        (other.to_str().expect("UTF-8"), "its plot"),
    ];
    for (out, message) in cases {
        let output =
            run(&["explain", "rings", "--parallel", "steal", "--threads", "2", "--repeats", "2", "--out", out]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(message) && !stderr.contains("configurations per round"), "{stderr}");
    }
    assert!(!folder.path().join("report.svg").exists(), "no plot was written");
}

#[test]
fn a_plot_name_that_is_a_fifo_is_refused_before_the_runs() {
    // Written into, the FIFO would hold the command after every run until a reader came.
    let folder = tempfile::tempdir().expect("a temporary folder");
    if !common::make_fifo(&folder.path().join("report.svg")) {
        return;
    }
    let report = folder.path().join("report.md");
    let out = common::text(&report);
    let output = run(&["explain", "rings", "--parallel", "steal", "--threads", "2", "--repeats", "2", "--out", out]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("report.svg is a FIFO") && !stderr.contains("configurations per round"), "{stderr}");
    assert!(!report.exists(), "no report was written");
}

#[test]
fn a_report_or_plot_that_is_the_instance_file_is_refused_before_the_runs() {
    // Written over, the instance was lost: `solve` refused its outputs there already.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/instances/olympic_rings.json")).unwrap();
    let report = folder.path().join("rings.md");
    let as_report = folder.path().join("rings.json");
    let as_plot = folder.path().join("rings.svg");
    for (instance, out, message) in [(&as_report, &as_report, "--out "), (&as_plot, &report, "its plot ")] {
        std::fs::write(instance, &text).unwrap();
        let arguments = ["explain", common::text(instance), "--parallel", "steal", "--threads", "2", "--repeats", "1"];
        let output = run(&[&arguments[..], &["--out", common::text(out)]].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(message) && stderr.contains("is the instance file"), "{stderr}");
        assert_eq!(std::fs::read_to_string(instance).unwrap(), text, "the instance is as it was");
    }
}
