#!/usr/bin/env python3
"""Writes the fixtures of `navbench attitude` (orientation error with world and body alignment),
computed independently of navbench with scipy.spatial.transform.Rotation:

- Tests/NavMetricsTests/Fixtures/attitude/attitude_reference.json: seeded random orientations
  R_est,i and R_ref,i = W · R_est,i · B (· noise), stored as quaternions (x, y, z, w) (navbench's
  and scipy's storage order), with the true W and B and, per case, the expected estimates and
  the statistics of the error angles in degrees (rmse, mean, median, std, min, max, sse, n; none
  for noise-free cases, whose errors are rounding noise). Inputs keep every bit; estimates and
  statistics are rounded to 11 decimals (`rounded`: their last bits depend on the LAPACK kernel).
- Tests/NavReportTests/Fixtures/attitude/: trace format v1 files written with h5py (a phone's
  `imu/attitude` and a motion-capture `groundtruth` of a rigid body with other axes, 100 Hz, the
  ground-truth clock 0.25 s ahead), the expected result in attitude_session.json, and hostile
  copies (a non-unit, a NaN quaternion; orientations about one axis only).

Conventions (docs/metrics.md, "Orientation error"): active rotations body → world; the model is
R_ref ≈ W · R_est · B; the error of pair i is the angle of R_ref,iᵀ · W · R_est,i · B in degrees.
W and B minimise the chordal cost Σ‖R_ref,i − W·R_est,i·B‖²_F. The reference solves it by
alternating scipy `Rotation.align_vectors` steps (each the exact optimum of one of W, B with the
other fixed) from the true W and B until neither moves by more than 1e-15 rad; a yaw-only W
(about the up axis a) is θ = atan2(⟨[a]×, H⟩, tr H − aᵀHa) for H = Σ R_ref,i (R_est,i B)ᵀ,
derived here from Rodrigues' formula.

Run from the repository root with the project venv: .venv/bin/python scripts/make_attitude_fixtures.py [METRICS_OUT REPORT_OUT]
"""
import json
import os
import sys

import math

import correctly_rounded
import h5py
import numpy as np
from scipy.spatial.transform import Rotation as Rot

METRICS_OUT = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavMetricsTests/Fixtures/attitude"
REPORT_OUT = sys.argv[2] if len(sys.argv) > 2 else "Tests/NavReportTests/Fixtures/attitude"
rng = np.random.default_rng(20260522)
AXES = {"x": np.array([1.0, 0, 0]), "y": np.array([0, 1.0, 0]), "z": np.array([0, 0, 1.0])}


def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def yaw_step(H, up):
    a = AXES[up]
    theta = np.arctan2(np.sum(skew(a) * H), np.trace(H) - a @ H @ a)
    return Rot.from_rotvec(theta * a)


def world_step(ref, est_b, align, up):
    """The W maximising Σ tr(Wᵀ R_ref,i P_iᵀ), P_i = R_est,i·B."""
    if align == "none":
        return Rot.identity()
    if align == "yaw":
        H = np.einsum("nij,nkj->ik", ref.as_matrix(), est_b.as_matrix())
        return yaw_step(H, up)
    # Columns of R_ref,i onto columns of P_i: a = W·b.
    a = ref.as_matrix().transpose(0, 2, 1).reshape(-1, 3)
    b = est_b.as_matrix().transpose(0, 2, 1).reshape(-1, 3)
    return Rot.align_vectors(a, b)[0]


def body_step(ref, w_est):
    """The B maximising Σ tr(Bᵀ (W R_est,i)ᵀ R_ref,i): rows of W·R_est,i onto rows of R_ref,i."""
    a = w_est.as_matrix().reshape(-1, 3)
    b = ref.as_matrix().reshape(-1, 3)
    return Rot.align_vectors(a, b)[0]


def solve(ref, est, align, body, up, start_w, start_b):
    """Chordal least-squares W (and B when body == "estimate"), alternating exact steps."""
    if body != "estimate":
        b = start_b if body == "given" else Rot.identity()
        return world_step(ref, est * b, align, up), b, 0
    w, b = start_w, start_b
    for it in range(1, 100001):
        nb = body_step(ref, w * est)
        nw = world_step(ref, est * nb, align, up)
        change = max((nw * w.inv()).magnitude(), (nb * b.inv()).magnitude())
        w, b = nw, nb
        if change <= 1e-15:
            return w, b, it
    raise SystemExit("reference did not converge")


def rounded(x):
    """An expected value to 11 decimals: the optimum's last bits depend on the LAPACK kernel
    OpenBLAS picks for the CPU (align_vectors' SVD), the rounded value does not."""
    return float(round(float(x), 11)) + 0.0


def statistics(e):
    e = np.asarray(e)
    s = {
        "rmse": np.sqrt(np.mean(e**2)), "mean": np.mean(e), "median": np.median(e),
        "std": np.std(e), "min": np.min(e), "max": np.max(e), "sse": np.sum(e**2),
    }
    return {**{k: rounded(v) for k, v in s.items()}, "n": int(e.size)}


def quats(r):
    """Inputs, as generated (no LAPACK): every bit."""
    return [[float(v) for v in q] for q in np.atleast_2d(r.as_quat())]


def expected_quat(r):
    """An estimate (through LAPACK): rounded, w ≥ 0."""
    q = r.as_quat()
    return [rounded(v) for v in (q if q[3] >= 0 else -q)]


def case(name, references, reference, est, align, body, up, true_w, true_b, note):
    ref = references[reference]
    w, b, _ = solve(ref, est, align, body, up, true_w, true_b)
    errors = np.degrees((ref.inv() * w * est * b).magnitude())
    exact = np.max(errors) < 1e-9  # rounding noise: its statistics are not stable bits
    return {
        "name": name, "note": note, "reference": reference, "align": align, "body": body, "up_axis": up,
        "true_world": quats(true_w)[0], "true_body": quats(true_b)[0],
        "expected_world": expected_quat(w), "expected_body": expected_quat(b),
        "statistics": None if exact else statistics(errors),
    }


def noise(n, sigma_deg):
    return Rot.from_rotvec(np.radians(sigma_deg) * rng.standard_normal((n, 3)))


def metrics_cases():
    n = 120
    est = Rot.random(n, rng=rng)
    body = Rot.random(rng=rng)
    world_yaw = Rot.from_rotvec(np.radians(37.5) * AXES["y"])
    world_full = Rot.random(rng=rng)
    exact_yaw = world_yaw * est * body
    noisy_yaw = world_yaw * est * body * noise(n, 1.0)
    noisy_full = world_full * est * body * noise(n, 2.0)
    noisy_no_body = world_full * est * noise(n, 1.5)
    tilt = Rot.from_rotvec(np.radians(-23.0) * AXES["y"]) * Rot.from_rotvec(np.radians(7.5) * np.array([0.6, 0, 0.8]))
    tilted = tilt * est
    one_axis = Rot.from_rotvec(np.outer(rng.uniform(-np.pi, np.pi, n), AXES["y"]))
    ident = Rot.identity()
    refs = {"exact_yaw": exact_yaw, "noisy_yaw": noisy_yaw, "noisy_full": noisy_full, "noisy_no_body": noisy_no_body, "tilted": tilted}
    cases = [
        case("exact_yaw_body", refs, "exact_yaw", est, "yaw", "estimate", "y", world_yaw, body, "noise-free: W a yaw about +y, B random"),
        case("exact_full_body", refs, "exact_yaw", est, "full", "estimate", "y", world_yaw, body, "noise-free, W estimated as a full rotation"),
        case("noisy_yaw_body", refs, "noisy_yaw", est, "yaw", "estimate", "y", world_yaw, body, "1 deg noise per axis"),
        case("noisy_full_body", refs, "noisy_full", est, "full", "estimate", "y", world_full, body, "W random, 2 deg noise per axis"),
        case("noisy_full", refs, "noisy_no_body", est, "full", "none", "y", world_full, ident, "no body rotation, 1.5 deg noise"),
        case("noisy_yaw_given_body", refs, "noisy_yaw", est, "yaw", "given", "y", world_yaw, body, "B given (the true one)"),
        case("noisy_none", refs, "noisy_yaw", est, "none", "none", "y", world_yaw, ident, "no alignment"),
        case(
            "tilt_yaw", refs, "tilted", est, "yaw", "none", "y", tilt, ident,
            "W = R_y(-23 deg)·R_h(7.5 deg), h horizontal: yaw alignment finds -23 deg and leaves 7.5 deg in every error"),
        case("tilt_full", refs, "tilted", est, "full", "none", "y", tilt, ident, "the same data, full alignment: no error"),
    ]
    return {
        "generator": "scripts/make_attitude_fixtures.py",
        "conventions": "quaternions (x, y, z, w); R_ref ~ W R_est B; error = angle(R_ref^T W R_est B) in degrees",
        "scipy_reference": "alternating Rotation.align_vectors steps from the true W, B to 1e-15 rad; yaw step by Rodrigues",
        "estimate": quats(est),
        "references": {k: quats(v) for k, v in refs.items()},
        "cases": cases,
        "one_axis": {
            "note": "every R_est about +y: B is not observable with a full or yaw W",
            "reference": quats(world_full * one_axis * body), "estimate": quats(one_axis),
        },
    }


def put(f, name, data, units):
    f.create_dataset(name, data=data, track_times=False).attrs["units"] = units


def write_trace(path, t_imu, attitude, t_gt, gt_orientation):
    with h5py.File(path, "w", track_order=False) as f:
        f.attrs["format"] = "navbench-trace"
        f.attrs["format_version"] = 1
        f.attrs["session_kind"] = "recording"
        f.attrs["session_id"] = "attitude-fixture"
        f.attrs["device"] = "scripts/make_attitude_fixtures.py"
        n = len(t_imu)
        put(f, "imu/timestamps", t_imu, "s")
        put(f, "imu/accelerometer", np.tile([0.0, 9.81, 0.0], (n, 1)), "m/s^2")
        put(f, "imu/gyroscope", np.zeros((n, 3)), "rad/s")
        put(f, "imu/attitude", attitude, "1")
        m = len(t_gt)
        put(f, "groundtruth/timestamps", t_gt, "s")
        put(f, "groundtruth/position", np.column_stack([0.01 * np.arange(m), np.full(m, 1.2), np.zeros(m)]), "m")
        put(f, "groundtruth/orientation", gt_orientation, "1")


# The traces' rotations are built from quaternions whose sin and cos are correctly rounded
# (scripts/correctly_rounded.py) and composed in scipy (arithmetic only), so the .h5 files are the
# same bytes whatever the CPU's libm and numpy's SIMD sin (they differed in 3–5 rows without glibc's FMA paths).
def about(axis, angles):
    """Rotations by `angles` (radians) about the unit `axis`, from correctly rounded half-angle sin and cos."""
    return Rot.from_quat([[axis[0] * correctly_rounded.sin(a / 2), axis[1] * correctly_rounded.sin(a / 2),
                           axis[2] * correctly_rounded.sin(a / 2), correctly_rounded.cos(a / 2)] for a in angles])


def rotvec(v):
    """`Rot.from_rotvec` for one rotation vector, with correctly rounded sin and cos."""
    angle = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return about([x / angle for x in v], [angle])[0] if angle > 0 else Rot.identity()


def phone_motion(t, tilt=True):
    """A phone carried through two turns, pitching and rolling in the hand (+y up world): intrinsic
    yaw about +y, then pitch about x, then roll about z (`Rot.from_euler("YXZ", …)`)."""
    sin = correctly_rounded.sin
    yaw = [0.9 * sin(0.35 * x) + 0.4 * x for x in t]
    pitch = [math.radians(20) * sin(1.3 * x) if tilt else 0.0 for x in t]
    roll = [math.radians(15) * sin(0.8 * x + 0.5) if tilt else 0.0 for x in t]
    return about([0, 1, 0], yaw) * about([1, 0, 0], pitch) * about([0, 0, 1], roll)


def report_fixtures():
    os.makedirs(REPORT_OUT, exist_ok=True)
    t_imu = 0.01 * np.arange(600)
    offset = 0.25
    # Motion capture 1 s later, 2 ms off the IMU's instants, its clock 0.25 s ahead.
    t_gt = 1.0 + offset + 0.002 + 0.01 * np.arange(400)
    phone = phone_motion(t_imu)
    world = about([0, 1, 0], [math.radians(-61.0)])[0]  # CoreMotion's arbitrary yaw
    # Marker axes: intrinsic 90° about x, then 180° about z (`from_euler("XYZ", [90, 0, 180])`), then a small tilt.
    body = about([1, 0, 0], [math.pi / 2])[0] * about([0, 0, 1], [math.pi])[0] * rotvec([0.02, -0.01, 0.03])
    # Pairs as evo associates them: each ground-truth stamp (the shorter stream) to the nearest
    # IMU stamp after the offset, within 0.01 s.
    pairs = []
    for j, t in enumerate(t_gt):
        k = int(np.argmin(np.abs(t_imu + offset - t)))
        if abs(t_imu[k] + offset - t) <= 0.01:
            pairs.append((j, k))
    gt_idx = np.array([p[0] for p in pairs])
    imu_idx = np.array([p[1] for p in pairs])
    # The same draws as `noise`, each turned into a rotation with correctly rounded sin and cos.
    truth_at_gt = world * phone_motion(t_gt - offset) * body * Rot.concatenate(
        [rotvec(list(v)) for v in np.radians(0.5) * rng.standard_normal((len(t_gt), 3))])
    ref = truth_at_gt[gt_idx]
    est = phone[imu_idx]
    w, b, _ = solve(ref, est, "yaw", "estimate", "y", world, body)
    errors = np.degrees((ref.inv() * w * est * b).magnitude())
    attitude = phone.as_quat()
    write_trace(os.path.join(REPORT_OUT, "attitude_session.h5"), t_imu, attitude, t_gt, truth_at_gt.as_quat())
    # Hostile copies: row 7 of the attitude 10 % too long; row 5 NaN; orientations about +y only.
    bad = attitude.copy()
    bad[7] *= 1.1
    write_trace(os.path.join(REPORT_OUT, "attitude_nonunit.h5"), t_imu, bad, t_gt, truth_at_gt.as_quat())
    bad = attitude.copy()
    bad[5, 2] = np.nan
    write_trace(os.path.join(REPORT_OUT, "attitude_nan.h5"), t_imu, bad, t_gt, truth_at_gt.as_quat())
    flat_phone = phone_motion(t_imu, tilt=False)
    flat_truth = world * phone_motion(t_gt - offset, tilt=False) * body
    write_trace(os.path.join(REPORT_OUT, "attitude_one_axis.h5"), t_imu, flat_phone.as_quat(), t_gt, flat_truth.as_quat())
    expected = {
        "generator": "scripts/make_attitude_fixtures.py",
        "command": "navbench attitude attitude_session.h5 attitude_session.h5 --align yaw --body-rotation estimate --t-offset 0.25",
        "t_offset": offset, "pairs": len(pairs), "first_pair": [int(gt_idx[0]), int(imu_idx[0])],
        "true_world": quats(world)[0], "true_body": quats(body)[0],
        "expected_world": expected_quat(w), "expected_body": expected_quat(b),
        "statistics": statistics(errors),
    }
    with open(os.path.join(REPORT_OUT, "attitude_session.json"), "w") as f:
        write_json(f, expected)


def write_json(f, obj):
    """One top-level key a line (the quaternion arrays stay on theirs), floats as repr."""
    f.write("{\n")
    items = list(obj.items())
    for i, (k, v) in enumerate(items):
        if k == "cases":
            body = ",\n  ".join(json.dumps(c) for c in v)
            f.write(f' "cases": [\n  {body}\n ]')
        else:
            f.write(f" {json.dumps(k)}: {json.dumps(v)}")
        f.write(",\n" if i < len(items) - 1 else "\n")
    f.write("}\n")


def main():
    os.makedirs(METRICS_OUT, exist_ok=True)
    with open(os.path.join(METRICS_OUT, "attitude_reference.json"), "w") as f:
        write_json(f, metrics_cases())
    report_fixtures()
    print(f"wrote {METRICS_OUT}/attitude_reference.json and {REPORT_OUT}/attitude_*.h5, attitude_session.json")


if __name__ == "__main__":
    main()
