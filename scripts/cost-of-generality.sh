#!/usr/bin/env bash
# The cost of generality: N-Queens (every solution) searched by the engine with the nqueens
# example's model and by three hand-written searches of the same tree (`hand` recurses
# passing the taken lines by value, `hand-in-place` recurses changing one board in place,
# `hand-walk` loops over an explicit stack of rows by value), with per-rule counts and
# without. Writes results/cost-of-generality/instructions.csv (callgrind's instruction
# counts of each whole process, per node) and wall.csv (wall times, the eight searches taken
# in turn ROUNDS times, so that a drifting machine touches each alike), and prints both.
# Usage: scripts/cost-of-generality.sh [N_INSTRUCTIONS (12)] [N_WALL (13)] [ROUNDS (11)].
# Needs valgrind for the instruction counts; run it on a quiet machine for the wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
n_instructions=${1:-12}
n_wall=${2:-13}
rounds=${3:-11}
cargo build --release --quiet --example cost_of_generality
binary=target/release/examples/cost_of_generality
out=results/cost-of-generality
mkdir -p "$out"
modes=("hand" "hand-in-place" "hand-walk" "engine"
  "hand --no-rule-counts" "hand-in-place --no-rule-counts" "hand-walk --no-rule-counts" "engine --no-rule-counts")
name() { case "$1" in *--no-rule-counts) echo "${1%% *},no-rule-counts" ;; *) echo "$1,rule-counts" ;; esac; }

# The nodes of the tree: the same for all eight (the example's test asserts it).
nodes=$("$binary" hand "$n_instructions" | sed -E 's/.*nodes=([0-9]+).*/\1/')
{
  echo "search,counts,n,nodes,instructions,instructions_per_node"
  for mode in "${modes[@]}"; do
    # shellcheck disable=SC2086 # the mode is a list of words on purpose
    instructions=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" $mode "$n_instructions" \
      2>&1 >/dev/null | sed -nE 's/.*Collected : ([0-9]+).*/\1/p')
    echo "$(name "$mode"),$n_instructions,$nodes,$instructions,$(python3 -c "print(f'{$instructions / $nodes:.1f}')")"
  done
} > "$out/instructions.csv.tmp"
mv "$out/instructions.csv.tmp" "$out/instructions.csv"

# Wall times: one warm-up each, then ROUNDS rounds of the eight in turn.
for mode in "${modes[@]}"; do
  # shellcheck disable=SC2086
  "$binary" $mode "$n_wall" >/dev/null
done
{
  echo "search,counts,n,round,wall_ns"
  for round in $(seq 1 "$rounds"); do
    for mode in "${modes[@]}"; do
      start=$(date +%s%N)
      # shellcheck disable=SC2086
      "$binary" $mode "$n_wall" >/dev/null
      end=$(date +%s%N)
      echo "$(name "$mode"),$n_wall,$round,$((end - start))"
    done
  done
} > "$out/wall.csv.tmp"
mv "$out/wall.csv.tmp" "$out/wall.csv"

cat "$out/instructions.csv"
python3 - "$out/wall.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
runs = {}
for row in rows:
    runs.setdefault((row["search"], row["counts"]), {})[int(row["round"])] = int(row["wall_ns"])


def compare(counts, a, b):
    """The median of a's time over b's, round by round, and the two medians."""
    times_a, times_b = runs[(a, counts)], runs[(b, counts)]
    ratios = [times_a[r] / times_b[r] for r in sorted(times_a)]
    print(f"{counts}: {a} median {statistics.median(times_a.values()) / 1e6:.1f} ms, {b} median "
          f"{statistics.median(times_b.values()) / 1e6:.1f} ms, {a} / {b} per round: median "
          f"{statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")

for counts in ("rule-counts", "no-rule-counts"):
    for hand in ("hand", "hand-in-place", "hand-walk"):
        compare(counts, "engine", hand)
    # The two by-value shapes against each other: a loop over a stack against the recursion.
    compare(counts, "hand-walk", "hand")
PY
