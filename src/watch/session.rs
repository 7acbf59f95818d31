//! One watch session: an observer that draws a frame per engine event, and the loop
//! that runs each component of an instance under it.

use super::canvas::{Canvas, Style};
use super::grid_art::{draw_grid, GRID_LEGEND};
use super::rings_art::{draw_rings, RINGS_LEGEND};
use crate::parallel::{catch_model_panic, ModelPanic};
use crate::puzzles::view::{CellView, View};
use crate::puzzles::Puzzle;
use crate::search::{
    Engine, Event, Limits, Model, NoCounters, Observer, OpenBranches, Steering, SteeringAction, StopReason, MAX_RULES,
};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How to animate.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Pause after each frame.
    pub delay: Duration,
    /// Stop each component after this many steps: frames, one per event drawn (a child
    /// entered or pruned, a dead end, a solution); the root is not a step.
    pub max_steps: u64,
    /// Ring radius in terminal columns.
    pub radius: i64,
    /// Row height over column width of a terminal cell's drawing (0.5 for cells twice as
    /// tall as wide; the Olympic Rings post used 0.66).
    pub aspect: f64,
    /// Draw with ANSI colours and redraw in place (a terminal); else plain frames.
    pub terminal: bool,
    /// The terminal's size (columns, rows) when drawing in place; frames that do not fit
    /// are refused before the first is drawn.
    pub terminal_size: Option<(usize, usize)>,
}

/// Why a watch could not start, or (the family's panic) did not finish.
#[derive(Debug)]
pub enum WatchError {
    /// A frame does not fit the terminal.
    TerminalTooSmall {
        /// Columns and rows a frame needs.
        needed: (usize, usize),
        /// Columns and rows the terminal has.
        available: (usize, usize),
        /// Whether the picture is the rings' (which `--radius` makes smaller).
        rings: bool,
    },
    /// The family draws nothing (its `Puzzle::view` is the default, `View::Nothing`).
    NothingToDraw {
        /// The family.
        family: &'static str,
    },
    /// A model names more rules than the per-rule counters hold ([`MAX_RULES`]): refused by
    /// every command, before the first frame here.
    TooManyRules {
        /// The most rules one model names.
        rules: usize,
    },
    /// The family's code (its model, or its drawing) panicked.
    ModelPanicked {
        /// The component being watched; `None` when the models were being built.
        component: Option<String>,
        /// The panic, with the moves from the root to the node where the search was.
        panic: ModelPanic,
    },
}

impl std::fmt::Display for WatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WatchError::TerminalTooSmall { needed, available, rings } => write!(
                f,
                "the terminal is {}x{} (columns x rows) but a frame needs {}x{}: enlarge the window{}, or print \
                 plain frames with --plain",
                available.0,
                available.1,
                needed.0,
                needed.1,
                if *rings { ", draw smaller rings with --radius" } else { "" }
            ),
            WatchError::NothingToDraw { family } => write!(
                f,
                "family `{family}` has no picture for watch to draw (its `Puzzle::view` is the default): \
                 `solve` runs it; a family's author animates one by returning a `View::Grid` of its cells (any \
                 width, numbers or short text) from `Puzzle::view`"
            ),
            // The run layer words the refusal for the user (`run::family_code`), as for every
            // command; this is the bare fact.
            WatchError::TooManyRules { rules } => {
                write!(f, "the models name {rules} rules, past MAX_RULES ({MAX_RULES})")
            }
            WatchError::ModelPanicked { component: Some(component), panic } => {
                write!(f, "the family's code panicked while watching component `{component}`: {panic}")
            }
            WatchError::ModelPanicked { component: None, panic } => {
                write!(f, "the family's code panicked while building the models: {panic}")
            }
        }
    }
}

impl std::error::Error for WatchError {}

/// Rows kept free under a frame (the cursor's line).
const SPARE_ROWS: usize = 1;

/// Whether `frame` fits a terminal of `size` (columns, rows); the size it needs if not.
pub fn fits_terminal(frame: &Canvas, size: (usize, usize)) -> Result<(), (usize, usize)> {
    let needed = (frame.width(), frame.height() + SPARE_ROWS);
    if needed.0 <= size.0 && needed.1 <= size.1 {
        Ok(())
    } else {
        Err(needed)
    }
}

/// The status lines under a frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameStatus {
    /// Component being searched (a grid name).
    pub component: String,
    /// Frames so far in this component.
    pub step: u64,
    /// Depth of the node shown.
    pub depth: usize,
    /// Nodes entered so far.
    pub nodes: u64,
    /// Solutions found so far.
    pub solutions: u64,
    /// What the last step did (`placed`, `pruned by ring-sum`, `solution`).
    pub last: String,
    /// Prunes so far per rule (name, count), rules that never pruned left out.
    pub prunes: Vec<(String, u64)>,
}

/// What a watch session saw.
#[derive(Debug, Clone, Default)]
pub struct WatchSummary {
    /// Frames drawn.
    pub frames: u64,
    /// Nodes entered.
    pub nodes: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Whether Ctrl-C (the stop flag) ended it.
    pub interrupted: bool,
    /// Whether `--max-steps` ended the search of a component before its end.
    pub stopped_by_max_steps: bool,
}

/// The cell or spot that differs between two views of the same puzzle.
fn changed_cell(view: &View, previous: Option<&View>) -> Option<usize> {
    let cells = |view: &View| -> Vec<CellView> {
        match view {
            View::Grid(grid) => grid.cells.clone(),
            View::Rings(rings) => rings.spots.clone(),
            View::Nothing => Vec::new(),
        }
    };
    let now = cells(view);
    let before = cells(previous?);
    now.iter().zip(&before).position(|(a, b)| a != b)
}

/// Draws one frame: the picture, then the status lines.
pub fn render_frame(view: &View, previous: Option<&View>, status: &FrameStatus, options: &WatchOptions) -> Canvas {
    let changed = changed_cell(view, previous);
    let rejected = status.last.starts_with("pruned") || status.last.starts_with("dead end");
    let mut canvas = match view {
        View::Rings(rings) => {
            let mut canvas = draw_rings(rings, options.radius, options.aspect, changed, rejected);
            canvas.push_line(RINGS_LEGEND, Style::Dim);
            canvas
        }
        View::Grid(grid) => {
            let mut canvas = draw_grid(grid, changed, rejected);
            canvas.push_line(GRID_LEGEND, Style::Dim);
            canvas
        }
        View::Nothing => Canvas::new(0, 0),
    };
    canvas.push_line("", Style::Plain);
    // Drawn in place, a status line is cut to the terminal's width: one that wrapped would
    // push the frame a row down at every step (the size was checked on the picture).
    let fit = |line: String| match options.terminal_size {
        Some((columns, _)) if line.chars().count() > columns => line.chars().take(columns).collect(),
        _ => line,
    };
    let heading = if status.component.is_empty() { String::new() } else { format!("{}  ", status.component) };
    canvas.push_line(
        &fit(format!(
            "{heading}step {}  depth {}  nodes {}  solutions {}  last: {}",
            status.step, status.depth, status.nodes, status.solutions, status.last
        )),
        Style::Dim,
    );
    if !status.prunes.is_empty() {
        let prunes: Vec<String> = status.prunes.iter().map(|(rule, count)| format!("{rule} {count}")).collect();
        canvas.push_line(&fit(format!("prunes: {}", prunes.join(", "))), Style::Dim);
    }
    canvas
}

struct FrameObserver<'a, P: Puzzle> {
    puzzle: &'a P,
    options: &'a WatchOptions,
    out: &'a mut dyn Write,
    rule_names: Vec<String>,
    prunes: Vec<u64>,
    status: FrameStatus,
    previous: Option<View>,
    frames: u64,
    /// Raised once `options.max_steps` frames are drawn; the steering then stops the search.
    steps_spent: &'a AtomicBool,
    /// Raised by Ctrl-C: cuts the delay between frames short.
    interrupted: &'a AtomicBool,
    failure: Option<io::Error>,
    /// The last solution found and the status when it was, for the final frame.
    solution: Option<(View, FrameStatus)>,
    /// Whether the last frame drawn shows a solution.
    showing_solution: bool,
    /// Whether the last solution was found past the last step, at the node the last frame
    /// drew (the engine asks the model about that node before it stops at the next one).
    found_after_the_steps: bool,
}

impl<P: Puzzle> Observer<P::Model> for FrameObserver<'_, P> {
    fn observe(&mut self, event: Event<<P::Model as Model>::Move>, model: &P::Model) {
        if self.failure.is_some() {
            return;
        }
        if self.frames >= self.options.max_steps {
            // The node the last frame drew may yet turn out a solution: counted and kept for
            // the final frame, as the engine counts it. Dropped, the last frame said
            // "solutions 0" and the summary, from the engine, "1 solution".
            if let Event::Solution { .. } = event {
                self.status.solutions += 1;
                self.solution = Some((self.puzzle.view(model), self.status.clone()));
                self.showing_solution = false;
                self.found_after_the_steps = true;
            }
            return;
        }
        let (depth, last) = match event {
            Event::Enter { depth, .. } => {
                self.status.nodes += 1;
                (depth, "placed".to_string())
            }
            Event::Pruned { depth, rule, .. } => {
                self.status.nodes += 1;
                self.prunes[rule] += 1;
                (depth, format!("pruned by {}", self.rule_names[rule]))
            }
            Event::DeadEnd { depth, rule } => {
                self.prunes[rule] += 1;
                (depth, format!("dead end: {}", self.rule_names[rule]))
            }
            Event::Solution { depth } => {
                self.status.solutions += 1;
                (depth, "solution".to_string())
            }
            Event::Undo { .. } => return,
        };
        self.status.step += 1;
        self.status.depth = depth;
        self.status.last = last;
        self.status.prunes = self
            .rule_names
            .iter()
            .zip(&self.prunes)
            .filter(|(_, count)| **count > 0)
            .map(|(name, count)| (name.clone(), *count))
            .collect();
        let view = self.puzzle.view(model);
        let frame = render_frame(&view, self.previous.as_ref(), &self.status, self.options);
        self.showing_solution = matches!(event, Event::Solution { .. });
        if self.showing_solution {
            self.solution = Some((view.clone(), self.status.clone()));
            self.found_after_the_steps = false;
        }
        self.previous = Some(view);
        self.frames += 1;
        if self.frames >= self.options.max_steps {
            self.steps_spent.store(true, Ordering::Relaxed);
        }
        if let Err(error) = self.show(&frame) {
            self.failure = Some(error);
        }
    }
}

impl<P: Puzzle> FrameObserver<'_, P> {
    fn show(&mut self, frame: &Canvas) -> io::Result<()> {
        self.show_headed(frame, &format!("--- frame {}", self.frames))
    }

    /// Draws `frame`; plain frames start with `heading`.
    fn show_headed(&mut self, frame: &Canvas, heading: &str) -> io::Result<()> {
        if self.options.terminal {
            write!(self.out, "\x1b[H\x1b[J{}", frame.to_text(true))?;
        } else {
            writeln!(self.out, "{heading}")?;
            write!(self.out, "{}", frame.to_text(false))?;
        }
        self.out.flush()?;
        pause(self.options.delay, self.interrupted);
        Ok(())
    }

    /// After the search: the last solution drawn again when the search went on past it
    /// (backtracking, so that its last frame showed a dead end) or when it was found past
    /// the last step, and a line saying so when `--max-steps` stopped it.
    fn finish(&mut self, stopped_by_max_steps: bool) -> io::Result<()> {
        if let Some((view, mut status)) = self.solution.take().filter(|_| !self.showing_solution) {
            status.last = if self.found_after_the_steps {
                format!("solution (the node of step {} is one, found after the last step)", status.step)
            } else {
                format!("solution (found at step {}, shown again at the end)", status.step)
            };
            let frame = render_frame(&view, None, &status, self.options);
            self.show_headed(&frame, "--- final frame: the last solution found")?;
        }
        if stopped_by_max_steps {
            let line = format!(
                "stopped by --max-steps {}: the search of {} was not finished",
                self.options.max_steps,
                if self.status.component.is_empty() { "this instance" } else { &self.status.component }
            );
            let mut note = Canvas::new(0, 0);
            note.push_line(&line, Style::Dim);
            write!(self.out, "{}", note.to_text(self.options.terminal))?;
        }
        self.out.flush()
    }
}

/// The longest a Ctrl-C waits for the delay between frames to end.
const PAUSE_SLICE: std::time::Duration = std::time::Duration::from_millis(50);

/// Sleeps `delay` in short slices, returning early once `interrupted` is raised, so that
/// Ctrl-C is honoured within [`PAUSE_SLICE`] however long `--delay` is.
fn pause(delay: std::time::Duration, interrupted: &AtomicBool) {
    let end = std::time::Instant::now() + delay;
    while !interrupted.load(Ordering::Relaxed) {
        let left = end.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(PAUSE_SLICE));
    }
}

/// Stops the search when the stop flag (Ctrl-C) is raised or the steps are spent.
struct StopFlag<'a> {
    interrupted: &'a AtomicBool,
    steps_spent: &'a AtomicBool,
}

impl<M: Model> Steering<M> for StopFlag<'_> {
    fn at_node(&mut self, _nodes: u64, _open: &mut OpenBranches<'_, M::Move>) -> SteeringAction {
        if self.interrupted.load(Ordering::Relaxed) || self.steps_spent.load(Ordering::Relaxed) {
            SteeringAction::Stop
        } else {
            SteeringAction::Continue
        }
    }
}

/// Animates the search of every component of `puzzle` with `config` into `out`, until each
/// ends, has drawn `options.max_steps` frames, or `stop` is raised; the inner error is one
/// of writing to `out`.
pub fn watch_puzzle<P: Puzzle>(
    puzzle: &P,
    config: &P::Config,
    options: &WatchOptions,
    out: &mut dyn Write,
    stop: &AtomicBool,
) -> Result<io::Result<WatchSummary>, WatchError> {
    let mut summary = WatchSummary::default();
    let limits = Limits { solutions_to_keep: 0, ..Limits::exhaustive() };
    // The component names are the family's code too: read inside the same catch.
    let (models, names) = catch_model_panic(|| (puzzle.models(config), puzzle.component_names()))
        .map_err(|panic| WatchError::ModelPanicked { component: None, panic })?;
    // The contract's limit holds here as in every command, though watch counts no rule: a
    // model that `solve` refuses is not shown as if it were sound.
    let most_rules = catch_model_panic(|| models.iter().map(|model| model.rule_names().len()).max().unwrap_or(0))
        .map_err(|panic| WatchError::ModelPanicked { component: None, panic })?;
    if most_rules > MAX_RULES {
        return Err(WatchError::TooManyRules { rules: most_rules });
    }
    for (model, component) in models.into_iter().zip(names) {
        let panicked = |panic| WatchError::ModelPanicked { component: Some(component.clone()), panic };
        let steps_spent = AtomicBool::new(false);
        let (rule_names, root_view) = catch_model_panic(|| {
            let rule_names: Vec<String> = model.rule_names().iter().map(|name| name.to_string()).collect();
            (rule_names, puzzle.view(&model))
        })
        .map_err(panicked)?;
        if root_view == View::Nothing {
            return Err(WatchError::NothingToDraw { family: P::FAMILY });
        }
        if let Some(available) = options.terminal_size {
            // The tallest frame: with the prunes line that the first prune adds.
            let tallest = FrameStatus { prunes: vec![(String::new(), 0)], ..FrameStatus::default() };
            let frame = render_frame(&root_view, None, &tallest, options);
            let rings = matches!(root_view, View::Rings(_));
            fits_terminal(&frame, available).map_err(|needed| WatchError::TerminalTooSmall {
                needed,
                available,
                rings,
            })?;
        }
        let observer = FrameObserver {
            puzzle,
            options,
            out: &mut *out,
            prunes: vec![0; rule_names.len()],
            rule_names,
            // The root is the first node; the first frame shows its first child.
            status: FrameStatus { component: component.clone(), nodes: 1, ..FrameStatus::default() },
            previous: Some(root_view),
            frames: 0,
            steps_spent: &steps_spent,
            interrupted: stop,
            failure: None,
            solution: None,
            showing_solution: false,
            found_after_the_steps: false,
        };
        let steering = StopFlag { interrupted: stop, steps_spent: &steps_spent };
        let mut engine: Engine<P::Model, NoCounters, StopFlag, FrameObserver<P>> =
            catch_model_panic(|| Engine::new(model, steering, observer, limits.clone())).map_err(panicked)?;
        // The observer keeps the engine on its path-keeping loop: a panic names its node.
        catch_model_panic(|| engine.run()).map_err(|panic| panicked(panic.at_path(engine.path())))?;
        let stats = engine.stats();
        let steered_to_a_stop = engine.stop_reason() == Some(StopReason::Steered);
        let (_, mut observer) = engine.into_hooks();
        if let Some(error) = observer.failure.take() {
            return Ok(Err(error));
        }
        // The steps ran out before the search ended (not merely on its last step).
        let stopped_by_max_steps =
            steered_to_a_stop && steps_spent.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed);
        if !stop.load(Ordering::Relaxed) {
            if let Err(error) = observer.finish(stopped_by_max_steps) {
                return Ok(Err(error));
            }
        }
        summary.stopped_by_max_steps |= stopped_by_max_steps;
        summary.frames += observer.frames;
        // The nodes the frames counted: past the last step the engine enters one more node,
        // which no frame shows (the summary said 5 nodes after a last frame of 4). The same
        // count as the engine's when the search ends by itself.
        debug_assert!(stopped_by_max_steps || stop.load(Ordering::Relaxed) || observer.status.nodes == stats.nodes);
        summary.nodes += observer.status.nodes;
        // The solutions the frames counted (the last one drawn by `finish`): the engine's.
        debug_assert_eq!(observer.status.solutions, stats.solutions);
        summary.solutions += observer.status.solutions;
        if stop.load(Ordering::Relaxed) {
            summary.interrupted = true;
            break;
        }
    }
    Ok(Ok(summary))
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
