#!/usr/bin/env bash
# The cost of generality as a user pays it: whole processes of the `nqueens` example's
# `solve` (instance, prepare, per-solution tally, kept solutions, report) against the two
# hand-written recursions of the same tree (`hand`: the taken lines passed by value;
# `hand-in-place`: one board changed in place, as a model's state is), taken in turn
# (A B C A B C ...) so that a drifting machine touches each alike; prints the medians and
# the ratios, with rule counts and without. Writes results/cost-of-generality/solve-pair-wall.csv. Instructions:
# scripts/cost-of-generality/solve-instructions.sh. Run it on a quiet machine.
# Usage: scripts/cost-of-generality/solve-pair.sh [N (13)] [ROUNDS (11)]
# PIN_CPU=1 runs every process on that CPU alone (taskset), which narrows the spread of a
# noisy machine's rounds; the CSV's header line is the same either way.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-13}
rounds=${2:-11}
cargo build --release --quiet --example nqueens --example cost_of_generality
engine=target/release/examples/nqueens
hand=target/release/examples/cost_of_generality
out=results/cost-of-generality
mkdir -p "$out"
pin=()
if [ -n "${PIN_CPU:-}" ]; then
  command -v taskset >/dev/null || { echo "solve-pair.sh: PIN_CPU needs taskset (util-linux)" >&2; exit 2; }
  pin=(taskset -c "$PIN_CPU")
fi
wall() { local start end; start=$(date +%s%N); "${pin[@]}" "$@" >/dev/null; end=$(date +%s%N); echo $((end - start)); }
{
  echo "search,counts,n,round,wall_ns"
  for counts in rule-counts no-rule-counts; do
    flag=(); [ "$counts" = no-rule-counts ] && flag=(--no-rule-counts)
    # One warm-up each.
    "$engine" solve "$n" --all --checks bitmask --rows plain "${flag[@]}" >/dev/null
    "$hand" hand "$n" "${flag[@]}" >/dev/null
    "$hand" hand-in-place "$n" "${flag[@]}" >/dev/null
    for round in $(seq 1 "$rounds"); do
      echo "solve,$counts,$n,$round,$(wall "$engine" solve "$n" --all --checks bitmask --rows plain "${flag[@]}")"
      echo "hand,$counts,$n,$round,$(wall "$hand" hand "$n" "${flag[@]}")"
      echo "hand-in-place,$counts,$n,$round,$(wall "$hand" hand-in-place "$n" "${flag[@]}")"
    done
  done
} > "$out/solve-pair-wall.csv.tmp"
mv "$out/solve-pair-wall.csv.tmp" "$out/solve-pair-wall.csv"
python3 - "$out/solve-pair-wall.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for counts in ("rule-counts", "no-rule-counts"):
    med = {s: statistics.median(int(r["wall_ns"]) for r in rows if r["counts"] == counts and r["search"] == s)
           for s in ("solve", "hand", "hand-in-place")}
    print(f"{counts}: solve {med['solve'] / 1e6:.1f} ms, hand {med['hand'] / 1e6:.1f} ms, ratio "
          f"{med['solve'] / med['hand']:.3f}; hand-in-place {med['hand-in-place'] / 1e6:.1f} ms, ratio "
          f"{med['solve'] / med['hand-in-place']:.3f}")
PY
