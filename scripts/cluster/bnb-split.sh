#!/usr/bin/env bash
# A branch-and-bound search split into parts that share the incumbent through the plan
# folder, against the sequential search: for each workload and each part count, `split`,
# every part run 2 at a time (xargs -P 2, as a Slurm array with %2 would), `merge`; the
# merged best against `solve --best`'s, and the parts' nodes (the lister's included) over
# the sequential nodes. Node counts of the parts vary from run to run (they depend on when
# each part read the others' values): ROUNDS runs of each, median and range reported.
# Writes results/cluster/bnb-split.{csv,md}. Not part of CI or `cargo test`.
#   scripts/cluster/bnb-split.sh [ROUNDS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-3}"
bin="${BACKTRACK_BENCH:-target/release/backtrack-bench}"
[ -x "$bin" ] || cargo build --release --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 scripts/graphs/gnp.py 300 0.7 1 > "$work/gnp_300_0.7_1.clq"
python3 scripts/knapsack/generate.py strongly-correlated 80 10000 1 > "$work/strongly-correlated_80_10000.json"
workloads=(instances/max_clique/gnp_200_0.75_1.clq "$work/gnp_300_0.7_1.clq" "$work/strongly-correlated_80_10000.json")
csv=results/cluster/bnb-split.csv
echo "workload,parts,round,sequential_best,sequential_nodes,sequential_s,merged_best,proven,part_nodes,ratio,wall_s" > "$csv.tmp"
for workload in "${workloads[@]}"; do
    name="$(basename "$workload")"
    name="${name%.*}"
    start=$(date +%s.%N)
    read -r best nodes < <("$bin" solve "$workload" --best --json \
        | python3 -c "import json,sys; r=json.load(sys.stdin); print(r['objective']['best'], r['nodes'])")
    seq_s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$start" "$(date +%s.%N)")
    for parts in 8 64; do
        for round in $(seq 1 "$rounds"); do
            dir="$work/$name-$parts-$round"
            start=$(date +%s.%N)
            "$bin" split "$workload" --parts "$parts" --out "$dir" >/dev/null
            seq 1 "$parts" | xargs -P 2 -I{} "$bin" run-part "$dir" {} >/dev/null
            "$bin" merge "$dir" --json > "$dir/merged.json"
            wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$start" "$(date +%s.%N)")
            python3 - "$dir/merged.json" "$name" "$parts" "$round" "$best" "$nodes" "$seq_s" "$wall" >> "$csv.tmp" <<'PY'
import json, sys
merged = json.load(open(sys.argv[1]))
name, parts, round_, best, nodes, seq_s, wall = sys.argv[2:]
objective = merged["objective"]
print(",".join(str(x) for x in [name, parts, round_, best, nodes, seq_s, objective["best"],
    str(objective["proven"]).lower(), merged["nodes"], f"{merged['nodes'] / int(nodes):.3f}", wall]))
PY
            rm -rf "$dir"
        done
    done
done
mv "$csv.tmp" "$csv"
python3 - "$csv" "$("$bin" --version)" "$rounds" > results/cluster/bnb-split.md <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("# Branch and bound split into parts that share the incumbent")
print()
print(f"Written by `scripts/cluster/bnb-split.sh {sys.argv[3]}`, {sys.argv[2]}, on this machine "
      "(parts run 2 at a time). Target: the merged best equals the sequential optimum, and the parts' "
      "nodes (the lister's included) are at most 1.5x the sequential nodes.")
print()
print("| workload | parts | sequential best | merged best (every round) | proven | sequential nodes | parts' nodes, median (min-max) | ratio, median (max) | wall s, median (sequential s) |")
print("|---|---:|---:|---|---|---:|---|---|---|")
groups = {}
for row in rows:
    groups.setdefault((row["workload"], int(row["parts"])), []).append(row)
for (name, parts), group in groups.items():
    nodes = [int(row["part_nodes"]) for row in group]
    ratios = [float(row["ratio"]) for row in group]
    walls = [float(row["wall_s"]) for row in group]
    bests = sorted({row["merged_best"] for row in group})
    proven = all(row["proven"] == "true" for row in group)
    print(f"| {name} | {parts} | {group[0]['sequential_best']} | {', '.join(bests)} | {'yes' if proven else 'no'} "
          f"| {int(group[0]['sequential_nodes']):,} | {int(statistics.median(nodes)):,} ({min(nodes):,}-{max(nodes):,}) "
          f"| {statistics.median(ratios):.3f} ({max(ratios):.3f}) | {statistics.median(walls):.2f} ({group[0]['sequential_s']}) |")
bad = [row for row in rows if row["merged_best"] != row["sequential_best"] or row["proven"] != "true"]
sys.exit(1 if bad else 0)
PY
cat results/cluster/bnb-split.md
