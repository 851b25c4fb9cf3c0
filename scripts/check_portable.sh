#!/bin/sh
# What Swift regenerates, on another CPU: `navbench synth` writes Datasets/ and Datasets/venue
# again natively and with glibc's FMA/AVX2/AVX-512 code paths switched off (the libm of a CPU
# without FMA), and both must equal the committed files: byte for byte where this machine's libm
# is glibc's FMA path (the one the files were written with; swift test checks those bytes too),
# within rtol 1e-9 / atol 1e-12 value by value otherwise (scripts/compare_numeric.py --hdf5).
# docs/reproducibility.md lists which outputs hold bit for bit across CPUs and which numerically.
#
#   scripts/check_portable.sh [NAVBENCH]     (default .build/release/navbench; make test runs it)
set -eu
NAVBENCH=${1:-.build/release/navbench}
PY=${PYTHON:-.venv/bin/python}
NO_SIMD=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
status=0
libm=$("$PY" scripts/libm_path.py)
seed=$("$PY" -c 'import json; print(json.load(open("Datasets/manifest.json"))["facts"]["seed"])')

for variant in native "GLIBC_TUNABLES=$NO_SIMD"; do
    for venue in corridors building; do
        committed=Datasets; [ $venue = building ] && committed=Datasets/venue
        out="$T/${variant%%=*}-$venue"
        mkdir -p "$out"
        if [ "$variant" = native ]; then
            "$NAVBENCH" synth --seed "$seed" --navigations 3 --venue $venue --out "$out" > /dev/null
        else
            env "$variant" "$NAVBENCH" synth --seed "$seed" --navigations 3 --venue $venue --out "$out" > /dev/null
        fi
        for f in "$committed"/*.h5 $( [ $venue = building ] && echo "$committed/building.floorplan.json" ); do
            g="$out/$(basename "$f")"
            if [ "$variant" = native ] && [ "$libm" = fma ]; then
                cmp -s "$g" "$f" || { echo "portable: $f: navbench synth no longer writes these bytes"; status=1; }
            elif ! "$PY" scripts/compare_numeric.py --hdf5 --rtol 1e-9 --atol 1e-12 "$g" "$f" > "$T/compare.log"; then
                echo "portable: $f: navbench synth ($variant, libm $libm) differs beyond rtol 1e-9: $(head -1 "$T/compare.log")"
                status=1
            fi
        done
    done
done
[ $status -eq 0 ] && echo "portable: navbench synth rewrites Datasets/ and Datasets/venue $( [ "$libm" = fma ] && echo 'byte for byte natively and' ) within rtol 1e-9 with glibc's FMA/AVX2/AVX-512 paths off"
exit $status
