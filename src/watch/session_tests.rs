//! The watch session's frames, summaries and refusals, checked on the seed instances.

use super::*;
use crate::knobs::KnobValues;
use crate::puzzles::rings::OlympicRings;

#[test]
fn a_long_delay_ends_when_ctrl_c_raises_the_flag() {
    let interrupted = std::sync::Arc::new(AtomicBool::new(false));
    let (done, finished) = std::sync::mpsc::channel();
    let flag = std::sync::Arc::clone(&interrupted);
    std::thread::spawn(move || {
        pause(std::time::Duration::from_secs(99_999), &flag);
        done.send(()).unwrap();
    });
    // Not ended before the flag is raised...
    assert!(finished.recv_timeout(std::time::Duration::from_millis(200)).is_err());
    interrupted.store(true, Ordering::Relaxed);
    // ...and ended soon after (a generous hang guard, not a timing).
    assert!(finished.recv_timeout(std::time::Duration::from_secs(10)).is_ok());
}

/// The seed's Olympic Rings with `knobs`, read as the run layer would.
fn rings(knobs: &KnobValues) -> (OlympicRings, <OlympicRings as Puzzle>::Config) {
    let file: serde_json::Value =
        serde_json::from_str(include_str!("../../instances/olympic_rings.json")).expect("the seed file is JSON");
    let puzzle = OlympicRings::parse(&file["data"]).expect("the seed data is valid");
    (puzzle, OlympicRings::config(knobs).expect("valid knobs"))
}

fn options() -> WatchOptions {
    WatchOptions { delay: Duration::ZERO, max_steps: 4, radius: 10, aspect: 0.5, terminal: false, terminal_size: None }
}

#[test]
fn a_terminal_too_small_for_a_frame_is_refused_before_drawing() {
    let (puzzle, config) = rings(&KnobValues::new());
    let mut options = options();
    options.terminal_size = Some((40, 12));
    let mut out = Vec::new();
    let error = watch_puzzle(&puzzle, &config, &options, &mut out, &AtomicBool::new(false)).expect_err("too small");
    let message = error.to_string();
    assert!(message.starts_with("the terminal is 40x12 (columns x rows) but a frame needs"), "{message}");
    assert!(message.contains("--radius") && message.contains("--plain"), "{message}");
    assert!(out.is_empty(), "nothing drawn");
    options.terminal_size = Some((200, 60));
    assert!(watch_puzzle(&puzzle, &config, &options, &mut out, &AtomicBool::new(false)).is_ok());
}

/// Hooks #7 in a terminal of exactly the size the check asks for: every line drawn fits
/// its width, and no frame is taller than its rows (status lines of 79 and 108 columns
/// and the prunes line, which the check had not counted, scrolled a 66x13 terminal).
/// The advice names `--radius` only for the rings.
#[test]
fn every_frame_fits_the_terminal_size_the_check_accepts() {
    use crate::puzzles::hooks::Hooks;
    let file: serde_json::Value =
        serde_json::from_str(include_str!("../../instances/hooks_7.json")).expect("the seed file is JSON");
    let puzzle = Hooks::parse(&file["data"]).expect("the seed data is valid");
    let config = Hooks::config(&KnobValues::new()).expect("default knobs");
    let mut options = WatchOptions { max_steps: 300, terminal_size: Some((1, 1)), ..options() };
    let mut out = Vec::new();
    let error = watch_puzzle(&puzzle, &config, &options, &mut out, &AtomicBool::new(false)).expect_err("1x1");
    assert!(!error.to_string().contains("--radius"), "{error}");
    let WatchError::TerminalTooSmall { needed, .. } = error else { panic!("{error}") };
    options.terminal_size = Some(needed);
    assert!(watch_puzzle(&puzzle, &config, &options, &mut out, &AtomicBool::new(false)).is_ok());
    let text = String::from_utf8(out).expect("UTF-8");
    assert!(text.contains("prunes: "), "the frames reach a prune");
    let widest = text.lines().map(|line| line.chars().count()).max().unwrap_or(0);
    assert!(widest <= needed.0, "a line of {widest} columns in a {needed:?} terminal");
}

#[test]
fn frames_fit_a_terminal_of_their_size_and_a_spare_row() {
    let mut frame = Canvas::new(0, 0);
    frame.push_line("twelve chars", Style::Plain);
    frame.push_line("two", Style::Plain);
    assert_eq!(fits_terminal(&frame, (12, 3)), Ok(()));
    assert_eq!(fits_terminal(&frame, (11, 3)), Err((12, 3)));
    assert_eq!(fits_terminal(&frame, (12, 2)), Err((12, 3)));
}

#[test]
fn first_rings_frames_match_the_stored_frames() {
    let (puzzle, config) = rings(&[("pruning".to_string(), "rings".to_string())].into());
    let mut out = Vec::new();
    let summary = watch_puzzle(&puzzle, &config, &options(), &mut out, &AtomicBool::new(false))
        .expect("valid")
        .expect("no I/O error");
    assert_eq!(summary.frames, 4, "--max-steps 4 draws four frames");
    let text = String::from_utf8(out).expect("frames are text");
    assert_eq!(text, include_str!("../../tests/fixtures/rings_watch_frames.txt"));
}

#[test]
fn plain_grid_frame_marks_the_given_and_the_rejected_cell_in_ascii() {
    use crate::puzzles::view::GridView;
    let before = View::Grid(GridView {
        size: 2,
        cells: vec![CellView::Given(3), CellView::Open, CellView::Open, CellView::Open],
        groups: None,
        clues: None,
    });
    let after = View::Grid(GridView {
        size: 2,
        cells: vec![CellView::Given(3), CellView::Open, CellView::Open, CellView::Placed(12)],
        groups: None,
        clues: None,
    });
    let status = FrameStatus { step: 1, nodes: 2, last: "pruned by sum".to_string(), ..FrameStatus::default() };
    let frame = render_frame(&after, Some(&before), &status, &options());
    assert_eq!(
        frame.to_text(false),
        format!(" < 3>   ·\n   ·  !12!\n{GRID_LEGEND}\n\nstep 1  depth 0  nodes 2  solutions 0  last: pruned by sum\n")
    );
    assert!(frame.to_text(true).contains("\x1b[1;37;41m!12!"), "the rejected value is drawn in the rejected style");
}

#[test]
fn grid_frame_draws_outside_clues_and_colours_open_cells_by_known_group() {
    use crate::puzzles::view::GridView;
    let view = View::Grid(GridView {
        size: 2,
        cells: vec![CellView::Open, CellView::Open, CellView::Placed(2), CellView::Empty],
        groups: Some(vec![Some(1), None, Some(1), Some(2)]),
        clues: Some([vec![1, 0], vec![0, 2], vec![0, 3], vec![4, 0]]),
    });
    let frame = render_frame(&view, None, &FrameStatus::default(), &options());
    let lines: Vec<String> = frame.to_text(false).lines().map(str::to_string).collect();
    assert_eq!(lines[..4], ["      1", "      ·   ·   4", " 3    2   -", "          2"]);
    let coloured = frame.to_text(true);
    assert!(coloured.contains("\x1b[38;5;34m · "), "an open cell of a known group takes its colour: {coloured:?}");
    assert!(coloured.contains("\x1b[2m · "), "an open cell of no known group is dim: {coloured:?}");
}

/// Rings with no ring rule: every full assignment is a solution, so the node that the fifth
/// and last step enters is one. The engine asks the model about it before it stops at the
/// next node; the last frame said "solutions 0" and the summary "1 solution".
#[test]
fn a_solution_at_the_last_steps_node_is_counted_and_drawn_at_the_end() {
    let mut file: serde_json::Value =
        serde_json::from_str(include_str!("../../instances/olympic_rings.json")).expect("the seed file is JSON");
    file["data"]["rings"] = serde_json::json!({});
    let puzzle = OlympicRings::parse(&file["data"]).expect("rings without rings are valid data");
    let config = OlympicRings::config(&KnobValues::new()).expect("default knobs");
    let options = WatchOptions { max_steps: 5, ..options() };
    let mut out = Vec::new();
    let summary = watch_puzzle(&puzzle, &config, &options, &mut out, &AtomicBool::new(false))
        .expect("valid")
        .expect("no I/O error");
    assert_eq!((summary.frames, summary.nodes, summary.solutions), (5, 6, 1));
    assert!(summary.stopped_by_max_steps);
    let text = String::from_utf8(out).expect("frames are text");
    let last_frame = text.rsplit("--- ").next().expect("a frame");
    assert!(last_frame.starts_with("final frame: the last solution found"), "{last_frame}");
    assert!(
        last_frame.contains("step 5  depth 5  nodes 6  solutions 1  last: solution (the node of step 5 is one"),
        "{last_frame}"
    );
}
