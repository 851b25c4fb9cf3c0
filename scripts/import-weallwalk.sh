#!/usr/bin/env bash
# Imports every WeAllWalk phone file of SOURCE (default ../shared/real-data/weallwalk) with its
# walk's XML into OUT (default .build/weallwalk): the inputs of Experiments/weallwalk.yaml.
#   scripts/import-weallwalk.sh [SOURCE] [OUT]      (NAVBENCH=path/to/navbench, default the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=${1:-../shared/real-data/weallwalk}
OUT=${2:-.build/weallwalk}
NAVBENCH=${NAVBENCH:-.build/release/navbench}
[[ -d "$SRC/sensor" && -d "$SRC/xml" ]] || { echo "import-weallwalk: no $SRC/sensor and $SRC/xml (see ../shared/real-data/SOURCES.md)" >&2; exit 1; }
mkdir -p "$OUT"
n=0
for csv in "$SRC"/sensor/iPhoneSensors_T*_ID*_*_*.csv; do
    base=$(basename "$csv" .csv)
    IFS=_ read -r _ path subject _ aid <<< "$base"
    xml="$SRC/xml/${path}_${subject}_${aid}.xml"
    [[ -f "$xml" ]] || { echo "import-weallwalk: $csv: no $xml; imported without annotations" >&2; xml=""; }
    "$NAVBENCH" import weallwalk "$csv" ${xml:+"$xml"} --out "$OUT/${base#iPhoneSensors_}.h5" --quiet > /dev/null
    n=$((n + 1))
done
echo "import-weallwalk: $n walks in $OUT"
