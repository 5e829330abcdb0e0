#!/usr/bin/env bash
# A throw-away one-node SLURM cluster in a folder, for `make slurm-check` (and for trying the
# profile by hand).  No systemd: munged, slurmctld and slurmd are started directly, listen on
# 127.0.0.1 only, and keep every file (key, sockets, state, logs) under the folder.
#
#   slurm_cluster.sh start DIR [PARTITION]   start the cluster; its partition is PARTITION (default: poker51)
#   slurm_cluster.sh stop DIR                stop it (every daemon it started, by pid)
#
# Then `export SLURM_CONF=DIR/slurm.conf PATH=DIR/bin:$PATH` points sbatch, squeue, sinfo and
# scancel at it.  DIR/bin holds an `srun` that sets SLURM_CONF itself: inside a job,
# snakemake-executor-plugin-slurm-jobstep removes every SLURM_* variable but the job's ids
# (SLURM_CONF included) before its nested srun, and this cluster's config is not at the
# default /etc/slurm/slurm.conf.  A real cluster (config in /etc/slurm, or configless) needs no shim.
# Debian's slurmctld, slurmd, slurm-client and munge are installed with apt-get when absent.
# The cluster has no accounting (no slurmdbd): `sacct` does not work on it, jobs are held in
# slurmctld for MinJobAge seconds after they end, long enough for `squeue` to report them.
set -euo pipefail

die() {
    echo "slurm_cluster: $*" >&2
    exit 2
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_packages() {
    local missing=()
    command -v munged > /dev/null || missing+=(munge)
    command -v slurmctld > /dev/null || missing+=(slurmctld)
    command -v slurmd > /dev/null || missing+=(slurmd)
    command -v sbatch > /dev/null || missing+=(slurm-client)
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get > /dev/null || die "${missing[*]} missing and no apt-get to install them"
    echo "slurm_cluster: installing ${missing[*]} with apt-get"
    # policy-rc.d keeps the packages' own init scripts from starting system-wide daemons.
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
        > /dev/null || die "apt-get install ${missing[*]} failed"
}

free_ports() { # two distinct free TCP ports on 127.0.0.1 (both held open while asked for)
    python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))'
}

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...: poll COMMAND every 0.5 s
    local seconds=$1 what=$2
    shift 2
    for _ in $(seq $((seconds * 2))); do
        if "$@" > /dev/null 2>&1; then return 0; fi
        sleep 0.5
    done
    die "$what did not come up in ${seconds} s (logs in $DIR)"
}

start() {
    install_packages
    mkdir -p "$DIR"/{munge,state,spool,log,bin}
    DIR=$(cd "$DIR" && pwd)
    local user node_line memory ctld_port slurmd_port partition=$PARTITION
    user=$(id -un)
    chmod 700 "$DIR/munge"

    # munge: a fresh key; munged refuses group- or world-writable folders on its paths.
    dd if=/dev/urandom bs=1 count=1024 of="$DIR/munge/munge.key" status=none
    chmod 400 "$DIR/munge/munge.key"
    munged --force --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.socket" \
        --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/log/munged.log" \
        --seed-file="$DIR/munge/munged.seed"
    wait_for 10 munged munge --socket="$DIR/munge/munge.socket" --string=ping

    # The node as slurmd sees the hardware (CPUs, sockets, memory), renamed and bound to 127.0.0.1.
    node_line=$(slurmd -C | head -1 | sed -e 's/^NodeName=[^ ]*//')
    memory=$(echo "$node_line" | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
    read -r ctld_port slurmd_port < <(free_ports)
    cat > "$DIR/slurm.conf" << EOF
# Written by workflow/scripts/slurm_cluster.sh: a one-node cluster on 127.0.0.1.
ClusterName=poker51check
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=3600
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=poker51node NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 $node_line State=UNKNOWN
PartitionName=$partition Nodes=poker51node MaxTime=INFINITE State=UP MaxMemPerNode=$memory
EOF
    printf '#!/bin/sh\nSLURM_CONF=%s exec %s "$@"\n' "$DIR/slurm.conf" "$(command -v srun)" > "$DIR/bin/srun"
    chmod 755 "$DIR/bin/srun"
    export SLURM_CONF=$DIR/slurm.conf
    slurmctld -f "$SLURM_CONF" -i
    wait_for 20 slurmctld scontrol ping
    slurmd -f "$SLURM_CONF" -N poker51node
    wait_for 30 "slurmd (node poker51node idle)" sh -c 'sinfo -h -N -o %t | grep -qx idle'
    echo "slurm_cluster: up in $DIR (partition $partition); export SLURM_CONF=$SLURM_CONF PATH=$DIR/bin:\$PATH"
}

stop() {
    local name pid
    for name in slurmd slurmctld munge/munged; do
        [ -f "$DIR/$name.pid" ] || continue
        pid=$(cat "$DIR/$name.pid")
        if kill "$pid" 2> /dev/null; then
            for _ in $(seq 40); do kill -0 "$pid" 2> /dev/null || break; sleep 0.25; done
            kill -0 "$pid" 2> /dev/null && kill -9 "$pid" 2> /dev/null
        fi
        rm -f "$DIR/$name.pid"
    done
    echo "slurm_cluster: stopped the cluster in $DIR"
}

[ $# -ge 2 ] || die "usage: slurm_cluster.sh start|stop DIR [PARTITION]"
DIR=$2
PARTITION=${3:-poker51}
case $1 in
    start) start ;;
    stop) stop ;;
    *) die "unknown command '$1' (start or stop)" ;;
esac
