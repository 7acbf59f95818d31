#!/usr/bin/env bash
# Estimate against actual tree size: every seed instance, its default knobs and a few
# other settings, each estimate method, seeds 1..10, 1,000 probes (override with
# PROBES=K). Prints the Markdown table of docs/estimate.md. Needs python3 for the table.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
binary=target/release/backtrack-bench
probes=${PROBES:-1000}
configurations=(
  "rings" "rings --pruning none" "rings --order listed --pruning rings"
  "prime-grid" "prime-grid --mode incremental" "prime-grid --mode brute"
  "hooks7" "hooks7 --order row-major" "hooks7 --placement integrated" "hooks7 --rules basic --connectivity leaves"
  "247" "247 --order spiral" "247 --connectivity leaves"
)
{
  for configuration in "${configurations[@]}"; do
    for method in knuth accepted stratified; do
      for seed in 1 2 3 4 5 6 7 8 9 10; do
        # shellcheck disable=SC2086 # the configuration is a list of words on purpose
        printf '%s\t%s\t%s\t' "$configuration" "$method" "$seed"
        $binary estimate $configuration --probes "$probes" --seed "$seed" --method "$method" --compare --json | tr -d '\n'
        printf '\n'
      done
    done
  done
} | python3 -c '
import json, sys, statistics
rows = {}
for line in sys.stdin:
    configuration, method, seed, text = line.rstrip("\n").split("\t", 3)
    components = json.loads(text)["components"]
    estimated = sum(c["estimated_nodes"] for c in components)
    actual = sum(c["actual_nodes"] for c in components)
    worst = max(max(c["estimated_nodes"] / c["actual_nodes"], c["actual_nodes"] / max(c["estimated_nodes"], 1e-9)) for c in components)
    key = (configuration, method)
    rows.setdefault(key, {"actual": actual, "ns": sum(c["actual_ns"] for c in components), "ratios": [], "worst": [], "exact": "/".join(str(c["exact_depth"]) for c in components), "subtrees": sum(c["subtrees"] for c in components)})
    rows[key]["ratios"].append(estimated / actual)
    rows[key]["worst"].append(worst)
print("| instance and knobs | actual nodes | method | exact depth per grid (subtrees in all) | ratio min | median | max | seeds within 2x |")
print("|---|---:|---|---|---:|---:|---:|---:|")
for (configuration, method), row in rows.items():
    ratios = row["ratios"]
    within = sum(1 for worst in row["worst"] if worst <= 2.0)
    depth, subtrees, actual = row["exact"], row["subtrees"], row["actual"]
    exact = f"{depth} ({subtrees})" if method == "stratified" else "-"
    print(f"| `{configuration}` | {actual:,} | {method} | {exact} | {min(ratios):.2f} | {statistics.median(ratios):.2f} | {max(ratios):.2f} | {within}/{len(ratios)} |")
'
