#!/usr/bin/env python3
"""`make plugins-check`: the example plugins of examples/plugins in a sweep beside the built-ins.

1. median.py on a small signal equals a moving median computed here with the standard library
   (statistics.median over the last `window` samples), exactly; and on t,x,y,z each axis alike.
2. yaw_drift.py: positions rotated about +y through the first position by rate·(t − t0), and
   the quaternion composed with q_y, against a closed form written here without numpy.
3. The sweep's metrics.csv (navbench run Experiments/plugins.yaml) has every configuration,
   the median.py position filter and the drift05 estimator among them, for every session; and
   the drifted estimate's position_error_rmse is above ARKit's for every session and filter.
"""
import csv
import math
import statistics
import subprocess
import sys

PY = sys.executable


def run(args, text):
    r = subprocess.run([PY] + args, input=text, capture_output=True, text=True, check=True)
    return [line.split(",") for line in r.stdout.strip().split("\n")]


def check_median():
    values = [3.0, -1.0, 4.0, 1.5, 9.0, 2.0, 6.0, 5.0, -3.5, 5.0, 8.0]
    text = "t,value\n" + "".join(f"{i * 0.1!r},{v!r}\n" for i, v in enumerate(values))
    out = run(["examples/plugins/median.py", "--window", "5"], text)
    assert out[0] == ["t", "value"], out[0]
    for i, row in enumerate(out[1:]):
        expected = statistics.median(values[max(0, i - 4): i + 1])
        assert float(row[0]) == i * 0.1 and float(row[1]) == expected, (i, row, expected)
    text = "t,x,y,z\n" + "".join(f"{i},{v!r},{-v!r},{2 * v!r}\n" for i, v in enumerate(values))
    out = run(["examples/plugins/median.py", "--window", "3"], text)
    for i, row in enumerate(out[1:]):
        m = statistics.median(values[max(0, i - 2): i + 1])
        assert [float(c) for c in row[1:]] == [m, -m if m != 0 else 0.0, 2 * m] or \
            [float(c) for c in row[1:]] == [m, statistics.median([-v for v in values[max(0, i - 2): i + 1]]), 2 * m], (i, row)


def check_yaw_drift():
    rate = 0.5
    rows = [(0.0, 1.0, 0.5, 2.0, 0.0, 0.0, 0.0, 1.0), (10.0, 3.0, 0.5, -1.0, 0.0, math.sin(0.2), 0.0, math.cos(0.2)),
            (20.0, -2.0, 1.0, 4.0, 0.1, 0.2, 0.3, math.sqrt(1 - 0.14))]
    text = "t,x,y,z,qx,qy,qz,qw\n" + "".join(",".join(repr(v) for v in r) + "\n" for r in rows)
    out = run(["examples/plugins/yaw_drift.py", "--rate", str(rate)], text)
    assert out[0] == ["t", "x", "y", "z", "qx", "qy", "qz", "qw"], out[0]
    p0 = rows[0][1:4]
    for r, o in zip(rows, out[1:]):
        th = math.radians(rate) * (r[0] - rows[0][0])
        dx, dy, dz = r[1] - p0[0], r[2] - p0[1], r[3] - p0[2]
        px = math.cos(th) * dx + math.sin(th) * dz + p0[0]
        pz = -math.sin(th) * dx + math.cos(th) * dz + p0[2]
        # (0, sin(th/2), 0, cos(th/2)) ⊗ (x, y, z, w), Hamilton.
        s, c = math.sin(th / 2), math.cos(th / 2)
        x, y, z, w = r[4:8]
        q = (c * x + s * z, c * y + s * w, c * z - s * x, c * w - s * y)
        got = [float(v) for v in o]
        want = [r[0], px, r[2], pz, *q]
        assert all(abs(a - b) <= 1e-12 for a, b in zip(got, want)), (got, want)


def check_sweep(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    configs = {r["configuration"] for r in rows}
    sessions = {r["session"] for r in rows}
    median = [c for c in configs if "median.py" in c]
    assert median and any("est=drift05" in c for c in configs), sorted(configs)
    assert len(configs) == 6 and len(sessions) == 3, (sorted(configs), sorted(sessions))
    rmse = {(r["session"], r["configuration"]): float(r["value"]) for r in rows if r["metric"] == "position_error_rmse"}
    assert len(rmse) == 18, len(rmse)
    for (session, config), v in rmse.items():
        if "est=drift05" in config:
            base = rmse[(session, config.replace("est=drift05", "est=arkit"))]
            assert v > base, (session, config, v, base)
    print(f"plugins: median.py and yaw_drift.py match their closed forms; {len(configs)} configurations × "
          f"{len(sessions)} sessions ran, the drifted estimate is worse on every one")


if __name__ == "__main__":
    check_median()
    check_yaw_drift()
    check_sweep(sys.argv[1])
