#!/usr/bin/env bash
# kill -9 a sweep at scripted points, resume it, and check that the results store stays sound and
# the report equals an uninterrupted run's byte for byte (docs/experiments.md, Results store).
#
#   scripts/check_kill_resume.sh            # 6 synthetic venues × 10 configurations = 540 runs
#   SEEDS=56 scripts/check_kill_resume.sh   # 5,040 runs (the issue-16 check)
#
# Needs .build/release/navbench (make build) and the sqlite3 command-line tool.
set -euo pipefail
cd "$(dirname "$0")/.."
NAVBENCH=${NAVBENCH:-.build/release/navbench}
SEEDS=${SEEDS:-6}
JOBS=${JOBS:-2}
POINTS=${POINTS:-"10 25 45 65 85"}   # kill when this percentage of the runs is in the store
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
seeds=$(seq -s ', ' 1 "$SEEDS")
cat > "$WORK/spec.yaml" <<SPEC
name: killcheck
inputs: none
data_seeds: [$seeds]
output: $WORK/out
sweep:
  rdp_tolerance: [0.2, 0.3, 0.5, 0.8, 1.2]
  registration: [gravity-aligned, full]
SPEC

"$NAVBENCH" run "$WORK/spec.yaml" --out "$WORK/whole" --jobs "$JOBS" --quiet > /dev/null || true
total=$(sqlite3 "$WORK/whole/results.sqlite" "SELECT COUNT(*) FROM results WHERE kind = 'guidance'")
echo "uninterrupted: $total runs"

count() { sqlite3 "file:$WORK/killed/results.sqlite?mode=ro" "SELECT COUNT(*) FROM results WHERE kind = 'guidance'" 2>/dev/null || echo 0; }
for p in $POINTS; do
    target=$(( total * p / 100 ))
    "$NAVBENCH" run "$WORK/spec.yaml" --out "$WORK/killed" --jobs "$JOBS" --quiet > /dev/null 2>&1 &
    pid=$!
    while kill -0 "$pid" 2> /dev/null && [ "$(count)" -lt "$target" ]; do sleep 0.05; done
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    check=$(sqlite3 "$WORK/killed/results.sqlite" 'PRAGMA integrity_check')
    orphans=$(sqlite3 "$WORK/killed/results.sqlite" 'SELECT COUNT(*) FROM metrics WHERE result_key NOT IN (SELECT key FROM results)')
    empty=$(sqlite3 "$WORK/killed/results.sqlite" "SELECT COUNT(*) FROM results WHERE kind = 'guidance' AND key NOT IN (SELECT result_key FROM metrics)")
    echo "killed at ${p} %: $(count) of $total runs stored; integrity_check: $check; metric rows without a run: $orphans; runs without metrics: $empty"
    [ "$check" = ok ] && [ "$orphans" = 0 ] && [ "$empty" = 0 ] || { echo "FAIL: store inconsistent after kill -9" >&2; exit 1; }
done
"$NAVBENCH" run "$WORK/spec.yaml" --out "$WORK/killed" --jobs "$JOBS" --quiet > /dev/null || true

# SIGTERM and SIGUSR1 (a preempted cluster task): no new unit starts, the ones in flight are
# stored, the run exits 75 without a report; the same command finishes the rest.
countIn() { sqlite3 "file:$1/results.sqlite?mode=ro" "SELECT COUNT(*) FROM results WHERE kind = 'guidance'" 2>/dev/null || echo 0; }
for sig in TERM USR1; do
    rm -rf "$WORK/stopped"
    "$NAVBENCH" run "$WORK/spec.yaml" --out "$WORK/stopped" --jobs "$JOBS" --quiet > /dev/null 2> "$WORK/stopped.err" &
    pid=$!
    # Signalled once the first batch is in the store, not at half: on a fast machine the rest of a
    # 180-run sweep can be stored within one poll, and a run with nothing left stops with all stored.
    while kill -0 "$pid" 2> /dev/null && [ "$(countIn "$WORK/stopped")" -lt 1 ]; do sleep 0.02; done
    kill -"$sig" "$pid" 2> /dev/null || true
    status=0; wait "$pid" || status=$?
    stored=$(countIn "$WORK/stopped")
    [ "$status" = 75 ] && [ "$stored" -lt "$total" ] && [ ! -e "$WORK/stopped/summary.md" ] \
        && [ "$(sqlite3 "$WORK/stopped/results.sqlite" 'PRAGMA integrity_check')" = ok ] \
        || { echo "FAIL: SIG$sig: exit $status (expected 75), $stored of $total stored: $(tail -1 "$WORK/stopped.err")" >&2; exit 1; }
    out=$("$NAVBENCH" run "$WORK/spec.yaml" --out "$WORK/stopped" --jobs "$JOBS" --quiet)
    case "$out" in *"($(( total - stored )) computed, $stored cached)"*) ;; *) echo "FAIL: SIG$sig resume: $out" >&2; exit 1 ;; esac
    for f in summary.md metrics.csv; do
        cmp <(sed "s#$WORK/whole#OUT#g" "$WORK/whole/$f") <(sed "s#$WORK/stopped#OUT#g" "$WORK/stopped/$f") \
            || { echo "FAIL: $f after SIG$sig differs from the uninterrupted run" >&2; exit 1; }
    done
    echo "SIG$sig after the first stored batch: exit 75 with $stored of $total runs stored, no report; the rerun computed the other $(( total - stored )); summary.md and metrics.csv equal the uninterrupted run's"
done

# summary.md names its output folder in the "regenerate with" line: compare with the folder replaced.
for f in summary.md metrics.csv; do
    cmp <(sed "s#$WORK/whole#OUT#g" "$WORK/whole/$f") <(sed "s#$WORK/killed#OUT#g" "$WORK/killed/$f") \
        || { echo "FAIL: $f differs from the uninterrupted run" >&2; exit 1; }
done
[ "$(sqlite3 "$WORK/killed/results.sqlite" 'PRAGMA integrity_check')" = ok ]
echo "ok: after $(echo $POINTS | wc -w) kills, summary.md and metrics.csv equal the uninterrupted run's; integrity_check ok"
