#!/usr/bin/env bash
# The scaling prediction against measured runs on this machine (issue 14): for the three
# enumeration workloads and the strategies auto and steal, predicts and measures 1 and 2
# threads and (oversubscribed, marked so) 3 and 4, then writes
# results/scaling/predicted-vs-measured.csv, one SVG per workload and results/scaling/README.md
# (the "how far off it was" section that docs/scaling.md links to).
#
# Run it on a quiet machine: every other process adds noise to the medians.
#   scripts/validate-scaling.sh            # 7 runs per configuration
#   REPEATS=3 scripts/validate-scaling.sh  # a quicker, noisier pass
#   THREADS=1,2,4,8,16 OUT=results/scaling/16-cores scripts/validate-scaling.sh  # 16 cores or more
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS="${REPEATS:-7}"
THREADS="${THREADS:-1,2,3,4}"
OUT="${OUT:-results/scaling}"
cargo build --release --quiet
exec target/release/backtrack-bench scaling-check \
    --strategies auto,steal \
    --threads "$THREADS" \
    --repeats "$REPEATS" \
    --out "$OUT"
