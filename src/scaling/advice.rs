//! What to change, from a prediction: where a strategy stops scaling, why (the numbers), and
//! which split or strategy would go further. Never tells a stealing run to steal.

use super::predict::{Component, Prediction, Row, Shape};

/// Efficiency below which a strategy is said to have stopped scaling (for strategies
/// without a hard ceiling).
pub const STOPPED_EFFICIENCY: f64 = 0.5;

/// How many levels deeper than a `depth:D` split the advice looks for a better one.
const DEEPER_LEVELS: usize = 4;

/// The ceiling of a split at `depth` over every component (sequential time over the
/// listing plus the largest subproblem of each), with the largest subproblem's share.
pub fn depth_ceiling(components: &[Component], depth: usize) -> Option<(f64, f64)> {
    let sequential: f64 = components.iter().map(Component::sequential_ns).sum();
    let mut serial = 0.0;
    let mut largest_share: f64 = 0.0;
    for component in components {
        let frontier = component.tree.frontier(depth)?;
        let costs = &component.costs;
        let largest = frontier.largest() as f64 * costs.node_ns;
        serial += costs.listing_ns(frontier.above_nodes, frontier.task_nodes.len() as u64) + largest;
        largest_share = largest_share.max(largest / sequential);
    }
    (serial > 0.0).then(|| (sequential / serial, largest_share))
}

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

fn first_stopped(prediction: &Prediction) -> Option<&Row> {
    prediction.rows.iter().find(|row| row.threads > 1 && row.efficiency < STOPPED_EFFICIENCY)
}

fn last_row(prediction: &Prediction) -> Option<&Row> {
    prediction.rows.iter().max_by_key(|row| row.threads)
}

fn keeps_scaling(prediction: &Prediction, name: &str) -> String {
    match last_row(prediction) {
        Some(row) => format!(
            "`{name}` keeps scaling to P = {} on this instance: predicted speedup {:.1}x (efficiency {}, idle {})",
            row.threads,
            row.speedup,
            percent(row.efficiency),
            percent(row.idle_share)
        ),
        None => format!("`{name}`: no thread count to predict"),
    }
}

/// One paragraph of advice for `shape` (shown as `name`) from `prediction`.
pub fn advise(components: &[Component], shape: Shape, name: &str, prediction: &Prediction) -> String {
    let most = last_row(prediction).map_or(1, |row| row.threads);
    match shape {
        Shape::Depth(depth) => {
            let Some((ceiling, share)) = depth_ceiling(components, depth) else {
                return keeps_scaling(prediction, name);
            };
            if ceiling >= most as f64 {
                return keeps_scaling(prediction, name);
            }
            // The first deeper split (within a few levels) with a higher ceiling.
            let better = (depth + 1..=depth + DEEPER_LEVELS).find_map(|deeper| {
                depth_ceiling(components, deeper)
                    .filter(|&(next, _)| next > ceiling * 1.1)
                    .map(|(next, next_share)| (deeper, next, next_share))
            });
            let deeper = match better {
                Some((deeper, next, next_share)) => format!(
                    "use `depth:{deeper}` (largest subproblem {}, ceiling {next:.0}x) or `steal`",
                    percent(next_share)
                ),
                None => format!(
                    "no split down to depth {} does 10% better (one subproblem stays large): use `steal`",
                    depth + DEEPER_LEVELS
                ),
            };
            format!(
                "`{name}` stops scaling at about P = {:.0} on this instance: one subproblem holds {} of the work \
                 (with the listing, a ceiling of {ceiling:.1}x whatever the threads); {deeper}",
                ceiling.floor().max(1.0),
                percent(share)
            )
        }
        Shape::Auto { per_thread } => {
            let Some(row) = first_stopped(prediction) else {
                return keeps_scaling(prediction, name);
            };
            let depths: Vec<String> = row.depths.iter().map(usize::to_string).collect();
            if row.tasks == 0 {
                return format!(
                    "`{name}` stops scaling at about P = {}: no depth lists {} subproblems per thread, and `auto` \
                     keeps the first empty listing (below the deepest node, depth {}), so the listing thread \
                     searches the whole tree alone after every trial listing (predicted {:.2}x); use `steal` or \
                     a `depth:D` split",
                    row.threads,
                    per_thread,
                    depths.join("/"),
                    row.speedup
                );
            }
            format!(
                "`{name}` stops scaling at about P = {}: there it splits at depth {} into {} subproblems, the \
                 largest holding {} of the work (ceiling {:.1}x; predicted {:.1}x, idle {}); use `auto:{}` (more \
                 subproblems per thread) or `steal`",
                row.threads,
                depths.join("/"),
                row.tasks,
                percent(row.largest_share.unwrap_or(0.0)),
                row.ceiling.unwrap_or(f64::INFINITY),
                row.speedup,
                percent(row.idle_share),
                per_thread * 4
            )
        }
        Shape::Steal => {
            let Some(row) = first_stopped(prediction) else {
                return keeps_scaling(prediction, name);
            };
            format!(
                "`{name}` stops scaling at about P = {}: predicted {:.1}x with {} of worker time idle and a tail of \
                 {:.2} ms; each worker has {:.2} ms of work there, so steals and the wait for a split weigh; the \
                 span ({} nodes, {:.3} ms) is not the limit: give it a larger instance, or fewer threads",
                row.threads,
                row.speedup,
                percent(row.idle_share),
                row.tail_ns / 1e6,
                prediction.sequential_ns / row.threads as f64 / 1e6,
                prediction.span_nodes,
                prediction.span_ns / 1e6
            )
        }
        Shape::Naive => {
            let listing_share = last_row(prediction).and_then(|row| row.ceiling).map_or(0.0, |ceiling| 1.0 / ceiling);
            format!(
                "`{name}` lists every leaf on one thread first: that listing alone is {} of the sequential time, \
                 a ceiling of {:.2}x; use `auto` or `steal`",
                percent(listing_share),
                if listing_share > 0.0 { 1.0 / listing_share } else { f64::INFINITY }
            )
        }
    }
}
