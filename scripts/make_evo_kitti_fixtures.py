#!/usr/bin/env python3
"""evo parity fixtures for KITTI files, whose rotations are printed 3x3 matrices (issue 31).

KITTI pose files print each rotation to 7 significant digits (`%e`, the ground truth) or 9
decimals (ORB-SLAM's output), so a printed matrix is a rotation only to those digits; evo
keeps the printed matrices and composes them (`lie.se3_inverse` is the transpose), so its
errors depend on that. This script writes a seeded, synthetic KITTI-like sequence in both
printings and evo 1.38.1's APE and RPE on it, for every alignment and relation, and the KITTI
devkit's segment errors on it (the double-precision port of scripts/make_protocol_fixtures.py):

  Tests/NavMetricsTests/Fixtures/kitti-evo/ (read by Tests/NavReportTests/KITTIEvoParityTests.swift)
    gt.kitti          reference, `%e` (as KITTI's ground truth)
    orb.kitti         an estimate drifting in yaw and scale, `%.9f` (as ORB-SLAM's output)
    sptam.kitti       an estimate with noisy, pitching rotations, `%e`
    evo_kitti_cases.json

No matrix product goes into the files (rotations from closed-form yaw/pitch/roll), so the
files do not depend on the BLAS kernel; the expected values are evo's, compared in Swift
within 1e-9 relative or 1e-12 absolute (the rounding floor of positions of hundreds of metres).
Usage: .venv/bin/python scripts/make_evo_kitti_fixtures.py (`make fixtures-evo-kitti`).
"""

import copy
import importlib.metadata as md
import json
import logging
import math
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

from evo.core import metrics  # noqa: E402
from evo.main_ape import ape as evo_ape  # noqa: E402
from evo.main_rpe import rpe as evo_rpe  # noqa: E402
from evo.tools import file_interface  # noqa: E402

SEED = 20261126
POSES = 800
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "NavMetricsTests", "Fixtures", "kitti-evo")
RELATIONS_APE = ["translation_part", "rotation_angle_deg", "rotation_angle_rad", "rotation_part",
                 "full_transformation", "point_distance"]
RELATIONS_RPE = RELATIONS_APE + ["point_distance_error_ratio"]
ALIGNS = ["none", "se3", "sim3", "origin"]


def rotation(yaw, pitch, roll):
    """Row-major R = R_y(yaw) R_x(pitch) R_z(roll) (KITTI camera: y down, z forward), closed form."""
    cy, sy = math.cos(yaw), math.sin(yaw)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cr, sr = math.cos(roll), math.sin(roll)
    return [[cy * cr + sy * sp * sr, -cy * sr + sy * sp * cr, sy * cp],
            [cp * sr, cp * cr, -sp],
            [-sy * cr + cy * sp * sr, sy * sr + cy * sp * cr, cy * cp]]


def walk(rng, yaw_drift, scale, angle_noise, position_noise):
    """A car-like path: 1 m a frame forward (z), turning in yaw, a little pitch and roll."""
    yaw = 0.0
    x = y = z = 0.0
    rows = []
    for k in range(POSES):
        turn = 0.02 if (k // 150) % 2 == 0 else -0.015
        yaw += turn * (1 + yaw_drift) + rng.normal(0, angle_noise)
        pitch = 0.01 * math.sin(k / 40) + rng.normal(0, angle_noise)
        roll = 0.005 * math.cos(k / 25) + rng.normal(0, angle_noise)
        step = scale * (1.0 + 0.1 * math.sin(k / 60))
        x += step * math.sin(yaw) + rng.normal(0, position_noise)
        z += step * math.cos(yaw) + rng.normal(0, position_noise)
        y += 0.01 * math.sin(k / 30) + rng.normal(0, position_noise)
        rows.append((rotation(yaw, pitch, roll), (x, y, z)))
    return rows


def write(path, rows, fmt):
    with open(path, "w") as f:
        for r, t in rows:
            vals = [r[0][0], r[0][1], r[0][2], t[0], r[1][0], r[1][1], r[1][2], t[1], r[2][0], r[2][1], r[2][2], t[2]]
            f.write(" ".join(fmt(v) for v in vals) + "\n")
    print("wrote", os.path.relpath(path, ROOT))


def devkit_port():
    """The double-precision KITTI devkit port of scripts/make_protocol_fixtures.py (its functions
    only: that script writes other fixtures when run)."""
    import ast
    src = open(os.path.join(ROOT, "scripts", "make_protocol_fixtures.py")).read()
    names = {"matmul", "eye", "inv", "trajectory_distances", "last_frame_from_segment_length", "rotation_error",
             "translation_error", "calc_sequence_errors"}
    body = [n for n in ast.parse(src).body
            if (isinstance(n, ast.FunctionDef) and n.name in names)
            or (isinstance(n, ast.Assign) and any(getattr(t, "id", "") in ("LENGTHS", "STEP") for t in n.targets))]
    ns = {"math": math}
    exec(compile(ast.Module(body=body, type_ignores=[]), "make_protocol_fixtures.py", "exec"), ns)
    return ns["calc_sequence_errors"]


def read_kitti_rows(path):
    """4x4 matrices (lists of rows) as the devkit reads a pose file."""
    out = []
    with open(path) as f:
        for line in f:
            v = [float(x) for x in line.split()]
            out.append([v[0:4], v[4:8], v[8:12], [0.0, 0.0, 0.0, 1.0]])
    return out


def stats(s):
    return {k: float(v) for k, v in s.items()}


def main():
    versions = {p: md.version(p) for p in ("evo", "numpy", "scipy")}
    if versions["evo"] != "1.38.1":
        print(f"warning: evo {versions['evo']} installed; fixtures are defined for 1.38.1", file=sys.stderr)
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(np.random.PCG64(SEED))
    gt = walk(rng, 0.0, 1.0, 0.0, 0.0)
    orb = walk(np.random.default_rng(np.random.PCG64(SEED + 1)), 0.03, 0.97, 0.0015, 0.01)
    sptam = walk(np.random.default_rng(np.random.PCG64(SEED + 2)), -0.02, 1.01, 0.003, 0.02)
    write(os.path.join(OUT, "gt.kitti"), gt, lambda v: f"{v:e}")
    write(os.path.join(OUT, "orb.kitti"), orb, lambda v: f"{v:.9f}")
    write(os.path.join(OUT, "sptam.kitti"), sptam, lambda v: f"{v:e}")
    ref = file_interface.read_kitti_poses_file(os.path.join(OUT, "gt.kitti"))
    out = {"generator": {"script": "scripts/make_evo_kitti_fixtures.py", "seed": SEED, "versions": versions},
           "reference": "gt.kitti", "estimates": {}}

    def aligned_args(align):
        return dict(align=align in ("se3", "sim3"), correct_scale=align == "sim3", align_origin=align == "origin")

    for name in ("orb", "sptam"):
        est = file_interface.read_kitti_poses_file(os.path.join(OUT, name + ".kitti"))
        cases = {"ape": [], "rpe": []}
        for align in ALIGNS:
            for rel in RELATIONS_APE:
                res = evo_ape(copy.deepcopy(ref), copy.deepcopy(est), metrics.PoseRelation[rel], **aligned_args(align))
                cases["ape"].append({"align": align, "relation": rel, "pairs": int(len(res.np_arrays["error_array"])),
                                     "stats": stats(res.stats)})
            for rel in RELATIONS_RPE:
                for delta, unit in ((1, metrics.Unit.frames), (10, metrics.Unit.frames), (50, metrics.Unit.meters)):
                    for all_pairs in (False, True):
                        res = evo_rpe(copy.deepcopy(ref), copy.deepcopy(est), metrics.PoseRelation[rel], delta=delta,
                                      delta_unit=unit, rel_delta_tol=0.1, all_pairs=all_pairs, **aligned_args(align))
                        cases["rpe"].append({
                            "align": align, "relation": rel, "delta": delta,
                            "delta_unit": "f" if unit == metrics.Unit.frames else "m", "all_pairs": all_pairs,
                            "pairs": int(len(res.np_arrays["error_array"])), "stats": stats(res.stats)})
        # The KITTI devkit's figures on the printed matrices (general inverses, acos of the trace).
        errors = devkit_port()(read_kitti_rows(os.path.join(OUT, "gt.kitti")), read_kitti_rows(os.path.join(OUT, name + ".kitti")))
        cases["devkit"] = {
            "segments": len(errors),
            "translation_percent": 100 * sum(e["t_err"] for e in errors) / len(errors),
            "rotation_deg_per_m": sum(e["r_err"] for e in errors) / len(errors) * 180 / math.pi,
        }
        out["estimates"][name + ".kitti"] = cases
    path = os.path.join(OUT, "evo_kitti_cases.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
