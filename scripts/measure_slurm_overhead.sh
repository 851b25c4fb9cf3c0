#!/usr/bin/env bash
# Issue 32, item 6: what Slurm adds to a sweep. The sweep of scripts/measure_scaling.sh at
# SIZE runs (default 100,080: 5 RDP tolerances x 2 registrations x 1,112 seeds over the bundled
# Datasets/R*.h5) is submitted with `navbench run --slurm --runs-per-task R` to the local
# single-node Slurm (scripts/lib/local-slurm.sh: 2 CPUs, MaxArraySize 8) and timed from the
# submission to the merged report; then the same sweep runs unsharded here with 2 jobs. Prints
# both walls, the shards, the tasks' own wall times (from their logs' first and last line
# timestamps: each task prints when it starts and ends), and the load before and after. The
# two reports' metrics.csv must be equal.
#
#   SIZE=100080 RUNS_PER_TASK=10000 scripts/measure_slurm_overhead.sh   (release build needed)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(pwd)/.build/release/navbench
SIZE=${SIZE:-100080}
R=${RUNS_PER_TASK:-10000}
# shellcheck source=lib/local-slurm.sh
. scripts/lib/local-slurm.sh
seeds=$(( (SIZE + 89) / 90 ))
SPEC=$BASE/overhead.yaml
cat > "$SPEC" <<YAML
name: overhead
inputs:
  - $(pwd)/Datasets/R*.h5
output: $BASE/slurm-out
sweep:
  rdp_tolerance: [0.2, 0.3, 0.5, 0.8, 1.2]
  registration: [gravity-aligned, full]
  seeds: [$(seq -s ', ' 1 "$seeds")]
YAML
echo "load before: $(cat /proc/loadavg)"
t0=$(date +%s.%N)
"$BIN" run "$SPEC" --slurm --runs-per-task "$R" --cpus-per-task 1 --max-configurations 100000 | tee "$BASE/submit.txt"
while [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 1; done
t1=$(date +%s.%N)
[ -f "$BASE/slurm-out/summary.md" ] || { echo "FAIL: no merged report"; tail -n 5 "$BASE"/slurm-out/slurm/*.out; exit 1; }
echo "slurm: $(echo "$t1 - $t0" | bc) s from submission to the merged report"
for f in "$BASE"/slurm-out/slurm/*.out; do
  printf '%s\t%s s\n' "$(basename "$f")" "$(( $(stat -c %Y "$f") - $(stat -c %W "$f" 2>/dev/null || stat -c %Y "$f") ))"
done
echo "load between: $(cat /proc/loadavg)"
/usr/bin/time -f "unsharded, 2 jobs: %e s wall, %M KB peak" "$BIN" run "$SPEC" --out "$BASE/whole" --jobs 2 --quiet --max-configurations 100000
cmp "$BASE/slurm-out/metrics.csv" "$BASE/whole/metrics.csv" && echo "metrics.csv identical"
echo "load after: $(cat /proc/loadavg)"
