#!/usr/bin/env bash
# CI's real-Slurm check: starts a one-node Slurm (start-slurm.sh), splits the 24/7
# enumeration workload into 64 parts, runs them as a job array 2 tasks at a time, merges,
# and compares the merged report with a sequential `solve` (nodes, solutions, per rule, per
# depth, the answer). Fails, with the reason, when Slurm cannot be installed or started:
# it never passes without having run. Stops the daemons it started. Prints `sinfo` and the
# array's accounting lines (sacct where accounting storage runs, else the job completion
# log). Then `explain --cluster` on the run: its forecast at 2 workers must be within 15%
# (or 2.5 scheduler passes) of what the parts measured, on parts it was not calibrated on
# (the scheduler's median gap is measured on the first 32 parts, the span of the last 32
# predicted). The binary is $BACKTRACK_BENCH, else target/debug/backtrack-bench (built by
# `cargo test`), else it is built.
#   scripts/cluster/check-slurm.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
here="$(pwd)"
out="${1:-$(mktemp -d /tmp/slurm-check.XXXXXX)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The daemons' folder sits inside: munged, run as the munge user, must be able to reach it.
chmod a+rx "$out"
state="$out/slurm"
bin="${BACKTRACK_BENCH:-$here/target/debug/backtrack-bench}"
if [ ! -x "$bin" ]; then
    cargo build --quiet
    bin="$here/target/debug/backtrack-bench"
fi
command -v python3 >/dev/null || { echo "check-slurm: FAILED: python3 is needed to compare the reports" >&2; exit 1; }

trap 'scripts/cluster/stop-slurm.sh "$state"' EXIT
if ! conf_line="$(scripts/cluster/start-slurm.sh "$state")"; then
    echo "check-slurm: FAILED: no Slurm cluster could be started (the reason is above)" >&2
    exit 1
fi
export "${conf_line#export }"

instance=instances/twenty_four_seven_enumeration.json
"$bin" split "$instance" --parts 64 --out "$out/run"
started=$(date +%s.%N)
BACKTRACK_BENCH="$bin" scripts/cluster/submit.sh --at-once 2 "$out/run"
ended=$(date +%s.%N)
"$bin" solve "$instance" --json >"$out/sequential.json"

{
    echo "## sinfo"
    sinfo
    echo
    echo "## the array's tasks"
    job="$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$out/run/logs/sbatch.out")"
    if sacct -j "$job" -X -o JobID,JobName,State,ExitCode,Start,End,Elapsed,NodeList -P 2>/dev/null | grep -q "_"; then
        sacct -j "$job" -X -o JobID,JobName,State,ExitCode,Start,End,Elapsed,NodeList -P
    else
        echo "(sacct: $(sacct -j "$job" 2>&1 | head -1); the job completion log instead)"
        cat "$state/jobcomp.txt"
    fi
    echo
    echo "array wall time: $(python3 -c "print(f'{$ended - $started:.2f} s')")"
} | tee "$out/slurm-run.txt"

python3 - "$out/run/merged.json" "$out/sequential.json" <<'PY'
import json, sys
merged, sequential = (json.load(open(path)) for path in sys.argv[1:3])
fields = ["nodes", "solutions", "rules", "nodes_per_depth", "prunes_per_depth", "answer", "complete"]
different = [field for field in fields if merged[field] != sequential[field]]
for mine, theirs in zip(merged["components"], sequential["components"]):
    for field in ["nodes", "solutions", "solution_texts"]:
        if mine[field] != theirs[field]:
            different.append(f"{mine['name']}.{field}")
if different:
    sys.exit(f"check-slurm: FAILED: the merged report differs from the sequential one in {different}")
print(f"check-slurm: ok: 64 parts on Slurm merged to {merged['nodes']:,} nodes and "
      f"{merged['solutions']:,} solutions, as the sequential run")
PY

# explain --cluster: its prediction at 2 workers against the makespan the parts measured
# (--slots 2: the array ran 2 at a time; its parts, milliseconds each, never overlap).
"$bin" explain --cluster "$out/run" --slots 2 | tee "$out/explain-cluster.txt"
"$bin" explain --cluster "$out/run" --slots 2 --json >"$out/explain-cluster.json"
python3 - "$out/explain-cluster.json" <<'PY'
import json, sys
explanation = json.load(open(sys.argv[1]))
measured = explanation["makespan_ns"]
predicted = next(row["makespan_ns"] for row in explanation["predicted"] if row["workers"] == 2)
print(f"explain --cluster: whole run at 2 workers predicted {predicted / 1e9:.2f} s, measured {measured / 1e9:.2f} s "
      f"(calibrated on the same run: a consistency check, not a forecast)")
held = explanation["held_out"]
apart_ns = abs(held["predicted_ns"] - held["measured_ns"])
error = apart_ns / held["measured_ns"]
# Slurm now and then starts two rounds in one pass, which shortens a half by one pass (its
# median gap) and which no forecast can know: two such passes in one half moved it 13% to
# 15% in CI runs. So the forecast passes within 15% or within 2.5 passes.
passes = apart_ns / held["calibration_gap_ns"] if held["calibration_gap_ns"] else float("inf")
print(f"explain --cluster: held out: gap from the first {held['calibration_parts']} parts predicts the last "
      f"{held['predicted_parts']} at {held['workers']} workers in {held['predicted_ns'] / 1e9:.2f} s, "
      f"measured {held['measured_ns'] / 1e9:.2f} s ({100 * error:.1f}% apart, {passes:.2f} scheduler passes)")
if error > 0.15 and passes > 2.5:
    sys.exit("check-slurm: FAILED: explain --cluster's held-out forecast at 2 workers is more than 15% and more than "
             "2.5 scheduler passes from the measured span")
PY
