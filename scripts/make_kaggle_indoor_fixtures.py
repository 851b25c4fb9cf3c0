#!/usr/bin/env python3
"""A fixture for navbench's Indoor Location & Navigation (Kaggle 2021) scorer.

Writes Tests/NavMetricsTests/Fixtures/kaggle-indoor/: a seeded ground truth and submission in the
competition's CSV format (site_path_timestamp,floor,x,y; the submission's rows shuffled, with
extra rows the ground truth lacks) and expected.json, the competition's mean position error
computed with numpy as its evaluation page defines it:
    mean(sqrt((x̂ − x)² + (ŷ − y)²) + 15·|f̂ − f|)
over the ground truth's points, paired by site_path_timestamp. Element-wise numpy only (no BLAS).
Usage: make fixtures-kaggle-indoor (or .venv/bin/python scripts/make_kaggle_indoor_fixtures.py)
"""
import json
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "NavMetricsTests", "Fixtures", "kaggle-indoor")
rng = np.random.default_rng(np.random.PCG64(20261126))
n = 240
sites = ["5a0546857ecc773753327266", "5c3c44b80379370013e0fd2b", "5d27075f03f801723c2e360f"]
keys = [f"{sites[i % 3]}_{int(rng.integers(0, 2**48)):012x}{int(rng.integers(0, 2**48)):012x}_{int(t):013d}"
        for i, t in enumerate(np.sort(rng.integers(1_000, 10**9, size=n)))]
x = rng.uniform(0, 250, n).round(4)
y = rng.uniform(0, 180, n).round(4)
f = rng.integers(-2, 6, n)
xh = (x + rng.normal(0, 4, n)).round(4)
yh = (y + rng.normal(0, 4, n)).round(4)
fh = f + rng.choice([0, 0, 0, 0, 0, 1, -1, 2], n)
os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "ground_truth.csv"), "w") as out:
    out.write("site_path_timestamp,floor,x,y\n")
    for k, a, b, c in zip(keys, f, x, y):
        out.write(f"{k},{int(a)},{float(b)!r},{float(c)!r}\n")
order = rng.permutation(n)
with open(os.path.join(OUT, "submission.csv"), "w") as out:
    out.write("site_path_timestamp,floor,x,y\n")
    for i in order:
        out.write(f"{keys[i]},{int(fh[i])},{float(xh[i])!r},{float(yh[i])!r}\n")
    for j in range(5):  # rows of points the ground truth does not have: ignored
        out.write(f"{sites[0]}_{'0' * 24}_{j:013d},0,1.0,2.0\n")
h = np.sqrt((xh - x) ** 2 + (yh - y) ** 2)
errors = h + 15 * np.abs(fh - f)
expected = {
    "generator": {"script": "scripts/make_kaggle_indoor_fixtures.py", "numpy": np.__version__},
    "points": n,
    "mean_position_error_m": float(np.mean(errors)),
    "mean_horizontal_error_m": float(np.mean(h)),
    "floor_hit_rate": float(np.mean(fh == f)),
    "errors_m": [float(e) for e in errors],
}
with open(os.path.join(OUT, "expected.json"), "w") as out:
    json.dump(expected, out, indent=1, sort_keys=True)
    out.write("\n")
print("wrote", os.path.relpath(OUT, ROOT), f"MPE {expected['mean_position_error_m']:.6f} m")
