#!/usr/bin/env python3
"""Reference path-loss fits for NavPipelineTests/ProximityFitTests (issue 31, item 2), committed in
Tests/NavPipelineTests/Fixtures/proximity_fit_reference.json.

An independent computation with h5py and numpy of what `navbench proximity` fits on the real BLE
recordings of Datasets/real/ble-position-annotated: the true distance of a reading is the distance
from its beacon to the latest ground-truth position at or before its time (none before the first);
`scans` averages each beacon's RSSI over 1 s windows [t0 + k, t0 + k + 1) stamped at their start;
`readings` takes every raw reading; a distance range keeps the pairs inside it; the model is
numpy.polyfit(log10(d), rssi, 1): RSSI at 1 m = intercept, exponent = -slope / 10.
Regenerate: `.venv/bin/python scripts/make_proximity_fit_fixtures.py`.
"""
import json
import sys

import h5py
import numpy as np
from importlib.metadata import version

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavPipelineTests/Fixtures/proximity_fit_reference.json"
cases = []
for name in ("straight_01", "rectangular_with_rotation", "zigzagging_without_rotation"):
    path = f"Datasets/real/ble-position-annotated/{name}.h5"
    with h5py.File(path, "r") as f:
        t = f["ble/timestamps"][:]
        beacon = f["ble/beacon"][:]
        rssi = f["ble/rssi"][:]
        bpos = f["ble/beacons/position"][:]
        gt_t = f["groundtruth/timestamps"][:]
        gt_p = f["groundtruth/position"][:]

    def distances(times, beacons):
        i = np.searchsorted(gt_t, times, side="right") - 1
        d = np.full(len(times), np.nan)
        ok = i >= 0
        d[ok] = np.linalg.norm(bpos[beacons[ok]] - gt_p[i[ok]], axis=1)
        return d

    # 1 s scans: each beacon's mean RSSI per window.
    k = np.floor((t - t[0]) / 1.0)
    keys = sorted(set(zip(k.tolist(), beacon.tolist())))
    st = np.array([t[0] + a * 1.0 for a, _ in keys])
    sb = np.array([b for _, b in keys])
    sr = np.array([rssi[(k == a) & (beacon == b)].mean() for a, b in keys])

    for data, (times, beacons, values) in (("scans", (st, sb, sr)), ("readings", (t, beacon, rssi))):
        d = distances(times, beacons)
        for lo, hi in ((None, None), (0.2, None), (0.5, 5.0)):
            keep = np.isfinite(d) & (d > 0) & np.isfinite(values)
            if lo is not None:
                keep &= d >= lo
            if hi is not None:
                keep &= d <= hi
            slope, intercept = np.polyfit(np.log10(d[keep]), values[keep], 1)
            cases.append({"file": path, "fit": data, "min_distance": lo, "max_distance": hi, "pairs": int(keep.sum()),
                          "rssi_at_one_metre": float(intercept), "exponent": float(-slope / 10)})

doc = {"versions": {"numpy": np.__version__, "h5py": version("h5py")}, "cases": cases}
with open(out, "w") as fh:
    json.dump(doc, fh, indent=1, sort_keys=True)
    fh.write("\n")
print(f"wrote {out}: {len(cases)} cases")
