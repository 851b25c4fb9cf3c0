# Starts a real single-node Slurm on localhost for the calling script (no systemd, no cgroups;
# see ../shared/slurm-localhost.md): MaxArraySize 8, 2 CPUs, partition `debug`, credentials
# that expire after 5 s (a requeued job waits that long, not 120 s). Installs slurmctld/slurmd
# if missing. Sets BASE (a temporary folder holding the state and logs) and SLURM_CONF, and
# a trap that cancels the remaining jobs, stops the daemons and removes BASE on exit.
# Sourced by scripts/check_slurm_shards.sh and scripts/measure_slurm_overhead.sh.
if ! command -v slurmctld >/dev/null || ! command -v sbatch >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client >/dev/null
fi
BASE=$(mktemp -d)
mkdir -p "$BASE"/{state,spool,pids,log}
cat > "$BASE/slurm.conf" <<CONF
ClusterName=localtest
SlurmctldHost=localhost
SlurmctldPort=6817
SlurmdPort=6818
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool
SlurmctldPidFile=$BASE/pids/slurmctld.pid
SlurmdPidFile=$BASE/pids/slurmd.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MaxArraySize=8
AuthInfo=cred_expire=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$BASE/slurm.conf
# Leave the machine as we found it: the daemons run in their own sessions (so their job steps
# are stopped with them), remaining jobs are cancelled first, and the temporary folder goes.
CTLD=""; SLURMD=""
stop() {
  scancel --quiet --full "--user=$(id -un)" 2>/dev/null || true
  for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.1; done
  for pid in $SLURMD $CTLD; do kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; done
  for pid in $SLURMD $CTLD; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$BASE"
}
trap stop EXIT
setsid slurmctld -D -c -f "$SLURM_CONF" > "$BASE/log/ctld.out" 2>&1 & CTLD=$!
setsid slurmd -D -N localhost -f "$SLURM_CONF" > "$BASE/log/d.out" 2>&1 & SLURMD=$!
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.2; done
