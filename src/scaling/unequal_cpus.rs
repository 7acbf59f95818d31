//! The per-CPU calibration checked by simulation, for want of a machine with many CPUs: a
//! "measured" run replayed on CPUs of unequal speed, against what the one-CPU calibration
//! would predict of it (every CPU as fast as the first, the slowdown measured across all of
//! them) and what the per-CPU calibration would (each CPU's factor as a timing with some
//! noise finds it, the slowdown with the CPUs' own part taken out). Deterministic: the CPUs
//! are drawn from a seeded generator.

use super::costs::{Costs, Slowdown};
use super::cpu_speeds::{CpuFactors, Placement};
use super::predict::{predict_on, Component, Shape};
use super::validate::error_pct;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// A machine of unequal CPUs: what each truly takes, and what a per-CPU calibration read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnequalCpus {
    /// Each CPU's true time factor; the first (the measuring CPU) is 1.0.
    pub true_factors: Vec<f64>,
    /// Each CPU's factor as timed, with the timing's noise; the first is 1.0 (the others
    /// are divided by it).
    pub timed_factors: Vec<f64>,
}

impl UnequalCpus {
    /// `cpus` CPUs: the first at 1.0, the others uniform in `[1, slowest]`; each timed
    /// with a relative error uniform in `[-noise, noise]`, from `seed`.
    pub fn draw(cpus: usize, slowest: f64, noise: f64, seed: u64) -> UnequalCpus {
        let mut random = ChaCha8Rng::seed_from_u64(seed);
        let true_factors: Vec<f64> =
            (0..cpus.max(1)).map(|cpu| if cpu == 0 { 1.0 } else { random.gen_range(1.0..=slowest) }).collect();
        let mut timed: Vec<f64> =
            true_factors.iter().map(|factor| factor * (1.0 + random.gen_range(-noise..=noise))).collect();
        let first = timed[0];
        timed.iter_mut().for_each(|factor| *factor /= first);
        UnequalCpus { true_factors, timed_factors: timed }
    }
}

/// One thread count of one workload and strategy: the "measured" time and both predictions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComparedRow {
    /// The workload.
    pub workload: String,
    /// The strategy.
    pub strategy: String,
    /// Worker threads (worker i on CPU i).
    pub threads: usize,
    /// The replay on the true factors, standing for the measured run, in node costs.
    pub measured: f64,
    /// The one-CPU calibration's prediction.
    pub one_cpu: f64,
    /// The per-CPU calibration's prediction.
    pub per_cpu: f64,
}

impl ComparedRow {
    /// The one-CPU prediction's signed error, percent of the measured time.
    pub fn one_cpu_error_pct(&self) -> f64 {
        error_pct(self.one_cpu, self.measured)
    }

    /// The per-CPU prediction's signed error, percent of the measured time.
    pub fn per_cpu_error_pct(&self) -> f64 {
        error_pct(self.per_cpu, self.measured)
    }
}

/// `components` with each one's slowdown replaced by `slowdown` of it.
fn with_slowdown(components: &[Component], slowdown: impl Fn(Slowdown) -> Slowdown) -> Vec<Component> {
    components
        .iter()
        .map(|component| {
            let costs = Costs { slowdown: slowdown(component.costs.slowdown), ..component.costs };
            Component { costs, ..component.clone() }
        })
        .collect()
}

/// `shape` on `components` at each of `threads` on `machine`'s CPUs (worker i pinned to
/// CPU i mod cpus), compared. The components' costs are the true costs on the first CPU,
/// their slowdown the true contention of searches side by side. The one-CPU calibration
/// times as many searches as CPUs at once, so its slowdown also holds the lower median of
/// the CPUs' own factors (as timed, noise included); the per-CPU calibration divides that
/// median out again and replays each CPU at its timed factor.
pub fn compare(
    workload: &str,
    components: &[Component],
    shape: Shape,
    threads: &[usize],
    machine: &UnequalCpus,
) -> Vec<ComparedRow> {
    let cpus = machine.true_factors.len();
    let timed = CpuFactors { cpus: (0..cpus).collect(), factors: machine.timed_factors.clone() };
    let one_cpu_components = with_slowdown(components, |contention| Slowdown {
        copies: cpus,
        factor: contention.at(cpus) * timed.median_of_first(cpus),
    });
    let per_cpu_components = with_slowdown(&one_cpu_components, |slowdown| timed.contention_only(slowdown));
    let cores = Some(cpus);
    let measured = predict_on(components, shape, threads, cores, &machine.true_factors);
    let one_cpu = predict_on(&one_cpu_components, shape, threads, cores, &[]);
    let per_cpu = predict_on(&per_cpu_components, shape, threads, cores, &timed.for_workers(Placement::Pinned));
    measured
        .rows
        .iter()
        .zip(&one_cpu.rows)
        .zip(&per_cpu.rows)
        .map(|((measured, one), per)| ComparedRow {
            workload: workload.to_string(),
            strategy: shape.to_string(),
            threads: measured.threads,
            measured: measured.predicted_ns,
            one_cpu: one.predicted_ns,
            per_cpu: per.predicted_ns,
        })
        .collect()
}

/// The comparison as CSV: a comment line naming the machine, then one line per row.
pub fn csv(rows: &[ComparedRow], note: &str) -> String {
    let mut text = format!("# {note}\n");
    text.push_str(
        "workload,strategy,threads,measured,one_cpu_predicted,one_cpu_error_pct,per_cpu_predicted,per_cpu_error_pct\n",
    );
    for row in rows {
        text.push_str(&format!(
            "{},{},{},{:.1},{:.1},{:.2},{:.1},{:.2}\n",
            row.workload,
            row.strategy,
            row.threads,
            row.measured,
            row.one_cpu,
            row.one_cpu_error_pct(),
            row.per_cpu,
            row.per_cpu_error_pct()
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_cpu_is_the_measuring_one_and_the_rest_stay_in_range() {
        let machine = UnequalCpus::draw(16, 1.9, 0.05, 7);
        assert_eq!(machine.true_factors[0], 1.0);
        assert_eq!(machine.timed_factors[0], 1.0);
        assert!(machine.true_factors.iter().all(|&factor| (1.0..=1.9).contains(&factor)));
        assert_eq!(machine, UnequalCpus::draw(16, 1.9, 0.05, 7), "the same seed draws the same CPUs");
        let exact = UnequalCpus::draw(16, 1.9, 0.0, 7);
        assert_eq!(exact.true_factors, exact.timed_factors);
    }

    /// Timed without error, the per-CPU calibration predicts the replay it stands for to the
    /// bit (the slowdown's median part divides out exactly), and the one-CPU one does not.
    #[test]
    fn exact_factors_predict_the_unequal_replay_exactly() {
        let mut depths = vec![0];
        for children in [6, 2, 9, 4] {
            depths.push(1);
            for _ in 0..children {
                depths.extend([2, 3, 3, 3]);
            }
        }
        let tree = crate::scaling::work_span::tests::tree_from_preorder(&depths, 3);
        let components = [Component { name: "t".into(), tree, costs: Costs::nodes_only() }];
        let machine = UnequalCpus::draw(8, 1.9, 0.0, 3);
        for shape in [Shape::Steal, Shape::Depth(2)] {
            for row in compare("t", &components, shape, &[1, 2, 4, 8], &machine) {
                assert_eq!(row.per_cpu, row.measured, "{row:?}");
                if row.threads > 1 {
                    assert_ne!(row.one_cpu, row.measured, "{row:?}");
                }
            }
        }
    }
}
