#!/usr/bin/env bash
# Text at memory speed (issue 33, goal 1): parse throughput of the peer-bench TUM pair
# (groundtruth.tum + estimate.tum, 40 MB) with NavIO's parser (Clinger, Eisel–Lemire, strtod;
# navbench-bench parse, bytes in memory) beside pandas.read_csv's C reader on the same bytes
# (float_precision="round_trip": correctly rounded, so its values must give the same checksum),
# alternating rounds; the same on the pair re-printed with 17 significant digits (every number
# past Clinger's fast path). Prints the load average before and after. Files in DATA are only
# read; what this script writes goes to a temp folder.
#
#   PEERS_DATA=/path/to/peers-data ROUNDS=5 scripts/bench-parse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${PEERS_DATA:-peers-data}
ROUNDS=${ROUNDS:-5}
PY=${PYTHON:-.venv/bin/python}
for f in groundtruth.tum estimate.tum; do
    [ -f "$DATA/$f" ] || { echo "bench-parse: $DATA/$f not found (set PEERS_DATA to the peer-bench workload folder)" >&2; exit 66; }
done
[ -n "${SKIP_BUILD:-}" ] || make -s build >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "load average before: $(cat /proc/loadavg)"
"$PY" - "$DATA" "$out" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
for name in ("groundtruth.tum", "estimate.tum"):
    with open(f"{src}/{name}") as f, open(f"{dst}/{name}", "w") as g:
        for line in f:
            g.write(line if line.startswith("#") or not line.strip() else " ".join(f"{float(t):.17g}" for t in line.split()) + "\n")
PY
for label in "as written:$DATA" "re-printed with 17 significant digits:$out"; do
    dir=${label#*:}
    echo "${label%%:*}"
    ONLY=parse PEERS_DATA=$dir ROUNDS=$ROUNDS "$PY" scripts/bench.py | grep "^| parse"
done
echo "load average after: $(cat /proc/loadavg)"
