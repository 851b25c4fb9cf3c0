#!/usr/bin/env python3
"""Reference implementations for pedestrian dead reckoning (PDR) checks on WeAllWalk.

Written straight from the definitions (WeAllWalk step-count metrics 1 and 3, Flores & Manduchi,
ACM TACCESS 11(1) 2018; turn matching; scipy peak picking) and independent of navbench's Swift
code. Used by scripts/make_pdr_fixtures.py and as the Python peer of the step-counting bench.

Library:
  parse_walk_xml(path)                     -> {"segments": [...], "features": [...]}
  score_steps(walk, detections)            -> metric 1 / metric 3 counts and rates
  score_turns(annotated, detected, tol)    -> greedy turn matching
  find_peaks_reference(x, height, distance)-> scipy.signal.find_peaks indices
  peak_pipeline(csv, order, low, high, height, distance_s) -> peak times (s)

CLI:
  python scripts/pdr_reference.py peaks CSV... [--order 4 --low 0.5 --high 3 --height 0.5 --distance 0.3]
      prints "file count checksum" per file (checksum = sum of the peak indices)
  python scripts/pdr_reference.py walk XML     prints parse_walk_xml as JSON

Data: WeAllWalk, CC BY 4.0, Flores & Manduchi, TACCESS 2018, doi:10.7291/D17P46.
"""
import argparse
import json
import sys
import xml.etree.ElementTree as ET

FS_HZ = 25.0          # WeAllWalk iPhone sample rate
G = 9.80665           # standard gravity, m/s^2 per g
ACC_COLUMNS = (30, 31, 32)  # raw accelerometer (g)


# --------------------------------------------------------------------------- XML

def parse_walk_xml(path):
    """One WeAllWalk walk: segments in document order and every Feature of every segment."""
    root = ET.parse(path).getroot()
    segments, features = [], []
    for ps in root.iter("PathSegment"):
        direction = (ps.findtext("Direction") or "").strip()
        turn = ps.findtext("TurnInDegrees")
        segments.append({
            "id": (ps.findtext("SpatialSegmentID") or "").strip(),
            "start": float(ps.findtext("StartTime")),
            "end": float(ps.findtext("EndTime")),
            "straight": "Turn" not in direction,
            "nominal_deg": float(turn) if turn is not None and turn.strip() else None,
            "steps": [float(s.findtext("Time")) for s in ps.iter("Step")],
        })
        for f in ps.iter("Feature"):
            features.append({
                "start": float(f.findtext("StartTime")),
                "end": float(f.findtext("EndTime")),
                "description": (f.findtext("Description") or "").strip(),
            })
    return {"segments": segments, "features": features}


# --------------------------------------------------------------------------- steps

def straight_pieces(start, end, features):
    """[start, end] minus the union of the feature intervals (clipped to it), as closed pieces
    [a, b] with a < b. A feature whose clipped part has zero length removes nothing."""
    clipped = []
    for f in features:
        fs, fe = max(f["start"], start), min(f["end"], end)
        if fs < fe:
            clipped.append((fs, fe))
    clipped.sort()
    pieces, cursor = [], start
    for fs, fe in clipped:
        if fs > cursor:
            pieces.append((cursor, fs))
        if fe > cursor:
            cursor = fe
    if end > cursor:
        pieces.append((cursor, end))
    return pieces


def score_steps(walk, detections):
    """WeAllWalk step-count metrics 1 and 3 over the straight segments, features cut out."""
    dets = sorted(float(d) for d in detections)
    feats = walk.get("features", [])
    under1 = over1 = under3 = over3 = true_steps = 0
    for seg in walk["segments"]:
        if not seg["straight"]:
            continue
        seg_true = seg_det = 0
        for a, b in straight_pieces(seg["start"], seg["end"], feats):
            strikes = sorted(t for t in seg["steps"] if a <= t <= b)
            in_piece = [d for d in dets if a <= d <= b]
            seg_true += len(strikes)
            seg_det += len(in_piece)
            n = len(strikes)
            for i in range(n):
                lo = strikes[i]
                if i + 1 < n:
                    hi = strikes[i + 1]
                    count = sum(1 for d in in_piece if lo <= d < hi)
                else:
                    count = sum(1 for d in in_piece if lo <= d <= b)
                if count == 0:
                    under1 += 1
                else:
                    over1 += count - 1
        true_steps += seg_true
        over3 += max(0, seg_det - seg_true)
        under3 += max(0, seg_true - seg_det)

    def rate(c):
        return c / true_steps if true_steps else 0.0

    return {
        "true_steps": true_steps,
        "under1": under1, "over1": over1, "under3": under3, "over3": over3,
        "under1_rate": rate(under1), "over1_rate": rate(over1),
        "under3_rate": rate(under3), "over3_rate": rate(over3),
    }


# --------------------------------------------------------------------------- turns

def annotated_turns(walk):
    """(start, end, nominal_deg) of the walk's turn segments."""
    return [(s["start"], s["end"], s["nominal_deg"]) for s in walk["segments"]
            if not s["straight"] and s["nominal_deg"] is not None]


def score_turns(annotated, detected, tolerance):
    """Greedy matching: annotated turns in order of start time (ties: list order); candidates are
    the unmatched detected turns whose centre (start+end)/2 lies in [a.start - tol, a.end + tol];
    the nearest centre wins (ties: earlier detected start, then lower index)."""
    ann = [tuple(float(v) for v in a) for a in annotated]
    det = [tuple(float(v) for v in d) for d in detected]
    centres = [(d[0] + d[1]) / 2 for d in det]
    used = [False] * len(det)
    pairs = []
    for ai in sorted(range(len(ann)), key=lambda i: (ann[i][0], i)):
        s, e, nominal = ann[ai]
        c0 = (s + e) / 2
        lo, hi = s - tolerance, e + tolerance
        best = None
        for di, c in enumerate(centres):
            if used[di] or not (lo <= c <= hi):
                continue
            key = (abs(c - c0), det[di][0], di)
            if best is None or key < best[0]:
                best = (key, di)
        if best is not None:
            di = best[1]
            used[di] = True
            pairs.append([ai, di, det[di][2] - nominal])
    pairs.sort(key=lambda p: p[0])
    matched = len(pairs)
    sign_errors = sum(1 for ai, di, _ in pairs if (ann[ai][2] < 0) != (det[di][2] < 0))
    return {
        "annotated": len(ann), "detected": len(det), "matched": matched,
        "missed": len(ann) - matched, "false": len(det) - matched,
        "precision": matched / len(det) if det else 0.0,
        "recall": matched / len(ann) if ann else 0.0,
        "sign_errors": sign_errors,
        "pairs": pairs,
    }


# --------------------------------------------------------------------------- peaks

def find_peaks_reference(x, height=None, distance=None):
    import numpy as np
    from scipy.signal import find_peaks
    peaks, _ = find_peaks(np.asarray(x, dtype=float), height=height, distance=distance)
    return [int(i) for i in peaks]


def distance_samples(distance_s, fs=FS_HZ):
    """round(distance_s * fs) with Python's round (half to even), at least 1."""
    return max(1, int(round(distance_s * fs)))


def design_sos(order, low_hz, high_hz, fs=FS_HZ):
    """Butterworth SOS: band-pass [low_hz, high_hz], or low-pass at low_hz when high_hz is None."""
    from scipy.signal import butter
    if high_hz is None:
        return butter(order, low_hz, btype="lowpass", fs=fs, output="sos")
    return butter(order, [low_hz, high_hz], btype="bandpass", fs=fs, output="sos")


def pipeline_arrays(acc_g, order, low_hz, high_hz, height, distance_s, fs=FS_HZ):
    """The pipeline's steps on an N x 3 array of raw acceleration in g.
    Returns (peak indices, filtered signal, sos)."""
    import numpy as np
    from scipy.signal import find_peaks, sosfiltfilt
    acc = np.asarray(acc_g, dtype=float) * G
    mag = np.sqrt((acc ** 2).sum(axis=1))
    mag = mag - mag.mean()
    sos = design_sos(order, low_hz, high_hz, fs)
    filtered = sosfiltfilt(sos, mag)
    peaks, _ = find_peaks(filtered, height=height, distance=distance_samples(distance_s, fs))
    return peaks, filtered, sos


def read_sensor_csv(csv_path, nrows=None):
    import pandas as pd
    return pd.read_csv(csv_path, header=None, nrows=nrows)


def peak_pipeline(csv_path, order=4, low_hz=0.5, high_hz=3.0, height=0.5, distance_s=0.3,
                  return_indices=False):
    """Step candidates as a researcher writes it: |acc| in m/s^2, mean removed, zero-phase
    Butterworth, scipy find_peaks. Returns the peak times (column 0)."""
    df = read_sensor_csv(csv_path)
    acc = df.iloc[:, list(ACC_COLUMNS)].to_numpy(dtype=float)
    peaks, _, _ = pipeline_arrays(acc, order, low_hz, high_hz, height, distance_s)
    times = df.iloc[:, 0].to_numpy(dtype=float)[peaks]
    if return_indices:
        return times, peaks
    return times


# --------------------------------------------------------------------------- CLI

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pk = sub.add_parser("peaks", help="step peaks of WeAllWalk sensor CSVs")
    pk.add_argument("csv", nargs="+")
    pk.add_argument("--order", type=int, default=4)
    pk.add_argument("--low", type=float, default=0.5)
    pk.add_argument("--high", type=float, default=3.0, help="omit with --lowpass")
    pk.add_argument("--lowpass", action="store_true", help="low-pass at --low, ignore --high")
    pk.add_argument("--height", type=float, default=0.5)
    pk.add_argument("--distance", type=float, default=0.3, help="seconds")
    wk = sub.add_parser("walk", help="print a walk XML as JSON")
    wk.add_argument("xml")
    a = p.parse_args(argv)
    if a.cmd == "peaks":
        high = None if a.lowpass else a.high
        for path in a.csv:
            _, idx = peak_pipeline(path, a.order, a.low, high, a.height, a.distance,
                                   return_indices=True)
            print(f"{path} {len(idx)} {int(sum(int(i) for i in idx))}")
    elif a.cmd == "walk":
        json.dump(parse_walk_xml(a.xml), sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
