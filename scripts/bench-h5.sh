#!/usr/bin/env bash
# navbench vs h5py reading peer-bench's 3-hour 100 Hz IMU workload (contiguous and
# gzip-chunked), in alternating rounds (h5py, navbench, h5py, navbench, ...) on the same files
# in the same run, so machine load hits both. Prints every round (medians of 7 reads, the
# navbench minor page faults of its last read, the 1-minute load average) and, per layout, the
# median time ratio navbench/h5py with its range over rounds (< 1 means navbench is faster).
# ROUNDS=6 by default; NAVBENCH_BENCH="path [path…]" (navbench-bench builds) times other builds (each in every round; the
# ratios are printed per build).
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${PEER_BENCH:-../shared/peer-bench}
DATA=${PEERS_DATA:-peers-data}
PY=${PYTHON:-.venv/bin/python}
read -r -a NAVS <<< "${NAVBENCH_BENCH:-.build/release/navbench-bench}"
ROUNDS=${ROUNDS:-6}
scripts/install-deps.sh --python scripts/requirements-fixtures.txt
[ -f "$DATA/manifest.json" ] || "$PY" "$PEER/make_workload.py" "$DATA"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
for round in $(seq 1 "$ROUNDS"); do
  cut -d' ' -f1 /proc/loadavg > "$out/load$round"
  "$PY" "$PEER/bench_peers.py" --data "$DATA" --only h5 --out "$out/peer$round.json" --evo-ref "$out/evo.json" >/dev/null
  for i in "${!NAVS[@]}"; do "${NAVS[$i]}" read-imu --data "$DATA" > "$out/nav$round-$i.jsonl"; done
done
"$PY" - "$out" "$ROUNDS" "${NAVS[@]}" <<'PY'
import json, sys, statistics
d, rounds, navs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print(f"{'build':<28} {'round':>5} {'workload':<12} {'h5py s':>9} {'navbench s':>11} {'h5py MB/s':>10} {'navbench MB/s':>14} {'time ratio':>10} {'nav faults':>10} {'load1':>6}")
ratios = {}
for r in range(1, rounds + 1):
    peer = {x["id"]: x for x in json.load(open(f"{d}/peer{r}.json"))["results"]}
    load = open(f"{d}/load{r}").read().strip()
    for i, b in enumerate(navs):
      nav = {x["id"]: x for x in map(json.loads, open(f"{d}/nav{r}-{i}.jsonl"))}
      for w, pid, nid in (("contiguous", "h5py_read_imu", "navbench_read_imu"), ("gzip", "h5py_read_imu_gzip", "navbench_read_imu_gzip")):
        p, n = peer[pid], nav[nid]
        pm = p["median_s"]; nm = n["median_s"]
        ratios.setdefault((b, w), []).append(nm / pm)
        print(f"{b[-28:]:<28} {r:>5} {w:<12} {pm:9.4f} {nm:11.4f} {60.48/pm:10.0f} {n['mb_per_s']:14.0f} {nm/pm:10.2f} {n.get('minor_faults_last_read', -1):>10} {load:>6}")
for (b, w), v in ratios.items():
    print(f"{b} {w}: median time ratio {statistics.median(v):.2f} (range {min(v):.2f}-{max(v):.2f}) over {len(v)} alternating rounds")
PY
