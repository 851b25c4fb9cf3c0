#!/bin/sh
# Regenerates the committed reference fixtures whose generators need only the project venv
# (numpy, scipy, statsmodels) into a temporary folder and fails if any differs from what is
# committed: a fixture edited by hand, or a generator changed without regenerating, is caught.
#
# Each generator runs under the OpenBLAS kernels this CPU can run (Haswell, SkylakeX, Prescott) and
# once with glibc's SIMD paths of sin, exp, … turned off (GLIBC_TUNABLES). Every output is compared
# with the committed file the same way (`same_or_close`): equal bytes, or else equal within rtol
# 1e-9, atol 1e-12 (scripts/compare_numeric.py), with a note naming the file and the variant. Bytes
# are what this machine gives; another CPU may round a last bit differently (its libm path, its
# numpy SIMD targets, OpenBLAS's kernels and blocking), which the tolerance admits and the note
# shows; a generator or fixture that moves a number beyond it fails (docs/reproducibility.md).
# Last, the check proves it can fail: a copy of a fixture with one number changed must differ.
#
# The evo, rosbag and h5py generators need other pins; regenerate those with their make
# targets (make fixtures-evo, fixtures-evo-timestamps, fixtures-rosbag) and compare with git diff.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
# The pinned generators' modules (scripts/requirements.txt) must import, or every generator would
# fail under every variant. With the project venv (no PYTHON given) the check installs them as
# `make test` does, so a fresh clone can run it alone; an interpreter given in PYTHON is never
# changed: one line saying what it lacks instead (exit 2).
missing_modules() {
    "$PY" -c "
import importlib.util
print(' '.join(n for n in ['numpy', 'scipy', 'statsmodels', 'h5py', 'pandas', 'mpmath'] if importlib.util.find_spec(n) is None))
" 2> /dev/null || echo "the interpreter itself"
}
missing=$(missing_modules)
if [ -n "$missing" ] && [ -z "${PYTHON:-}" ]; then
    echo "fixtures: installing the pinned generators into .venv (missing: $missing)"
    scripts/install-deps.sh --python scripts/requirements.txt
    missing=$(missing_modules)
fi
if [ -n "$missing" ]; then
    echo "fixtures: $PY cannot run the generators (missing: $missing); make deps-python installs scripts/requirements.txt into .venv, which this check uses when PYTHON is unset"
    exit 2
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
status=0
NO_SIMD=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F
PAIRS="statistics_reference.json:Tests/NavStatisticsTests/Fixtures/statistics_reference.json
kitti:Tests/NavMetricsTests/Fixtures/kitti
tum-rpe:Tests/NavMetricsTests/Fixtures/tum-rpe"

# The OpenBLAS kernels this CPU runs, asked of OpenBLAS itself (scripts/blas_core.py: a product and
# an SVD under the kernel, then the kernel each library took): forcing one the CPU lacks stops numpy
# with an illegal instruction, a failure of the machine, not of a fixture; such a kernel is left
# out with a note. `cores` keeps what each took, for the failure lines.
KERNELS="" cores=""
for k in Haswell Prescott SkylakeX; do
    if took=$(env OPENBLAS_CORETYPE=$k "$PY" scripts/blas_core.py 2> /dev/null); then
        KERNELS="$KERNELS $k"; cores="$cores; $k: $took"
    else
        echo "fixtures: note: OPENBLAS_CORETYPE=$k does not run on this CPU (exit $?): not checked here"
    fi
done
# A kernel forced from outside (OPENBLAS_CORETYPE=SkylakeX to play another CPU) applies to the runs
# below that name none; one this CPU cannot run is dropped with a note, never an illegal instruction.
if [ -n "${OPENBLAS_CORETYPE:-}" ] && ! "$PY" scripts/blas_core.py > /dev/null 2>&1; then
    echo "fixtures: note: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE does not run on this CPU; unset for this check"
    unset OPENBLAS_CORETYPE
fi
VARIANTS=""
for k in $KERNELS; do VARIANTS="$VARIANTS OPENBLAS_CORETYPE=$k"; done
VARIANTS="$VARIANTS GLIBC_TUNABLES=$NO_SIMD"

# described VARIANT: the variant, and the kernel forced from outside when the variant names none
# (it applies to those runs too).
described() {
    case "$1" in
        OPENBLAS_CORETYPE=*) echo "$1" ;;
        *) if [ -n "${OPENBLAS_CORETYPE:-}" ]; then echo "$1 (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE from the environment)"; else echo "$1"; fi ;;
    esac
}

# same_or_close GENERATED COMMITTED VARIANT [--hdf5]: equal bytes, or equal within the tolerance
# with a note; anything else is a failure line naming both.
notes=0
same_or_close() {
    if diff -r -q "$1" "$2" > /dev/null 2>&1; then return 0; fi
    if "$PY" scripts/compare_numeric.py ${4:-} --rtol 1e-9 --atol 1e-12 "$1" "$2" > "$T/compare.log"; then
        echo "fixtures: note: $2: other bytes with $(described "$3"), equal within rtol 1e-9"
        notes=$((notes + 1))
    else
        echo "fixtures: $2 differs from what its generator writes now with $(described "$3") beyond rtol 1e-9: $(head -1 "$T/compare.log")"
        status=1
    fi
}

# generate VARIANT SCRIPT ARGS…: runs a generator under VARIANT (NAME=VALUE, or - for this
# machine's defaults); if it fails (a traceback, an illegal instruction), one line names it, the
# variant and its last line of error, and the check goes on with the next one.
generate() {
    gen_variant=$1; shift
    if [ "$gen_variant" = - ]; then
        "$PY" "$@" > /dev/null 2> "$T/generator.err" && return 0
        gen_variant="this machine's defaults"
    else
        env "$gen_variant" "$PY" "$@" > /dev/null 2> "$T/generator.err" && return 0
    fi
    echo "fixtures: $1 failed under $(described "$gen_variant"): $(tail -1 "$T/generator.err")"
    status=1
    return 1
}
regenerated="statistics, KITTI, TUM-RPE"

for variant in $VARIANTS; do
    out="$T/${variant%%=*}-${variant##*=}"
    mkdir -p "$out"
    generate "$variant" scripts/make_statistics_fixtures.py "$out/statistics_reference.json" &&
        generate "$variant" scripts/make_protocol_fixtures.py "$out/kitti" || continue
    for pair in $PAIRS; do
        same_or_close "$out/${pair%%:*}" "${pair#*:}" "$variant"
    done
done

# The step/turn scoring and peak fixtures (scripts/make_pdr_fixtures.py, which reads WeAllWalk from
# ../shared/real-data when it is there), under every variant; pipeline.json's peak indices must be
# equal as well (its filtered signal goes through LAPACK in sosfilt_zi: the generator pins OpenBLAS's
# Prescott kernel, so its bytes do not follow the variant's kernel).
if [ -d ../shared/real-data/weallwalk ]; then
    for variant in $VARIANTS; do
        out="$T/pdr-${variant%%=*}-${variant##*=}"
        mkdir -p "$out/metrics" "$out/signal"
        generate "$variant" scripts/make_pdr_fixtures.py "$out/metrics" "$out/signal" || continue
        for f in step_scoring.json turn_scoring.json; do
            same_or_close "$out/metrics/$f" "Tests/NavMetricsTests/Fixtures/pdr/$f" "$variant"
        done
        same_or_close "$out/signal/find_peaks.json" Tests/NavSignalTests/Fixtures/pdr/find_peaks.json "$variant"
        same_or_close "$out/signal/pipeline.json" Tests/NavSignalTests/Fixtures/pdr/pipeline.json "$variant"
        "$PY" -c "import json,sys; a,b=(json.load(open(p))['expected_indices'] for p in sys.argv[1:]); sys.exit(a!=b)" "$out/signal/pipeline.json" Tests/NavSignalTests/Fixtures/pdr/pipeline.json || {
            echo "fixtures: Tests/NavSignalTests/Fixtures/pdr/pipeline.json: the peaks differ under $variant"; status=1; }
    done
    "$PY" scripts/test_pdr_reference.py > /dev/null || { echo "fixtures: scripts/test_pdr_reference.py (the reference scorer's hand cases) failed"; status=1; }
    if generate - scripts/make_gait_fixtures.py "$T/gait_reference.json"; then
        same_or_close "$T/gait_reference.json" Tests/NavReportTests/Fixtures/gait_reference.json "this machine's defaults"
    fi
    if generate - scripts/make_gait_fixtures.py --all "$T/gait_reference_shared.json"; then
        same_or_close "$T/gait_reference_shared.json" Tests/NavReportTests/Fixtures/gait_reference_shared.json "this machine's defaults (--all)"
    fi
    regenerated="$regenerated, PDR, gait"
else
    echo "fixtures: ../shared/real-data/weallwalk absent: the PDR and gait fixtures were not regenerated (their tests still run)"
fi

# The MAT-file fixtures (scripts/make_mat_fixtures.py: scipy.io.savemat, zlib, h5py; no BLAS, no
# libm: quaternions from integers over sqrt) byte for byte, and a copy with one byte changed must differ.
if generate - scripts/make_mat_fixtures.py "$T/mat"; then
    if ! diff -r -q "$T/mat" Tests/NavImportTests/Fixtures/import/mat > /dev/null; then
        echo "fixtures: Tests/NavImportTests/Fixtures/import/mat differs from what scripts/make_mat_fixtures.py writes now: $(diff -r -q "$T/mat" Tests/NavImportTests/Fixtures/import/mat | head -3 | tr '\n' ' ')"
        status=1
    fi
    printf 'X' | dd of="$T/mat/qtm_uncompressed.mat" bs=1 seek=200 conv=notrunc 2> /dev/null
    if cmp -s "$T/mat/qtm_uncompressed.mat" Tests/NavImportTests/Fixtures/import/mat/qtm_uncompressed.mat; then
        echo "fixtures: the check did not notice an edited copy of Tests/NavImportTests/Fixtures/import/mat/qtm_uncompressed.mat"
        status=1
    fi
fi
regenerated="$regenerated, MAT-file"

# The orientation-error fixtures (scripts/make_attitude_fixtures.py: scipy Rotation, h5py): the JSON
# references (estimates through LAPACK's SVD) and the traces, dataset by dataset.
for variant in $VARIANTS; do
    out="$T/attitude-${variant%%=*}-${variant##*=}"
    generate "$variant" scripts/make_attitude_fixtures.py "$out/metrics" "$out/report" || continue
    same_or_close "$out/metrics/attitude_reference.json" Tests/NavMetricsTests/Fixtures/attitude/attitude_reference.json "$variant"
    same_or_close "$out/report/attitude_session.json" Tests/NavReportTests/Fixtures/attitude/attitude_session.json "$variant"
    for h5 in "$out"/report/*.h5; do
        same_or_close "$h5" "Tests/NavReportTests/Fixtures/attitude/${h5##*/}" "$variant" --hdf5
    done
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
    echo "fixtures: $regenerated and attitude references regenerate under$VARIANTS: $notes comparison(s) with other bytes, all within rtol 1e-9 (the rest byte for byte); an edited copy is caught"
else
    # What another machine needs to reproduce a failure: the CPU, the kernels OpenBLAS took, libm's path.
    echo "fixtures: this machine: $(grep -m1 '^model name' /proc/cpuinfo 2> /dev/null | cut -d: -f2- | sed 's/^ *//'); OPENBLAS_CORETYPE from the environment: ${OPENBLAS_CORETYPE:-unset}${cores}; libm $("$PY" scripts/libm_path.py)"
fi
exit $status
