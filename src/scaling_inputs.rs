//! From an instance to the inputs of a scaling prediction: for each component, the
//! recorded subtree sizes of its search and its costs measured on this machine (a node
//! alone, the slowdown of searches side by side, the parallel machinery). This is where a
//! family name becomes a model type for `crate::parallel::task_profile`; the prediction
//! itself is `crate::scaling`.

use crate::instance::Instance;
use crate::parallel::task_profile::{machinery_costs, record_tree, time_alone_and_together};
use crate::parallel::PoolError;
use crate::puzzles::knobs::KnobValues;
use crate::puzzles::{Puzzle, PuzzleVisitor};
use crate::scaling::costs::Costs;
use crate::scaling::predict::Component;
use crate::search::{FullCounters, Model, NoCounters, RuleCounter};
use crate::solve::RunError;

/// How the costs are measured.
#[derive(Debug, Clone, Copy)]
pub struct Calibration {
    /// Whether the predicted runs keep per-rule counts (their nodes cost more).
    pub rule_counts: bool,
    /// Timed sequential searches alone, and as many with copies at once.
    pub rounds: usize,
    /// Searches run at once to measure the slowdown (the CPUs to use; 1: not measured).
    pub copies: usize,
}

/// Each component of `instance` with `knobs`: its tree and its costs, measured as
/// `calibration` says, or [`Costs::nodes_only`] without one (deterministic: schedules in
/// node counts).
pub fn measure_components(
    instance: &Instance,
    knobs: &KnobValues,
    calibration: Option<Calibration>,
) -> Result<Vec<Component>, RunError> {
    instance.family.measure_components(MeasureFamily { instance, knobs, calibration })
}

/// The measuring of one instance's components, run by the registry with the family's type.
pub(crate) struct MeasureFamily<'a> {
    instance: &'a Instance,
    knobs: &'a KnobValues,
    calibration: Option<Calibration>,
}

impl PuzzleVisitor for MeasureFamily<'_> {
    type Output = Result<Vec<Component>, RunError>;
    fn visit<P: Puzzle>(self) -> Self::Output {
        let puzzle = P::parse(&self.instance.data).map_err(RunError::Data)?;
        let config = P::config(self.knobs).map_err(RunError::Knob)?;
        let mut components = Vec::new();
        let mut machinery: Option<Costs> = None;
        for (model, name) in puzzle.models(&config).into_iter().zip(puzzle.component_names()) {
            let component = match self.calibration {
                None => Ok(Component { name, tree: record_tree(&model), costs: Costs::nodes_only() }),
                Some(calibration) if calibration.rule_counts => {
                    measure::<P::Model, FullCounters>(&model, name, calibration, &mut machinery)
                }
                Some(calibration) => measure::<P::Model, NoCounters>(&model, name, calibration, &mut machinery),
            };
            components.push(component.map_err(|message| RunError::Pool(PoolError { message }))?);
        }
        Ok(components)
    }
}

/// One component; the machinery's costs are measured with the first component only.
fn measure<M: Model, C: RuleCounter + Send>(
    model: &M,
    name: String,
    calibration: Calibration,
    machinery: &mut Option<Costs>,
) -> Result<Component, String> {
    let tree = record_tree(model);
    let base = match machinery {
        Some(costs) => *costs,
        None => *machinery.insert(machinery_costs::<M, C>(model, &tree)?),
    };
    let (alone, slowdown) = time_alone_and_together::<M, C>(model, calibration.copies, calibration.rounds)?;
    let node_ns = alone.as_nanos() as f64 / tree.total_nodes().max(1) as f64;
    Ok(Component { name, tree, costs: Costs { node_ns, slowdown, ..base } })
}
