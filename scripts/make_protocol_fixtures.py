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

Portable bytes: every value written (poses and the expected results) is computed with plain
Python floats in a fixed order (the small matrix helpers below), never with numpy's matrix
products, `np.dot`, `np.linalg` or numpy reductions, whose BLAS/LAPACK kernel (and so the last
bits) numpy picks by CPU. numpy is used only for its seeded random draws, which are element-wise.
The TUM-RPE part takes sin, cos and acos from scripts/correctly_rounded.py, so glibc's FMA and
non-FMA paths (which differed in the last bit of 6 ground-truth values) give the same bytes; the
KITTI part still calls math.sin/cos/acos (the same bytes on the machines checked so far).
scripts/check_fixtures.sh regenerates these files under OPENBLAS_CORETYPE=Haswell, SkylakeX and
Prescott and with glibc's FMA/AVX2/AVX-512 code paths switched off, and compares them byte for byte.
"""
import json
import math
import os
import sys

import numpy as np

import correctly_rounded


# --- fixed-order linear algebra on plain Python floats (lists of rows) -------------------------
def matmul(A, B):
    """C[i][j] = sum_k A[i][k]·B[k][j], summed left to right in k."""
    n, m, p = len(A), len(B), len(B[0])
    out = []
    for i in range(n):
        row = []
        for j in range(p):
            acc = 0.0
            for k in range(m):
                acc += A[i][k] * B[k][j]
            row.append(acc)
        out.append(row)
    return out


def matvec(A, v):
    out = []
    for row in A:
        acc = 0.0
        for a, x in zip(row, v):
            acc += a * x
        out.append(acc)
    return out


def eye(n):
    return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]


def inv(M):
    """General inverse by Gauss-Jordan elimination with full pivoting (the devkit's Matrix::inv
    solves M·X = I this way, after Numerical Recipes' gaussj)."""
    n = len(M)
    a = [list(map(float, row)) for row in M]
    b = eye(n)
    indxc, indxr, ipiv = [0] * n, [0] * n, [0] * n
    for i in range(n):
        big, irow, icol = 0.0, 0, 0
        for j in range(n):
            if ipiv[j] != 1:
                for k in range(n):
                    if ipiv[k] == 0 and abs(a[j][k]) >= big:
                        big, irow, icol = abs(a[j][k]), j, k
        ipiv[icol] += 1
        if irow != icol:
            a[irow], a[icol] = a[icol], a[irow]
            b[irow], b[icol] = b[icol], b[irow]
        indxr[i], indxc[i] = irow, icol
        if a[icol][icol] == 0.0:
            raise ZeroDivisionError("singular matrix")
        pivinv = 1.0 / a[icol][icol]
        a[icol][icol] = 1.0
        a[icol] = [x * pivinv for x in a[icol]]
        b[icol] = [x * pivinv for x in b[icol]]
        for ll in range(n):
            if ll != icol:
                dum = a[ll][icol]
                a[ll][icol] = 0.0
                a[ll] = [x - y * dum for x, y in zip(a[ll], a[icol])]
                b[ll] = [x - y * dum for x, y in zip(b[ll], b[icol])]
    return b


def norm3(v):
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def fsum_mean(xs):
    return math.fsum(xs) / len(xs)


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])

OUT = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavMetricsTests/Fixtures/kitti"
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20261123)


def rot(axis, angle):
    n = norm3(axis)
    x, y, z = axis[0] / n, axis[1] / n, axis[2] / n
    c, s = math.cos(angle), math.sin(angle)
    C = 1 - c
    return [[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
            [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
            [z * x * C - y * s, z * y * C + x * s, c + z * z * C]]


def pose(R, t):
    return [R[0] + [t[0]], R[1] + [t[1]], R[2] + [t[2]], [0.0, 0.0, 0.0, 1.0]]


def drive(n, yaw_bias, scale, noise):
    """KITTI camera frame: x right, y down, z forward; the car turns about −y."""
    poses = []
    R = eye(3)
    t = [0.0, 0.0, 0.0]
    for k in range(n):
        poses.append(pose(R, t))
        speed = 1.0 + 0.3 * math.sin(k / 150.0)           # metres per frame (10 Hz: 10 m/s)
        yaw_rate = 0.02 * math.sin(k / 90.0) + yaw_bias   # rad per frame
        pitch = 0.002 * math.sin(k / 40.0)
        dR = matmul(rot([0.0, -1.0, 0.0], yaw_rate), rot([1.0, 0.0, 0.0], pitch))
        if noise:
            dR = matmul(dR, rot([float(v) for v in rng.normal(size=3)], float(rng.normal(0, noise))))
        step = [0.0, 0.0, speed * scale]
        if noise:
            step = [a + float(b) for a, b in zip(step, rng.normal(0, noise, size=3))]
        t = [a + b for a, b in zip(t, matvec(R, step))]
        R = matmul(R, dR)
    return poses


N = 1400
gt = drive(N, 0.0, 1.0, 0.0)
rng = np.random.default_rng(7)
est = drive(N, 2e-5, 1.01, 2e-3)


def write_kitti(path, poses):
    with open(path, "w") as f:
        for T in poses:
            f.write(" ".join(repr(float(v)) for row in T[:3] for v in row) + "\n")


write_kitti(f"{OUT}/gt.kitti", gt)
write_kitti(f"{OUT}/est.kitti", est)

# Read back exactly as written (the files are the fixture).
def read_kitti(path):
    out = []
    for line in open(path):
        v = [float(x) for x in line.split()]
        out.append([v[0:4], v[4:8], v[8:12], [0.0, 0.0, 0.0, 1.0]])
    return out


gt, est = read_kitti(f"{OUT}/gt.kitti"), read_kitti(f"{OUT}/est.kitti")

# --- the devkit, double precision -------------------------------------------------------------
LENGTHS = [100, 200, 300, 400, 500, 600, 700, 800]
STEP = 10


def trajectory_distances(poses):
    dist = [0.0]
    for i in range(1, len(poses)):
        P1, P2 = poses[i - 1], poses[i]
        dx, dy, dz = P1[0][3] - P2[0][3], P1[1][3] - P2[1][3], P1[2][3] - P2[2][3]
        dist.append(dist[i - 1] + math.sqrt(dx * dx + dy * dy + dz * dz))
    return dist


def last_frame_from_segment_length(dist, first, length):
    for i in range(first, len(dist)):
        if dist[i] > dist[first] + length:
            return i
    return -1


def rotation_error(E):
    a, b, c = E[0][0], E[1][1], E[2][2]
    d = 0.5 * (a + b + c - 1.0)
    return math.acos(max(min(d, 1.0), -1.0))


def translation_error(E):
    dx, dy, dz = E[0][3], E[1][3], E[2][3]
    return math.sqrt(dx * dx + dy * dy + dz * dz)


def calc_sequence_errors(poses_gt, poses_result):
    err = []
    dist = trajectory_distances(poses_gt)
    for first in range(0, len(poses_gt), STEP):
        for length in LENGTHS:
            last = last_frame_from_segment_length(dist, first, length)
            if last == -1:
                continue
            delta_gt = matmul(inv(poses_gt[first]), poses_gt[last])
            delta_result = matmul(inv(poses_result[first]), poses_result[last])
            E = matmul(inv(delta_result), delta_gt)
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

# --- TUM RGB-D evaluate_rpe.py --fixed_delta (Sturm et al. 2012; the benchmark's Python 2 tool) --
# A port written for this fixture: the same steps, Python 2's random.sample (indices as
# int(random() * n)) driven by the same Mersenne Twister after random.seed(0).
import random

TUM_OUT = os.path.join(os.path.dirname(OUT), "tum-rpe")
os.makedirs(TUM_OUT, exist_ok=True)
rng = np.random.default_rng(11)


def quat_to_matrix(qx, qy, qz, qw, t):
    v = [qx, qy, qz, qw]
    nq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]
    f = math.sqrt(2.0 / nq)
    v = [x * f for x in v]
    q = [[a * b for b in v] for a in v]
    return [[1.0 - q[1][1] - q[2][2], q[0][1] - q[2][3], q[0][2] + q[1][3], t[0]],
            [q[0][1] + q[2][3], 1.0 - q[0][0] - q[2][2], q[1][2] - q[0][3], t[1]],
            [q[0][2] - q[1][3], q[1][2] + q[0][3], 1.0 - q[0][0] - q[1][1], t[2]],
            [0.0, 0.0, 0.0, 1.0]]


# The TUM walk's sin and cos and its RPE's acos are correctly rounded (`correctly_rounded`), so no
# libm path enters them; the noise is numpy's normal draws, whose ziggurat calls libm's exp and log
# only in its rare tail and wedge draws (the same bytes without glibc's SIMD paths on the machines
# checked).
def tum_walk(times, noise):
    rows = []
    for t in times:
        yaw = 0.3 * t + (float(rng.normal(0, noise)) if noise else 0)
        p = [2 * correctly_rounded.cos(0.2 * t), 2 * correctly_rounded.sin(0.2 * t), 0.1 * t]
        if noise:
            p = [v + float(rng.normal(0, noise)) for v in p]
        rows.append([t] + p + [0.0, 0.0, correctly_rounded.sin(yaw / 2), correctly_rounded.cos(yaw / 2)])
    return rows


t_gt = [1000.0 + k / 100.0 for k in range(2000)]                      # 100 Hz, 20 s
t_est = [1000.0 + 0.003 + k / 30.0 + float(rng.uniform(-2e-3, 2e-3)) for k in range(580)]  # 30 Hz
for name, rows in (("gt.tum", tum_walk(t_gt, 0)), ("est.tum", tum_walk(t_est, 0.01))):
    with open(f"{TUM_OUT}/{name}", "w") as f:
        for r in rows:
            f.write(" ".join(repr(float(v)) for v in r) + "\n")


def read_tum(path):
    traj = {}
    for line in open(path):
        v = [float(x) for x in line.split()]
        traj[v[0]] = quat_to_matrix(v[4], v[5], v[6], v[7], v[1:4])
    return traj


def closest(L, t):
    beginning, end, best = 0, len(L), 0
    difference = abs(L[0] - t)
    while beginning < end:
        middle = int((end + beginning) / 2)
        if abs(L[middle] - t) < difference:
            difference = abs(L[middle] - t)
            best = middle
        if t == L[middle]:
            return middle
        elif L[middle] > t:
            end = middle
        else:
            beginning = middle + 1
    return best


def py2_sample(population, k):
    n = len(population)
    result = [None] * k
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = int(random.random() * (n - i))
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = set()
        for i in range(k):
            j = int(random.random() * n)
            while j in selected:
                j = int(random.random() * n)
            selected.add(j)
            result[i] = population[j]
    return result


def angle(T):
    return correctly_rounded.acos(min(1, max(-1, (T[0][0] + T[1][1] + T[2][2] - 1) / 2)))


def tum_rpe(traj_gt, traj_est, max_pairs, delta, unit):
    random.seed(0)
    sg, se = sorted(traj_gt), sorted(traj_est)
    if unit == "s":
        index = list(se)
    elif unit == "f":
        index = list(range(len(se)))
    else:
        motion = [matmul(inv(traj_est[se[i + 1]]), traj_est[se[i]]) for i in range(len(se) - 1)]
        index, acc = [0], 0
        for m in motion:
            acc += norm3([m[0][3], m[1][3], m[2][3]]) if unit == "m" else angle(m) * (1 if unit == "rad" else 180 / math.pi)
            index.append(acc)
    pairs = []
    for i in range(len(se)):
        j = closest(index, index[i] + delta)
        if j != len(se) - 1:
            pairs.append((i, j))
    if max_pairs != 0 and len(pairs) > max_pairs:
        pairs = py2_sample(pairs, max_pairs)
    gt_max = 2 * median([s - t for s, t in zip(sg[1:], sg[:-1])])
    out = []
    for i, j in pairs:
        g0, g1 = closest(sg, se[i]), closest(sg, se[j])
        if abs(sg[g0] - se[i]) > gt_max or abs(sg[g1] - se[j]) > gt_max:
            continue
        E = matmul(inv(matmul(inv(traj_est[se[j]]), traj_est[se[i]])), matmul(inv(traj_gt[sg[g1]]), traj_gt[sg[g0]]))
        out.append((i, j, g0, g1, norm3([E[0][3], E[1][3], E[2][3]]), angle(E)))
    return out


def statistics_hex(xs):
    """evaluate_rpe.py's numpy.sqrt(dot/len), mean, median, std, min, max; sums correctly rounded
    (math.fsum), so no summation order of any CPU enters the bytes."""
    mean = fsum_mean(xs)
    values = (("rmse", math.sqrt(math.fsum(x * x for x in xs) / len(xs))), ("mean", mean), ("median", median(xs)),
              ("std", math.sqrt(fsum_mean([(x - mean) * (x - mean) for x in xs]))), ("min", min(xs)), ("max", max(xs)))
    return {k: float(v).hex() for k, v in values}


traj_gt, traj_est = read_tum(f"{TUM_OUT}/gt.tum"), read_tum(f"{TUM_OUT}/est.tum")
cases = []
for max_pairs, delta, unit in ((10000, 1.0, "s"), (100, 1.0, "s"), (10, 0.5, "m"), (0, 30, "f"), (400, 20.0, "deg")):
    res = tum_rpe(traj_gt, traj_est, max_pairs, delta, unit)
    tr = [r[4] for r in res]
    rot = [r[5] * 180 / math.pi for r in res]
    cases.append({"max_pairs": max_pairs, "delta": delta, "unit": unit,
                  "pairs": [[r[0], r[1], r[2], r[3]] for r in res],
                  "translation": statistics_hex(tr),
                  "rotation_deg": statistics_hex(rot)})
with open(f"{TUM_OUT}/expected.json", "w") as f:
    json.dump({"source": "TUM RGB-D evaluate_rpe.py --fixed_delta, port in scripts/make_protocol_fixtures.py (random.seed(0), Python 2 sample)",
               "cases": cases}, f, indent=1, sort_keys=True)
    f.write("\n")
print("tum-rpe cases:", [(c["unit"], c["max_pairs"], len(c["pairs"])) for c in cases])
