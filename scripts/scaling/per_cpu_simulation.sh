#!/usr/bin/env bash
# The per-CPU calibration checked by simulation (issue 31), where no machine with 16 cores
# is lent: the three enumeration workloads' recorded trees, replayed on 16 simulated CPUs of
# unequal speed (the first at 1.0, the others uniform in [1, 1.9], as the lent 16-vCPU
# machine's 0.84 s to 1.60 s), stand for the measured runs; the one-CPU and the per-CPU
# calibrations' predictions are compared with them at 1, 2, 4, 8 and 16 threads. Times are
# in node costs, the same on every machine: the CSV does not depend on the machine that
# writes it. Writes results/scaling/per-cpu/simulated-16-unequal-cpus.csv.
#   scripts/scaling/per_cpu_simulation.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-results/scaling/per-cpu}"
mkdir -p "$OUT"
PER_CPU_OUT="$OUT" cargo test --test scaling -- --exact \
    per_cpu_factors_bring_the_simulated_sixteen_cpu_check_within_its_timing_noise
