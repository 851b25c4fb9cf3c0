#!/usr/bin/env bash
# navbench vs h5py reading peer-bench's 3-hour 100 Hz IMU workload (contiguous and
# gzip-chunked), back to back on the same files in the same run. Prints a table of
# medians and the ratio navbench/h5py (time; < 1 means navbench is faster).
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${PEER_BENCH:-../shared/peer-bench}
DATA=${PEERS_DATA:-peers-data}
PY=${PYTHON:-.venv/bin/python}
scripts/install-deps.sh --python scripts/requirements-fixtures.txt
[ -f "$DATA/manifest.json" ] || "$PY" "$PEER/make_workload.py" "$DATA"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
for round in 1 2; do
  "$PY" "$PEER/bench_peers.py" --data "$DATA" --only h5 --out "$out/peer$round.json" --evo-ref "$out/evo.json" >/dev/null
  .build/release/navbench bench read-imu --data "$DATA" > "$out/nav$round.jsonl"
done
"$PY" - "$out" <<'PY'
import json, sys, statistics
d = sys.argv[1]
print(f"{'round':>5} {'workload':<12} {'h5py s':>9} {'navbench s':>11} {'h5py MB/s':>10} {'navbench MB/s':>14} {'time ratio':>10}")
for r in (1, 2):
    peer = {x["id"]: x for x in json.load(open(f"{d}/peer{r}.json"))["results"]}
    nav = {x["id"]: x for x in map(json.loads, open(f"{d}/nav{r}.jsonl"))}
    for w, pid, nid in (("contiguous", "h5py_read_imu", "navbench_read_imu"), ("gzip", "h5py_read_imu_gzip", "navbench_read_imu_gzip")):
        p, n = peer[pid], nav[nid]
        pm = p["median_s"]; nm = n["median_s"]
        print(f"{r:>5} {w:<12} {pm:9.4f} {nm:11.4f} {60.48/pm:10.0f} {n['mb_per_s']:14.0f} {nm/pm:10.2f}")
PY
