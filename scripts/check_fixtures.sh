#!/bin/sh
# Regenerates the committed reference fixtures whose generators need only the project venv
# (numpy, scipy, statsmodels) into a temporary folder and fails if any differs from what is
# committed: a fixture edited by hand, or a generator changed without regenerating, is caught.
#
# The bytes must not depend on the BLAS kernel, which numpy's OpenBLAS picks by CPU: each
# generator runs under the kernels Haswell, SkylakeX and Prescott, and the three outputs must be
# byte-identical to each other and, where this machine's libm takes glibc's FMA code paths (the
# ones the files were written with; scripts/libm_path.py asks), to the committed files. glibc's
# other (SSE2) paths round sin, exp, … differently in the last bit on a few values, so a fourth
# run with those paths forced (GLIBC_TUNABLES) — and every run on a machine without FMA — is
# compared numerically, rtol 1e-9 (scripts/compare_numeric.py). A generator that starts
# depending on the CPU fails here, not on a user's machine (docs/reproducibility.md).
# Last, the check proves it can fail: a copy of a fixture with one number changed must differ.
#
# The evo, rosbag and h5py generators need other pins; regenerate those with their make
# targets (make fixtures-evo, fixtures-evo-timestamps, fixtures-rosbag) and compare with git diff.
set -eu
PY=${PYTHON:-.venv/bin/python}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
status=0
NO_SIMD=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F
PAIRS="statistics_reference.json:Tests/NavStatisticsTests/Fixtures/statistics_reference.json
kitti:Tests/NavMetricsTests/Fixtures/kitti
tum-rpe:Tests/NavMetricsTests/Fixtures/tum-rpe"

# The OpenBLAS kernels this CPU can run: SkylakeX needs AVX-512, Haswell AVX2 (forcing a kernel the
# CPU lacks stops numpy with an illegal instruction, a failure of the machine, not of a fixture).
KERNELS=Prescott
grep -q -m1 -w avx2 /proc/cpuinfo 2>/dev/null && KERNELS="Haswell $KERNELS"
grep -q -m1 -w avx512f /proc/cpuinfo 2>/dev/null && KERNELS="$KERNELS SkylakeX"
FIRST=${KERNELS%% *}
# A kernel forced from outside (OPENBLAS_CORETYPE=SkylakeX to play another CPU) applies to the runs
# below that name none; one this CPU cannot run is dropped with a note, never an illegal instruction.
if [ -n "${OPENBLAS_CORETYPE:-}" ] && ! echo " $KERNELS " | grep -q " $OPENBLAS_CORETYPE "; then
    echo "fixtures: note: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE is not a kernel this CPU runs ($KERNELS); unset for this check"
    unset OPENBLAS_CORETYPE
fi
VARIANTS=""
for k in $KERNELS; do VARIANTS="$VARIANTS OPENBLAS_CORETYPE=$k"; done
VARIANTS="$VARIANTS GLIBC_TUNABLES=$NO_SIMD"

# The committed bytes were written by glibc's FMA code paths of sin, cos, exp… (every x86-64 with
# FMA and AVX2: Intel since 2013, AMD since 2015). This probe tells whether this machine's libm
# takes them: two arguments where the FMA and SSE2 paths round differently.
libm=$("$PY" scripts/libm_path.py)

for variant in $VARIANTS; do
    out="$T/${variant%%=*}-${variant##*=}"
    mkdir -p "$out"
    env "$variant" "$PY" scripts/make_statistics_fixtures.py "$out/statistics_reference.json" > /dev/null
    env "$variant" "$PY" scripts/make_protocol_fixtures.py "$out/kitti" > /dev/null
    for pair in $PAIRS; do
        generated=${pair%%:*} committed=${pair#*:}
        if [ "$libm" = fma ] && [ "${variant%%=*}" = OPENBLAS_CORETYPE ]; then
            # Byte for byte: the BLAS kernel must not matter.
            if ! diff -r -q "$out/$generated" "$committed" > /dev/null; then
                echo "fixtures: $committed differs from what its generator writes now with $variant: $(diff -r -q "$out/$generated" "$committed" | head -3 | tr '\n' ' ')"
                status=1
            fi
        else
            # Another libm code path: equal within the stated tolerance (docs/reproducibility.md).
            "$PY" scripts/compare_numeric.py --rtol 1e-9 --atol 1e-12 "$out/$generated" "$committed" > "$T/compare.log" || {
                echo "fixtures: $committed differs from what its generator writes now with $variant (libm: $libm) beyond rtol 1e-9: $(head -1 "$T/compare.log")"
                status=1
            }
        fi
    done
done
# Whatever the libm, the BLAS kernels must write the same bytes as each other.
for k in $KERNELS; do
    if ! diff -r -q "$T/OPENBLAS_CORETYPE-$FIRST" "$T/OPENBLAS_CORETYPE-$k" > /dev/null; then
        echo "fixtures: the generators write different bytes with OpenBLAS $FIRST and $k: $(diff -r -q "$T/OPENBLAS_CORETYPE-$FIRST" "$T/OPENBLAS_CORETYPE-$k" | head -2 | tr '\n' ' ')"
        status=1
    fi
done

# The step/turn scoring and peak fixtures (scripts/make_pdr_fixtures.py, which reads WeAllWalk from
# ../shared/real-data when it is there), under the three OpenBLAS kernels and without glibc's FMA
# paths: the scoring and find_peaks cases byte for byte (integers and exact decimals, no BLAS, no
# libm); pipeline.json numerically (its filtered signal goes through LAPACK in sosfilt_zi, whose
# last bits depend on the OpenBLAS kernel: rtol 1e-9, atol 1e-12; its peak indices must be equal).
if [ -d ../shared/real-data/weallwalk ]; then
    for variant in $VARIANTS; do
        out="$T/pdr-${variant%%=*}-${variant##*=}"
        mkdir -p "$out/metrics" "$out/signal"
        env "$variant" "$PY" scripts/make_pdr_fixtures.py "$out/metrics" "$out/signal" > /dev/null
        for f in step_scoring.json turn_scoring.json; do
            cmp -s "$out/metrics/$f" "Tests/NavMetricsTests/Fixtures/pdr/$f" || { echo "fixtures: Tests/NavMetricsTests/Fixtures/pdr/$f differs from what its generator writes now ($variant)"; status=1; }
        done
        cmp -s "$out/signal/find_peaks.json" Tests/NavSignalTests/Fixtures/pdr/find_peaks.json || { echo "fixtures: Tests/NavSignalTests/Fixtures/pdr/find_peaks.json differs from what its generator writes now ($variant)"; status=1; }
        "$PY" scripts/compare_numeric.py --rtol 1e-9 --atol 1e-12 "$out/signal/pipeline.json" Tests/NavSignalTests/Fixtures/pdr/pipeline.json > "$T/compare.log" || {
            echo "fixtures: Tests/NavSignalTests/Fixtures/pdr/pipeline.json differs from what its generator writes now ($variant) beyond rtol 1e-9: $(head -1 "$T/compare.log")"; status=1; }
        "$PY" -c "import json,sys; a,b=(json.load(open(p))['expected_indices'] for p in sys.argv[1:]); sys.exit(a!=b)" "$out/signal/pipeline.json" Tests/NavSignalTests/Fixtures/pdr/pipeline.json || {
            echo "fixtures: Tests/NavSignalTests/Fixtures/pdr/pipeline.json: the peaks differ under $variant"; status=1; }
    done
    "$PY" scripts/test_pdr_reference.py > /dev/null || { echo "fixtures: scripts/test_pdr_reference.py (the reference scorer's hand cases) failed"; status=1; }
    "$PY" scripts/make_gait_fixtures.py "$T/gait_reference.json"
    cmp -s "$T/gait_reference.json" Tests/NavReportTests/Fixtures/gait_reference.json || { echo "fixtures: Tests/NavReportTests/Fixtures/gait_reference.json differs from what scripts/make_gait_fixtures.py writes now"; status=1; }
    "$PY" scripts/make_gait_fixtures.py --all "$T/gait_reference_shared.json"
    cmp -s "$T/gait_reference_shared.json" Tests/NavReportTests/Fixtures/gait_reference_shared.json || { echo "fixtures: Tests/NavReportTests/Fixtures/gait_reference_shared.json differs from what scripts/make_gait_fixtures.py --all writes now"; status=1; }
else
    echo "fixtures: ../shared/real-data/weallwalk absent: the PDR fixtures were not regenerated (their tests still run)"
fi

# The MAT-file fixtures (scripts/make_mat_fixtures.py: scipy.io.savemat, zlib, h5py; no BLAS, no
# libm: quaternions from integers over sqrt) byte for byte, and a copy with one byte changed must differ.
"$PY" scripts/make_mat_fixtures.py "$T/mat" > /dev/null
if ! diff -r -q "$T/mat" Tests/NavImportTests/Fixtures/import/mat > /dev/null; then
    echo "fixtures: Tests/NavImportTests/Fixtures/import/mat differs from what scripts/make_mat_fixtures.py writes now: $(diff -r -q "$T/mat" Tests/NavImportTests/Fixtures/import/mat | head -3 | tr '\n' ' ')"
    status=1
fi
printf 'X' | dd of="$T/mat/qtm_uncompressed.mat" bs=1 seek=200 conv=notrunc 2> /dev/null
if cmp -s "$T/mat/qtm_uncompressed.mat" Tests/NavImportTests/Fixtures/import/mat/qtm_uncompressed.mat; then
    echo "fixtures: the check did not notice an edited copy of Tests/NavImportTests/Fixtures/import/mat/qtm_uncompressed.mat"
    status=1
fi

# The orientation-error fixtures (scripts/make_attitude_fixtures.py: scipy Rotation, h5py). The
# traces (inputs, no LAPACK) byte for byte under each kernel where this libm takes glibc's FMA paths,
# else dataset by dataset within rtol 1e-9 (compare_numeric.py --hdf5); the JSON references always
# within rtol 1e-9: their estimates go through LAPACK's SVD (align_vectors), whose last bits depend
# on the OpenBLAS kernel, and rounding them (to 11 decimals) cannot stop a value near a rounding
# boundary from flipping its last digit on another CPU.
for variant in $VARIANTS; do
    out="$T/attitude-${variant%%=*}-${variant##*=}"
    env "$variant" "$PY" scripts/make_attitude_fixtures.py "$out/metrics" "$out/report" > /dev/null
    for pair in "$out/metrics/attitude_reference.json:Tests/NavMetricsTests/Fixtures/attitude/attitude_reference.json" \
        "$out/report/attitude_session.json:Tests/NavReportTests/Fixtures/attitude/attitude_session.json"; do
        "$PY" scripts/compare_numeric.py --rtol 1e-9 --atol 1e-12 "${pair%%:*}" "${pair#*:}" > "$T/compare.log" || {
            echo "fixtures: ${pair#*:} differs from what scripts/make_attitude_fixtures.py writes now with $variant beyond rtol 1e-9: $(head -1 "$T/compare.log")"; status=1; }
    done
    if [ "$libm" = fma ] && [ "${variant%%=*}" = OPENBLAS_CORETYPE ]; then
        for h5 in "$out"/report/*.h5; do
            cmp -s "$h5" "Tests/NavReportTests/Fixtures/attitude/${h5##*/}" || {
                echo "fixtures: Tests/NavReportTests/Fixtures/attitude/${h5##*/} differs from what scripts/make_attitude_fixtures.py writes now with $variant"; status=1; }
        done
    else
        for h5 in "$out"/report/*.h5; do
            "$PY" scripts/compare_numeric.py --hdf5 --rtol 1e-9 --atol 1e-12 "$h5" "Tests/NavReportTests/Fixtures/attitude/${h5##*/}" > "$T/compare.log" || {
                echo "fixtures: Tests/NavReportTests/Fixtures/attitude/${h5##*/} differs from what scripts/make_attitude_fixtures.py writes now with $variant beyond rtol 1e-9: $(head -1 "$T/compare.log")"; status=1; }
        done
    fi
done

# The comparisons can fail: a copy of a committed fixture whose line 5 starts with one more digit
# (its first number ten-odd times larger) must differ, bytewise and numerically.
mkdir -p "$T/edited"
cp -R Tests/NavMetricsTests/Fixtures/kitti "$T/edited/"
sed '5s/^/1/' Tests/NavMetricsTests/Fixtures/kitti/est.kitti > "$T/edited/kitti/est.kitti"
if diff -r -q "$T/edited/kitti" Tests/NavMetricsTests/Fixtures/kitti > /dev/null ||
   "$PY" scripts/compare_numeric.py "$T/edited/kitti" Tests/NavMetricsTests/Fixtures/kitti > /dev/null; then
    echo "fixtures: the check did not notice an edited copy of Tests/NavMetricsTests/Fixtures/kitti/est.kitti"
    status=1
fi

if [ $status -eq 0 ]; then
    if [ "$libm" = fma ]; then
        echo "fixtures: statistics, KITTI, TUM-RPE, MAT-file and attitude traces regenerate byte for byte under OpenBLAS $KERNELS (the attitude estimates, through LAPACK, within rtol 1e-9), within rtol 1e-9 with glibc's FMA/AVX2/AVX-512 paths off; an edited copy is caught"
    else
        echo "fixtures: this libm is not glibc's FMA path: the OpenBLAS kernels $KERNELS write identical bytes, equal to the committed references within rtol 1e-9 (bytes are checked on FMA machines); an edited copy is caught"
    fi
fi
exit $status
