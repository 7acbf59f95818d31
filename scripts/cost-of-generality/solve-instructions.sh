#!/usr/bin/env bash
# Instructions (callgrind, whole processes) of the `nqueens` example's `solve` and of the
# hand-written recursion of the same tree, with rule counts and without; writes
# results/cost-of-generality/solve-instructions.csv.
# Usage: scripts/cost-of-generality/solve-instructions.sh [N (13)]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-13}
cargo build --release --quiet --example nqueens --example cost_of_generality
engine=target/release/examples/nqueens
hand=target/release/examples/cost_of_generality
out=results/cost-of-generality
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -nE 's/.*Collected : ([0-9]+).*/\1/p'; }
nodes=$("$hand" hand "$n" | sed -E 's/.*nodes=([0-9]+).*/\1/')
{
  echo "search,counts,n,nodes,instructions,instructions_per_node"
  for counts in rule-counts no-rule-counts; do
    flag=(); [ "$counts" = no-rule-counts ] && flag=(--no-rule-counts)
    for search in solve engine hand; do
      case $search in
        solve) instructions=$(ir "$engine" solve "$n" --all --checks bitmask --rows plain "${flag[@]}") ;;
        *) instructions=$(ir "$hand" "$search" "$n" "${flag[@]}") ;;
      esac
      echo "$search,$counts,$n,$nodes,$instructions,$(python3 -c "print(f'{$instructions / $nodes:.1f}')")"
    done
  done
} > "$out/solve-instructions.csv.tmp"
mv "$out/solve-instructions.csv.tmp" "$out/solve-instructions.csv"
cat "$out/solve-instructions.csv"
