#!/usr/bin/env bash
# Runs every navbench command on the hostile-input corpus (Tests/Fuzz/make_corpus.py) under a
# memory limit and a timeout. Fails on any crash (exit >= 128), hang (timeout), write outside
# the run's output folder, or changed input. Usage: scripts/fuzz-corpus.sh [NAVBENCH] [WORKDIR]
# Environment: FUZZ_TIMEOUT (s, default 20), FUZZ_MEMORY_KB (ulimit -v, default 4000000),
# FUZZ_JOBS (parallel runs, default 2), PYTHON (with h5py; default .venv/bin/python).
set -uo pipefail
cd "$(dirname "$0")/.."
NAVBENCH=$(realpath "${1:-.build/release/navbench}")
WORK=${2:-.build/fuzz}
TIMEOUT=${FUZZ_TIMEOUT:-20}
MEMORY_KB=${FUZZ_MEMORY_KB:-4000000}
JOBS=${FUZZ_JOBS:-2}
PY=${PYTHON:-.venv/bin/python}
if ! "$PY" -c "import h5py, numpy" 2>/dev/null; then
    # The project venv with its pins (scripts/requirements.txt), never a version of its own.
    scripts/install-deps.sh --python scripts/requirements.txt >/dev/null || { echo "fuzz: cannot install h5py"; exit 2; }
    PY=.venv/bin/python
fi
rm -rf "$WORK"; mkdir -p "$WORK"
WORK=$(realpath "$WORK")
C="$WORK/corpus"
"$PY" Tests/Fuzz/make_corpus.py "$C" Datasets >/dev/null || { echo "fuzz: corpus generation failed"; exit 2; }
# The corpus must be the one the README describes: inputs vanishing silently (a moved fixture
# folder once cut the Clew routes from 64 to 15) fail the run.
if ! cmp -s "$C/COUNTS" Tests/Fuzz/EXPECTED_COUNTS; then
    echo "fuzz: the corpus differs from Tests/Fuzz/EXPECTED_COUNTS (kind count): $(diff Tests/Fuzz/EXPECTED_COUNTS "$C/COUNTS" | grep '^[<>]' | tr '\n' ' ')"
    echo "fuzz: if the change is intended, copy $C/COUNTS to Tests/Fuzz/EXPECTED_COUNTS and update Tests/Fuzz/README.md"
    exit 2
fi
for f in Tests/Fuzz/findings/*; do [ -f "$f" ] && mkdir -p "$C/findings" && cp "$f" "$C/findings/"; done
mkfifo "$C/h5/fifo"
ln -s fifo "$C/h5/fifo_link.h5"
REC=$(realpath Datasets/R1-corridor_recording.h5); NAV=$(realpath Datasets/R1-corridor_nav1.h5)

# The job list: one line per run, "ID<TAB>command arguments" (O = the run's output folder).
JOBS_FILE="$WORK/jobs"; : > "$JOBS_FILE"
n=0
job() { n=$((n + 1)); printf '%s\t%s\n' "$n" "$*" >> "$JOBS_FILE"; }
for f in "$C"/h5/*.h5 "$C/h5/fifo" "$C/findings"/*.h5; do
    [ -e "$f" ] || continue
    job validate "$f"
    job guide "$REC" "$f"
    [ -n "${FUZZ_QUICK:-}" ] && continue  # make test: the two commands that read every stream
    job inspect "$f"
    job export csv "$f" --stream vio --out O/x.csv
    job export euroc "$f" --stream groundtruth --out O/e.csv
    job guide "$f" "$NAV"
    job calibrate "$f"
    job proximity "$f"
    job import hdf5-mapped "$f" --mapping "$C/mapping/hdf5_ok.yaml" --out O/m.h5
    job rpe "$f" "$f" --delta 9223372036854775807
    job attitude "$f" "$f" --align full --body-rotation estimate
done
for f in "$C"/h5/ext_*.h5; do job --allow-external-links inspect "$f"; job --allow-external-links validate "$f"; done
for f in "$C"/h5/id_*_rec.h5; do job import hdf5-mapped "$f" --mapping "$C/mapping/hdf5_ok.yaml" --out O/m.h5; job survey "$(dirname "$f")" --out O/survey; break; done
for f in "$C"/tum/* "$C"/euroc/* "$C"/kitti/*.kitti; do
    job ape "$f" "$f"
    job attitude "$f" "$f" --align yaw
    job rpe "$f" "$C/tum/ok.tum" --delta 1
    job simplify "$f"
    job import tum "$f" --out O/t.h5
    job import euroc "$f" --out O/e.h5
    job import kitti "$f" --times "$C/kitti/times.txt" --out O/k.h5
done
job import kitti "$C/kitti/ok.kitti" --times "$C/kitti/times_1e300.txt" --out O/k.h5
job import kitti "$C/kitti/ok.kitti" --times "$C/kitti/times_short.txt" --out O/k.h5
for f in "$C"/csv/* "$C"/findings/*.csv; do
    [ -e "$f" ] || continue
    job import csv "$f" --mapping "$C/mapping/ok.yaml" --out O/c.h5
    job filter "$f" --column accel --time-column time --spec ema:tau=0.5 --out O/f.csv
    job psd "$f" --column accel --rate 100
    job adev "$f" --column accel --rate 100
done
for f in "$C"/mapping/*; do job import csv "$C/csv/ok.csv" --mapping "$f" --out O/c.h5; job import hdf5-mapped "$NAV" --mapping "$f" --out O/m.h5; done
for f in "$C"/crd/* "$C"/findings/*.crd; do [ -e "$f" ] && job import clew-crd "$f" --out O/r.h5; done
for f in "$C"/mbd/*; do job import ble-annotated "$f" --out O/b.h5; done
for f in "$C"/arkit/*; do job import arkit-logger "$f" --out O/a.h5; done
for f in "$C"/ipin/*; do job import ipin "$f" --out O/i.h5; done
# WeAllWalk: hostile phone files with a good walk XML, a good phone file with hostile XML (steps and
# turns read a phone file with the XML beside it); pdr on sessions that are no annotated walks.
for f in "$C"/weallwalk/*.csv; do
    job import weallwalk "$f" "$C/weallwalk/ok/T1_ID1_WC.xml" --out O/w.h5
    job steps "$f"
done
for d in "$C"/weallwalk/*/; do
    job import weallwalk "${d}iPhoneSensors_T1_ID1_1L_WC.csv" "${d}T1_ID1_WC.xml" --out O/w.h5
    job steps "${d}iPhoneSensors_T1_ID1_1L_WC.csv" --json
    job turns "${d}iPhoneSensors_T1_ID1_1L_WC.csv"
done
job pdr "$REC" "$NAV" "$C/h5/fifo" --out O/pdr --detectors default
for f in "$C"/csv/ok.csv "$C"/csv/dup_cols.csv "$C"/csv/long_field.csv; do job score --protocol kaggle-indoor "$f" "$f"; done
job import csv "$C/csv/ok.csv" "$C/csv/crlf.csv" --mapping "$C/mapping/ok.yaml" --out O/c.h5
job import rosbag "$C/h5/fifo" --list
job import mcap /dev/zero --list
job ape "$C/h5/fifo_link.h5" "$C/rosbag/ok.bag:/pose" --format rosbag
for fmt in rosbag mcap; do
    for f in "$C/$fmt"/*; do
        job import "$fmt" "$f" --list
        job import "$fmt" "$f" --out O/r.h5 --drop-invalid-rows
        job ape "$f:/pose" "$f:/tf:base_link"
        [ -n "${FUZZ_QUICK:-}" ] && continue
        job import "$fmt" "$f" --imu /imu0 --magnetometer /imu0/mag --vio /odom --groundtruth /tf:base_link --location /fix --out O/r.h5
        job import "$fmt" "$f" --groundtruth /vicon/pose --time receive --frame ned --out O/r.h5
        job rpe "$f:/vicon/pose" "$f:/odom" --protocol kitti
    done
done
for f in "$C"/spec/* "$C"/findings/*.yaml; do
    [ -e "$f" ] || continue
    job run "$f" --out O/report --quiet --jobs 1
    job run "$f" --quiet --jobs 1
    job export-notebook "$f" --out O/nb.ipynb
    job compare "$C/csv/ok.csv" "$C/csv/ok.csv" --spec "$f"
done
# one-character and standard-output paths, --out equal to an input
job export csv "$NAV" --stream vio --out x
job export csv "$NAV" --stream vio --out -
job export-notebook "$C/spec/ok.yaml" --out -
job import tum "$C/tum/ok.tum" --out x
job import tum "$C/tum/ok.tum" --out -
cp "$C/h5/kind_navigation.h5" "$C/h5/out_is_input.h5"
job export csv "$C/h5/out_is_input.h5" --stream vio --out "$C/h5/out_is_input.h5"
job filter "$C/csv/ok.csv" --column accel --spec ema:tau=0.5 --out "$C/csv/ok.csv"
job synth --navigations 1000000000 --out O/synth
job rpe "$REC" "$REC" --delta 9223372036854775807
job rpe "$REC" "$REC" --delta -1
# Third pass (issue 29): numbers from flags bounded as their spec keys, an alias bomb in an
# override, inputs named by --opt=value or import kitti --times never replaced (planted links,
# FIFOs in a report folder and full disks: Tests/CLITests, PlantedEntries and FullDisk).
job compare "$C/csv/ok.csv" "$C/csv/ok.csv" --resamples 9223372036854775807
job filter "$C/csv/ok.csv" --column accel --spec exec:cat --plugin-timeout 1e11 --out O/f.csv
job adev "$C/csv/ok.csv" --column accel --rate=5e-324
job run "$C/spec/ok.yaml" --out O/report --quiet --jobs 99999999999
job run "$C/spec/ok.yaml" --out O/report --quiet --shard 1/9223372036854775807
BOMB='[&a [x,x,x,x,x,x,x,x,x],&b [*a,*a,*a,*a,*a,*a,*a,*a,*a],&c [*b,*b,*b,*b,*b,*b,*b,*b,*b],&d [*c,*c,*c,*c,*c,*c,*c,*c,*c],&e [*d,*d,*d,*d,*d,*d,*d,*d,*d],&f [*e,*e,*e,*e,*e,*e,*e,*e,*e],&g [*f,*f,*f,*f,*f,*f,*f,*f,*f]]'
job run "$C/spec/ok.yaml" --out O/report --quiet "'calibration=$BOMB'"  # quoted for the job line's eval
job merge "$C/spec/ok.yaml" --out O/report "'calibration=$BOMB'"
cp "$C/kitti/times.txt" "$C/kitti/times_is_output.txt"
job import kitti "$C/kitti/ok.kitti" --times "$C/kitti/times_is_output.txt" --out "$C/kitti/times_is_output.txt"
# Fourth pass (issue 50): IPIN scoring files, flags converted to integers, tolerances, traces
# written into a folder of inputs or the working folder, the closed-loop grid (a spec above).
for f in "$C"/ipinscore/*.est; do job score --protocol ipin "$C/ipinscore/gt.csv" "$f"; done
job score --protocol ipin "$C/ipinscore/gt_371.csv" "$C/ipinscore/same_time.est"
job score --protocol ipin "$C/ipinscore/gt.csv" "$C/ipinscore/same_time.est" --venue-altitude 1e308
job score "$REC" "$REC" --floor-height 1e-300
job compare "$C/csv/ok.csv" "$C/csv/ok.csv" --tolerance 'x=nan,0'
job simulate "$REC" --runs 2 --walls none --write-traces "$C/h5"
job simulate "$REC" --runs 2 --walls none --write-traces "''"
job simulate "$REC" --runs 2 --walls none --walker "'cane:speed=0.8$(printf '\001')'"
cp "$C/mapping/ok.yaml" "$C/mapping/mapping_is_output.yaml"
job import csv "$C/csv/ok.csv" "--mapping=$C/mapping/mapping_is_output.yaml" --out "$C/mapping/mapping_is_output.yaml"

# Inputs are never modified: checksums of every corpus file before and after.
snapshot() { (cd "$C" && find . -type f -print0 | sort -z | xargs -0 sha256sum; find . | sort) ; }
snapshot > "$WORK/before"

cat > "$WORK/one.sh" <<'ONE'
#!/usr/bin/env bash
# One run in its own sandbox: cwd SANDBOX/a/b, output SANDBOX/a/b/O. Prints "ID STATUS CLASS".
id=$1; shift
sb="$WORK/runs/$id"; mkdir -p "$sb/a/b"; cd "$sb/a/b"
args=(); for a in "$@"; do case "$a" in O/*) args+=("$sb/a/b/$a");; *) args+=("$a");; esac; done
# A folder-wide survey reads ~100 inputs in one run: its time limit scales with that (a true hang,
# such as a blocking FIFO, never ends, so it is still caught); other runs read one input.
limit=$TIMEOUT; [ "${1:-}" = survey ] && limit=$((TIMEOUT * 6))
( ulimit -v "$MEMORY_KB"; exec timeout -k 5 "$limit" "$NAVBENCH" "${args[@]}" ) > "$sb/stdout" 2> "$sb/stderr" < /dev/null
st=$?
class=ok
if [ $st -eq 124 ] || [ $st -eq 137 ]; then class=hang
elif [ $st -ge 128 ]; then class=crash; fi
# Anything outside a/b (the working folder and its O/) is an escape; so is a file named PWNED.
escaped=$(cd "$sb" && find . -mindepth 1 ! -path './a' ! -path './a/b' ! -path './a/b/*' ! -name stdout ! -name stderr | head -3)
[ -n "$escaped" ] && class=escape
[ -n "$(find "$sb" -name PWNED | head -1)" ] && class=escape
# stderr: one line per message, each with the one prefix
if [ $st -ne 0 ] && [ $st -lt 128 ]; then
    bad=$(grep -v -e '^navbench: error: ' -e '^navbench: note: ' -e '^navbench: warning: ' "$sb/stderr" | grep -v '^\[' | head -1)
    [ -n "$bad" ] && [ "$class" = ok ] && class=style
fi
echo "$id $st $class"
[ "$class" = ok ] && [ "$(wc -c < "$sb/stdout")" -lt 100000 ] && rm -rf "$sb/a"  # keep failures for inspection
ONE
chmod +x "$WORK/one.sh"
export WORK NAVBENCH TIMEOUT MEMORY_KB
start=$(date +%s)
tr '\n' '\0' < "$JOBS_FILE" | xargs -0 -P "$JOBS" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r id cmd <<< "$1"; eval "set -- $cmd"; "$WORK/one.sh" "$id" "$@"' _ {} > "$WORK/results"
elapsed=$(( $(date +%s) - start ))
snapshot > "$WORK/after"

runs=$(wc -l < "$WORK/results")
count() { awk -v c="$1" '$3 == c' "$WORK/results" | wc -l; }
crashes=$(count crash); hangs=$(count hang); escapes=$(count escape); style=$(count style)
changed=0; cmp -s "$WORK/before" "$WORK/after" || changed=$(diff "$WORK/before" "$WORK/after" | grep -c '^[<>]')
echo "fuzz corpus: $(grep total "$C/COUNTS" | cut -d' ' -f2) inputs ($(grep -v total "$C/COUNTS" | tr '\n' ',' | sed 's/,$//; s/,/, /g')); $runs runs in ${elapsed}s"
echo "fuzz corpus: crashes $crashes, hangs $hangs, escapes $escapes, changed inputs $changed, messages off style $style"
fail=0
for c in crash hang escape style; do
    awk -v c="$c" '$3 == c' "$WORK/results" | head -20 | while read -r id st cls; do
        printf '  %s (exit %s): navbench %s\n' "$cls" "$st" "$(grep -P "^$id\t" "$JOBS_FILE" | cut -f2 | cut -c1-200)"
        head -c 300 "$WORK/runs/$id/stderr" | head -2 | sed 's/^/      /'
    done
done
[ "$changed" -gt 0 ] && diff "$WORK/before" "$WORK/after" | head -10
[ $((crashes + hangs + escapes + changed + style)) -eq 0 ] || fail=1
exit $fail
