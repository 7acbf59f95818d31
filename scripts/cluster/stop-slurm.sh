#!/usr/bin/env bash
# Stops the daemons scripts/cluster/start-slurm.sh started in STATE_DIR (by the process ids
# in their pid files, nothing else) and leaves the folder and its logs.
#   scripts/cluster/stop-slurm.sh STATE_DIR
set -uo pipefail
state="${1:?usage: stop-slurm.sh STATE_DIR}"
for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munge/munged.pid"; do
    [ -s "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
done
exit 0
