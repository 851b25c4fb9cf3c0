#!/usr/bin/env python3
"""Whole-process benchmark of `navbench filter` on a 1,000,000-row CSV against the Python
peers, back to back in the same run (issue 15):

  butter   navbench filter --spec butter:order=4,cutoff=5,zero-phase
           vs  python: pandas.read_csv + scipy.signal.sosfiltfilt + DataFrame.to_csv
  kalman   navbench filter --spec kalman-cv:q=0.5,r=0.0016
           vs  python: pandas.read_csv + filterpy KalmanFilter predict/update loop + to_csv

Every figure is a whole process (interpreter or binary start, imports, read, filter, write),
timed with time.perf_counter around subprocess.run; median of --runs (filterpy: 1 run, it
takes half a minute). The outputs are compared (largest relative difference of the filtered
column). Usage: .venv/bin/python scripts/bench_csv.py [--rows 1000000] [--runs 3]
(`make bench-csv` builds the release binary and the pinned venv first).
"""

import argparse
import importlib.metadata as md
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAV = os.path.join(ROOT, ".build", "release", "navbench")
SEED = 20261123

PEER_BUTTER = r"""
import sys, pandas as pd, scipy.signal as sig
df = pd.read_csv(sys.argv[1])
sos = sig.butter(4, 5, fs=100, output="sos")
df["x_filtered"] = sig.sosfiltfilt(sos, df["x"].to_numpy())
df.to_csv(sys.argv[2], index=False)
"""

# navbench's kalman-cv: F = [[1, dt], [0, 1]], Q = q·[[dt⁴/4, dt³/2], [dt³/2, dt²]], H = [1, 0],
# R = r, prior x = (z0, 0), P = diag(r, 1), the first measurement predicted over dt = 0.
PEER_KALMAN = r"""
import sys, numpy as np, pandas as pd
from filterpy.kalman import KalmanFilter
from filterpy.common import Q_discrete_white_noise
df = pd.read_csv(sys.argv[1])
z = df["x"].to_numpy()
dt, q, r = 0.01, 0.5, 0.0016
kf = KalmanFilter(dim_x=2, dim_z=1)
kf.F = np.array([[1.0, dt], [0.0, 1.0]]); kf.H = np.array([[1.0, 0.0]])
kf.Q = Q_discrete_white_noise(2, dt, q); kf.R = np.array([[r]])
kf.x = np.array([[z[0]], [0.0]]); kf.P = np.diag([r, 1.0])
out = np.empty(z.size)
kf.update(z[0]); out[0] = kf.x[0, 0]
for i in range(1, z.size):
    kf.predict(); kf.update(z[i]); out[i] = kf.x[0, 0]
df["x_filtered"] = out
df.to_csv(sys.argv[2], index=False)
"""


def make_input(path, rows):
    import pandas as pd
    rng = np.random.default_rng(np.random.PCG64(SEED))
    t = np.arange(rows) / 100.0
    x = np.sin(2 * np.pi * 0.7 * t) + 0.3 * np.sin(2 * np.pi * 13 * t) + rng.normal(0, 0.05, rows)
    pd.DataFrame({"t": t, "x": x}).to_csv(path, index=False)


def timed(cmd, runs):
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        out.append(time.perf_counter() - t0)
    return statistics.median(out), out


def column(path, name="x_filtered"):
    import pandas as pd
    return pd.read_csv(path)[name].to_numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "bench-csv"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    src = os.path.join(a.out, f"in-{a.rows}.csv")
    if not os.path.exists(src):
        make_input(src, a.rows)
    py = sys.executable
    rows = []
    cases = [("butter", "butter:order=4,cutoff=5,zero-phase", PEER_BUTTER, a.runs),
             ("kalman-cv", "kalman-cv:q=0.5,r=0.0016", PEER_KALMAN, 1)]
    for name, spec, peer, peer_runs in cases:
        nav_out, py_out = os.path.join(a.out, f"nav-{name}.csv"), os.path.join(a.out, f"py-{name}.csv")
        nav_s, nav_runs = timed([NAV, "filter", src, "--column", "x", "--rate", "100", "--spec", spec, "--out", nav_out], a.runs)
        py_s, py_runs = timed([py, "-c", peer, src, py_out], peer_runs)
        n, p = column(nav_out), column(py_out)
        diff = float(np.max(np.abs(n - p) / np.maximum(np.abs(p), 1e-12)))
        rows.append({"case": name, "rows": a.rows, "navbench_s": nav_s, "navbench_runs": nav_runs, "python_s": py_s,
                     "python_runs": py_runs, "speedup": py_s / nav_s, "max_rel_diff": diff})
    versions = {k: md.version(k) for k in ("numpy", "scipy", "pandas", "filterpy")}
    print(f"{'case':<10} {'rows':>9} {'navbench s':>11} {'python s':>9} {'speed-up':>9} {'max rel diff':>13}")
    for r in rows:
        print(f"{r['case']:<10} {r['rows']:>9,} {r['navbench_s']:11.3f} {r['python_s']:9.3f} {r['speedup']:8.1f}x {r['max_rel_diff']:13.1e}")
    print("python peers:", ", ".join(f"{k} {v}" for k, v in versions.items()), f"(python {sys.version.split()[0]})")
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"versions": versions, "results": rows}, f, indent=1)


if __name__ == "__main__":
    main()
