#!/usr/bin/env python3
"""Fixtures for navbench's PDR checks (step-count scoring, turn matching, peak picking and the
common Python step pipeline), computed by scripts/pdr_reference.py.

Usage (from the repository root, with the project venv):
    .venv/bin/python scripts/make_pdr_fixtures.py \
        Tests/NavMetricsTests/Fixtures/pdr Tests/NavSignalTests/Fixtures/pdr

Writes METRICS_DIR/{step_scoring.json, turn_scoring.json, README.md} and
SIGNAL_DIR/{find_peaks.json, pipeline.json, README.md}.

Deterministic: a seeded numpy Generator drawing integers only; synthetic times are integer
centiseconds (steps) or sixteenths of a second (turns, exact in binary), synthetic signals are
integer micro-units (sines evaluated with decimal.Decimal, not libm). Only pipeline.json's
"filtered"/"sos" come from floating-point library code (scipy butter + sosfiltfilt).
Real inputs: ../shared/real-data/weallwalk (override with NAVBENCH_REAL_DATA), CC BY 4.0,
Flores & Manduchi, ACM TACCESS 11(1) 2018, doi:10.7291/D17P46.
"""
import json
import math
import os
import sys

# pipeline.json's "filtered" goes through LAPACK (np.linalg.solve in scipy's lfilter_zi, called by
# sosfilt_zi): OpenBLAS's SkylakeX/Cooperlake/SapphireRapids kernels change it by up to 1.3e-14
# (abs) against Haswell/Prescott. So that every x86-64 machine writes the committed bytes (an
# AVX-512 one picks SkylakeX by itself), the generator runs OpenBLAS's Prescott kernel, which any
# x86-64 CPU runs, whatever OPENBLAS_CORETYPE says outside: it must be set before numpy loads.
# The Swift test still compares within 1e-12 m/s² (docs/reproducibility.md).
import platform  # noqa: E402

if platform.machine().lower() in ("x86_64", "amd64"):
    os.environ["OPENBLAS_CORETYPE"] = "Prescott"

from decimal import Decimal, ROUND_HALF_EVEN, localcontext
from fractions import Fraction

import numpy as np
import pandas as pd
import scipy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pdr_reference as ref  # noqa: E402

REAL = os.environ.get("NAVBENCH_REAL_DATA",
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                   "shared", "real-data"))
WAW = os.path.join(REAL, "weallwalk")
SEED = 20260418
GENERATOR = "scripts/make_pdr_fixtures.py"
MAX_BYTES = 1_500_000


# --------------------------------------------------------------------------- JSON writer

class Raw(str):
    """A JSON number token written verbatim (the data file's own text)."""


def enc(v):
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if not math.isfinite(f):
            raise ValueError("non-finite value")
        return repr(f)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + enc(x) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(enc(x) for x in v) + "]"
    raise TypeError(type(v))


def write_cases(path, cases):
    text = ('{"generator":' + json.dumps(GENERATOR) + ',\n"cases":[\n'
            + ",\n".join(enc(c) for c in cases) + "\n]}\n")
    write_text(path, text)


def write_text(path, text):
    data = text.encode("utf-8")
    if path.endswith(".json"):
        json.loads(text)  # well-formed
        if len(data) > MAX_BYTES:
            raise SystemExit(f"{path}: {len(data)} bytes > {MAX_BYTES}")
    with open(path, "wb") as f:
        f.write(data)
    print(f"wrote {path} ({len(data)} bytes)")


# --------------------------------------------------------------------------- step scoring

def hand_step_case():
    # Hand computation (features [4.5,5.5] of S1, [11.5,12.2] of the turn T1, [12.8,18.2] of S2):
    #  S1 [0,10] straight, pieces [0,4.5] and [5.5,10] (feature cuts it in two; strike 5 removed).
    #    [0,4.5]: strikes 1 2 3 4; dets 0.5 (before t1: metric 3 only), 1.0 (exactly at a strike),
    #      2.1 2.4 2.8 (3 in [2,3): over1 += 2), none in [3,4) (under1 += 1), 4.5 (exactly at the
    #      piece end, in [4,4.5]).  Detection 5.0 lies in the feature: ignored.
    #    [5.5,10]: strikes 6 7 8 9; dets 5.7 (before t1), 6.2, none in [7,8) (under1 += 1), 8.3,
    #      10.0 (piece end, in [9,10]).
    #    metric 1: under 2, over 2.  metric 3: T = 8, D = 6 + 4 = 10 -> over3 += 2.
    #  T1 [10,12] turn -90: strikes 10.5 11.5, dets 10.6 11.4: ignored.
    #  S2 [12,20] straight; the turn's feature clips it to start at 12.2; pieces [12.2,12.8] and
    #    [18.2,20]; strikes 12.05 (in feature), 13..18 (in feature) dropped; 18.5 19.5 remain.
    #    [12.2,12.8]: no strike, dets 12.3 12.6 -> nothing for metric 1, D += 2.  12.1 and 15.0 are
    #      in features.  [18.2,20]: det 18.6 in [18.5,19.5); none in [19.5,20] (under1 += 1).
    #    metric 1: under 1.  metric 3: T = 2, D = 3 -> over3 += 1.
    #  T2 [20,22] turn +90: det 21.0 ignored.
    #  S3 [22,26] straight, strikes 22.5 23.5 24.5 25.5, dets 22.6 24.7:
    #    metric 1: [23.5,24.5) and [25.5,26] empty -> under1 += 2.  metric 3: T 4, D 2 -> under3 += 2.
    #  Totals: true 14, under1 5, over1 2, under3 2, over3 3; rates 5/14, 2/14, 2/14, 3/14.
    walk = {
        "segments": [
            {"id": "1", "start": 0.0, "end": 10.0, "straight": True, "nominal_deg": None,
             "steps": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]},
            {"id": "1-2", "start": 10.0, "end": 12.0, "straight": False, "nominal_deg": -90.0,
             "steps": [10.5, 11.5]},
            {"id": "2", "start": 12.0, "end": 20.0, "straight": True, "nominal_deg": None,
             "steps": [12.05, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 18.5, 19.5]},
            {"id": "2-3", "start": 20.0, "end": 22.0, "straight": False, "nominal_deg": 90.0,
             "steps": [20.5, 21.5]},
            {"id": "3", "start": 22.0, "end": 26.0, "straight": True, "nominal_deg": None,
             "steps": [22.5, 23.5, 24.5, 25.5]},
        ],
        "features": [
            {"start": 4.5, "end": 5.5, "description": "touches wall"},
            {"start": 11.5, "end": 12.2, "description": "stops"},
            {"start": 12.8, "end": 18.2, "description": "opens door"},
        ],
    }
    dets = [0.5, 1.0, 2.1, 2.4, 2.8, 4.5, 5.0, 5.7, 6.2, 8.3, 10.0, 10.6, 11.4, 12.1, 12.3,
            12.6, 15.0, 18.6, 21.0, 22.6, 24.7]
    return walk, dets


HAND_STEP_EXPECTED = {
    "true_steps": 14, "under1": 5, "over1": 2, "under3": 2, "over3": 3,
    "under1_rate": 5 / 14, "over1_rate": 2 / 14, "under3_rate": 2 / 14, "over3_rate": 3 / 14,
}


def cs(k):
    return int(k) / 100  # centiseconds -> s, correctly rounded


def random_step_case(rng, i):
    n_straight = int(rng.integers(1, 5))
    kinds = []
    if rng.random() < 0.3:
        kinds.append("turn")
    for k in range(n_straight):
        if k:
            kinds.append("turn")
        kinds.append("straight")
    if rng.random() < 0.3:
        kinds.append("turn")
    t = int(rng.integers(0, 301))
    segs, strikes_cs, bounds = [], [], []
    for j, kind in enumerate(kinds):
        dur = int(rng.integers(300, 1501)) if kind == "straight" else int(rng.integers(150, 501))
        s, e = t, t + dur
        steps = []
        u = s + int(rng.integers(10, 81))
        while u <= e:
            steps.append(u)
            u += int(rng.integers(40, 76))
        strikes_cs += steps
        bounds += [s, e]
        nominal = None
        if kind == "turn":
            nominal = float(rng.choice([-180, -90, -45, 45, 90, 180]))
        segs.append({"id": str(j + 1) if kind == "straight" else f"{j}-{j + 2}",
                     "start": cs(s), "end": cs(e), "straight": kind == "straight",
                     "nominal_deg": nominal, "steps": [cs(v) for v in steps]})
        t = e
    t0, t1 = bounds[0], bounds[-1]
    feats = []
    for _ in range(int(rng.integers(0, 4))):
        j = int(rng.integers(0, len(segs)))
        s, e = round(segs[j]["start"] * 100), round(segs[j]["end"] * 100)
        fs = int(rng.integers(s, e))
        fe = fs + int(rng.integers(30, 401))  # may run past its segment: clipped when scored
        feats.append({"start": cs(fs), "end": cs(fe), "description": f"event {len(feats) + 1}"})
        bounds += [fs, fe]
    dets = []
    for u in strikes_cs:
        r = rng.random()
        if r < 0.12:
            continue  # deletion
        dets.append(u + int(rng.integers(-5, 21)))
        if r > 0.94:
            dets.append(u + int(rng.integers(5, 40)))  # double detection
    for _ in range(int(rng.integers(0, 6))):
        dets.append(int(rng.integers(t0 - 50, t1 + 51)))  # insertions
    for _ in range(int(rng.integers(0, 3))):
        dets.append(int(rng.choice(bounds)))  # exactly on a segment or feature boundary
    if strikes_cs and rng.random() < 0.5:
        dets.append(int(rng.choice(strikes_cs)))  # exactly on a heel strike
    dets = [cs(v) for v in sorted(dets)]
    walk = {"segments": segs, "features": feats}
    return {"name": f"random_{i:02d}", "walk": walk, "detections": dets,
            "expected": ref.score_steps(walk, dets)}


def real_step_case(xml_name):
    walk = ref.parse_walk_xml(os.path.join(WAW, "xml", xml_name))
    strikes = sorted(t for s in walk["segments"] for t in s["steps"])
    dets = []
    for i, t in enumerate(strikes, start=1):
        if i % 7 == 0:
            continue
        dets.append(t + 0.14)
        if i % 11 == 0:
            dets.append(t + 0.14)
    return {"name": "weallwalk_" + xml_name[:-4], "walk": walk, "detections": dets,
            "expected": ref.score_steps(walk, dets)}


# --------------------------------------------------------------------------- turn scoring

HAND_TURNS = {
    # tolerance 1 s. A0 (10,14) centre 12: D0 centre 12 beats D1 centre 14 -> error -85-(-90) = 5.
    # A1 (30,33) centre 31.5, window [29,34]: D2 centre 30 and D3 centre 33 both 1.5 away; the
    # earlier (D2) wins, sign error (-80 vs 90), error -170; D3 stays unmatched.
    # A2 (50,52): window [49,53], D4 centre 54 outside -> A2 missed, D4 false.
    # A3 (70,72): window [69,73], D5 centre exactly 73 -> matched, error -5.
    # A4 (90,94) window [89,95] and A5 (95,97) window [94,98]: D6 centre 94.7 is nearer A5 but A4
    # starts first and takes it (error 60-90 = -30); A5 missed.
    # annotated 6, detected 7, matched 4, missed 2, false 3 (D1 D3 D4), precision 4/7, recall 4/6,
    # sign errors 1.
    "annotated": [[10.0, 14.0, -90.0], [30.0, 33.0, 90.0], [50.0, 52.0, 180.0],
                  [70.0, 72.0, -45.0], [90.0, 94.0, 90.0], [95.0, 97.0, 90.0]],
    "detected": [[10.5, 13.5, -85.0], [12.5, 15.5, -20.0], [29.5, 30.5, -80.0],
                 [32.0, 34.0, 75.0], [53.5, 54.5, 170.0], [72.5, 73.5, -50.0],
                 [94.5, 94.9, 60.0]],
    "tolerance": 1.0,
}
HAND_TURNS_EXPECTED = {
    "annotated": 6, "detected": 7, "matched": 4, "missed": 2, "false": 3,
    "precision": 4 / 7, "recall": 4 / 6, "sign_errors": 1,
    "pairs": [[0, 0, 5.0], [1, 2, -170.0], [3, 5, -5.0], [4, 6, -30.0]],
}


def sx(k):
    return int(k) / 16  # sixteenths of a second: exact in binary


def _score_turns_centre_tiebreak(annotated, detected, tol):
    """Variant breaking distance ties by the smaller centre: used to reject random cases where
    the tie rule would matter in a way the definition leaves open."""
    cen = [(d[0] + d[1]) / 2 for d in detected]
    used, out = [False] * len(detected), []
    for ai in sorted(range(len(annotated)), key=lambda i: (annotated[i][0], i)):
        s, e, _ = annotated[ai]
        c0 = (s + e) / 2
        cands = [(abs(c - c0), c, di) for di, c in enumerate(cen)
                 if not used[di] and s - tol <= c <= e + tol]
        if cands:
            di = min(cands)[2]
            used[di] = True
            out.append((ai, di))
    return sorted(out)


def random_turn_case(rng, i):
    while True:
        n = int(rng.integers(1, 9))
        tol = [0.5, 1.0, 2.0, 3.0][int(rng.integers(0, 4))]
        t = int(rng.integers(0, 160))
        ann, det = [], []
        for _ in range(n):
            t += int(rng.integers(80, 480))
            s, e = t, t + int(rng.integers(16, 97))
            t = e
            nominal = int(rng.choice([-180, -90, -45, 45, 90, 180]))
            ann.append([sx(s), sx(e), float(nominal)])
            r = rng.random()
            if r < 0.15:
                continue  # missed
            ds, de = s + int(rng.integers(-24, 25)), e + int(rng.integers(-24, 25))
            if de <= ds:
                de = ds + 4
            ang2 = nominal * 2 * int(rng.integers(70, 111)) // 100  # half degrees
            if rng.random() < 0.12:
                ang2 = -ang2  # sign error
            det.append([sx(ds), sx(de), ang2 / 2])
            if rng.random() < 0.18:  # a second detection near the same turn
                c = (s + e) // 2 + int(rng.integers(-40, 41))
                h = int(rng.integers(4, 17))
                det.append([sx(c - h), sx(c + h), float(int(rng.integers(-60, 61)) or 10)])
        for _ in range(int(rng.integers(0, 4))):  # false detections anywhere
            c = int(rng.integers(0, t + 160))
            h = int(rng.integers(8, 33))
            det.append([sx(c - h), sx(c + h), float(int(rng.choice([-1, 1])) * int(rng.integers(20, 200)))])
        det.sort(key=lambda d: (d[0], d[1]))
        exp = ref.score_turns(ann, det, tol)
        if sorted((p[0], p[1]) for p in exp["pairs"]) == _score_turns_centre_tiebreak(ann, det, tol):
            return {"name": f"random_{i:02d}", "annotated": ann, "detected": det,
                    "tolerance": tol, "expected": exp}


# --------------------------------------------------------------------------- find_peaks

_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459")


def dsin(x):
    """sin of a Decimal in [0, 2*pi), to ~40 digits (no libm)."""
    with localcontext() as ctx:
        ctx.prec = 45
        if x > _PI:
            return -dsin(x - _PI)
        term, total, k = x, x, 1
        x2 = x * x
        while abs(term) > Decimal("1e-42"):
            term = -term * x2 / ((2 * k) * (2 * k + 1))
            total += term
            k += 1
        return total


def micro(d):
    return int((d * 1_000_000).to_integral_value(rounding=ROUND_HALF_EVEN))


def sines_micro(rng, n):
    comps = []
    for _ in range(int(rng.integers(1, 4))):
        comps.append((int(rng.integers(200, 2001)),      # amplitude, thousandths
                      int(rng.integers(1, 41)), 1000,    # cycles per sample p/q
                      int(rng.integers(0, 6284))))       # phase, thousandths of a rad
    offset = int(rng.integers(-500000, 500001))
    noise = rng.integers(-150000, 150001, size=n)
    out = []
    with localcontext() as ctx:
        ctx.prec = 45
        for k in range(n):
            v = Decimal(0)
            for amp, p, q, ph in comps:
                ang = 2 * _PI * Decimal((p * k) % q) / q + Decimal(ph) / 1000
                while ang >= 2 * _PI:
                    ang -= 2 * _PI
                v += Decimal(amp) / 1000 * dsin(ang)
            out.append(micro(v) + offset + int(noise[k]))
    return out


def walk_micro(rng, n):
    return [int(v) for v in np.cumsum(rng.integers(-100000, 100001, size=n))]


def all_maxima(xm):
    return ref.find_peaks_reference([v / 1_000_000 for v in xm])


def distinct_maxima(xm):
    vals = [xm[i] for i in all_maxima(xm)]
    return len(vals) == len(set(vals))


def plateau_micro(rng, n):
    tail = 2 if n >= 20 else 0
    m = n - 7 - tail
    base = walk_micro(rng, m)
    q = m // 2
    if tail:  # a rising flat stretch base[q] == base[q+1] < base[q+2]: never a peak
        base[q + 1] = base[q]
        base[q + 2] = base[q] + 70000
    peaks = [p for p in all_maxima(base) if not (q - 1 <= p <= q + 3)]
    chosen = []
    for p in rng.permutation(peaks).tolist():  # up to 3 maxima at least 30 samples apart
        if len(chosen) < 3 and all(abs(p - c) >= 30 for c in chosen):
            chosen.append(p)
    chosen.sort()
    top = max(base)
    for k, p in enumerate(chosen):  # raise them above everything: they survive height/distance
        base[p] = top + 50000 * (k + 1) + int(rng.integers(0, 50000))
    x = list(base)
    for width, p in sorted(zip([2, 3, 4], chosen), key=lambda wp: -wp[1]):  # right to left
        x[p + 1:p + 1] = [x[p]] * (width - 1)  # flat top of `width` equal samples
    need = n - tail - len(x)
    x += [x[-1] + int(v) for v in np.cumsum(rng.integers(-100000, 100001, size=need))]
    if tail:  # a flat top at the end: never a peak
        top = max(x) + 123457
        x += [top, top]
    assert len(x) == n
    return x


def ends_micro(rng, n):
    x = walk_micro(rng, n)
    top = max(x)
    x[0] = top + int(rng.integers(1, 500000))
    x[-1] = top + int(rng.integers(1, 500000))
    return x


HAND_PEAKS_X = [0, 1, 0, 2, 2, 0, 3, 3, 3, 1, 4, 4, 4, 4, 0, 5]
HAND_ENDS_X = [5, 1, 2, 1, 2, 2, 3, 1, 4, 4]
# HAND_PEAKS_X: 1 at 1; flat tops [3,4] -> 3, [6,8] -> 7, [10,13] -> 11 (left-biased midpoint);
#   the last sample (5) is an end: [1,3,7,11].  distance 3: keep 11, 7, 3 by height; 1 is 2 from
#   3 -> [3,7,11].  height 2.5: [7,11].
# HAND_ENDS_X: first sample 5 is an end; 2 at 2 is a peak; [4,5] rises to 3 (no peak); 3 at 6 is a
#   peak; [8,9] is a flat top at the end (no peak): [2,6].
HAND_PEAKS = [
    ("hand_plateaus", HAND_PEAKS_X, None, 1, [1, 3, 7, 11]),
    ("hand_plateaus_distance3", HAND_PEAKS_X, None, 3, [3, 7, 11]),
    ("hand_plateaus_height", HAND_PEAKS_X, 2.5, 1, [7, 11]),
    ("hand_ends", HAND_ENDS_X, None, 1, [2, 6]),
]


def find_peaks_cases(rng):
    cases = []
    for name, x, h, d, expected in HAND_PEAKS:
        xf = [float(v) for v in x]
        got = ref.find_peaks_reference(xf, h, d)
        assert got == expected, (name, got, expected)
        cases.append({"name": name, "x": xf, "height": h, "distance": d, "expected": got})
    lengths = [5, 7, 12, 20, 40, 64, 100, 150, 200, 300, 400, 500, 640, 750, 800, 900, 1000,
               1100, 1250, 1400, 1500, 1600, 1750, 1800, 1900, 2000]
    kinds = ["walk", "sines", "plateau", "ends"]
    dists = [1, 2, 7, 25]
    for i, n in enumerate(lengths):
        kind, dist = kinds[i % 4], dists[(i // 4 + i) % 4]
        make = {"walk": walk_micro, "sines": sines_micro, "plateau": plateau_micro,
                "ends": ends_micro}[kind]
        while True:
            xm = make(rng, n)
            if distinct_maxima(xm):
                break
        height = None
        if i % 3 != 0:
            vals = sorted(xm[p] for p in all_maxima(xm))
            if not vals:
                height = 0.0
            elif i % 3 == 1:
                height = vals[len(vals) // 2] / 1_000_000          # equal to a peak: >= keeps it
            else:
                j = len(vals) // 3
                hi = vals[j + 1] if j + 1 < len(vals) else vals[j] + 2
                height = ((vals[j] + hi) // 2) / 1_000_000
        x = [v / 1_000_000 for v in xm]
        cases.append({"name": f"{kind}_{i:02d}_n{n}", "x": x, "height": height,
                      "distance": dist, "expected": ref.find_peaks_reference(x, height, dist)})
    return cases


# --------------------------------------------------------------------------- pipeline

PIPE_CSV = "iPhoneSensors_T1_ID1_1L_WC.csv"
PIPE_ROWS = 1500


def pipeline_case():
    path = os.path.join(WAW, "sensor", PIPE_CSV)
    with open(path) as f:
        rows = [next(f).rstrip("\r\n").split(",") for _ in range(PIPE_ROWS)]
    df = ref.read_sensor_csv(path, nrows=PIPE_ROWS)
    cols = list(ref.ACC_COLUMNS)
    acc = df.iloc[:, cols].to_numpy(dtype=float)
    t = df.iloc[:, 0].to_numpy(dtype=float)
    # The raw text must parse to the very doubles pandas read.
    for r, row in enumerate(rows):
        assert float(row[0]) == t[r], (r, row[0])
        for c, col in enumerate(cols):
            assert float(row[col]) == acc[r, c], (r, col, row[col])
    order, low, high, height, dist_s = 4, 0.5, 3.0, 0.5, 0.3
    peaks, filtered, sos = ref.pipeline_arrays(acc, order, low, high, height, dist_s)
    ntaps = 2 * len(sos) + 1 - min(int((sos[:, 2] == 0).sum()), int((sos[:, 5] == 0).sum()))
    return {
        "source": f"weallwalk/sensor/{PIPE_CSV}, rows 1-{PIPE_ROWS}",
        "t": [Raw(row[0]) for row in rows],
        "acc_g": [[Raw(row[c]) for c in cols] for row in rows],
        "order": order, "low_hz": low, "high_hz": high, "height": height, "distance_s": dist_s,
        "fs_hz": ref.FS_HZ, "g": ref.G, "distance_samples": ref.distance_samples(dist_s),
        "padtype": "odd", "padlen": 3 * ntaps,
        "sos": [[float(v) for v in row] for row in sos],
        "expected_indices": [int(p) for p in peaks],
        "expected_times": [float(t[p]) for p in peaks],
        "filtered": [float(v) for v in filtered],
    }


def write_pipeline(path, case):
    keys = list(case)
    text = "{\n" + ",\n".join(json.dumps(k) + ":" + enc(case[k]) for k in keys) + "\n}\n"
    write_text(path, text)


# --------------------------------------------------------------------------- README

README = """# PDR fixtures ({what})

Generated by `scripts/make_pdr_fixtures.py` (reference code: `scripts/pdr_reference.py`) with
numpy {np}, scipy {sp}, pandas {pd}. Regenerate from the repository root:

    .venv/bin/python scripts/make_pdr_fixtures.py \\
        Tests/NavMetricsTests/Fixtures/pdr Tests/NavSignalTests/Fixtures/pdr

{files}

Synthetic cases come from a seeded numpy Generator (seed {seed}) drawing integers only: step
times are whole centiseconds, turn times whole sixteenths of a second, signals whole
micro-units (sinusoids evaluated with Python's decimal module), so every value is exact and
independent of the CPU. Expected values are what the reference code returns for them.

## Data attribution

Real inputs are from WeAllWalk (training subset in ../shared/real-data/weallwalk):
Flores, G. H., & Manduchi, R. (2018). WeAllWalk: An Annotated Dataset of Inertial Sensor Time
Series from Blind Walkers. ACM Transactions on Accessible Computing 11(1), article 4.
doi:10.1145/3161711. Data: doi:10.7291/D17P46. Licence: Creative Commons Attribution 4.0
International (CC BY 4.0). The fixtures hold excerpts of these files (annotations, or sensor
rows copied as text); see above for what was taken.
"""

METRICS_FILES = """- `step_scoring.json`: WeAllWalk step-count metrics 1 and 3 (`score_steps`). A hand case (worked
  out in the generator's comments), 40 random walks, and 3 real walks (xml/T1_ID1_WC.xml,
  T3_ID4_GD.xml, T2_ID11_NA.xml, parsed whole) whose detections are the annotated heel strikes
  of the whole walk, sorted, shifted by +0.14 s, with every 7th (1-based) dropped and every
  11th doubled.
- `turn_scoring.json`: greedy turn matching (`score_turns`): a hand case and 30 random cases."""

SIGNAL_FILES = """- `find_peaks.json`: `scipy.signal.find_peaks(x, height, distance)` on 4 hand cases and 26
  random walks, sums of sinusoids with noise, flat-topped peaks (2, 3, 4 samples) and high end
  samples; no two distinct local maxima share a value (so the distance rule has no ties).
- `pipeline.json`: the first 1,500 rows of sensor/iPhoneSensors_T1_ID1_1L_WC.csv (time and
  raw accelerometer columns 30-32 in g, copied as the file's text), and the steps of
  `peak_pipeline`: |a| * 9.80665, minus its mean, butter(4, [0.5, 3] Hz, bandpass, fs 25,
  sos), sosfiltfilt (padtype odd), find_peaks(height 0.5, distance round(0.3*25) = 8).
  `filtered` is the sosfiltfilt output, written with OpenBLAS's Prescott kernel (on x86-64 the
  generator sets OPENBLAS_CORETYPE=Prescott whatever the environment says; Haswell gives the same
  bytes, SkylakeX and newer kernels differ by up to 1.3e-14 absolute through the LAPACK solve in
  sosfilt_zi): compare it with a tolerance. `expected_indices` are 0-based sample indices (the smallest margin of a
  peak over the height 0.5 is 0.047, of any local maximum to 0.5 is 0.002)."""


def main(argv):
    if len(argv) != 3:
        raise SystemExit("usage: make_pdr_fixtures.py METRICS_DIR SIGNAL_DIR")
    metrics_dir, signal_dir = argv[1], argv[2]
    os.makedirs(metrics_dir, exist_ok=True)
    os.makedirs(signal_dir, exist_ok=True)
    rng = np.random.default_rng(SEED)

    walk, dets = hand_step_case()
    hand = ref.score_steps(walk, dets)
    assert hand == HAND_STEP_EXPECTED, hand
    step_cases = [{"name": "hand", "walk": walk, "detections": dets, "expected": hand}]
    step_cases += [random_step_case(rng, i) for i in range(40)]
    step_cases += [real_step_case(n) for n in ("T1_ID1_WC.xml", "T3_ID4_GD.xml", "T2_ID11_NA.xml")]
    write_cases(os.path.join(metrics_dir, "step_scoring.json"), step_cases)

    ht = ref.score_turns(HAND_TURNS["annotated"], HAND_TURNS["detected"], HAND_TURNS["tolerance"])
    assert ht == HAND_TURNS_EXPECTED, ht
    turn_cases = [dict(name="hand", **HAND_TURNS, expected=ht)]
    turn_cases += [random_turn_case(rng, i) for i in range(30)]
    write_cases(os.path.join(metrics_dir, "turn_scoring.json"), turn_cases)

    write_cases(os.path.join(signal_dir, "find_peaks.json"), find_peaks_cases(rng))
    write_pipeline(os.path.join(signal_dir, "pipeline.json"), pipeline_case())

    v = dict(np=np.__version__, sp=scipy.__version__, pd=pd.__version__, seed=SEED)
    write_text(os.path.join(metrics_dir, "README.md"),
               README.format(what="step and turn scoring", files=METRICS_FILES, **v))
    write_text(os.path.join(signal_dir, "README.md"),
               README.format(what="peak picking and step pipeline", files=SIGNAL_FILES, **v))


if __name__ == "__main__":
    main(sys.argv)
