#!/usr/bin/env bash
# Starts a one-machine Slurm cluster (munged, slurmctld and slurmd on this
# host, one partition "debug") for trying slurm-sweep.sh, or for CI. Needs
# root and Debian's slurm-wlm and munge packages:
#   apt-get install -y slurm-wlm munge
# Idempotent: a running cluster is left as it is.
set -euo pipefail
host=$(hostname -s)
if sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then
  echo "slurm: already up on $host"; exit 0
fi
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024) - 512 }' /proc/meminfo)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge /var/log/munge /var/lib/munge
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=latsim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
[ -s /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; }
chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || su -s /bin/sh munge -c munged 2>/dev/null || munged --force
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
for _ in $(seq 1 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then echo "slurm: up on $host ($cpus CPUs)"; exit 0; fi
  sleep 1
done
echo "slurm: did not come up; see /var/log/slurm/" >&2
exit 1
