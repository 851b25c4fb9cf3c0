#!/usr/bin/env bash
# The regression gate's false-alarm rate (issue 28, docs/ci.md "False alarms"): the default
# experiment re-run, code unchanged, with other seeds (the sweep's seed, which picks anchor
# sightings, and the closed loop's walker seeds) and compared against the committed baseline
# (seed 1). Every run the gate fails is a false alarm: nothing changed but the random draws.
#
#   scripts/measure_false_alarms.sh                 # seeds 2…21
#   SEEDS="2 3" NAVBENCH=.build/release/navbench scripts/measure_false_alarms.sh
#
# Needs a build of navbench (release by default). Prints one tab-separated line per seed: seed,
# compare's exit status, its headline; then the count of failing runs.
set -euo pipefail
cd "$(dirname "$0")/.."
NAVBENCH=${NAVBENCH:-.build/release/navbench}
SEEDS=${SEEDS:-$(seq 2 21)}
JOBS=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 total=0
printf 'seed\texit\theadline\n'
for s in $SEEDS; do
    "$NAVBENCH" run Experiments/default.yaml "sweep.seeds=[$s]" "closed_loop.seeds=[$s]" --out "$work/run-$s" --jobs "$JOBS" --quiet
    set +e
    "$NAVBENCH" compare Reports/baseline "$work/run-$s" --spec Experiments/default.yaml --markdown "$work/compare-$s.md" > /dev/null 2>&1
    status=$?
    set -e
    headline=$(grep -m1 -o '\*\*[0-9]* regressed\*\*[^.]*' "$work/compare-$s.md" || echo '(no headline)')
    printf '%s\t%s\t%s\n' "$s" "$status" "$headline"
    total=$((total + 1))
    [ "$status" -eq 0 ] || failed=$((failed + 1))
    rm -rf "$work/run-$s"
done
printf 'false alarms: %d of %d runs\n' "$failed" "$total"
