#!/bin/sh
# Regenerates the committed reference fixtures whose generators need only the project venv
# (numpy, scipy, statsmodels) into a temporary folder and fails if any differs from what is
# committed: a fixture edited by hand, or a generator changed without regenerating, is caught.
# The evo, rosbag and h5py generators need other pins; regenerate those with their make
# targets (make fixtures-evo, fixtures-evo-timestamps, fixtures-rosbag) and compare with git diff.
set -eu
PY=${PYTHON:-.venv/bin/python}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
status=0
"$PY" scripts/make_statistics_fixtures.py "$T/statistics_reference.json" > /dev/null
"$PY" scripts/make_protocol_fixtures.py "$T/kitti" > /dev/null
for pair in "statistics_reference.json Tests/NavStatisticsTests/Fixtures/statistics_reference.json" \
            "kitti Tests/NavMetricsTests/Fixtures/kitti" "tum-rpe Tests/NavMetricsTests/Fixtures/tum-rpe"; do
    set -- $pair
    if ! diff -r -q "$T/$1" "$2" > /dev/null; then
        echo "fixtures: $2 differs from what its generator writes now: $(diff -r -q "$T/$1" "$2" | head -3 | tr '\n' ' ')"
        status=1
    fi
done
[ $status -eq 0 ] && echo "fixtures: statistics, KITTI and TUM-RPE references regenerate byte for byte"
exit $status
