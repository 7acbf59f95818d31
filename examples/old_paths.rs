//! A family written against the paths of backtrack-bench 0.1.0, the release before this
//! one: the knob vocabulary under `puzzles::knobs`, the run under `solve`, the registry
//! under `registry`. `cargo test` builds and tests it, so a path that moves without a
//! deprecated alias breaks the build here, not in a user's crate. The items a family must
//! implement are this version's (0.2.0 added `type AnswerKey` and `answer_key`: see
//! CHANGELOG.md). Binary strings of length n with no two adjacent ones, a Fibonacci number
//! of them: `cargo run --example old_paths -- solve 5 --all`.
//
// The point of this file is the old paths: each use of a moved item must warn, naming the
// new path. `expect` (not `allow`) makes a use that stopped warning fail the lint check.
// The trait and the macro are re-exports, which rustc never warns about.

use backtrack_bench::puzzles::knobs::knob_enum;
use backtrack_bench::puzzles::knobs::Knob;
#[expect(deprecated)]
use backtrack_bench::puzzles::knobs::{KnobError, KnobReader, KnobSpec, KnobValues};
use backtrack_bench::puzzles::{DataError, Puzzle};
use backtrack_bench::search::{Branch, Model, RuleCounter, RuleId};
use backtrack_bench::Workbench;
use serde_json::{json, Value};

knob_enum! {
    /// Which bit is tried first.
    pub enum First {
        /// A one, then a zero.
        One = "one",
        /// A zero, then a one.
        Zero = "zero",
    }
}

/// The model: the bits chosen so far.
#[derive(Clone)]
pub struct Bits {
    n: usize,
    first: First,
    bits: Vec<bool>,
}

impl Model for Bits {
    type Move = bool;
    type Solution = Vec<bool>;
    const REJECTS_BEFORE_CHANGING: bool = true;

    fn rule_names(&self) -> &[&'static str] {
        &["adjacent-ones"]
    }

    fn max_depth(&self) -> usize {
        self.n
    }

    fn branch<C: RuleCounter>(&mut self, moves: &mut Vec<bool>, _: &mut C) -> Branch {
        if self.bits.len() == self.n {
            return Branch::Solution;
        }
        match self.first {
            First::One => moves.extend([true, false]),
            First::Zero => moves.extend([false, true]),
        }
        Branch::Moves
    }

    fn apply<C: RuleCounter>(&mut self, bit: bool, counters: &mut C) -> Result<(), RuleId> {
        counters.check(0);
        if bit && self.bits.last() == Some(&true) {
            return Err(0);
        }
        self.bits.push(bit);
        Ok(())
    }

    fn undo(&mut self, _: bool) {
        self.bits.pop();
    }

    fn solution(&self) -> Vec<bool> {
        self.bits.clone()
    }
}

/// The family: strings of `n` bits.
pub struct NoAdjacentOnes {
    n: usize,
}

#[expect(deprecated)]
impl Puzzle for NoAdjacentOnes {
    const FAMILY: &'static str = "no_adjacent_ones";
    // An argument and a pattern: registration tries the first and shows the second.
    const SHORT_FORMS: &'static [&'static str] = &["10", "<N>"];
    const KNOBS: &'static [KnobSpec] =
        &[KnobSpec { name: "first-bit", values: First::VALUES, default: "one", help: "Which bit is tried first." }];
    type Config = First;
    type Model = Bits;
    type AnswerKey = ();

    fn parse(data: &Value) -> Result<Self, DataError> {
        match data["n"].as_u64() {
            Some(n @ 1..=40) => Ok(NoAdjacentOnes { n: n as usize }),
            _ => Err(DataError::new("n", "expected a length from 1 to 40")),
        }
    }

    fn instance_from_argument(argument: &str) -> Option<Value> {
        argument.parse::<u64>().ok().map(|n| json!({ "n": n }))
    }

    fn config(knobs: &KnobValues) -> Result<First, KnobError> {
        KnobReader::new(Self::FAMILY, Self::KNOBS, knobs)?.knob("first-bit")
    }

    fn describe(first: &First) -> Vec<(&'static str, String)> {
        vec![("first-bit", first.name())]
    }

    fn models(&self, first: &First) -> Vec<Bits> {
        vec![Bits { n: self.n, first: *first, bits: Vec::new() }]
    }

    fn answer_key(&self, _: usize, _: &Vec<bool>) {}
}

fn main() -> std::process::ExitCode {
    Workbench::new().family::<NoAdjacentOnes>().run_cli()
}

#[cfg(test)]
#[expect(deprecated)]
mod tests {
    use super::*;
    use backtrack_bench::solve::{self, RunSettings, SearchMode};

    /// The 0.1.0 run path (`solve::run`, `registry::register`) counts what the current
    /// one does: F(n + 2) strings for every knob value and strategy.
    #[test]
    fn the_old_paths_count_fibonacci_numbers() {
        let family = backtrack_bench::registry::register::<NoAdjacentOnes>();
        assert_eq!(family.name(), "no_adjacent_ones");
        let instance = backtrack_bench::instance_of::<NoAdjacentOnes>(json!({ "n": 10 })).unwrap();
        for first in ["one", "zero"] {
            let knobs: KnobValues = [("first-bit".to_string(), first.to_string())].into();
            for strategy in ["sequential", "steal", "depth:3"] {
                let settings = RunSettings {
                    mode: SearchMode::All,
                    knobs: knobs.clone(),
                    strategy: strategy.parse().unwrap(),
                    threads: 2,
                    ..RunSettings::default()
                };
                let report = solve::run(&instance, &settings).unwrap();
                assert_eq!(report.solutions, 144, "{first}, {strategy}");
                assert_eq!(
                    report.nodes,
                    backtrack_bench::count_nodes(&NoAdjacentOnes { n: 10 }, &[("first-bit", first)])
                );
            }
        }
        assert_eq!(backtrack_bench::instance::BUILTIN.len(), backtrack_bench::run::instance::BUILTIN_INSTANCES.len());
    }
}
