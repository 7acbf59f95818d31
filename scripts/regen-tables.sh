#!/usr/bin/env bash
# Regenerates results/README.md, results/*-summary.csv and results/plots/*.svg from the
# run logs (results/*-runs*.csv) alone; nothing is re-run.
# Extra arguments go to `report`, e.g. `--baseline old/quick-summary.csv` or `--out DIR`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release --quiet -- report "$@"
