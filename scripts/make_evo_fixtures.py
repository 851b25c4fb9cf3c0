#!/usr/bin/env python3
"""Golden fixtures for navbench's trajectory geometry and metrics, computed with the
reference Python tools (evo 1.38.1, rdp 0.8, simplification 2.0.0, numpy).

Writes (committed, so `swift test` needs no Python):
  Tests/NavMetricsTests/Fixtures/
    tum-fr1-xyz/            the two TUM RGB-D files + licence (copied unchanged)
    synthetic/*.tum         seeded synthetic reference/estimate pairs
    evo_cases.json          APE and RPE for every evo alignment x relation x delta unit
    quantiles.json          numpy quantiles for every continuous method (Hazen included)
  Tests/NavGeometryTests/Fixtures/
    rdp_cases.json          kept indices of rdp (line) and simplification (segment)
    arkit-data-logger/      two real ARKit walks + licence, and clew_crumbs.json

Reproducible: every random draw comes from numpy PCG64 seeded with SEED; the same
package versions give byte-identical files. Usage: python3 scripts/make_evo_fixtures.py
(`make fixtures-evo` installs the pinned packages first).
"""

import copy
import hashlib
import importlib.metadata as md
import json
import os
import shutil
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import logging  # noqa: E402

logging.disable(logging.CRITICAL)

from evo.core import metrics, sync  # noqa: E402
from evo.core.sync_method import SyncMethod  # noqa: E402
from evo.main_ape import ape as evo_ape  # noqa: E402
from evo.main_rpe import rpe as evo_rpe  # noqa: E402
from evo.tools import file_interface  # noqa: E402
from rdp import rdp  # noqa: E402
from simplification.cutil import simplify_coords_idx  # noqa: E402

SEED = 20261122
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRICS_FIX = os.path.join(ROOT, "Tests", "NavMetricsTests", "Fixtures")
GEOMETRY_FIX = os.path.join(ROOT, "Tests", "NavGeometryTests", "Fixtures")
# The real recordings (copied into the fixtures on the first run; later runs work from the
# committed copies when this folder is absent).
REAL = os.environ.get("NAVBENCH_REAL_DATA", os.path.join(ROOT, "..", "shared", "real-data"))

RELATIONS_APE = ["translation_part", "rotation_angle_deg", "rotation_angle_rad", "rotation_part",
                 "full_transformation", "point_distance"]
RELATIONS_RPE = RELATIONS_APE + ["point_distance_error_ratio"]
ALIGNS = ["none", "se3", "sim3", "origin"]


def sha256_int64(ids):
    return hashlib.sha256(np.asarray(ids, dtype="<i8").tobytes()).hexdigest()


def fl(x):
    return float(x)


def dump(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.relpath(path, ROOT))


# ------------------------------------------------------------------ synthetic data
def quat_from_yaw_pitch_roll(yaw, pitch, roll):
    """x, y, z, w of R = R_y(yaw) * R_x(pitch) * R_z(roll) (ARKit: y up)."""
    def q_axis(axis, a):
        s = np.sin(a / 2)
        return np.array([axis[0] * s, axis[1] * s, axis[2] * s, np.cos(a / 2)])

    def mul(a, b):
        ax, ay, az, aw = a
        bx, by, bz, bw = b
        return np.array([aw * bx + ax * bw + ay * bz - az * by,
                         aw * by - ax * bz + ay * bw + az * bx,
                         aw * bz + ax * by - ay * bx + az * bw,
                         aw * bw - ax * bx - ay * by - az * bz])
    return mul(mul(q_axis((0, 1, 0), yaw), q_axis((1, 0, 0), pitch)), q_axis((0, 0, 1), roll))


def quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz])


def quat_rotate(q, v):
    u = q[:3]
    t = 2 * np.cross(u, v)
    return v + q[3] * t + np.cross(u, t)


def synthetic_walk(rng, rate, seconds):
    """An indoor walk in an ARKit frame: legs with turns, a flight of stairs, hand sway."""
    n = int(rate * seconds)
    t = np.arange(n) / rate
    heading = np.zeros(n)
    pos = np.zeros((n, 3))
    speed = 1.3
    turn_times = np.sort(rng.uniform(2, seconds - 2, size=5))
    turn_angles = rng.choice([-np.pi / 2, np.pi / 2, np.pi / 4, -np.pi / 3], size=5)
    for k in range(1, n):
        h = sum(a * np.clip((t[k] - tt) / 1.5, 0, 1) for tt, a in zip(turn_times, turn_angles))
        heading[k] = h
        step = speed / rate
        d = np.array([-np.sin(h), 0.0, -np.cos(h)]) * step
        climbing = seconds * 0.55 < t[k] < seconds * 0.7
        d[1] = 0.35 * step if climbing else 0.0
        pos[k] = pos[k - 1] + d
    pos[:, 1] += 1.4 + 0.02 * np.sin(2 * np.pi * 1.9 * t)
    yaw = heading + 0.05 * np.sin(2 * np.pi * 0.5 * t)
    pitch = -0.3 + 0.04 * np.sin(2 * np.pi * 1.9 * t)
    roll = 0.03 * np.sin(2 * np.pi * 0.9 * t)
    quats = np.array([quat_from_yaw_pitch_roll(a, b, c) for a, b, c in zip(yaw, pitch, roll)])
    return t, pos, quats


def make_estimate(rng, t_ref, p_ref, q_ref, rate, jitter, t_start, t_end, gap, scale):
    """A VIO-like estimate: resampled, drifting (scale, yaw random walk, noise), in a rotated frame."""
    t = np.arange(t_start, t_end, 1.0 / rate)
    t = t[(t < gap[0]) | (t > gap[1])]
    t = t + rng.uniform(-jitter, jitter, size=t.size)
    idx = np.clip(np.searchsorted(t_ref, t), 1, len(t_ref) - 1)
    frac = (t - t_ref[idx - 1]) / (t_ref[idx] - t_ref[idx - 1])
    p = p_ref[idx - 1] + frac[:, None] * (p_ref[idx] - p_ref[idx - 1])
    q = q_ref[idx]
    yaw_drift = np.cumsum(rng.normal(0, 0.002, size=t.size))
    world = quat_from_yaw_pitch_roll(np.deg2rad(40), np.deg2rad(1.5), 0)
    offset = np.array([3.0, -1.0, 2.0])
    p_out = np.empty_like(p)
    q_out = np.empty_like(q)
    origin = p[0]
    for k in range(t.size):
        dq = quat_from_yaw_pitch_roll(yaw_drift[k], 0, 0)
        rel = quat_rotate(dq, (p[k] - origin) * scale) + origin + rng.normal(0, 0.02, 3)
        p_out[k] = quat_rotate(world, rel) + offset
        noise = quat_from_yaw_pitch_roll(*rng.normal(0, np.deg2rad(0.5), 3))
        qk = quat_mul(world, quat_mul(dq, quat_mul(q[k], noise)))
        q_out[k] = qk / np.linalg.norm(qk)
    return t, p_out, q_out


def write_tum(path, t, p, q):
    with open(path, "w") as f:
        f.write("# timestamp tx ty tz qx qy qz qw\n")
        for k in range(t.size):
            f.write("%.6f %.9f %.9f %.9f %.9f %.9f %.9f %.9f\n" % (t[k], *p[k], *q[k]))
    print("wrote", os.path.relpath(path, ROOT))


def synthetic_sets():
    rng = np.random.default_rng(np.random.PCG64(SEED))
    out = os.path.join(METRICS_FIX, "synthetic")
    os.makedirs(out, exist_ok=True)
    # Walk A: 100 Hz reference, 30 Hz estimate with jitter, a gap and trimmed ends.
    t, p, q = synthetic_walk(rng, 100, 40)
    t = t + 1700000000.0
    write_tum(os.path.join(out, "walk_groundtruth.tum"), t, p, q)
    te, pe, qe = make_estimate(rng, t, p, q, 30, 0.003, t[0] + 0.5, t[-1] - 1.0,
                               (t[0] + 20.0, t[0] + 22.0), 1.02)
    write_tum(os.path.join(out, "walk_estimate.tum"), te, pe, qe)
    # Walk B: equal counts (evo walks the estimate when counts are equal), 50 Hz both.
    t2, p2, q2 = synthetic_walk(rng, 50, 20)
    t2 = t2 + 1700001000.0
    write_tum(os.path.join(out, "equal_groundtruth.tum"), t2, p2, q2)
    te2 = t2 + rng.uniform(-0.004, 0.004, size=t2.size)
    te2[0] = t2[0]
    _, pe2, qe2 = make_estimate(rng, t2, p2, q2, 50, 0.0, t2[0], t2[-1] + 0.01, (0, 0), 0.99)
    pe2, qe2 = pe2[: t2.size], qe2[: t2.size]
    write_tum(os.path.join(out, "equal_estimate.tum"), te2, pe2, qe2)
    return [
        ("synthetic-walk", "synthetic/walk_groundtruth.tum", "synthetic/walk_estimate.tum", (25, 1.0)),
        ("synthetic-equal", "synthetic/equal_groundtruth.tum", "synthetic/equal_estimate.tum", (10, 0.5)),
    ]


# ------------------------------------------------------------------ evo cases
def association_indices(ref, est, max_diff):
    """The (ref, est) index lists evo's associate_trajectories pairs (its own rule)."""
    second_longer = est.num_poses > ref.num_poses
    if second_longer:
        a, b = sync.matching_time_indices(ref.timestamps, est.timestamps, max_diff, 0.0)
        return a, b
    a, b = sync.matching_time_indices(est.timestamps, ref.timestamps, max_diff, -0.0)
    return b, a


def stats(metric):
    return {k: fl(v) for k, v in metric.get_all_statistics().items()}


def evo_cases(name, ref_rel, est_rel, deltas):
    ref_path = os.path.join(METRICS_FIX, ref_rel)
    est_path = os.path.join(METRICS_FIX, est_rel)
    ref = file_interface.read_tum_trajectory_file(ref_path)
    est = file_interface.read_tum_trajectory_file(est_path)
    max_diff = 0.01
    ref_s, est_s = sync.associate_trajectories(ref, est, max_diff=max_diff)
    ri, ei = association_indices(ref, est, max_diff)
    assert np.array_equal(ref.timestamps[ri], ref_s.timestamps)
    assert np.array_equal(est.timestamps[ei], est_s.timestamps)
    out = {
        "reference": ref_rel, "estimate": est_rel, "max_diff": max_diff,
        "reference_poses": int(ref.num_poses), "estimate_poses": int(est.num_poses),
        "association": {"pairs": len(ri), "reference_indices_sha256": sha256_int64(ri),
                        "estimate_indices_sha256": sha256_int64(ei),
                        "reference_indices_first10": [int(x) for x in ri[:10]],
                        "estimate_indices_first10": [int(x) for x in ei[:10]]},
        "ape": [], "rpe": [],
    }
    # Interpolating association: APE translation, no alignment.
    ref_i, est_i = sync.associate_trajectories(ref, est, max_diff=max_diff, sync_method=SyncMethod.interpolation)
    m = metrics.APE(metrics.PoseRelation.translation_part)
    m.process_data((ref_i, est_i))
    out["interpolation_ape_translation"] = {"pairs": int(ref_i.num_poses), "stats": stats(m)}

    def aligned_args(align):
        return dict(align=align in ("se3", "sim3"), correct_scale=align == "sim3", align_origin=align == "origin")

    for align in ALIGNS:
        for rel in RELATIONS_APE:
            r, e = copy.deepcopy(ref_s), copy.deepcopy(est_s)
            res = evo_ape(r, e, metrics.PoseRelation[rel], **aligned_args(align))
            case = {"align": align, "relation": rel, "pairs": int(len(res.np_arrays["error_array"])),
                    "stats": {k: fl(v) for k, v in res.stats.items()}}
            if "alignment_transformation_sim3" in res.np_arrays:
                case["alignment_sim3"] = res.np_arrays["alignment_transformation_sim3"].tolist()
            out["ape"].append(case)
    frames, meters = deltas
    for align in ALIGNS:
        for rel in RELATIONS_RPE:
            for delta, unit in ((frames, metrics.Unit.frames), (meters, metrics.Unit.meters)):
                for all_pairs in (False, True):
                    out["rpe"].append(rpe_case(ref_s, est_s, align, rel, delta, unit, all_pairs, False, aligned_args))
    for align in ("none", "sim3"):
        for all_pairs in (False, True):
            out["rpe"].append(rpe_case(ref_s, est_s, align, "translation_part", meters, metrics.Unit.meters,
                                       all_pairs, True, aligned_args))
    return out


def rpe_case(ref_s, est_s, align, rel, delta, unit, all_pairs, from_ref, aligned_args):
    r, e = copy.deepcopy(ref_s), copy.deepcopy(est_s)
    # evo_rpe's metric object, to read delta_ids before the trajectories are reduced.
    res = evo_rpe(r, e, metrics.PoseRelation[rel], delta=delta, delta_unit=unit, rel_delta_tol=0.1,
                  all_pairs=all_pairs, pairs_from_reference=from_ref, **aligned_args(align))
    # Recompute the pair list with the same inputs (evo_rpe does not return it).
    r2, e2 = copy.deepcopy(ref_s), copy.deepcopy(est_s)
    if align in ("se3", "sim3"):
        e2.align(r2, correct_scale=align == "sim3")
    elif align == "origin":
        e2.align_origin(r2)
    m = metrics.RPE(metrics.PoseRelation[rel], delta, unit, 0.1, all_pairs, from_ref)
    m.process_data((r2, e2))
    assert np.allclose(m.error, res.np_arrays["error_array"], rtol=0, atol=0)
    ids = np.asarray(m.delta_ids, dtype=np.int64)
    return {"align": align, "relation": rel, "delta": delta, "delta_unit": "f" if unit == metrics.Unit.frames else "m",
            "all_pairs": all_pairs, "pairs_from_reference": from_ref, "pairs": int(ids.size),
            "end_ids_sha256": sha256_int64(ids), "end_ids_first10": ids[:10].tolist(),
            "stats": {k: fl(v) for k, v in res.stats.items()}}


# ------------------------------------------------------------------ quantiles
def quantile_cases():
    rng = np.random.default_rng(np.random.PCG64(SEED + 1))
    methods = ["interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased"]
    qs = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0]
    arrays = [rng.exponential(2.0, size=n).round(6).tolist() for n in (1, 2, 3, 4, 5, 7, 10, 20, 101)]
    arrays.append([1.0, 2.0, 2.0, 2.0, 3.0, 10.0])
    cases = []
    for a in arrays:
        x = np.asarray(a)
        cases.append({"values": a,
                      "quantiles": {m: [fl(np.quantile(x, q, method=m)) for q in qs] for m in methods},
                      "median": fl(np.median(x)), "mean": fl(np.mean(x)), "std": fl(np.std(x))})
    # IPIN score: horizontal error + 15 m per floor, Hazen 75th percentile.
    h = rng.exponential(3.0, size=40).round(4)
    f = rng.choice([0, 0, 0, 0, 1, -1, 2], size=40)
    ipin = fl(np.quantile(h + 15 * np.abs(f), 0.75, method="hazen"))
    return {"q": qs, "cases": cases,
            "ipin": {"horizontal": h.tolist(), "floor_error": [int(v) for v in f], "score": ipin,
                     "ce50_hazen": fl(np.percentile(h, 50, method="hazen")),
                     "ce95_hazen": fl(np.percentile(h, 95, method="hazen"))}}


# ------------------------------------------------------------------ RDP
def rdp_paths(rng):
    """Seeded 2-D and 3-D paths: a corridor walk with corners and noise, stairs, a closed loop."""
    n = 1500
    pts = np.zeros((n, 2))
    h = 0.0
    for k in range(1, n):
        if k % 250 == 0:
            h += rng.choice([np.pi / 2, -np.pi / 2, np.pi / 4])
        pts[k] = pts[k - 1] + 0.05 * np.array([np.cos(h), np.sin(h)])
    walk2 = pts + rng.normal(0, 0.03, size=pts.shape)
    m = 1000
    s = np.linspace(0, 1, m)
    stairs = np.column_stack([20 * s + rng.normal(0, 0.02, m),
                              np.clip((s - 0.4) * 10, 0, 1) * 3.0 + rng.normal(0, 0.02, m),
                              5 * np.sin(3 * s) + rng.normal(0, 0.02, m)])
    theta = np.linspace(0, 2 * np.pi, 600)
    loop = np.column_stack([8 * np.cos(theta), 5 * np.sin(2 * theta)]) + rng.normal(0, 0.05, (600, 2))
    loop[-1] = loop[0]
    return {"walk2d": walk2, "stairs3d": stairs, "loop2d": loop}


def rdp_cases():
    rng = np.random.default_rng(np.random.PCG64(SEED + 2))
    paths = rdp_paths(rng)
    tolerances = [0.02, 0.05, 0.1, 0.3, 0.5, 1.0]
    cases = []
    for name, pts in paths.items():
        entry = {"name": name, "points": pts.tolist(), "dimension": int(pts.shape[1]), "runs": []}
        for eps in tolerances:
            mask = rdp(pts, epsilon=eps, algo="iter", return_mask=True)
            entry["runs"].append({"tolerance": eps, "distance": "line", "plane": "xyz" if pts.shape[1] == 3 else "xy",
                                  "kept": np.flatnonzero(mask).tolist()})
            flat = pts if pts.shape[1] == 2 else np.ascontiguousarray(pts[:, [0, 2]])
            idx = sorted(int(i) for i in simplify_coords_idx(np.ascontiguousarray(flat), eps))
            entry["runs"].append({"tolerance": eps, "distance": "segment", "plane": "xy" if pts.shape[1] == 2 else "xz",
                                  "kept": idx})
        cases.append(entry)
    return {"cases": cases}


def arkit_crumbs():
    """Clew's crumbs (the latest ARKit pose at each 0.3 s timer tick) on the two real
    ARKit Data Logger walks, and rdp's 3-D keypoints at Clew's 0.3 m."""
    src = os.path.join(REAL, "arkit-data-logger")
    dst = os.path.join(GEOMETRY_FIX, "arkit-data-logger")
    os.makedirs(dst, exist_ok=True)
    if os.path.isdir(src):  # else: regenerate from the copies already committed
        for f in ("LICENSE", "README.md"):
            shutil.copyfile(os.path.join(src, f), os.path.join(dst, f))
    out = {"tolerance": 0.3, "crumb_interval_s": 0.3, "walks": []}
    for fname in ("ARKit_camera_pose.txt", "ARKit_camera_pose_LARR_letters.txt"):
        if os.path.isdir(src):
            shutil.copyfile(os.path.join(src, "Visualization", fname), os.path.join(dst, fname))
        rows = np.loadtxt(os.path.join(dst, fname), comments="#")
        t = (rows[:, 0] - rows[0, 0]) / 1e9
        xyz = rows[:, [4, 8, 12]]
        ticks = np.arange(0.0, t[-1] + 1e-9, 0.3)
        crumb_rows = np.searchsorted(t, ticks + 1e-9, side="right") - 1
        crumbs = xyz[crumb_rows]
        mask = rdp(crumbs, epsilon=0.3, algo="iter", return_mask=True)
        out["walks"].append({"file": fname, "rows": int(rows.shape[0]), "crumb_rows": crumb_rows.tolist(),
                             "kept": np.flatnonzero(mask).tolist(),
                             "path_length_m": fl(np.sum(np.linalg.norm(np.diff(xyz, axis=0), axis=1)))})
    with open(os.path.join(dst, "SOURCE.md"), "w") as f:
        f.write("Real ARKit VIO camera trajectories (iPhone XS, 60 Hz) from the ARKit Data Logger by\n"
                "Pyojin Kim, repo `PyojinKim/ARKit-Data-Logger` @ e6bcdb6, MIT licence (LICENSE here).\n"
                "Copied unchanged. Lines: `timestamp_ns r11 r12 r13 tx r21 r22 r23 ty r31 r32 r33 tz`.\n")
    return out


def main():
    versions = {p: md.version(p) for p in ("evo", "numpy", "rdp", "simplification")}
    if versions["evo"] != "1.38.1":
        print(f"warning: evo {versions['evo']} installed; fixtures are defined for 1.38.1", file=sys.stderr)
    os.makedirs(METRICS_FIX, exist_ok=True)
    os.makedirs(GEOMETRY_FIX, exist_ok=True)
    tum_dst = os.path.join(METRICS_FIX, "tum-fr1-xyz")
    os.makedirs(tum_dst, exist_ok=True)
    if os.path.isdir(os.path.join(REAL, "tum-fr1-xyz")):  # else: use the committed copies
        for f in ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "LICENSE.md"):
            shutil.copyfile(os.path.join(REAL, "tum-fr1-xyz", f), os.path.join(tum_dst, f))
    datasets = [("tum-fr1-xyz", "tum-fr1-xyz/freiburg1_xyz-groundtruth.txt",
                 "tum-fr1-xyz/freiburg1_xyz-rgbdslam.txt", (10, 0.2))] + synthetic_sets()
    evo_out = {"generator": {"script": "scripts/make_evo_fixtures.py", "seed": SEED, "versions": versions},
               "datasets": {}}
    for name, r, e, deltas in datasets:
        print("evo cases:", name, flush=True)
        evo_out["datasets"][name] = evo_cases(name, r, e, deltas)
    dump(os.path.join(METRICS_FIX, "evo_cases.json"), evo_out)
    dump(os.path.join(METRICS_FIX, "quantiles.json"), quantile_cases())
    dump(os.path.join(GEOMETRY_FIX, "rdp_cases.json"), rdp_cases())
    dump(os.path.join(GEOMETRY_FIX, "arkit-data-logger", "clew_crumbs.json"), arkit_crumbs())


if __name__ == "__main__":
    main()
