//! Grouping subproblems into parts: by estimate (largest first, each to the part with the
//! least estimated work so far) or round-robin, whichever predicts the smaller largest part.

/// The subproblems of each part (indices, ascending) and the predictions that chose them.
#[derive(Debug, Clone, PartialEq)]
pub struct Grouping {
    /// `parts[k]`: the subproblems of part k + 1, in frontier order.
    pub parts: Vec<Vec<usize>>,
    /// `estimate` or `round-robin`.
    pub method: &'static str,
    /// The largest part's estimate when grouped by estimate.
    pub estimate_max: f64,
    /// The largest part's estimate when grouped round-robin.
    pub round_robin_max: f64,
}

/// Groups subproblems with estimated sizes `estimates` into `parts` parts (deterministic:
/// ties go to the earlier subproblem and the lower part).
pub fn balance(estimates: &[f64], parts: usize) -> Grouping {
    let parts = parts.max(1);
    let mut by_size: Vec<usize> = (0..estimates.len()).collect();
    by_size.sort_by(|&a, &b| estimates[b].total_cmp(&estimates[a]).then(a.cmp(&b)));
    let mut loads = vec![0.0f64; parts];
    let mut greedy = vec![Vec::new(); parts];
    for index in by_size {
        let lightest = (0..parts).min_by(|&a, &b| loads[a].total_cmp(&loads[b]).then(a.cmp(&b))).unwrap_or(0);
        loads[lightest] += estimates[index];
        greedy[lightest].push(index);
    }
    for members in &mut greedy {
        members.sort_unstable();
    }
    let estimate_max = loads.iter().copied().fold(0.0, f64::max);
    let mut round_robin = vec![Vec::new(); parts];
    let mut round_robin_loads = vec![0.0f64; parts];
    for (index, &estimate) in estimates.iter().enumerate() {
        round_robin[index % parts].push(index);
        round_robin_loads[index % parts] += estimate;
    }
    let round_robin_max = round_robin_loads.iter().copied().fold(0.0, f64::max);
    let (parts, method) =
        if estimate_max < round_robin_max { (greedy, "estimate") } else { (round_robin, "round-robin") };
    Grouping { parts, method, estimate_max, round_robin_max }
}

/// Groups subproblems round-robin in frontier order whatever their estimates: for a
/// branch-and-bound search, whose estimates (probes that ignore the bound) say little of
/// what the bound leaves, and where every part should start with some of the first
/// subproblems in the model's order, where good solutions are found early.
pub fn round_robin(estimates: &[f64], parts: usize) -> Grouping {
    let by_estimate = balance(estimates, parts);
    let parts = parts.max(1);
    let grouped = (0..parts).map(|part| (part..estimates.len()).step_by(parts).collect()).collect();
    Grouping { parts: grouped, method: "round-robin", ..by_estimate }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_subtrees_are_spread_and_every_subproblem_is_placed_once() {
        let estimates = [100.0, 1.0, 1.0, 1.0, 100.0, 1.0, 1.0, 1.0];
        let grouping = balance(&estimates, 2);
        assert_eq!(grouping.method, "estimate");
        assert_eq!(grouping.estimate_max, 103.0);
        assert_eq!(grouping.round_robin_max, 202.0);
        let mut all: Vec<usize> = grouping.parts.concat();
        all.sort_unstable();
        assert_eq!(all, (0..8).collect::<Vec<_>>());
        assert!(grouping.parts.iter().all(|members| members.contains(&0) != members.contains(&4)));
    }

    #[test]
    fn round_robin_ignores_the_estimates_and_deals_in_frontier_order() {
        let grouping = round_robin(&[100.0, 1.0, 1.0, 1.0, 100.0, 1.0, 1.0], 3);
        assert_eq!(grouping.method, "round-robin");
        assert_eq!(grouping.parts, vec![vec![0, 3, 6], vec![1, 4], vec![2, 5]]);
    }

    #[test]
    fn equal_estimates_keep_round_robin_and_extra_parts_stay_empty() {
        let grouping = balance(&[1.0; 3], 5);
        assert_eq!(grouping.method, "round-robin");
        assert_eq!(grouping.parts, vec![vec![0], vec![1], vec![2], vec![], vec![]]);
    }
}
