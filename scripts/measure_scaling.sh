#!/usr/bin/env bash
# Peak RSS, wall time and store size of `navbench run` and `navbench merge` as a sweep grows
# (issue 16; docs/scaling.md). The inputs stay the bundled Datasets/R*.h5 (3 routes, 9
# navigation sessions): the sweep grows by its `seeds:` dimension (5 RDP tolerances × 2
# registrations × S seeds = 90·S runs), so any growth in memory is per run, not per input.
#
#   scripts/measure_scaling.sh                       # 1k, 10k, 50k runs; 1 and 2 jobs
#   SIZES="1000" JOBS_LIST="2" scripts/measure_scaling.sh
#   SHARDS=8 SIZES=10000 scripts/measure_scaling.sh  # also: 8 shards, each shard's RSS, merge RSS
#
# Needs the release build (make build) and GNU time (/usr/bin/time -v). Prints one
# tab-separated line per measurement, each with the 1-minute load average at its start (other
# builds on a shared machine slow a run down; read the figures with it).
set -euo pipefail
cd "$(dirname "$0")/.."
NAVBENCH=${NAVBENCH:-.build/release/navbench}
SIZES=${SIZES:-"1000 10000 50000"}
JOBS_LIST=${JOBS_LIST:-"1 2"}
SHARDS=${SHARDS:-0}
WORK=${WORK:-$(mktemp -d)}
KEEP=${KEEP:-0}
[ "$KEEP" = 1 ] || trap 'rm -rf "$WORK"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
# measure LABEL CMD…: runs CMD under /usr/bin/time -v; prints label, wall s, peak RSS MiB, load.
measure() {
    local label=$1; shift
    local l; l=$(load)
    /usr/bin/time -v -o "$WORK/time.txt" "$@" > /dev/null 2> "$WORK/err.txt" || { echo "FAIL: $label" >&2; cat "$WORK/err.txt" >&2; return 1; }
    local rss wall
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$WORK/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; printf "%.2f", s}' "$WORK/time.txt")
    printf '%s\t%s\t%s\t%s\n' "$label" "$wall" "$rss" "$l"
}
printf 'measurement\twall_s\tpeak_rss_mib\tload1\n'
for n in $SIZES; do
    seeds=$(( (n + 89) / 90 ))
    runs=$(( seeds * 90 ))
    spec="$WORK/scale-$runs.yaml"
    cat > "$spec" <<SPEC
name: scale
inputs:
  - Datasets/R*.h5
output: $WORK/out
sweep:
  rdp_tolerance: [0.2, 0.3, 0.5, 0.8, 1.2]
  registration: [gravity-aligned, full]
  seeds: [$(seq -s ', ' 1 "$seeds")]
SPEC
    for j in $JOBS_LIST; do
        out="$WORK/run-$runs-j$j"
        measure "run $runs runs, $j jobs (cold)" "$NAVBENCH" run "$spec" --out "$out" --jobs "$j" --quiet
        measure "run $runs runs, $j jobs (all cached)" "$NAVBENCH" run "$spec" --out "$out" --jobs "$j" --quiet
        size=$(stat -c %s "$out/results.sqlite")
        stored=$(sqlite3 "$out/results.sqlite" "SELECT COUNT(*) FROM results WHERE kind = 'guidance'")
        printf 'store %s runs\t%s bytes\t%.0f bytes/run\t%s\n' "$stored" "$size" "$(echo "$size / $stored" | bc -l)" "$(load)"
        rm -f "$out"/results.sqlite*  # keep the report only
        [ "$j" = "$(echo $JOBS_LIST | awk '{print $1}')" ] && first="$out"
    done
    if [ -n "${first:-}" ] && [ "$first" != "$out" ]; then
        for f in summary.md metrics.csv; do
            cmp -s <(sed "s#$first#OUT#g" "$first/$f") <(sed "s#$out#OUT#g" "$out/$f") && echo "same $f for 1 and 2 jobs: yes" || echo "same $f for 1 and 2 jobs: NO"
        done
    fi
    if [ "$SHARDS" -gt 0 ]; then
        sh="$WORK/shards-$runs"
        for k in $(seq 1 "$SHARDS"); do
            measure "shard $k/$SHARDS of $runs runs, 1 job" "$NAVBENCH" run "$spec" --out "$sh" --shard "$k/$SHARDS" --jobs 1 --quiet
        done
        measure "merge $SHARDS shards of $runs runs" "$NAVBENCH" merge "$spec" --out "$sh"
        for f in summary.md metrics.csv; do
            cmp -s <(sed "s#$first#OUT#g" "$first/$f") <(sed "s#$sh#OUT#g" "$sh/$f") && echo "merged $f equals the unsharded run's: yes" || echo "merged $f equals the unsharded run's: NO"
        done
        rm -rf "$sh"
    fi
done
