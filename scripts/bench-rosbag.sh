#!/usr/bin/env bash
# Import of a large generated ROS 1 bag (~1 GB, uncompressed chunks) and the same messages as
# MCAP (zstd chunks): navbench (release, the whole import: read, decode, validate, write the
# HDF5 trace) against the Python peer (rosbags / mcap readers + rosbags deserialisation into
# pandas DataFrames, no HDF5 written), in the same run, warm page cache for both, with a parity
# check of the imported values. BENCH_IMU sets the IMU message count (default 2,600,000 ≈ 1 GB bag).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_IMU:-2600000}
DIR=${BENCH_DIR:-.build/bench-rosbag}
PY=${PYTHON:-.venv/bin/python}
B=.build/release/navbench
mkdir -p "$DIR"
if [ ! -f "$DIR/big.bag" ] || [ ! -f "$DIR/big.mcap" ] || [ "$(cat "$DIR/n" 2>/dev/null)" != "$N" ]; then
  echo "generating $N IMU messages (+ $((N / 10)) poses) …"
  $PY scripts/bench_rosbag.py generate "$DIR" "$N"
  echo "$N" > "$DIR/n"
fi
ls -l "$DIR/big.bag" "$DIR/big.mcap"
run() {  # label, command…
  local label=$1; shift
  cat "$DIR/big.bag" "$DIR/big.mcap" > /dev/null   # warm cache for every run
  /usr/bin/time -f "$label: %e s wall, %U s user, %M KB max RSS" "$@" > "$DIR/$label.out" 2> "$DIR/$label.time" || { cat "$DIR/$label.time"; exit 1; }
  tail -1 "$DIR/$label.time"
}
run navbench-bag $B import rosbag "$DIR/big.bag" --imu /imu --groundtruth /pose --out "$DIR/bag.h5" --quiet
run peer-bag $PY scripts/bench_rosbag.py peer-bag "$DIR/big.bag"
run navbench-mcap $B import mcap "$DIR/big.mcap" --imu /imu --groundtruth /pose --out "$DIR/mcap.h5" --quiet
run peer-mcap $PY scripts/bench_rosbag.py peer-mcap "$DIR/big.mcap"
$PY - "$DIR" <<'PYEOF'
import math, sys, h5py, numpy as np
d = sys.argv[1]
a, b = h5py.File(f"{d}/bag.h5"), h5py.File(f"{d}/mcap.h5")
for k in ("imu/timestamps", "imu/accelerometer", "imu/gyroscope", "groundtruth/position"):
    assert np.array_equal(a[k][...], b[k][...]), k
n = a["imu/timestamps"].shape[0]
assert np.array_equal(a["imu/accelerometer"][:, 0], np.array([0.1 * math.cos(k * 1e-3) for k in range(n)])), "accelerometer x differs from the generated values"
print(f"parity: bag and MCAP imports equal; {n} IMU rows equal the generated values")
PYEOF
