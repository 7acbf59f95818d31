//! Plots a reader understands at a glance: every SVG the report, `solve --profile` and
//! `scaling-check` write is drawn from small synthetic rows and read back as text; every
//! line has a visible key of its colour, one key per series, no text runs past the
//! image, and titles use the instances' short names. The same check runs over the
//! committed plots in results/plots/.

use backtrack_bench::unstable::harness::reporting::plots::check::{problems, texts, title};
use backtrack_bench::unstable::harness::reporting::plots::{draw_depth_profile, draw_plots, DepthLine, PlotKind};
use backtrack_bench::unstable::harness::storing::counts::{measure, CountRow};
use backtrack_bench::unstable::harness::storing::record::status;
use backtrack_bench::unstable::harness::storing::summary::SummaryRow;
use backtrack_bench::unstable::scaling::plot::speedup_svg;
use backtrack_bench::unstable::scaling::validate::CheckRow;
use std::path::{Path, PathBuf};

/// A variant as long as the longest in the committed sweeps, and then some.
const LONG_VARIANT: &str = "forced=try-both+order=most-constrained+rules=derived+connectivity=every-node";

/// A summary row of the hooks7 instance, named by its path as an enumeration sweep names it.
fn row(variant: &str, strategy: &str, threads: usize, nodes: u64, wall_ns: u64) -> SummaryRow {
    SummaryRow {
        sweep: "t".into(),
        source: "instances/hooks_7.json".into(),
        instance: "B_js_2021_02_hooks_7".into(),
        variant: variant.into(),
        knobs: variant.into(),
        mode: "all".into(),
        state: "undo".into(),
        counters: "padded".into(),
        affinity: "pinned".into(),
        strategy: strategy.into(),
        threads,
        status: status::OK.into(),
        runs: 5,
        nodes,
        wall_ns_median: wall_ns,
        wall_ns_median_low: wall_ns * 9 / 10,
        wall_ns_median_high: wall_ns * 11 / 10,
        config_id: format!("{variant}-{strategy}-{threads}"),
        available_parallelism: 4,
        ..SummaryRow::default()
    }
}

/// Sequential rows of several knobs, and parallel rows of four strategies at 1 to 16
/// threads (more threads than cores, so the core line is drawn too).
fn synthetic_rows() -> Vec<SummaryRow> {
    let mut rows = vec![
        row("defaults", "sequential", 1, 349, 350_000),
        row("baseline", "sequential", 1, 16_168_625, 331_000_000),
        row("order=row-major", "sequential", 1, 887, 425_000),
        row("order=spiral", "sequential", 1, 19_060, 3_046_000),
        row("rules=basic", "sequential", 1, 712_643, 37_800_000),
        row("connectivity=leaves", "sequential", 1, 1_260, 688_000),
        row(LONG_VARIANT, "sequential", 1, 21_934_296, 996_000_000),
    ];
    rows[1].status = status::LIMIT.into();
    for strategy in ["auto", "steal", "depth:4", "budget:2000"] {
        for threads in [1, 2, 4, 8, 16] {
            let speedup = threads as f64 * 0.8;
            let mut parallel = row("defaults", strategy, threads, 349, (350_000.0 / speedup) as u64);
            parallel.speedup = Some(speedup);
            parallel.speedup_low = Some(speedup * 0.9);
            parallel.speedup_high = Some(speedup * 1.1);
            rows.push(parallel);
        }
    }
    rows
}

/// Nodes per depth for every sequential row.
fn synthetic_counts(rows: &[SummaryRow]) -> Vec<CountRow> {
    let mut counts = Vec::new();
    for (index, row) in rows.iter().filter(|row| row.strategy == "sequential").enumerate() {
        for depth in 0..12u32 {
            counts.push(CountRow {
                config_id: row.config_id.clone(),
                measure: measure::NODES_AT_DEPTH.into(),
                depth: Some(depth),
                count: (u64::from(depth) + 1).pow(3) * (index as u64 + 1),
                ..CountRow::default()
            });
        }
    }
    counts
}

/// Fails with every problem of the SVG at `path`.
fn assert_legible(path: &Path) {
    let svg = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let found = problems(&svg);
    assert!(found.is_empty(), "{}:\n  {}", path.display(), found.join("\n  "));
}

#[test]
fn every_report_plot_has_a_visible_key_per_series_no_cut_text_and_a_short_name_in_its_title() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let rows = synthetic_rows();
    let plots = draw_plots(&rows, &synthetic_counts(&rows), folder.path()).expect("the plots are drawn");
    let kinds: Vec<PlotKind> = plots.iter().map(|plot| plot.kind).collect();
    assert_eq!(kinds, [PlotKind::Speedup, PlotKind::NodesPerKnob, PlotKind::NodesPerDepth]);
    for plot in &plots {
        let path = folder.path().join(&plot.file_name);
        assert_legible(&path);
        let svg = std::fs::read_to_string(&path).unwrap();
        let drawn_title = title(&svg).unwrap_or_default();
        assert_eq!(drawn_title, plot.title);
        assert!(drawn_title.starts_with("hooks7"), "{drawn_title}");
        assert!(!svg.contains("B_js_2021_02_hooks_7"), "{}: internal instance name", plot.file_name);
    }
    // One key per strategy, named as the strategy, and the ideal line's.
    let speedup = std::fs::read_to_string(folder.path().join(&plots[0].file_name)).unwrap();
    let labels = texts(&speedup);
    for label in ["auto", "steal", "depth:4", "budget:2000", "ideal (speedup = threads)", "ideal"] {
        assert_eq!(labels.iter().filter(|text| *text == label).count(), 1, "{label}: {labels:?}");
    }
    assert!(labels.contains(&"threads (log2 scale)".to_string()), "{labels:?}");
    assert!(labels.contains(&"16".to_string()) && labels.contains(&"8".to_string()), "{labels:?}");
    // The long variant is wrapped in the depth plot's legend, every character kept.
    let depth = std::fs::read_to_string(folder.path().join(&plots[2].file_name)).unwrap();
    let wrapped: String = texts(&depth).into_iter().filter(|text| LONG_VARIANT.contains(text.as_str())).collect();
    assert!(wrapped.contains(LONG_VARIANT), "{wrapped}");
    // The knob chart shows time beside nodes and says what its colours mean.
    let knobs = texts(&std::fs::read_to_string(folder.path().join(&plots[1].file_name)).unwrap());
    for label in ["nodes searched", "defaults (the tool's choice)", "order=…", "baseline (node limit)"] {
        assert!(knobs.iter().any(|text| text == label), "{label}: {knobs:?}");
    }
    assert!(knobs.iter().any(|text| text.starts_with("median wall time")), "{knobs:?}");
}

#[test]
fn a_strategy_is_drawn_in_the_same_colour_in_every_speedup_plot() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let mut rows = synthetic_rows();
    // A second instance with only some of the strategies, in another order.
    let mut other: Vec<SummaryRow> = rows
        .iter()
        .filter(|row| row.strategy == "steal" || row.strategy == "sequential")
        .cloned()
        .map(|row| SummaryRow { source: "rings".into(), ..row })
        .collect();
    rows.append(&mut other);
    let plots = draw_plots(&rows, &[], folder.path()).expect("the plots are drawn");
    let colour_of_steal = |file: &str| {
        let svg = std::fs::read_to_string(folder.path().join(file)).unwrap();
        // The key's line is the polyline just before the label "steal".
        let before = &svg[..svg.find(">\nsteal\n</text>").expect("steal is in the legend")];
        let polyline = &before[before.rfind("<polyline").expect("a key line")..];
        polyline.split("stroke=\"").nth(1).unwrap()[..7].to_string()
    };
    let speedups: Vec<&str> =
        plots.iter().filter(|plot| plot.kind == PlotKind::Speedup).map(|plot| plot.file_name.as_str()).collect();
    assert_eq!(speedups.len(), 2, "{speedups:?}");
    assert_eq!(colour_of_steal(speedups[0]), colour_of_steal(speedups[1]));
}

#[test]
fn the_profile_and_the_scaling_check_plots_are_legible() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let profile = folder.path().join("profile.svg");
    let prunes = vec![
        DepthLine { name: "prunes by counts".into(), counts: vec![0, 3, 40, 200, 90] },
        DepthLine { name: "prunes by connectivity (every node, incremental)".into(), counts: vec![0, 0, 5, 7, 2] },
        DepthLine { name: "prunes by never".into(), counts: vec![0; 5] },
    ];
    draw_depth_profile(
        &profile,
        "hooks7: nodes and prunes per depth (steal, all solutions)",
        &[1, 4, 60, 300, 20],
        &prunes,
    )
    .expect("the profile is drawn");
    assert_legible(&profile);
    let svg = std::fs::read_to_string(&profile).unwrap();
    assert!(!texts(&svg).contains(&"prunes by never".to_string()), "a rule that never pruned has no line");

    let rows: Vec<CheckRow> = ["steal", "depth:4"]
        .into_iter()
        .flat_map(|strategy| {
            [1, 2, 4].map(|threads| CheckRow {
                workload: "hooks_enumeration".into(),
                strategy: strategy.into(),
                threads,
                predicted_s: 1.0 / threads as f64,
                measured_median_s: 1.1 / threads as f64,
                measured_range_s: (1.0 / threads as f64, 1.2 / threads as f64),
                sequential_median_s: 1.0,
                oversubscribed: threads > 2,
            })
        })
        .collect();
    let scaling = folder.path().join("scaling.svg");
    std::fs::write(&scaling, speedup_svg("hooks_enumeration", &rows, 2).expect("the plot is drawn")).unwrap();
    assert_legible(&scaling);
}

/// The SVG files directly in `folder`, sorted.
fn svg_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "svg"))
        .collect();
    files.sort();
    files
}

/// The `id` of every instance file in instances/: the internal names titles must not use.
fn instance_ids() -> Vec<String> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    std::fs::read_dir(&folder)
        .expect("instances/")
        .filter_map(|entry| {
            let text = std::fs::read_to_string(entry.ok()?.path()).ok()?;
            let value: serde_json::Value = serde_json::from_str(&text).ok()?;
            Some(value["id"].as_str()?.to_string())
        })
        .collect()
}

#[test]
fn the_committed_plots_are_legible_and_titled_with_short_names() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/plots");
    let files = svg_files(&folder);
    assert!(files.len() >= 10, "results/plots/ holds the report's plots: {files:?}");
    let ids = instance_ids();
    assert!(ids.iter().any(|id| id == "B_js_2021_02_hooks_7"), "{ids:?}");
    for file in files.iter().chain(&svg_files(&folder.join("before-after"))) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("before-") {
            continue;
        }
        assert_legible(file);
        let drawn_title = title(&std::fs::read_to_string(file).unwrap()).unwrap_or_default();
        assert!(!ids.iter().any(|id| drawn_title.contains(id.as_str())), "{name}: title `{drawn_title}`");
    }
}

#[test]
fn the_old_line_plots_kept_for_comparison_fail_the_check() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/plots/before-after");
    let before: Vec<PathBuf> = svg_files(&folder)
        .into_iter()
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("before-") && (name.contains("-speedup-") || name.contains("-nodes-per-depth-"))
        })
        .collect();
    assert!(before.len() >= 2, "{before:?}");
    for path in before {
        let found = problems(&std::fs::read_to_string(&path).unwrap());
        assert!(found.iter().any(|problem| problem.contains("px long: invisible")), "{}: {found:?}", path.display());
    }
}
