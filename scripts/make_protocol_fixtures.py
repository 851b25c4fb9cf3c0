#!/usr/bin/env python3
"""Golden fixture of `navbench rpe --protocol kitti` (Tests/NavMetricsTests/Fixtures/kitti/, committed).

A faithful double-precision port of the KITTI odometry devkit's evaluate_odometry.cpp
(Geiger, Lenz, Urtasun, CVPR 2012; devkit_odometry.zip, `calcSequenceErrors`,
`trajectoryDistances`, `lastFrameFromSegmentLength`, `rotationError`, `translationError`):
lengths 100…800 m, a first frame every 10 frames, pose_error = inv(inv(R_i)·R_j)·inv(G_i)·G_j
with general 4×4 inverses as the devkit's Matrix::inv, rotation error acos(clamp((tr − 1)/2)).
The devkit itself keeps distances and per-segment errors in C `float`; this port (like the
published Python ports, e.g. kitti-odom-eval) keeps doubles, and so does navbench.

Input: a seeded car-like drive of about 1.4 km at 10 Hz (ground truth) and an estimate with
a yaw-rate bias, a 1 % scale error and noise, written as KITTI pose files.

    .venv/bin/python scripts/make_protocol_fixtures.py      (make fixtures-protocol)
"""
import json
import math
import os
import sys

import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavMetricsTests/Fixtures/kitti"
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20261123)


def rot(axis, angle):
    x, y, z = axis / np.linalg.norm(axis)
    c, s = math.cos(angle), math.sin(angle)
    C = 1 - c
    return np.array([[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
                     [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
                     [z * x * C - y * s, z * y * C + x * s, c + z * z * C]])


def drive(n, yaw_bias, scale, noise):
    """KITTI camera frame: x right, y down, z forward; the car turns about −y."""
    poses = []
    R = np.eye(3)
    t = np.zeros(3)
    for k in range(n):
        T = np.eye(4)
        T[:3, :3] = R
        T[:3, 3] = t
        poses.append(T)
        speed = 1.0 + 0.3 * math.sin(k / 150.0)           # metres per frame (10 Hz: 10 m/s)
        yaw_rate = 0.02 * math.sin(k / 90.0) + yaw_bias   # rad per frame
        pitch = 0.002 * math.sin(k / 40.0)
        dR = rot(np.array([0.0, -1.0, 0.0]), yaw_rate) @ rot(np.array([1.0, 0.0, 0.0]), pitch)
        if noise:
            dR = dR @ rot(rng.normal(size=3), rng.normal(0, noise))
        step = np.array([0.0, 0.0, speed * scale])
        if noise:
            step = step + rng.normal(0, noise, size=3)
        t = t + R @ step
        R = R @ dR
    return poses


N = 1400
gt = drive(N, 0.0, 1.0, 0.0)
rng = np.random.default_rng(7)
est = drive(N, 2e-5, 1.01, 2e-3)


def write_kitti(path, poses):
    with open(path, "w") as f:
        for T in poses:
            f.write(" ".join(repr(float(v)) for v in T[:3, :].reshape(-1)) + "\n")


write_kitti(f"{OUT}/gt.kitti", gt)
write_kitti(f"{OUT}/est.kitti", est)

# Read back exactly as written (the files are the fixture).
def read_kitti(path):
    out = []
    for line in open(path):
        v = [float(x) for x in line.split()]
        T = np.eye(4)
        T[:3, :] = np.array(v).reshape(3, 4)
        out.append(T)
    return out


gt, est = read_kitti(f"{OUT}/gt.kitti"), read_kitti(f"{OUT}/est.kitti")

# --- the devkit, double precision -------------------------------------------------------------
LENGTHS = [100, 200, 300, 400, 500, 600, 700, 800]
STEP = 10


def trajectory_distances(poses):
    dist = [0.0]
    for i in range(1, len(poses)):
        P1, P2 = poses[i - 1], poses[i]
        dx, dy, dz = P1[0, 3] - P2[0, 3], P1[1, 3] - P2[1, 3], P1[2, 3] - P2[2, 3]
        dist.append(dist[i - 1] + math.sqrt(dx * dx + dy * dy + dz * dz))
    return dist


def last_frame_from_segment_length(dist, first, length):
    for i in range(first, len(dist)):
        if dist[i] > dist[first] + length:
            return i
    return -1


def rotation_error(E):
    a, b, c = E[0, 0], E[1, 1], E[2, 2]
    d = 0.5 * (a + b + c - 1.0)
    return math.acos(max(min(d, 1.0), -1.0))


def translation_error(E):
    dx, dy, dz = E[0, 3], E[1, 3], E[2, 3]
    return math.sqrt(dx * dx + dy * dy + dz * dz)


def calc_sequence_errors(poses_gt, poses_result):
    err = []
    dist = trajectory_distances(poses_gt)
    for first in range(0, len(poses_gt), STEP):
        for length in LENGTHS:
            last = last_frame_from_segment_length(dist, first, length)
            if last == -1:
                continue
            delta_gt = np.linalg.inv(poses_gt[first]) @ poses_gt[last]
            delta_result = np.linalg.inv(poses_result[first]) @ poses_result[last]
            E = np.linalg.inv(delta_result) @ delta_gt
            r, t = rotation_error(E), translation_error(E)
            num_frames = last - first + 1
            speed = length / (0.1 * num_frames)
            err.append({"first_frame": first, "last_frame": last, "length": length, "r_err": r / length, "t_err": t / length, "speed": speed})
    return err


errors = calc_sequence_errors(gt, est)
t_mean = sum(e["t_err"] for e in errors) / len(errors)
r_mean = sum(e["r_err"] for e in errors) / len(errors)
per_length = []
for length in LENGTHS:
    es = [e for e in errors if e["length"] == length]
    if es:
        per_length.append({"length": length, "segments": len(es),
                           "translation_percent": float(100 * sum(e["t_err"] for e in es) / len(es)).hex(),
                           "rotation_deg_per_m": float(sum(e["r_err"] for e in es) / len(es) * 180 / math.pi).hex()})
expected = {
    "source": "KITTI odometry devkit evaluate_odometry.cpp, double-precision port (scripts/make_protocol_fixtures.py)",
    "segments": len(errors),
    "path_length_m": trajectory_distances(gt)[-1],
    "translation_percent": float(100 * t_mean).hex(),
    "rotation_deg_per_m": float(r_mean * 180 / math.pi).hex(),
    "per_length": per_length,
    "first_segments": [{"first_frame": e["first_frame"], "last_frame": e["last_frame"], "length": e["length"],
                        "t_err": float(e["t_err"]).hex(), "r_err": float(e["r_err"]).hex()} for e in errors[:20]],
}
with open(f"{OUT}/expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
print(f"{len(errors)} segments over {expected['path_length_m']:.1f} m: t {100 * t_mean:.6f} %, r {r_mean * 180 / math.pi:.6f} deg/m")
