#!/usr/bin/env bash
# Runs the parts of a split search as a Slurm job array, waits for it, then merges.
#   scripts/cluster/submit.sh [--at-once W] [--array LIST] [--threads T] DIR
# DIR is the folder `backtrack-bench split ... --out DIR` wrote, on a file system every
# node sees. --at-once W: at most W tasks at a time (sbatch --array=1-N%W); --array LIST:
# only these parts (merge --status prints the list of the missing ones); --threads T: each
# part's subproblems shared among T threads (and T CPUs asked per task). The binary is
# $BACKTRACK_BENCH (default: backtrack-bench on PATH). Prints the merged report's summary
# and writes it to DIR/merged.json; exits with merge's code (2: a part missing or foreign).
set -euo pipefail
at_once=""
array=""
threads=1
while [ $# -gt 1 ]; do
    case "$1" in
        --at-once) at_once="%$2"; shift 2 ;;
        --array) array="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        *) echo "submit.sh: unknown flag $1" >&2; exit 2 ;;
    esac
done
dir="${1:?usage: submit.sh [--at-once W] [--array LIST] [--threads T] DIR}"
dir="$(cd "$dir" && pwd)"
bin="${BACKTRACK_BENCH:-$(command -v backtrack-bench || true)}"
[ -x "$bin" ] || { echo "submit.sh: set BACKTRACK_BENCH to the backtrack-bench binary" >&2; exit 2; }
parts="$(sed -n 's/^  "part_count": \([0-9]*\),$/\1/p' "$dir/plan.json")"
[ -n "$parts" ] || { echo "submit.sh: $dir/plan.json: no part_count" >&2; exit 2; }
mkdir -p "$dir/logs"
sbatch --wait --job-name=backtrack-parts --array="${array:-1-$parts}$at_once" --cpus-per-task="$threads" \
    --output="$dir/logs/part-%a.out" --error="$dir/logs/part-%a.out" \
    --wrap="exec '$bin' run-part '$dir' --threads $threads" >"$dir/logs/sbatch.out" \
    || echo "submit.sh: sbatch reported a failed task; merge names what is missing" >&2
cat "$dir/logs/sbatch.out"
"$bin" merge "$dir" --json >"$dir/merged.json.tmp" && mv "$dir/merged.json.tmp" "$dir/merged.json" || {
    code=$?
    rm -f "$dir/merged.json.tmp"
    "$bin" merge "$dir" --status >&2 || true
    exit "$code"
}
echo "merged: $dir/merged.json"
