#!/usr/bin/env bash
# Instructions (callgrind, whole processes) of the `nqueens` example's `solve`, of the engine
# called directly on the family's model and of the two hand-written recursions of the same
# tree (`hand`: the taken lines passed by value; `hand-in-place`: one board changed in place),
# with rule counts and without; writes their rows, labelled BUILD, into
# results/cost-of-generality/solve-instructions.csv, keeping the rows of other builds.
# Usage: scripts/cost-of-generality/solve-instructions.sh [N (13)] [BUILD (the short commit)]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-13}
build=${2:-$(git rev-parse --short HEAD)}
cargo build --release --quiet --example nqueens --example cost_of_generality
engine=target/release/examples/nqueens
hand=target/release/examples/cost_of_generality
out=results/cost-of-generality
csv=$out/solve-instructions.csv
header="build,search,counts,n,nodes,instructions,instructions_per_node"
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -nE 's/.*Collected : ([0-9]+).*/\1/p'; }
nodes=$("$hand" hand "$n" | sed -E 's/.*nodes=([0-9]+).*/\1/')
{
  echo "$header"
  # Rows of other builds (and of this build at other sizes) stay.
  if [ -f "$csv" ]; then grep -v -e "^$header\$" -e "^$build,[a-z]*,[a-z-]*,$n," "$csv" || true; fi
  for counts in rule-counts no-rule-counts; do
    flag=(); [ "$counts" = no-rule-counts ] && flag=(--no-rule-counts)
    for search in solve engine hand hand-in-place; do
      case $search in
        solve) instructions=$(ir "$engine" solve "$n" --all --checks bitmask --rows plain "${flag[@]}") ;;
        *) instructions=$(ir "$hand" "$search" "$n" "${flag[@]}") ;;
      esac
      echo "$build,$search,$counts,$n,$nodes,$instructions,$(python3 -c "print(f'{$instructions / $nodes:.1f}')")"
    done
  done
} > "$csv.tmp"
mv "$csv.tmp" "$csv"
grep -e "^build," -e "^$build," "$csv"
