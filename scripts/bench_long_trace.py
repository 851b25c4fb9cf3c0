#!/usr/bin/env python3
"""Long recordings (issue 16): `navbench filter --stream` on a 12-hour 100 Hz IMU trace against
h5py + scipy, in alternating rounds (navbench, peer, navbench, peer, ...) so machine load hits
both, with peak RSS (/usr/bin/time -v) and bytes per row, and a compression sweep.

  generate   writes the trace once (seeded; trace format v1 as navbench writes it: 16,384-row
             chunks, shuffle + gzip 4): /imu/timestamps (N), /imu/accelerometer and
             /imu/gyroscope (N x 3), N = hours x 360,000.
  bench      navbench filter --spec SPEC --stream imu/accelerometer (release build) vs the peer
             (h5py reads the trace, scipy.signal.sosfilt/sosfiltfilt filters each axis as
             navbench does, h5py writes a copy with the stream replaced, same compression).
  levels     navbench filter at --compression none, gzip:1, 4, 6, 9: time and output size.

Usage: .venv/bin/python scripts/bench_long_trace.py all [--hours 12] [--rounds 3]
(`make bench-long` builds the release binary and the pinned venv first). Prints JSON lines
and a table; `uptime`'s load average is recorded beside every run.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAV = os.environ.get("NAVBENCH", os.path.join(ROOT, ".build", "release", "navbench"))
SEED = 20261123
RATE = 100.0
CHUNK = 16384

PEER = r"""
import sys, h5py, numpy as np, scipy.signal as sig
src, dst, zero_phase, level = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
with h5py.File(src, "r") as f:
    t = f["/imu/timestamps"][...]
    x = f["/imu/accelerometer"][...]
    gyro = f["/imu/gyroscope"][...]
    attrs = dict(f.attrs)
fs = 1 / np.median(np.diff(t))
sos = sig.butter(4, 5, fs=fs, output="sos")
if zero_phase:
    y = np.stack([sig.sosfiltfilt(sos, x[:, c]) for c in range(3)], axis=1)
else:
    zi = sig.sosfilt_zi(sos)
    y = np.stack([sig.sosfilt(sos, x[:, c], zi=zi * x[0, c])[0] for c in range(3)], axis=1)
del x
kw = {} if level == "none" else dict(chunks=True, shuffle=True, compression="gzip", compression_opts=int(level))
def chunked(a):
    return {} if level == "none" else dict(kw, chunks=(min(16384, a.shape[0]),) + a.shape[1:])
with h5py.File(dst, "w") as g:
    for k, v in attrs.items():
        g.attrs[k] = v
    for name, a, units in (("timestamps", t, "s"), ("accelerometer", y, "m/s^2"), ("gyroscope", gyro, "rad/s")):
        d = g.create_dataset("/imu/" + name, data=a, **chunked(a))
        d.attrs["units"] = units
"""


def generate(path, hours):
    import h5py
    n = int(round(hours * 3600 * RATE))
    rng = np.random.Generator(np.random.PCG64(SEED))
    tmp = path + ".tmp"
    with h5py.File(tmp, "w") as f:
        f.attrs["format"] = "navbench-trace"
        f.attrs["format_version"] = np.int64(1)
        f.attrs["session_kind"] = "recording"
        f.attrs["session_id"] = f"long-{hours}h"
        f.attrs["device"] = "synthetic 100 Hz IMU (scripts/bench_long_trace.py)"
        opts = dict(shuffle=True, compression="gzip", compression_opts=4)
        ts = f.create_dataset("/imu/timestamps", (n,), "<f8", chunks=(CHUNK,), **opts)
        acc = f.create_dataset("/imu/accelerometer", (n, 3), "<f8", chunks=(CHUNK, 3), **opts)
        gyr = f.create_dataset("/imu/gyroscope", (n, 3), "<f8", chunks=(CHUNK, 3), **opts)
        for name, d, units in (("t", ts, "s"), ("a", acc, "m/s^2"), ("g", gyr, "rad/s")):
            d.attrs["units"] = units
        block = 40 * CHUNK
        bias = np.zeros(3)
        for s in range(0, n, block):
            e = min(n, s + block)
            k = np.arange(s, e)
            t = k / RATE
            walking = (np.floor(t / 300) % 3 != 2).astype(float)  # 10 min walking, 5 min standing
            step = np.sin(2 * np.pi * 1.9 * t)
            a = np.stack([0.8 * walking * step, 0.5 * walking * np.cos(2 * np.pi * 1.9 * t), 9.81 + 1.5 * walking * step ** 2], axis=1)
            a += rng.normal(0, 0.03, (e - s, 3))
            bias = bias + np.cumsum(rng.normal(0, 1e-5, (e - s, 3)), axis=0)[-1]
            g = np.stack([0.2 * walking * np.sin(2 * np.pi * 0.95 * t), 0.1 * walking * step, 0.05 * np.sin(2 * np.pi * t / 600)], axis=1)
            g += bias + rng.normal(0, 0.004, (e - s, 3))
            ts[s:e] = t
            acc[s:e] = a
            gyr[s:e] = g
    os.replace(tmp, path)
    return n


def load():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def run(cmd):
    """Wall time, max RSS (kB) of one process under /usr/bin/time -v, and the 1-minute load before it."""
    before = load()
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", p.stderr).group(1))
    return {"wall_s": wall, "user_s": user, "max_rss_kb": rss, "load1": before}


def compare(a_path, b_path):
    import h5py
    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        worst = 0.0
        n = a["/imu/accelerometer"].shape[0]
        for s in range(0, n, 1 << 20):
            x, y = a["/imu/accelerometer"][s:s + (1 << 20)], b["/imu/accelerometer"][s:s + (1 << 20)]
            worst = max(worst, float(np.max(np.abs(x - y))))
        same_t = bool(np.array_equal(a["/imu/timestamps"][...], b["/imu/timestamps"][...]))
        same_g = bool(np.array_equal(a["/imu/gyroscope"][...], b["/imu/gyroscope"][...]))
    return {"max_abs_diff": worst, "timestamps_equal": same_t, "gyroscope_equal": same_g}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["generate", "bench", "levels", "all"])
    ap.add_argument("--hours", type=float, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--spec", default="butter:order=4,cutoff=5")
    ap.add_argument("--compression", default=None, help="navbench --compression for `bench` (default: navbench's own)")
    ap.add_argument("--nav", action="append", default=None, help="navbench binaries to compare (default: the release build)")
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "bench-long"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    src = os.path.join(a.out, f"imu-{a.hours:g}h.h5")
    if not os.path.exists(src) or a.what == "generate":
        rows = generate(src, a.hours)
        print(json.dumps({"generated": src, "rows": rows, "bytes": os.path.getsize(src)}))
    import h5py
    with h5py.File(src, "r") as f:
        rows = f["/imu/timestamps"].shape[0]
    navs = a.nav or [NAV]
    zero = "zero-phase" in a.spec
    results = []
    if a.what in ("bench", "all"):
        level = a.compression or "1"
        peer_level = level.replace("gzip:", "") if level != "none" else "none"
        for r in range(1, a.rounds + 1):
            for i, nav in enumerate(navs):
                out = os.path.join(a.out, f"nav{i}.h5")
                cmd = [nav, "filter", src, "--stream", "imu/accelerometer", "--spec", a.spec, "--out", out]
                if a.compression:
                    cmd += ["--compression", a.compression]
                m = run(cmd)
                m.update(round=r, who=f"navbench[{i}] {nav}", bytes_per_row=m["max_rss_kb"] * 1024 / rows, out_bytes=os.path.getsize(out))
                print(json.dumps(m)); results.append(m)
            py_out = os.path.join(a.out, "peer.h5")
            m = run([sys.executable, "-c", PEER, src, py_out, "1" if zero else "0", peer_level])
            m.update(round=r, who="h5py+scipy", bytes_per_row=m["max_rss_kb"] * 1024 / rows, out_bytes=os.path.getsize(py_out))
            print(json.dumps(m)); results.append(m)
        for i, _ in enumerate(navs):
            print(json.dumps({"parity": f"navbench[{i}] vs h5py+scipy", **compare(os.path.join(a.out, f"nav{i}.h5"), py_out)}))
    if a.what in ("levels", "all"):
        for r in range(1, a.rounds + 1):
            for level in ("none", "gzip:1", "gzip:4", "gzip:6", "gzip:9"):
                out = os.path.join(a.out, f"level-{level.replace(':', '')}.h5")
                m = run([navs[0], "filter", src, "--stream", "imu/accelerometer", "--spec", a.spec, "--out", out, "--compression", level])
                m.update(round=r, level=level, out_bytes=os.path.getsize(out), bytes_per_row=m["max_rss_kb"] * 1024 / rows)
                print(json.dumps(m)); results.append(m)
    summary = {}
    for m in results:
        key = m.get("who") or m.get("level")
        summary.setdefault(key, []).append(m)
    print(f"{'who / level':<60} {'n':>2} {'wall s (min-max)':>22} {'user s':>8} {'max RSS MB':>11} {'B/row':>7} {'out MB':>8} {'load1':>11}")
    for k, ms in summary.items():
        w = [m["wall_s"] for m in ms]
        print(f"{k[-60:]:<60} {len(ms):>2} {statistics.median(w):8.2f} ({min(w):.2f}-{max(w):.2f}) {statistics.median([m['user_s'] for m in ms]):8.2f} "
              f"{statistics.median([m['max_rss_kb'] for m in ms]) / 1024:11.1f} {statistics.median([m['bytes_per_row'] for m in ms]):7.1f} "
              f"{statistics.median([m['out_bytes'] for m in ms]) / 1e6:8.1f} {min(m['load1'] for m in ms):5.1f}-{max(m['load1'] for m in ms):.1f}")
    with open(os.path.join(a.out, f"results-{a.what}.json"), "w") as f:
        json.dump({"rows": rows, "spec": a.spec, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
