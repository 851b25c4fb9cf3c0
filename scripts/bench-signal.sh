#!/usr/bin/env bash
# navbench's filters, Kalman, FFT, Welch and Allan deviation vs scipy/numpy/filterpy/allantools
# on peer-bench's workload, back to back in the same run. Prints medians and ratios
# (navbench time / peer time; below 1 means navbench is faster).
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${PEER_BENCH:-../shared/peer-bench}
DATA=${PEERS_DATA:-peers-data}
PY=${PYTHON:-.venv/bin/python}
scripts/install-deps.sh --python scripts/requirements-fixtures.txt
[ -f "$DATA/manifest.json" ] || "$PY" "$PEER/make_workload.py" "$DATA"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$PY" "$PEER/bench_peers.py" --data "$DATA" --only filters,kalman,allan --out "$out/peer.json" --evo-ref "$out/evo.json" >/dev/null
# scipy.signal.welch is not in bench_peers.py: time it here the same way (median of 7, 1 warm-up).
"$PY" - "$DATA" "$out/welch.json" <<'PY'
import json, sys, time, statistics, h5py, numpy as np, scipy.signal as sig
with h5py.File(sys.argv[1] + "/imu.h5") as f: z = np.ascontiguousarray(f["/imu/accel"][:, 2])
sig.welch(z, fs=100, nperseg=1024)
runs = []
for _ in range(7):
    t = time.perf_counter(); _, p = sig.welch(z, fs=100, nperseg=1024); runs.append(time.perf_counter() - t)
json.dump({"id": "scipy_welch_accel_z_nperseg1024", "median_s": statistics.median(runs), "check": {"p_bin10": float(p[10])}}, open(sys.argv[2], "w"))
PY
.build/release/navbench-bench signal --data "$DATA" > "$out/nav.jsonl"
"$PY" - "$out" <<'PY'
import json, sys
d = sys.argv[1]
peer = {r["id"]: r for r in json.load(open(f"{d}/peer.json"))["results"]}
peer["scipy_welch_accel_z_nperseg1024"] = json.load(open(f"{d}/welch.json"))
nav = {r["id"]: r for r in map(json.loads, open(f"{d}/nav.jsonl"))}
pairs = [("butter4_filtfilt_accel_3axes", "navbench_butter4_filtfilt_accel_3axes", "x_first5"),
         ("butter4_sosfiltfilt_accel_3axes", "navbench_butter4_sosfiltfilt_accel_3axes", "x_first5"),
         ("butter4_lfilter_accel_3axes", "navbench_butter4_lfilter_accel_3axes", "x_first5"),
         ("moving_average_convolve_w101", "navbench_moving_average_w101", "mid_value"),
         ("numpy_rfft_2pow20", "navbench_rfft_2pow20", "dc"),
         ("scipy_welch_accel_z_nperseg1024", "navbench_welch_accel_z_nperseg1024", "p_bin10"),
         ("kalman_cv_filterpy", "navbench_kalman_cv_1M", "xhat_first5"),
         ("kalman_cv_steady_state_lfilter", "navbench_kalman_cv_1M", None),
         ("allantools_oadev_gyro_x_octave", "navbench_oadev_gyro_x_octave", "adev")]
print(f"{'peer row':<34} {'peer s':>10} {'navbench s':>11} {'ratio':>8} {'same result':>12}")
for pid, nid, key in pairs:
    p, n = peer[pid], nav[nid]
    same = "-"
    if key:
        a, b = p["check"][key], n["check"][key]
        a = a if isinstance(a, list) else [a]; b = b if isinstance(b, list) else [b]
        err = max(abs(x - y) / max(abs(y), 1e-300) for x, y in zip(a, b))
        same = f"{err:.1e}"
    print(f"{pid:<34} {p['median_s']:10.5f} {n['median_s']:11.5f} {n['median_s'] / p['median_s']:8.3f} {same:>12}")
PY
