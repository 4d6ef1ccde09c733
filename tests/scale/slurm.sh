#!/usr/bin/env bash
# A real Slurm (docs/scale.md): install slurm-wlm and munge from the
# system's packages when missing, start a one-node cluster (munged,
# slurmctld, slurmd; every file in a temporary folder, own ports), submit a
# 4-task job array of `rulecheck --shard auto` and a merge job that depends
# on it, and check that the merge equals one run of all the games.
# Needs root (the daemons run as root) and target/release/rulecheck.
# Usage: tests/scale/slurm.sh   (from anywhere; prints the time taken)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
started=$(date +%s.%N)
rulecheck=$repo/target/release/rulecheck
[ -x "$rulecheck" ] || cargo build --release --quiet --bin rulecheck
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

t=$(mktemp -d /tmp/grail-slurm.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$t"
}
trap cleanup EXIT
fail() {
  echo "slurm: FAILED: $*" >&2
  for f in "$t"/*.log "$t"/*.out "$t"/out/*; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }
  done
  exit 1
}

# munge: its own key and socket.
dd if=/dev/urandom of="$t/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$t/munge.key"
munged --force --foreground --key-file="$t/munge.key" --socket="$t/munge.sock" \
  --pid-file="$t/munged.pid" --log-file="$t/munged.log" --seed-file="$t/munge.seed" >"$t/munged.out" 2>&1 &
pids+=($!)

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$t/state" "$t/spool" "$t/out" "$t/parts"
cat >"$t/slurm.conf" <<EOF
ClusterName=grailci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16917
SlurmdPort=16918
AuthType=auth/munge
AuthInfo=socket=$t/munge.sock
CredType=cred/munge
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=300
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$t/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$t/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$t/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %T 2>/dev/null | grep -q idle || fail "the node did not come up"

# The run: a job array of four shards, then a merge that waits for them.
args=(rules/tamoul.rules --games 400 --players 2,3 --seed 11 --explore 0 --jobs 1)
array=$(sbatch --parsable --array=1-4 --chdir="$repo" --output="$t/out/shard_%a.txt" \
  --wrap="$rulecheck ${args[*]} --shard auto --out $t/parts/part_\${SLURM_ARRAY_TASK_ID}.ron") ||
  fail "sbatch of the array"
sbatch --parsable --wait --dependency=afterok:"$array" --chdir="$repo" \
  --output="$t/out/merge.txt" \
  --wrap="$rulecheck merge $t/parts/part_*.ron --json > $t/merged.json" >/dev/null ||
  fail "the merge job (or a shard) failed"
"$rulecheck" "${args[@]}" --json >"$t/one.json" || [ $? -eq 1 ] || fail "the single run"
python3 - "$t/one.json" "$t/merged.json" <<'EOF' || fail "the merge differs from one run"
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "elapsed_ms"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
one, merged = (strip(json.load(open(p))) for p in sys.argv[1:])
assert one == merged, "merged report differs"
assert one["files"][0]["simulation"]["games"] == 400, "not the games asked for"
EOF
grep -h "written to" "$t"/out/shard_*.txt | sed 's/^/slurm: /'
printf 'slurm: the merge of a 4-task job array equals one run (%.1f s in all)\n' \
  "$(echo "$(date +%s.%N) - $started" | bc)"
