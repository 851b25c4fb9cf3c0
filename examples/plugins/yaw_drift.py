#!/usr/bin/env python3
"""An "estimator" that adds a yaw drift to the session's VIO: a navbench `exec:` estimator
plugin (docs/extending.md, "Plugins").

    estimators: {drift05: "exec:.venv/bin/python examples/plugins/yaw_drift.py --rate 0.5"}

Protocol: the navigation session's VIO on stdin as `t,x,y,z,qx,qy,qz,qw` (session frame: ARKit,
+y up, metres; Hamilton quaternion x, y, z, w); the estimate on stdout in the same columns,
on the session's clock. This one rotates every pose about the vertical (+y) axis through the
first position by theta(t) = rate * (t - t0):
    p' = R_y(theta) (p - p0) + p0,   q' = q_y(theta) * q.
"""
import argparse
import sys

import numpy as np

COLUMNS = ["t", "x", "y", "z", "qx", "qy", "qz", "qw"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=0.5, help="yaw drift, degrees per second")
    args = parser.parse_args()
    header = sys.stdin.readline().strip()
    if header.split(",") != COLUMNS:
        print(f"yaw_drift.py: header '{header}': expected {','.join(COLUMNS)}", file=sys.stderr)
        return 2
    d = np.loadtxt(sys.stdin, delimiter=",", ndmin=2)
    t, p, q = d[:, 0], d[:, 1:4], d[:, 4:8]
    theta = np.radians(args.rate) * (t - t[0])
    c, s = np.cos(theta), np.sin(theta)
    r = p - p[0]
    # R_y(theta) = [[c, 0, s], [0, 1, 0], [-s, 0, c]]
    moved = np.column_stack([c * r[:, 0] + s * r[:, 2], r[:, 1], -s * r[:, 0] + c * r[:, 2]]) + p[0]
    # q_y = (0, sin(theta/2), 0, cos(theta/2)); Hamilton product q_y * q in (x, y, z, w).
    hy, hw = np.sin(theta / 2), np.cos(theta / 2)
    x, y, z, w = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    rotated = np.column_stack([hw * x + hy * z, hw * y + hy * w, hw * z - hy * x, hw * w - hy * y])
    sys.stdout.write(",".join(COLUMNS) + "\n")
    np.savetxt(sys.stdout, np.column_stack([t, moved, rotated]), delimiter=",", fmt="%.17g")
    return 0


if __name__ == "__main__":
    sys.exit(main())
