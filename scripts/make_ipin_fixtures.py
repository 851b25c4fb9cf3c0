#!/usr/bin/env python3
"""Reference values for `navbench score --protocol ipin` (IPIN 2023 Track 3), committed in
Tests/NavMetricsTests/Fixtures/ipin/: two trials the project generates itself (a ground-truth CSV
and a competitor's .est file each) and what the organisers' evaluation computes for them, here
with pymap3d's geodetic2ned (the MATLAB Mapping Toolbox function the organisers call) and numpy
(quantiles method='hazen', MATLAB's `quantile`), following evaluateCompetitor2023.m and
runTrack03_zenodo.m: .est read from its third line (dlmread(file, ',', 2, 0)); columns 5 and 6
swapped when the median of column 6 is below 10; each reference point paired with the first of
the latest estimates at or before its time + 0.01 s; NED about the lowest reference latitude and
longitude at the venue altitude; error = horizontal distance + 15 m x |floor difference|.

Seeded: byte-identical output for the pinned versions (`make fixtures-ipin`).
"""
import json
import os
import sys

import numpy as np
import pymap3d

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavMetricsTests/Fixtures/ipin"
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(20261126)
ALTITUDE = 314.0


def trial(name, lat0, lon0, swapped):
    n = 40
    t = np.round(np.cumsum(rng.uniform(3, 9, size=n)) + 1000.0, 3)
    north = np.cumsum(rng.normal(0, 6, size=n))
    east = np.cumsum(rng.normal(0, 6, size=n))
    floors = np.clip(np.cumsum(rng.integers(-1, 2, size=n)), -1, 3).astype(float)
    lat, lon, _ = pymap3d.ned2geodetic(north, east, np.zeros(n), lat0, lon0, ALTITUDE)
    gt = np.column_stack([t, lon, lat, floors, np.arange(1, n + 1)])
    # Estimates every 0.5 s from before the first point to after the last, off by a few metres,
    # sometimes a floor off; two rows the organisers' reader skips; a repeated timestamp; one
    # estimate exactly 0.01 s after a reference point.
    te = np.round(np.arange(t[0] - 3.0, t[-1] + 2.0, 0.5), 3)
    truth_n = np.interp(te, t, north)
    truth_e = np.interp(te, t, east)
    en = truth_n + rng.normal(0, 3, size=te.size)
    ee = truth_e + rng.normal(0, 3, size=te.size)
    ef = np.interp(te, t, floors).round() + (rng.uniform(size=te.size) < 0.08) * rng.choice([-1.0, 1.0], size=te.size)
    elat, elon, _ = pymap3d.ned2geodetic(en, ee, np.zeros(te.size), lat0, lon0, ALTITUDE)
    te = te.copy()
    te[10] = te[9]
    k = int(np.searchsorted(te, t[5]))
    te[k] = t[5] + 0.01
    order = np.argsort(te, kind="stable")
    te, elat, elon, ef = te[order], elat[order], elon[order], ef[order]
    c5, c6 = (elat, elon) if swapped else (elon, elat)
    est = np.column_stack([te, te + 1694680000.0, np.full(te.size, 0.5), np.full(te.size, 45.0), c5, c6, ef])
    with open(os.path.join(out, name + ".csv"), "w") as fh:
        for row in gt:
            fh.write("%.3f,%.9f,%.9f,%d,%d\n" % (row[0], row[1], row[2], row[3], row[4]))
    with open(os.path.join(out, name + ".est"), "w") as fh:
        for row in est:
            fh.write(",".join("%16.12f" % v for v in row) + "\n")
    # The organisers' evaluation, independently.
    G = np.loadtxt(os.path.join(out, name + ".csv"), delimiter=",", ndmin=2)
    E = np.loadtxt(os.path.join(out, name + ".est"), delimiter=",", ndmin=2)[2:]
    if np.median(E[:, 5]) < 10:
        E[:, [5, 4]] = E[:, [4, 5]]
    CL = E[:, [0, 4, 5, 6]]
    pairs, gaps = [], []
    for i in range(G.shape[0]):
        d = CL[:, 0] - G[i, 0]
        d[d > 0.01] = -np.inf
        pos = int(np.argmax(d))
        assert d[pos] != -np.inf
        pairs.append(pos)
        gaps.append(abs(d[pos]))
    P = CL[pairs]
    lat_0, lon_0 = G[:, 2].min(), G[:, 1].min()
    gn, ge, _ = pymap3d.geodetic2ned(G[:, 2], G[:, 1], np.full(G.shape[0], ALTITUDE), lat_0, lon_0, ALTITUDE)
    cn, ce, _ = pymap3d.geodetic2ned(P[:, 2], P[:, 1], np.full(G.shape[0], ALTITUDE), lat_0, lon_0, ALTITUDE)
    h = np.sqrt((gn - cn) ** 2 + (ge - ce) ** 2)
    floor = 15 * np.abs(G[:, 3] - P[:, 3])
    e = h + floor
    return {
        "name": name, "points": int(np.sum(np.array(gaps) <= 0.5)), "reference_points": int(G.shape[0]),
        "ipin_score_m": float(np.quantile(e, 0.75, method="hazen")), "mean_m": float(e.mean()),
        "rmse_m": float(np.sqrt(np.mean(e ** 2))), "median_m": float(np.median(e)),
        "p95_m": float(np.quantile(e, 0.95, method="hazen")), "floor_hit_rate": float(np.mean(floor == 0)),
        "mpe_xy_m": float(h.mean()), "errors_m": [float(v) for v in e], "swapped": bool(swapped),
    }


cases = [trial("museum", 49.4611, 11.1111, False), trial("swapped", 40.4168, -3.7038, True)]
doc = {"versions": {"numpy": np.__version__, "pymap3d": pymap3d.__version__}, "venue_altitude_m": ALTITUDE, "cases": cases}
with open(os.path.join(out, "expected.json"), "w") as fh:
    json.dump(doc, fh, indent=1, sort_keys=True)
    fh.write("\n")
print("wrote", out)
