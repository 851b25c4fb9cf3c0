#!/usr/bin/env python3
"""Interop check: a file navbench writes is read by h5py with the names, shapes,
dtypes and units documented in docs/trace-format.md, with no navbench code involved.

Usage: python3 scripts/check_h5py_reads_navbench.py FILE.h5 [...]
Prints 'N passed, M failed' and exits non-zero on any failure.
"""
import sys

import h5py
import numpy as np

# (dataset, columns or None, units, numpy kind) exactly as docs/trace-format.md lists them.
SPEC = {
    "imu/timestamps": (None, "s", "f"), "imu/accelerometer": (3, "m/s^2", "f"),
    "imu/gyroscope": (3, "rad/s", "f"), "imu/attitude": (4, "1", "f"), "imu/magnetometer": (3, "uT", "f"),
    "compass/timestamps": (None, "s", "f"), "compass/heading": (None, "deg", "f"), "compass/accuracy": (None, "deg", "f"),
    "ble/timestamps": (None, "s", "f"), "ble/beacon": (None, "1", "i"), "ble/rssi": (None, "dBm", "f"),
    "ble/beacons/uuid": (None, None, "S"), "ble/beacons/major": (None, "1", "i"), "ble/beacons/minor": (None, "1", "i"),
    "ble/beacons/position": (3, "m", "f"),
    "vio/timestamps": (None, "s", "f"), "vio/position": (3, "m", "f"), "vio/orientation": (4, "1", "f"),
    "vio/tracking_state": (None, "1", "i"),
    "anchors/timestamps": (None, "s", "f"), "anchors/anchor_id": (None, "1", "i"),
    "anchors/position": (3, "m", "f"), "anchors/orientation": (4, "1", "f"),
    "location/timestamps": (None, "s", "f"), "location/latitude": (None, "deg", "f"),
    "location/longitude": (None, "deg", "f"), "location/altitude": (None, "m", "f"),
    "location/horizontal_accuracy": (None, "m", "f"), "location/floor": (None, "level", "i"),
    "groundtruth/timestamps": (None, "s", "f"), "groundtruth/position": (3, "m", "f"),
    "groundtruth/orientation": (4, "1", "f"), "groundtruth/floor": (None, "level", "i"),
}
ROOT = {"format": "navbench-trace", "format_version": 1}

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


for path in sys.argv[1:]:
    with h5py.File(path, "r") as f:
        for k, v in ROOT.items():
            check(f.attrs.get(k) == v, f"{path}: /@{k} == {v!r} (found {f.attrs.get(k)!r})")
        check(f.attrs.get("session_kind") in ("recording", "navigation"), f"{path}: /@session_kind")
        for name, (cols, units, kind) in SPEC.items():
            check(name in f, f"{path}: /{name} present")
            if name not in f:
                continue
            d = f[name]
            check(d.dtype.kind == kind, f"{path}: /{name} dtype kind {kind} (found {d.dtype})")
            group = name.split("/")[0]
            rows = f["ble/beacons/uuid"].shape[0] if name.startswith("ble/beacons/") else f[group + "/timestamps"].shape[0]
            want = (rows,) if cols is None else (rows, cols)
            check(d.shape == want, f"{path}: /{name} shape {want} (found {d.shape})")
            if units is not None:
                check(d.attrs.get("units") == units, f"{path}: /{name} units {units!r} (found {d.attrs.get('units')!r})")
        for g in ("imu", "vio", "groundtruth"):
            t = f[g + "/timestamps"][()]
            check(bool(np.all(np.diff(t) > 0)), f"{path}: /{g}/timestamps strictly increasing")
        q = f["vio/orientation"][()]
        check(bool(np.allclose(np.linalg.norm(q, axis=1), 1, atol=1e-9)), f"{path}: unit quaternions")
        check(f["imu/accelerometer"].chunks is not None and f["imu/accelerometer"].compression == "gzip",
              f"{path}: large streams chunked + gzip")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
