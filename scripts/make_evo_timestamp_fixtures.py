#!/usr/bin/env python3
"""evo 1.38.1's results on trajectory files with repeated ("duplicate") timestamps, as real
TUM RGB-D and EuRoC ground truths have, with and without a time offset and n_to_align.

Writes (committed, so `swift test` needs no Python):
  Tests/NavMetricsTests/Fixtures/duplicates/
    tum_groundtruth.tum, tum_estimate.tum        TUM pair, both with repeated stamps
    euroc_groundtruth.csv, euroc_estimate.tum    EuRoC ground truth (ns) with repeats, TUM estimate
    tum_groundtruth.tum.gz                       the TUM ground truth gzip-compressed (mtime 0)
    evo_duplicates.json                          evo's associated index pairs and statistics

Reproducible: numpy PCG64 seeded with SEED; same package versions, same bytes.
Usage: .venv/bin/python scripts/make_evo_timestamp_fixtures.py (evo==1.38.1 in the venv).
"""

import copy
import gzip
import importlib.metadata as md
import json
import logging
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

from evo.core import metrics, sync  # noqa: E402
from evo.core.sync_method import SyncMethod  # noqa: E402
from evo.main_ape import ape as evo_ape  # noqa: E402
from evo.main_rpe import rpe as evo_rpe  # noqa: E402
from evo.tools import file_interface  # noqa: E402

SEED = 20261123
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "NavMetricsTests", "Fixtures", "duplicates")


def quat_z_then_x(yaw, tilt):
    """x, y, z, w of R_z(yaw)·R_x(tilt) (z up, as TUM/EuRoC motion capture)."""
    cz, sz = np.cos(yaw / 2), np.sin(yaw / 2)
    cx, sx = np.cos(tilt / 2), np.sin(tilt / 2)
    # (0,0,sz,cz) * (sx,0,0,cx)
    return np.array([cz * sx, sz * sx, sz * cx, cz * cx])


def walk(rng, rate, seconds, t0):
    """A z-up walk: legs with turns, gentle height changes, head sway."""
    n = int(rate * seconds)
    t = t0 + np.arange(n) / rate
    rel = t - t0
    turns = np.sort(rng.uniform(2, seconds - 2, 4))
    angles = rng.choice([-np.pi / 2, np.pi / 2, np.pi / 3], 4)
    heading = np.array([sum(a * np.clip((s - tt) / 1.2, 0, 1) for tt, a in zip(turns, angles)) for s in rel])
    heading += 0.08 * np.sin(2 * np.pi * 0.7 * rel)
    step = 1.2 / rate
    p = np.zeros((n, 3))
    for k in range(1, n):
        p[k] = p[k - 1] + step * np.array([np.cos(heading[k]), np.sin(heading[k]), 0.0])
    p[:, 2] = 1.5 + 0.03 * np.sin(2 * np.pi * 1.8 * rel)
    q = np.array([quat_z_then_x(h, 0.05 * np.sin(2 * np.pi * 1.1 * s)) for h, s in zip(heading, rel)])
    return t, p, q


def with_duplicates(rng, t, p, q, count):
    """Repeats `count` stamps: the row after each chosen row gets its stamp (a second pose
    stamped the same instant, as in TUM fr2 ground truth)."""
    t = t.copy()
    idx = np.sort(rng.choice(np.arange(5, t.size - 5), count, replace=False))
    for i in idx:
        t[i + 1] = t[i]
    return t, p, q, [int(i + 1) for i in idx]


def estimate_of(rng, t_ref, p_ref, q_ref, rate, jitter, shift):
    """A drifting VIO-like estimate in a rotated frame; its clock runs `shift` s late."""
    te = np.arange(t_ref[0] + 0.3, t_ref[-1] - 0.3, 1.0 / rate) + rng.uniform(-jitter, jitter, 1)[0]
    te = np.round(te, 6)
    idx = np.clip(np.searchsorted(t_ref, te), 1, t_ref.size - 1)
    p = p_ref[idx] + np.cumsum(rng.normal(0, 0.004, (te.size, 3)), axis=0)
    world = quat_z_then_x(np.deg2rad(25), 0.0)
    c, s = np.cos(np.deg2rad(25)), np.sin(np.deg2rad(25))
    rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    p = p @ rz.T + np.array([2.0, -1.0, 0.2])
    q = []
    for k in range(te.size):
        a = world
        b = q_ref[idx[k]]
        qk = np.array([a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                       a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                       a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                       a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]])
        qk = qk + rng.normal(0, 0.004, 4)
        q.append(qk / np.linalg.norm(qk))
    return te + shift, p, np.array(q)


def write_tum(path, t, p, q):
    with open(path, "w") as f:
        f.write("# timestamp tx ty tz qx qy qz qw\n")
        for k in range(t.size):
            f.write("%.6f %.9f %.9f %.9f %.9f %.9f %.9f %.9f\n" % (t[k], *p[k], *q[k]))


def write_euroc(path, t, p, q):
    with open(path, "w") as f:
        f.write("#timestamp [ns], p_RS_R_x [m], p_RS_R_y [m], p_RS_R_z [m], q_RS_w [], q_RS_x [], q_RS_y [], q_RS_z []\n")
        for k in range(t.size):
            ns = int(round(t[k] * 1e9))
            f.write("%d,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f\n" % (ns, *p[k], q[k][3], q[k][0], q[k][1], q[k][2]))


def fl(x):
    return float(x)


def indices(ref, est, max_diff, offset):
    """evo's associate_trajectories index lists (ref, est): its own matching_time_indices."""
    if est.num_poses > ref.num_poses:
        a, b = sync.matching_time_indices(ref.timestamps, est.timestamps, max_diff, offset)
        return a, b
    a, b = sync.matching_time_indices(est.timestamps, ref.timestamps, max_diff, -offset)
    return b, a


def cases(ref, est, name, max_diff=0.01):
    out = {"association": [], "ape": [], "rpe": []}
    for offset in (0.0, -0.02, 0.013):
        ri, ei = indices(ref, est, max_diff, offset)
        rs, es = sync.associate_trajectories(ref, est, max_diff=max_diff, offset_2=offset)
        assert np.array_equal(ref.timestamps[ri], rs.timestamps)
        out["association"].append({"t_offset": offset, "reference_indices": [int(i) for i in ri],
                                   "estimate_indices": [int(i) for i in ei]})
        for align in ("none", "se3", "sim3", "origin"):
            for n in ((-1, 40) if align in ("se3", "sim3") else (-1,)):
                for rel in ("translation_part", "rotation_angle_deg", "full_transformation"):
                    r, e = copy.deepcopy(rs), copy.deepcopy(es)
                    res = evo_ape(r, e, metrics.PoseRelation[rel], align=align in ("se3", "sim3"),
                                  correct_scale=align == "sim3", align_origin=align == "origin", n_to_align=n)
                    out["ape"].append({"t_offset": offset, "align": align, "n_to_align": n, "relation": rel,
                                       "pairs": int(len(res.np_arrays["error_array"])),
                                       "stats": {k: fl(v) for k, v in res.stats.items()}})
        for align in ("none", "se3"):
            for delta, unit in ((1, metrics.Unit.frames), (10, metrics.Unit.frames), (0.5, metrics.Unit.meters)):
                for all_pairs in (False, True):
                    r, e = copy.deepcopy(rs), copy.deepcopy(es)
                    res = evo_rpe(r, e, metrics.PoseRelation.translation_part, delta=delta, delta_unit=unit,
                                  rel_delta_tol=0.1, all_pairs=all_pairs, align=align == "se3")
                    out["rpe"].append({"t_offset": offset, "align": align, "delta": delta,
                                       "delta_unit": "f" if unit == metrics.Unit.frames else "m",
                                       "all_pairs": all_pairs, "pairs": int(len(res.np_arrays["error_array"])),
                                       "stats": {k: fl(v) for k, v in res.stats.items()}})
    # Interpolating association (evo's SyncMethod.interpolation), APE translation, no alignment.
    ri, ei = sync.associate_trajectories(ref, est, max_diff=max_diff, sync_method=SyncMethod.interpolation)
    m = metrics.APE(metrics.PoseRelation.translation_part)
    m.process_data((ri, ei))
    out["interpolation_ape_translation"] = {"pairs": int(ri.num_poses),
                                            "stats": {k: fl(v) for k, v in m.get_all_statistics().items()}}
    return out


def main():
    v = md.version("evo")
    if v != "1.38.1":
        print(f"warning: evo {v} installed; these fixtures are defined for 1.38.1", file=sys.stderr)
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(np.random.PCG64(SEED))
    # TUM: 100 Hz ground truth with 12 repeated stamps; 30 Hz estimate with 3 repeats.
    t, p, q = walk(rng, 100, 24, 1311868229.0)
    t, p, q, dup_ref = with_duplicates(rng, t, p, q, 12)
    te, pe, qe = estimate_of(rng, t, p, q, 30, 0.002, 0.0)
    te, pe, qe, dup_est = with_duplicates(rng, te, pe, qe, 3)
    write_tum(os.path.join(OUT, "tum_groundtruth.tum"), t, p, q)
    write_tum(os.path.join(OUT, "tum_estimate.tum"), te, pe, qe)
    with open(os.path.join(OUT, "tum_groundtruth.tum"), "rb") as f, \
            gzip.GzipFile(os.path.join(OUT, "tum_groundtruth.tum.gz"), "wb", mtime=0) as g:
        g.write(f.read())
    # EuRoC: 200 Hz ground truth in ns with 9 repeats; 20 Hz TUM estimate.
    t2, p2, q2 = walk(rng, 200, 16, 1403636580.0)
    t2, p2, q2, dup_ref2 = with_duplicates(rng, t2, p2, q2, 9)
    te2, pe2, qe2 = estimate_of(rng, t2, p2, q2, 20, 0.001, 0.0)
    write_euroc(os.path.join(OUT, "euroc_groundtruth.csv"), t2, p2, q2)
    write_tum(os.path.join(OUT, "euroc_estimate.tum"), te2, pe2, qe2)

    tum_ref = file_interface.read_tum_trajectory_file(os.path.join(OUT, "tum_groundtruth.tum"))
    tum_est = file_interface.read_tum_trajectory_file(os.path.join(OUT, "tum_estimate.tum"))
    eu_ref = file_interface.read_euroc_csv_trajectory(os.path.join(OUT, "euroc_groundtruth.csv"))
    eu_est = file_interface.read_tum_trajectory_file(os.path.join(OUT, "euroc_estimate.tum"))
    doc = {"generator": {"script": "scripts/make_evo_timestamp_fixtures.py", "seed": SEED,
                         "versions": {k: md.version(k) for k in ("evo", "numpy")}},
           "datasets": {
               "tum": {"reference": "duplicates/tum_groundtruth.tum", "estimate": "duplicates/tum_estimate.tum",
                       "reference_duplicates": len(dup_ref), "estimate_duplicates": len(dup_est),
                       **cases(tum_ref, tum_est, "tum")},
               "euroc": {"reference": "duplicates/euroc_groundtruth.csv", "estimate": "duplicates/euroc_estimate.tum",
                         "reference_duplicates": len(dup_ref2), "estimate_duplicates": 0,
                         **cases(eu_ref, eu_est, "euroc")}}}
    path = os.path.join(OUT, "evo_duplicates.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
