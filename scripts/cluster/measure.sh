#!/usr/bin/env bash
# The cluster commands' own costs on the three enumeration workloads, with 256 parts:
# `split`, `merge`, and what one part adds to its search (process start, reading the plan,
# preparing the instance, replaying paths, writing its file): the part's whole wall time
# as the shell measures it, less its subproblems' search time as the part file records it.
# Medians of R repeated wall timings (default 5). Writes results/cluster/timings.md.
#   scripts/cluster/measure.sh [R]
set -euo pipefail
cd "$(dirname "$0")/../.."
repeats="${1:-5}"
bin="${BACKTRACK_BENCH:-target/release/backtrack-bench}"
[ -x "$bin" ] || cargo build --release --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
{
    echo "# Cluster commands: split, merge and the cost of a part"
    echo
    echo "Written by \`scripts/cluster/measure.sh $repeats\` on $(hostname) ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs), $(date -u +%Y-%m-%dT%H:%MZ), build $("$bin" --version)."
    echo "Medians of $repeats wall timings; the machine was shared with other builds, so these are upper bounds."
    echo
    echo "| workload | subproblems | split 256 parts | merge 256 parts | part overhead (median over parts) | part overhead (max) |"
    echo "|---|---:|---:|---:|---:|---:|"
    for instance in instances/twenty_four_seven_enumeration.json instances/hooks_enumeration.json instances/prime_grid_enumeration.json; do
        splits=() merges=()
        for r in $(seq 1 "$repeats"); do
            rm -rf "$work/run"
            t0=$(now); "$bin" split "$instance" --parts 256 --out "$work/run" >/dev/null; t1=$(now)
            splits+=($(( (t1 - t0) / 1000 )))
        done
        overheads=()
        for k in $(seq 1 256); do
            t0=$(now); "$bin" run-part "$work/run" "$k" >/dev/null; t1=$(now)
            search=$(sed -n 's/^  "search_ns": \([0-9]*\),$/\1/p' "$work/run/parts/$k.json")
            overheads+=($(( (t1 - t0 - search) / 1000 )))
        done
        for r in $(seq 1 "$repeats"); do
            t0=$(now); "$bin" merge "$work/run" --json >/dev/null; t1=$(now)
            merges+=($(( (t1 - t0) / 1000 )))
        done
        count=$(sed -n 's/^  "subproblem_count": \([0-9]*\),$/\1/p' "$work/run/plan.json")
        split_us=$(printf '%s\n' "${splits[@]}" | median)
        merge_us=$(printf '%s\n' "${merges[@]}" | median)
        part_us=$(printf '%s\n' "${overheads[@]}" | median)
        part_max=$(printf '%s\n' "${overheads[@]}" | sort -n | tail -1)
        printf '| `%s` | %s | %.1f ms | %.1f ms | %.2f ms | %.2f ms |\n' "$(basename "$instance" .json)" "$count" \
            "$(echo "$split_us / 1000" | bc -l)" "$(echo "$merge_us / 1000" | bc -l)" \
            "$(echo "$part_us / 1000" | bc -l)" "$(echo "$part_max / 1000" | bc -l)"
    done
} | tee results/cluster/timings.md
