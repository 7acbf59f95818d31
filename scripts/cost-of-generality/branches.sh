#!/usr/bin/env bash
# Where the wall time of the cost-of-generality searches goes: conditional branches and
# their mispredictions as cachegrind's branch simulator counts them (whole processes), for
# the engine called directly on the `nqueens` family's model and the three hand-written
# searches of the same tree (two recursions, one loop), with rule counts and without. The
# simulator is not the CPU's predictor, but it runs every search through the same one, so
# the searches compare; its counts are exact and repeatable, unlike wall times on a noisy
# machine. Writes results/cost-of-generality/branches.csv and prints it.
# Usage: scripts/cost-of-generality/branches.sh [N (12)]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-12}
cargo build --release --quiet --example cost_of_generality
binary=target/release/examples/cost_of_generality
out=results/cost-of-generality
mkdir -p "$out"
trap 'rm -f "$out/branches.csv.tmp"' EXIT
# A figure missing from an output ends the script before the CSV is replaced.
need() { [[ -n $2 ]] || { echo "branches.sh: no $1 in the output of $3" >&2; exit 1; }; }
nodes=$("$binary" hand "$n" | sed -E 's/.*nodes=([0-9]+).*/\1/')
need nodes "$nodes" "cost_of_generality hand $n"
# The "Branches:" and "Mispredicts:" lines of cachegrind's summary: the conditional count is
# the one in parentheses.
conditional() { sed -nE "s/.*$1: *[0-9,]+ +\( *([0-9,]+) cond.*/\1/p" | tr -d ,; }
{
  echo "search,counts,n,nodes,instructions,conditional_branches,mispredicted,mispredicted_per_node"
  for counts in rule-counts no-rule-counts; do
    flag=(); [ "$counts" = no-rule-counts ] && flag=(--no-rule-counts)
    for search in hand hand-in-place hand-walk engine; do
      summary=$(valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes --cachegrind-out-file=/dev/null \
        "$binary" "$search" "$n" ${flag[@]+"${flag[@]}"} 2>&1 >/dev/null)
      instructions=$(sed -nE 's/.*I +refs: *([0-9,]+).*/\1/p' <<<"$summary" | tr -d ,)
      branches=$(conditional Branches <<<"$summary")
      mispredicted=$(conditional Mispredicts <<<"$summary")
      for figure in instructions branches mispredicted; do
        need "$figure" "${!figure}" "valgrind on $search $counts"
      done
      per_node=$(python3 -c "print(f'{$mispredicted / $nodes:.3f}')")
      echo "$search,$counts,$n,$nodes,$instructions,$branches,$mispredicted,$per_node"
    done
  done
} > "$out/branches.csv.tmp"
mv "$out/branches.csv.tmp" "$out/branches.csv"
cat "$out/branches.csv"
