#!/usr/bin/env bash
# Runs a sharded experiment on a real single-node Slurm started on localhost (no systemd, no
# cgroups; see ../shared/slurm-localhost.md), through scripts/slurm-sweep.sbatch and through
# `navbench run --slurm` (MaxArraySize 8, so several arrays), and checks that the merged reports
# equal an unsharded run and that a resubmission runs only a lost shard. Installs
# slurmctld/slurmd if missing.
# Prints 'N passed, M failed'.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(pwd)/.build/release/navbench
# shellcheck source=lib/local-slurm.sh
. scripts/lib/local-slurm.sh
OUT=$BASE/sharded
SPEC=$BASE/spec.yaml
# A small spec with every kind of result (replay jobs, calibration, proximity, closed-loop cells
# and their walkers): the default experiment took ~5 minutes here twice over (sharded and whole).
cat > "$SPEC" <<YAML
name: slurm-check
inputs:
  - Datasets/*.h5
  - Datasets/venue/*.h5
output: $OUT
sweep:
  rdp_tolerance: [0.3, 1.0]
  arrival: [faithful, symmetric]
metrics: [clock_agreement_within_1h, bearing_error_mean_abs, completed, cross_track_rmse]
calibration: [mean, circmean]
proximity: [none, "ema:tau=2"]
closed_loop:
  walker: [cane]
  vio_error: [none, "synth,yaw_offset=2"]
  walls: [venue]
  recordings: ["Datasets/venue/B[12]-*"]
  runs: 10
  seeds: [1]
YAML
submitted=$(SPEC=$SPEC SHARDS=3 NAVBENCH=$BIN CPUS=1 LOGS=$BASE/log scripts/slurm-sweep.sbatch)
# Up to 10 minutes for the three shards and the merge (a slow machine and a busy queue).
for _ in $(seq 3000); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
pass=0; fail=0
if [ -f "$OUT/metrics.csv" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: no merged report ($submitted)"; cat "$BASE"/log/*.log | tail -20; fi
"$BIN" run "$SPEC" --out "$BASE/whole" --quiet > /dev/null
if cmp -s "$OUT/metrics.csv" "$BASE/whole/metrics.csv"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: merged metrics.csv differs from the unsharded run"; fi
# The stamp line names the command (the unsharded run adds --out); everything else must match.
if cmp -s <(grep -v "regenerate with" "$OUT/summary.md") <(grep -v "regenerate with" "$BASE/whole/summary.md"); then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: merged summary.md differs"; fi
for f in closed-loop.csv calibration.csv proximity.csv summary.tex; do
  if [ "$(wc -l < "$OUT/$f" 2>/dev/null || echo 0)" -gt 10 ] && cmp -s "$OUT/$f" "$BASE/whole/$f"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: merged $f differs or is (nearly) empty"; fi
done
# `navbench run --slurm` (issue 32, item 1) on the same Slurm, whose MaxArraySize is 8: the sweep
# is cut into more shards than one array may hold, so it goes out as several arrays and one merge
# after them; the merged report equals the unsharded run. Then a shard whose store is lost (a
# task killed before it committed) is all that a second --slurm submits.
CLI=$BASE/cli
R=25
"$BIN" run "$SPEC" --out "$CLI" --slurm --runs-per-task $R --dry-run > "$BASE/dry.txt"
arrays=$(grep -c -- "--array=" "$BASE/dry.txt" || true)
if [ "$arrays" -ge 2 ] && grep -q -- "--dependency=afterok:<array 1>:<array 2>" "$BASE/dry.txt" && ! [ -e "$CLI/slurm" ]; then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: --dry-run did not plan several arrays and a dependent merge:"; cat "$BASE/dry.txt"; fi
"$BIN" run "$SPEC" --out "$CLI" --slurm --runs-per-task $R > "$BASE/submit.txt"
for _ in $(seq 3000); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
if cmp -s "$CLI/metrics.csv" "$BASE/whole/metrics.csv" && cmp -s <(grep -v "regenerate with" "$CLI/summary.md") <(grep -v "regenerate with" "$BASE/whole/summary.md"); then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: the --slurm report differs from the unsharded run"; cat "$BASE/submit.txt"; tail -n 5 "$CLI"/slurm/*.out 2>/dev/null | tail -20; fi
lost=$(ls "$CLI"/results.shard-2-of-*.sqlite)
rm -f "$lost" "$lost-wal" "$lost-shm" "$CLI/summary.md"
"$BIN" run "$SPEC" --out "$CLI" --slurm --runs-per-task $R > "$BASE/resubmit.txt"
if grep -q "; 1 shards (" "$BASE/resubmit.txt" && grep -q "submitted array .*: shards 2 of" "$BASE/resubmit.txt"; then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: the resubmission did not submit shard 2 alone:"; cat "$BASE/resubmit.txt"; fi
for _ in $(seq 3000); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
if cmp -s "$CLI/metrics.csv" "$BASE/whole/metrics.csv" && "$BIN" status "$SPEC" --out "$CLI" > /dev/null; then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: after the resubmission the report or status is wrong"; fi
"$BIN" run "$SPEC" --out "$CLI" --slurm --runs-per-task $R > "$BASE/again.txt"
if grep -q "^nothing to submit" "$BASE/again.txt"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: a complete sweep was submitted again"; cat "$BASE/again.txt"; fi
# Preemption (issue 32, item 2): a running task is requeued (Slurm sends it SIGTERM, as a
# preemption does); it commits what it finished, exits 75, runs again and computes only the rest:
# across every task's log (append mode keeps both attempts) each unit was computed once, and the
# merged report equals the unsharded run's.
# The tasks get 100 times the closed-loop runs (metrics.csv, the replay's, stays the same), so a
# task of the optimised build is still working when the requeue arrives a second after it starts.
PRE=$BASE/preempted
PRE_SPEC=$BASE/spec-preempted.yaml
sed 's/^  runs: 10$/  runs: 1000/' "$SPEC" > "$PRE_SPEC"
grep -q '^  runs: 1000$' "$PRE_SPEC" || { echo "FAIL: the preemption spec did not get its 1000 closed-loop runs (the spec above changed?)"; exit 1; }
"$BIN" run "$PRE_SPEC" --out "$PRE" --slurm --runs-per-task 60 > "$BASE/pre.txt"
task=""
start_pre=$(date +%s)
for _ in $(seq 600); do
  task=$(squeue -h -t R -o "%i %j" 2>/dev/null | awk '$2 !~ /merge$/ && $1 ~ /_/ {print $1; exit}')
  [ -n "$task" ] && break; sleep 0.05
done
sleep 1
[ -n "$task" ] && scontrol requeue "$task" 2>/dev/null || true
for _ in $(seq 3000); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
echo "preemption phase: $(( $(date +%s) - start_pre )) s (requeued $task)"
stopped=$(cat "$PRE"/slurm/slurm-*_*.out 2>/dev/null | grep -c "stopped on request" || true)
computed=$(cat "$PRE"/slurm/slurm-*_*.out 2>/dev/null | sed -n -e 's/.*stopped on request with [0-9]* results stored (\([0-9]*\) computed now).*/\1/p' \
  -e 's/^shard [0-9]*\/[0-9]*: [0-9]* jobs (\([0-9]*\) computed.*other results (\([0-9]*\) computed).*/\1 \2/p' \
  -e 's/^shard [0-9]*\/[0-9]*: [0-9]* jobs (\([0-9]*\) computed, [0-9]* cached);.*/\1/p' | tr ' ' '\n' | awk '{s+=$1} END {print s+0}')
units=$("$BIN" status "$PRE_SPEC" --out "$PRE" | sed -n 's/^shard [0-9]* of [0-9]* .*: [0-9]* of \([0-9]*\) units done.*/\1/p' | awk '{s+=$1} END {print s+0}')
if [ "$stopped" -ge 1 ] && [ "$computed" -eq "$units" ] && cmp -s "$PRE/metrics.csv" "$BASE/whole/metrics.csv"; then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: preemption of $task: $stopped stopped, $computed computed of $units units, or the report differs"; tail -n 3 "$PRE"/slurm/*.out; fi
# A task that fails for good (its spec is gone when it starts: exit 2, not requeued) leaves the
# merge's afterok unsatisfiable: the merge is cancelled (--kill-on-invalid-dep=yes), not left
# pending forever. The partition is held down while the spec is removed, so no task starts first.
FAILSPEC=$BASE/failing.yaml
cp "$SPEC" "$FAILSPEC"
scontrol update PartitionName=debug State=DOWN
"$BIN" run "$FAILSPEC" --out "$BASE/failing" --slurm --runs-per-task 400 > "$BASE/failing.txt"
rm -f "$FAILSPEC"
scontrol update PartitionName=debug State=UP
for _ in $(seq 300); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
if grep -q "^submitted merge" "$BASE/failing.txt" && [ -z "$(squeue -h 2>/dev/null)" ] && ! [ -e "$BASE/failing/summary.md" ]; then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: after a failed task the merge was not cancelled:"; cat "$BASE/failing.txt"; squeue 2>/dev/null; fi
echo "slurm shards: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
