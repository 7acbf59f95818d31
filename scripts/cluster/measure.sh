#!/usr/bin/env bash
# The cluster commands' own costs, written to results/cluster/timings.md:
#  1. What one part adds to its search (process start, reading its plan, preparing the
#     instance, replaying its subproblems' paths, naming its solutions, writing its file),
#     in instructions (callgrind, stable on a busy machine): `run-part`'s whole count less
#     the count inside the search proper (the engine's `expand` below each subproblem), for
#     an empty part (the Olympic rings split in 256 parts: 5 subproblems, 251 empty parts)
#     and part 1 of each enumeration workload split in 256 parts.
#  2. The same in wall time: 256 `run-part` runs of the rings' parts one after another,
#     divided by 256; and, for each enumeration workload, each part's wall time as the
#     shell sees it less its search time as its file records it (median and largest).
#  3. `split` into 256 parts and `merge` of 256 parts of each enumeration workload (medians
#     of R wall timings).
# Wall figures from a machine shared with other work are upper bounds: rerun on a quiet one.
#   scripts/cluster/measure.sh [R]      (R: repeated wall timings, default 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
repeats="${1:-5}"
bin="${BACKTRACK_BENCH:-target/release/backtrack-bench}"
[ -x "$bin" ] || cargo build --release --quiet
command -v valgrind >/dev/null || { echo "measure: valgrind (callgrind) is needed" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ms() { echo "$1 / 1000000" | bc -l | xargs printf '%.2f'; }
enumerations=(twenty_four_seven_enumeration hooks_enumeration prime_grid_enumeration)

# Instructions of `run-part DIR K`, and those inside the search proper: "TOTAL SEARCH".
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$bin" run-part "$1" "$2" >/dev/null 2>"$work/cg.err"
    callgrind_annotate --inclusive=yes "$work/cg.out" 2>/dev/null | python3 -c '
import re, sys
total = search = 0
for line in sys.stdin:
    count = re.match(r"\s*([\d,]+) ", line)
    if not count:
        continue
    value = int(count.group(1).replace(",", ""))
    if "PROGRAM TOTALS" in line:
        total = value
    # The outermost call of the search (recursive calls are marked with a quote).
    elif re.search(r"Engine<M,C,S,O>::expand \[", line):
        search = max(search, value)
print(total, search)'
}

"$bin" split rings --parts 256 --out "$work/rings" >/dev/null
for name in "${enumerations[@]}"; do
    "$bin" split "instances/$name.json" --parts 256 --out "$work/$name" >/dev/null
done

{
    echo "# Cluster commands: split, merge and the cost of a part"
    echo
    echo "Written by \`scripts/cluster/measure.sh $repeats\` on $(hostname) ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs), $(date -u +%Y-%m-%dT%H:%MZ), $("$bin" --version), release build."
    echo
    echo "## What a part adds to its search, in instructions (callgrind)"
    echo
    echo "\`run-part DIR K\` under callgrind: all its instructions, those inside the search proper (the engine's"
    echo "\`expand\` below the subproblems' nodes), and the difference: process start, reading \`plans/K.json\`,"
    echo "preparing the instance, replaying the subproblems' paths, naming and counting the solutions,"
    echo "writing \`parts/K.json\`. Parts of 256."
    echo
    echo "| workload | part | subproblems | solutions | instructions | in the search | added by the part |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    for target in "rings 256" "rings 1" "twenty_four_seven_enumeration 1" "hooks_enumeration 1" "prime_grid_enumeration 1"; do
        set -- $target
        read -r total search < <(instructions "$work/$1" "$2")
        python3 - "$work/$1/parts/$2.json" "$1" "$2" "$total" "$search" <<'PY'
import json, sys
part = json.load(open(sys.argv[1]))
total, search = int(sys.argv[4]), int(sys.argv[5])
solutions = sum(c["counts"]["solutions"] for c in part["components"])
print(f"| `{sys.argv[2]}` | {sys.argv[3]} | {len(part['subproblems'])} | {solutions:,} | {total:,} | {search:,} | {total - search:,} |")
PY
    done
    echo
    echo "## The same in wall time"
    echo
    start=$(now)
    for k in $(seq 1 256); do "$bin" run-part "$work/rings" "$k" >/dev/null; done
    end=$(now)
    echo "256 \`run-part\` runs of the rings' 256 parts (251 of them empty), one after another: $(ms $(( (end - start) / 256 ))) ms a part."
    echo
    echo "| workload | subproblems | split 256 parts | merge 256 parts | part wall less its search (median) | (largest) |"
    echo "|---|---:|---:|---:|---:|---:|"
    for name in "${enumerations[@]}"; do
        splits=() merges=() overheads=()
        for r in $(seq 1 "$repeats"); do
            rm -rf "$work/again"
            t0=$(now); "$bin" split "instances/$name.json" --parts 256 --out "$work/again" >/dev/null; t1=$(now)
            splits+=($((t1 - t0)))
        done
        for k in $(seq 1 256); do
            t0=$(now); "$bin" run-part "$work/$name" "$k" >/dev/null; t1=$(now)
            search=$(sed -n 's/^  "search_ns": \([0-9]*\),$/\1/p' "$work/$name/parts/$k.json")
            overheads+=($((t1 - t0 - search)))
        done
        for r in $(seq 1 "$repeats"); do
            t0=$(now); "$bin" merge "$work/$name" --json >/dev/null; t1=$(now)
            merges+=($((t1 - t0)))
        done
        count=$(sed -n 's/^  "subproblem_count": \([0-9]*\),$/\1/p' "$work/$name/plan.json")
        printf '| `%s` | %s | %s ms | %s ms | %s ms | %s ms |\n' "$name" "$count" \
            "$(ms "$(printf '%s\n' "${splits[@]}" | median)")" "$(ms "$(printf '%s\n' "${merges[@]}" | median)")" \
            "$(ms "$(printf '%s\n' "${overheads[@]}" | median)")" "$(ms "$(printf '%s\n' "${overheads[@]}" | sort -n | tail -1)")"
    done
    echo
    echo "Load while measuring: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min averages at the end); wall figures on a"
    echo "machine shared with other work are upper bounds."
} | tee "$work/timings.md"
mkdir -p results/cluster
cp "$work/timings.md" results/cluster/timings.md
