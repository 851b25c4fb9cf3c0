#!/bin/sh
# Regenerates the committed reference fixtures whose generators need only the project venv
# (numpy, scipy, statsmodels) into a temporary folder and fails if any differs from what is
# committed: a fixture edited by hand, or a generator changed without regenerating, is caught.
#
# The bytes must not depend on the CPU: numpy's OpenBLAS picks its kernel by CPU and glibc's
# libm picks FMA/AVX2/AVX-512 code paths, so each generator runs once per variant below —
# the OpenBLAS kernels Haswell, SkylakeX and Prescott, and glibc with those code paths switched
# off — and every variant must write the committed bytes. A generator that starts depending on
# the CPU fails here, not on a user's machine (docs/reproducibility.md).
#
# Last, the check proves it can fail: a copy of the fixtures with one digit changed must differ.
#
# The evo, rosbag and h5py generators need other pins; regenerate those with their make
# targets (make fixtures-evo, fixtures-evo-timestamps, fixtures-rosbag) and compare with git diff.
set -eu
PY=${PYTHON:-.venv/bin/python}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
status=0
NO_SIMD=glibc.cpu.hwcaps=-AVX2_Usable,-FMA_Usable,-AVX512F_Usable
PAIRS="statistics_reference.json:Tests/NavStatisticsTests/Fixtures/statistics_reference.json
kitti:Tests/NavMetricsTests/Fixtures/kitti
tum-rpe:Tests/NavMetricsTests/Fixtures/tum-rpe"

for variant in OPENBLAS_CORETYPE=Haswell OPENBLAS_CORETYPE=SkylakeX OPENBLAS_CORETYPE=Prescott GLIBC_TUNABLES=$NO_SIMD; do
    out="$T/${variant%%=*}-${variant##*=}"
    mkdir -p "$out"
    env "$variant" "$PY" scripts/make_statistics_fixtures.py "$out/statistics_reference.json" > /dev/null
    env "$variant" "$PY" scripts/make_protocol_fixtures.py "$out/kitti" > /dev/null
    for pair in $PAIRS; do
        generated=${pair%%:*} committed=${pair#*:}
        if ! diff -r -q "$out/$generated" "$committed" > /dev/null; then
            echo "fixtures: $committed differs from what its generator writes now with $variant: $(diff -r -q "$out/$generated" "$committed" | head -3 | tr '\n' ' ')"
            status=1
        fi
    done
done

# The comparison can fail: change one digit of a copy of a committed fixture.
mkdir -p "$T/edited"
cp -R Tests/NavMetricsTests/Fixtures/kitti "$T/edited/"
sed '5s/[0-9]/7/' Tests/NavMetricsTests/Fixtures/kitti/est.kitti | sed '5s/7/8/' > "$T/edited/kitti/est.kitti"
if diff -r -q "$T/edited/kitti" Tests/NavMetricsTests/Fixtures/kitti > /dev/null; then
    echo "fixtures: the check did not notice an edited copy of Tests/NavMetricsTests/Fixtures/kitti/est.kitti"
    status=1
fi

[ $status -eq 0 ] && echo "fixtures: statistics, KITTI and TUM-RPE references regenerate byte for byte under OpenBLAS Haswell, SkylakeX, Prescott and glibc without FMA/AVX2/AVX-512; an edited copy is caught"
exit $status
