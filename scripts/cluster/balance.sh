#!/usr/bin/env bash
# How `split`'s two groupings did on the three enumeration workloads at P parts (default
# 64): the plan's predicted largest part by estimate and round-robin, and, from the nodes
# every subproblem really had (run every part), the real largest part of the grouping kept
# and of round-robin (subproblem i to part i mod P, in frontier order), each over the mean.
# Node counts, not times: they do not depend on the machine. Writes results/cluster/balance.md.
#   scripts/cluster/balance.sh [P]
set -euo pipefail
cd "$(dirname "$0")/../.."
parts="${1:-64}"
bin="${BACKTRACK_BENCH:-target/release/backtrack-bench}"
[ -x "$bin" ] || cargo build --release --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
    echo "# Balance of \`split --parts $parts\`: by estimate against round-robin"
    echo
    echo "Written by \`scripts/cluster/balance.sh $parts\`, $("$bin" --version). Nodes per part; \"real\" from every"
    echo "subproblem's node count after running every part. The mean part is the same for both groupings."
    echo
    echo "| workload | subproblems | kept | predicted largest: estimate | predicted: round-robin | mean part (real) | real largest: kept | real largest: round-robin |"
    echo "|---|---:|---|---:|---:|---:|---:|---:|"
    for name in twenty_four_seven_enumeration hooks_enumeration prime_grid_enumeration; do
        "$bin" split "instances/$name.json" --parts "$parts" --out "$work/$name" >/dev/null
        for k in $(seq 1 "$parts"); do "$bin" run-part "$work/$name" "$k" >/dev/null; done
        python3 - "$work/$name" "$name" "$parts" <<'PY'
import json, sys
folder, name, parts = sys.argv[1], sys.argv[2], int(sys.argv[3])
plan = json.load(open(f"{folder}/plan.json"))
nodes, kept = {}, []
for k in range(1, parts + 1):
    part = json.load(open(f"{folder}/parts/{k}.json"))
    kept.append(sum(record["nodes"] for record in part["subproblems"]))
    for record in part["subproblems"]:
        nodes[record["subproblem"]] = record["nodes"]
def order(text):
    component, path = text.split(":")
    return (int(component), [] if path == "root" else [int(i) for i in path.split(".")])
frontier = sorted(nodes, key=order)
round_robin = [0] * parts
for index, subproblem in enumerate(frontier):
    round_robin[index % parts] += nodes[subproblem]
mean = sum(kept) / parts
balance = plan["balance"]
print(f"| `{name}` | {len(frontier):,} | {balance['method']} | {balance['estimate_max_part_nodes']:,} | "
      f"{balance['round_robin_max_part_nodes']:,} | {mean:,.0f} | {max(kept):,} ({max(kept) / mean:.2f}x) | "
      f"{max(round_robin):,} ({max(round_robin) / mean:.2f}x) |")
PY
    done
} | tee "$work/balance.md"
mkdir -p results/cluster
cp "$work/balance.md" results/cluster/balance.md
