#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine, for `split` / `run-part` / `merge` and
# for CI's slow check: munged, slurmctld and slurmd with a minimal slurm.conf (one node with
# this machine's CPUs, proctrack/linuxproc, task/none, select/cons_tres, scheduling passes
# without the default 3 s batch delay, so a throttled array's next task starts about a
# second after a task ends), their state,
# spool, logs and munge key in one folder. Installs the Debian packages (slurmctld, slurmd,
# slurm-client, munge) when they are missing; exits 1 with the reason when it cannot.
#
#   scripts/cluster/start-slurm.sh [STATE_DIR]   # prints: export SLURM_CONF=STATE_DIR/slurm.conf
#   scripts/cluster/stop-slurm.sh STATE_DIR      # stops the daemons this script started
set -euo pipefail

state="${1:-$(mktemp -d /tmp/one-node-slurm.XXXXXX)}"
mkdir -p "$state"
state="$(cd "$state" && pwd)"
# munged runs as the munge user, which must reach its files here (mktemp makes 0700 folders).
chmod a+rx "$state"
fail() { echo "start-slurm: $*" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
    || ! command -v munged >/dev/null; then
    [ "$(id -u)" = 0 ] || fail "the Slurm packages are missing and installing them needs root"
    command -v apt-get >/dev/null || fail "the Slurm packages are missing and there is no apt-get to install them"
    echo "start-slurm: installing slurmctld slurmd slurm-client munge" >&2
    apt-get update -qq >"$state/apt.log" 2>&1 || fail "apt-get update failed (see $state/apt.log)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurmctld slurmd slurm-client munge >>"$state/apt.log" 2>&1 \
        || fail "apt-get install slurmctld slurmd slurm-client munge failed (see $state/apt.log)"
fi

host="$(hostname -s)"
cpus="$(nproc)"
mkdir -p "$state/ctld" "$state/spool" "$state/munge"
chmod 700 "$state/munge"
# A fresh munge key: only this cluster's daemons and clients share it.
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$state/munge/munge.key"
if id munge >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    chown -R munge: "$state/munge"
    munge_user=(--runas munge) # dropped below when this munged does not know the flag
else
    munge_user=()
fi
munged_args=(--key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket"
    --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log"
    --seed-file="$state/munge/munged.seed" --force)
if [ "${#munge_user[@]}" -gt 0 ]; then
    su -s /bin/sh munge -c "munged $(printf '%q ' "${munged_args[@]}")" \
        || fail "munged did not start (see $state/munge/munged.log)"
else
    munged "${munged_args[@]}" || fail "munged did not start (see $state/munge/munged.log)"
fi

cat >"$state/slurm.conf" <<CONF
ClusterName=onenode
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
JobCompType=jobcomp/filetxt
JobCompLoc=$state/jobcomp.txt
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

export SLURM_CONF="$state/slurm.conf"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start (see $state/slurmctld.log)"
slurmd -f "$SLURM_CONF" -N "$host" || fail "slurmd did not start (see $state/slurmd.log)"
for _ in $(seq 1 120); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qx 'idle'; then
        echo "export SLURM_CONF=$SLURM_CONF"
        exit 0
    fi
    sleep 0.5
done
sinfo >&2 || true
fail "the node did not become idle within 60 s (see $state/slurmctld.log and $state/slurmd.log)"
