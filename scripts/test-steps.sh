#!/usr/bin/env bash
# make test's steps, in order; each prints "time: STEP: N s" (scripts/timed.sh) and the run ends
# with the total. Groups run beside the foreground to shorten the wall time on 2 cores
# (docs/ci.md): the pip installs, the layer check and the fixture regeneration (Python only,
# mostly installing) beside the build; after it, swift test (about one core: its serialized
# suites wait on the processes they start) and the Slurm check (mostly waiting on its daemons)
# beside the checks of the built program. A background group's output is printed whole when it
# is joined; the first failing step or group stops the run with its exit status.
#
# Run through `make test` (it sets SWIFT, PYTHON, BUILD_FLAGS and NAVBENCH).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SWIFT:=swift}" "${PYTHON:=.venv/bin/python}" "${NAVBENCH:=.build/release/navbench}"
: "${BUILD_FLAGS:?run through make test, which sets BUILD_FLAGS}"
MAKE_STEP=(make --no-print-directory BUILD_DONE=1)
T=scripts/timed.sh
LOGS=.build/test-logs
start=$(date +%s)
mkdir -p "$LOGS"
pids=()
trap 'for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done' EXIT

# background NAME COMMAND…: runs the command in its own process group, output to $LOGS/NAME.log.
background() {
    local name=$1; shift
    set -m; ("$@") > "$LOGS/$name.log" 2>&1 & set +m
    pids+=($!)
    eval "pid_$name=$!"
}
# join NAME: waits for the group, prints its output, fails the run if the group failed.
join() {
    local name=$1 pid status=0
    pid=$(eval "echo \$pid_$name")
    wait "$pid" || status=$?
    cat "$LOGS/$name.log"
    [ "$status" -eq 0 ] || { echo "test: the $name group failed (exit $status)" >&2; exit "$status"; }
}
python_group() {
    $T "python deps" scripts/install-deps.sh --browser --python scripts/requirements.txt scripts/requirements-browser.txt scripts/requirements-rosbag.txt
    $T layers "${MAKE_STEP[@]}" layers PACKAGE_JSON="$LOGS/package.json"
    $T fixtures env PYTHON="$PYTHON" scripts/check_fixtures.sh
}

scripts/install-deps.sh
$T format "${MAKE_STEP[@]}" format-check
"$SWIFT" package dump-package > "$LOGS/package.json"
background python python_group
$T "swift build" "$SWIFT" build $BUILD_FLAGS --build-tests
join python
# The example package builds in .build, whose SwiftPM lock swift test then holds: first.
$T "library example" scripts/check_library_example.sh
background tests $T "swift test" "$SWIFT" test $BUILD_FLAGS --skip-build
background slurm $T slurm scripts/check_slurm_shards.sh
$T portable env PYTHON="$PYTHON" scripts/check_portable.sh "$NAVBENCH"
$T gate "${MAKE_STEP[@]}" gate
$T "configuration collapse" "$PYTHON" scripts/check_configuration_collapse.py .build/gate/metrics.csv Datasets/venue
$T "doc figures" "$PYTHON" scripts/check_doc_figures.py .build/gate docs/guidance.md
$T junit "$PYTHON" scripts/check_junit.py "$NAVBENCH"
$T "page check" "${MAKE_STEP[@]}" page-check
$T notebook "${MAKE_STEP[@]}" notebook-check
$T plugins "${MAKE_STEP[@]}" plugins-check
$T kill-check "${MAKE_STEP[@]}" kill-check
$T fuzz env FUZZ_QUICK=1 scripts/fuzz-corpus.sh "$NAVBENCH"
$T h5py "$PYTHON" scripts/check_h5py_reads_navbench.py Datasets/R1-corridor_recording.h5 Datasets/R3-stairs_nav2.h5
$T "mcap check" "${MAKE_STEP[@]}" mcap-check
join tests
join slurm
pids=()
echo "time: make test: $(( $(date +%s) - start )) s (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
