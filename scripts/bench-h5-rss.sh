#!/usr/bin/env bash
# Whole-process peak memory of an HDF5 read, navbench vs h5py (issue 33, goal 4): one process
# opens peer-bench's IMU file, reads /imu/timestamps, /imu/accel and /imu/gyro fully (all three
# held at once) and exits — `navbench-bench read-imu --once --layout L` (the CLI's malloc
# settings: keepLargeBuffersMapped) against `python -c` with h5py + numpy (`f['imu/accel'][:]`…).
# Mode "x8": the same read 8 times in one process, the arrays freed after each (navbench:
# `read-imu`'s warm-up + 7 timed reads, which also prints the minor page faults of its last
# read; h5py: a loop with `del`).
# Peak RSS ("Maximum resident set size") and wall time from /usr/bin/time, contiguous and gzip,
# in alternating rounds (odd rounds h5py first, even rounds navbench first), the 1-minute load
# average before each round. Prints every round and, per layout, mode and build, the median
# ratios navbench/h5py (RSS and time) with their range over rounds (< 1: smaller / faster).
# ROUNDS=5 by default; NAVBENCH_BENCH="path [path…]" measures other builds too (each in every round).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${PEERS_DATA:-peers-data}
PY=${PYTHON:-.venv/bin/python}
read -r -a NAVS <<< "${NAVBENCH_BENCH:-.build/release/navbench-bench}"
ROUNDS=${ROUNDS:-5}
[ -x "$PY" ] && "$PY" -c 'import h5py' 2>/dev/null || scripts/install-deps.sh --python scripts/requirements-fixtures.txt
for f in imu.h5 imu_gzip.h5; do [ -f "$DATA/$f" ] || { echo "missing $DATA/$f (make_workload.py)" >&2; exit 1; }; done
for n in "${NAVS[@]}"; do [ -x "$n" ] || { echo "missing $n (make build)" >&2; exit 1; }; done
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
READ='import h5py, sys
for _ in range(int(sys.argv[2])):
    with h5py.File(sys.argv[1], "r") as f:
        t = f["imu/timestamps"][:]; a = f["imu/accel"][:]; g = f["imu/gyro"][:]
    n = t.nbytes + a.nbytes + g.nbytes
    del t, a, g
print(n)'
# measure NAME CMD…: peak RSS (KiB), wall seconds and minor faults of one process into $out/NAME.
measure() {
  local name=$1; shift
  /usr/bin/time -f '%M %e %R' -o "$out/$name" "$@" > "$out/$name.stdout"
}
cat "$DATA"/imu.h5 "$DATA"/imu_gzip.h5 > /dev/null  # page cache
for round in $(seq 1 "$ROUNDS"); do
  cut -d' ' -f1 /proc/loadavg > "$out/load$round"
  for layout in contiguous gzip; do
    file=$DATA/imu.h5; [ "$layout" = gzip ] && file=$DATA/imu_gzip.h5
    for mode in once x8; do
      reads=1; once=--once; [ "$mode" = x8 ] && { reads=8; once=""; }
      peer() { measure "py-$round-$layout-$mode" "$PY" -c "$READ" "$file" "$reads"; }
      navs() {
        for i in "${!NAVS[@]}"; do
          measure "nav-$round-$layout-$mode-$i" "${NAVS[$i]}" read-imu $once --data "$DATA" --layout "$layout"
        done
      }
      if [ $((round % 2)) -eq 1 ]; then peer; navs; else navs; peer; fi
    done
  done
done
python3 - "$out" "$ROUNDS" "${NAVS[@]}" <<'PY'
import json, sys, statistics
d, rounds, navs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def rd(name):
    kib, s, faults = open(f"{d}/{name}").read().split()[-3:]
    return int(kib) / 1024, float(s), int(faults)
def last_read_faults(name):
    rows = [json.loads(x) for x in open(f"{d}/{name}.stdout") if x.strip()]
    return rows[-1].get("minor_faults_last_read", "-")
print(f"{'build':<24} {'round':>5} {'layout':<10} {'mode':<4} {'load1':>6} {'h5py MiB':>9} {'nav MiB':>8} {'RSS ratio':>9} "
      f"{'h5py s':>7} {'nav s':>6} {'time ratio':>10} {'h5py faults':>11} {'nav faults':>10} {'nav faults/last read':>20}")
ratios = {}
for r in range(1, rounds + 1):
    load = open(f"{d}/load{r}").read().strip()
    for layout in ("contiguous", "gzip"):
        for mode in ("once", "x8"):
            pm, ps, pf = rd(f"py-{r}-{layout}-{mode}")
            for i, b in enumerate(navs):
                name = f"nav-{r}-{layout}-{mode}-{i}"
                nm, ns, nf = rd(name)
                ratios.setdefault((b, layout, mode), []).append((nm / pm, ns / ps, pm, nm))
                print(f"{b[-24:]:<24} {r:>5} {layout:<10} {mode:<4} {load:>6} {pm:9.1f} {nm:8.1f} {nm / pm:9.3f} "
                      f"{ps:7.2f} {ns:6.2f} {ns / ps:10.2f} {pf:>11} {nf:>10} {last_read_faults(name):>20}")
for (b, layout, mode), v in ratios.items():
    rss, t = [x[0] for x in v], [x[1] for x in v]
    print(f"{b} {layout} {mode}: peak RSS h5py {statistics.median(x[2] for x in v):.1f} MiB, navbench "
          f"{statistics.median(x[3] for x in v):.1f} MiB; median RSS ratio {statistics.median(rss):.3f} "
          f"(range {min(rss):.3f}-{max(rss):.3f}), median time ratio {statistics.median(t):.2f} "
          f"(range {min(t):.2f}-{max(t):.2f}) over {len(v)} alternating rounds")
PY
