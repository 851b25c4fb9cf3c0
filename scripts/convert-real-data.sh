#!/usr/bin/env bash
# Regenerates Datasets/real/ from the licensed originals in ../shared/real-data, bit for bit:
# the trace files (navbench import …), each folder's licence copy and manifest.json (sha256).
# The READMEs beside them are written by hand and name the exact commands below.
#
#   scripts/convert-real-data.sh [SOURCE_DIR] [OUT_DIR]     (defaults ../shared/real-data, Datasets/real)
#
# Uses the project's build (make build: .build/release/navbench); set NAVBENCH=path/to/navbench to use another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=${1:-../shared/real-data}
OUT=${2:-Datasets/real}
if [[ -z "${NAVBENCH:-}" ]]; then
    make -s build >/dev/null
    NAVBENCH=.build/release/navbench
fi
[[ -d "$SRC" ]] || { echo "convert-real-data: no source folder $SRC" >&2; exit 1; }
NAVBENCH="$(cd "$(dirname "$NAVBENCH")" && pwd)/$(basename "$NAVBENCH")"
ROOT=$(pwd)
MAPPING="$ROOT/Datasets/real/broad/broad.mapping.yaml"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)   # absolute: the imports run inside the source folders
nb() { "$NAVBENCH" "$@" --quiet >/dev/null; }

# TUM RGB-D fr1/xyz: motion-capture ground truth and the RGB-D SLAM estimate in one session.
mkdir -p "$OUT/tum-fr1-xyz"
cp "$SRC/tum-fr1-xyz/LICENSE.md" "$OUT/tum-fr1-xyz/LICENSE.md"
(cd "$SRC/tum-fr1-xyz" && nb import tum freiburg1_xyz-groundtruth.txt freiburg1_xyz-rgbdslam.txt \
    --stream groundtruth --stream vio --route-id freiburg1_xyz --venue "TUM RGB-D fr1 (motion-capture frame)" \
    --device "Microsoft Kinect (RGB-D SLAM estimate as vio)" --out "$OUT/tum-fr1-xyz/fr1_xyz.h5")

# ARKit Data Logger: two walks, camera poses → vio.
mkdir -p "$OUT/arkit-data-logger"
cp "$SRC/arkit-data-logger/LICENSE" "$OUT/arkit-data-logger/LICENSE"
for name in ARKit_camera_pose ARKit_camera_pose_LARR_letters; do
    (cd "$SRC/arkit-data-logger/Visualization" && nb import arkit-logger "$name.txt" --device "iPhone XS" \
        --out "$OUT/arkit-data-logger/$name.h5")
done

# CoreLocation/CoreMotion Data Logger: imu, compass and location (first fix aligned to the first sample).
mkdir -p "$OUT/coremotion-data-logger"
cp "$SRC/coremotion-data-logger/LICENSE" "$OUT/coremotion-data-logger/LICENSE"
(cd "$SRC/coremotion-data-logger" && nb import coremotion-logger Visualization --gps-align-start --device "iPhone XS" \
    --out "$OUT/coremotion-data-logger/coremotion.h5")

# BROAD: three trials through the committed mapping file, 30–120 s of each (the whole trial exceeds 3 MB).
mkdir -p "$OUT/broad"
cp "$SRC/broad/LICENSE" "$OUT/broad/LICENSE"
[[ "$MAPPING" -ef "$OUT/broad/broad.mapping.yaml" ]] || cp "$MAPPING" "$OUT/broad/broad.mapping.yaml"
for trial in 02_undisturbed_slow_rotation_B 10_undisturbed_slow_translation_A 30_disturbed_stationary_magnet_C; do
    (cd "$SRC/broad" && nb import hdf5-mapped "$trial.hdf5" --mapping "$MAPPING" \
        --from 30 --to 120 --venue "BROAD optical motion capture (ENU)" --device "myon aktos-t IMU" \
        --out "$OUT/broad/$trial.h5")
done

# Position-annotated BLE RSSI: nine tracks; straight_05 holds two corrupt readings (+42, +29 dBm) that are left out.
mkdir -p "$OUT/ble-position-annotated"
cp "$SRC/ble-position-annotated/LICENSE.md" "$OUT/ble-position-annotated/LICENSE.md"
for track in "$SRC"/ble-position-annotated/trk/*_all_sensors.mbd; do
    name=$(basename "$track" _all_sensors.mbd)
    extra=()
    [[ "$name" == straight_05 ]] && extra=(--drop-invalid-rows)
    (cd "$SRC/ble-position-annotated/trk" && nb import ble-annotated "$(basename "$track")" "${extra[@]}" \
        --out "$OUT/ble-position-annotated/$name.h5")
done

# WeAllWalk: one walk of path T1 for two subjects of each community (cane 2, 3; guide dog 1, 4; sighted 11, 12),
# the left-pocket phone, with the walk's hand annotations (steps, segments, turns, events).
mkdir -p "$OUT/weallwalk"
for walk in T1_ID2_1L_WC T1_ID3_1L_WC T1_ID1_1L_GD T1_ID4_1L_GD T1_ID11_1L_NA T1_ID12_1L_NA; do
    IFS=_ read -r path subject _ aid <<< "$walk"
    (cd "$SRC/weallwalk" && nb import weallwalk "sensor/iPhoneSensors_$walk.csv" "xml/${path}_${subject}_${aid}.xml" \
        --out "$OUT/weallwalk/$walk.h5")
done

# manifest.json: sha256 and size of every trace file, sorted by path (the layout of Datasets/manifest.json).
manifest="$OUT/manifest.json.tmp"
{
    printf '{\n  "facts" : {\n    "command" : "scripts/convert-real-data.sh",\n    "source" : "../shared/real-data (see each folder'"'"'s README.md)"\n  },\n  "files" : [\n'
    first=1
    while IFS= read -r f; do
        rel=${f#"$OUT"/}
        sum=$(sha256sum "$f" | cut -d' ' -f1)
        bytes=$(wc -c < "$f" | tr -d ' ')
        [[ $first == 1 ]] || printf ',\n'
        first=0
        printf '    {\n      "bytes" : "%s",\n      "file" : "%s",\n      "sha256" : "%s"\n    }' "$bytes" "$rel" "$sum"
    done < <(find "$OUT" -name '*.h5' | LC_ALL=C sort)
    printf '\n  ]\n}\n'
} > "$manifest"
mv "$manifest" "$OUT/manifest.json"
echo "$(find "$OUT" -name '*.h5' | wc -l) trace files; manifest: $OUT/manifest.json"
