#!/usr/bin/env python3
"""Compares two reference outputs numerically: text files (or folders of them, file by file) token
by token, and HDF5 files dataset by dataset (with --hdf5). Used where bytes legitimately depend on
the machine's libm (docs/reproducibility.md): glibc picks FMA or SSE2 code paths of sin, cos, exp,
log, atan2, pow by CPU, and they differ in the last bit on about 0.07 % of arguments.

Text: the files are split into tokens (numbers, and runs of anything else); every non-number token
must be equal, every number (decimal or C99 hex float, as float.hex() writes) must satisfy
    |a − b| ≤ atol + rtol·|b|.
HDF5: the same groups, datasets, shapes, dtypes and attributes; integer and string data equal;
floating-point data within the same tolerance (NaN equal to NaN).

    compare_numeric.py [--rtol R] [--atol A] [--hdf5] GENERATED COMMITTED

Exit 0 when equal within the tolerance, 1 (one line a difference, at most 5) otherwise.
"""
import argparse
import math
import os
import re
import sys

NUMBER = re.compile(r"[-+]?0[xX][0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?[pP][-+]?\d+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def tokens(text):
    out, pos = [], 0
    for m in NUMBER.finditer(text):
        if m.start() > pos:
            out.append(("text", text[pos:m.start()]))
        s = m.group(0)
        out.append(("number", float.fromhex(s) if "x" in s.lower() else float(s), s))
        pos = m.end()
    if pos < len(text):
        out.append(("text", text[pos:]))
    return out


def close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= atol + rtol * abs(b)


def compare_text(a_path, b_path, rtol, atol, problems):
    with open(a_path, encoding="utf-8") as f:
        ta = tokens(f.read())
    with open(b_path, encoding="utf-8") as f:
        tb = tokens(f.read())
    if len(ta) != len(tb):
        problems.append(f"{b_path}: {len(ta)} tokens generated, {len(tb)} committed")
        return 0
    worst = 0.0
    for x, y in zip(ta, tb):
        if x[0] != y[0] or (x[0] == "text" and x[1] != y[1]):
            problems.append(f"{b_path}: text differs near {y[1 if y[0] == 'text' else 2][:40]!r}")
            return worst
        if x[0] == "number":
            if not close(x[1], y[1], rtol, atol):
                problems.append(f"{b_path}: {x[2]} generated, {y[2]} committed (beyond rtol {rtol:g}, atol {atol:g})")
                return worst
            if x[1] != y[1]:
                worst = max(worst, abs(x[1] - y[1]) / max(abs(y[1]), 1e-300))
    return worst


def compare_hdf5(a_path, b_path, rtol, atol, problems):
    import h5py
    import numpy as np
    worst = [0.0]
    with h5py.File(a_path, "r") as fa, h5py.File(b_path, "r") as fb:
        names_a, names_b = [], []
        fa.visit(names_a.append)
        fb.visit(names_b.append)
        if sorted(names_a) != sorted(names_b):
            problems.append(f"{b_path}: objects differ: {sorted(set(names_a) ^ set(names_b))[:3]}")
            return 0
        for name in ["/"] + sorted(names_b):
            oa, ob = fa[name], fb[name]
            if sorted(oa.attrs.keys()) != sorted(ob.attrs.keys()) or any(
                    not np.array_equal(np.asarray(oa.attrs[k]), np.asarray(ob.attrs[k])) for k in ob.attrs.keys()):
                problems.append(f"{b_path}: {name}: attributes differ")
            if not isinstance(ob, h5py.Dataset):
                continue
            if oa.shape != ob.shape or oa.dtype != ob.dtype:
                problems.append(f"{b_path}: {name}: shape/dtype {oa.shape} {oa.dtype} generated, {ob.shape} {ob.dtype} committed")
                continue
            x, y = oa[()], ob[()]
            if ob.dtype.kind == "f":
                ok = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
                if not np.all(ok):
                    i = np.argwhere(~ok)[0]
                    problems.append(f"{b_path}: {name}{list(i)}: {x[tuple(i)]!r} generated, {y[tuple(i)]!r} committed (beyond rtol {rtol:g}, atol {atol:g})")
                d = (x != y) & ~(np.isnan(x) & np.isnan(y))
                if np.any(d):
                    worst[0] = max(worst[0], float(np.max(np.abs(x[d] - y[d]) / np.maximum(np.abs(y[d]), 1e-300))))
            elif not np.array_equal(x, y):
                problems.append(f"{b_path}: {name}: values differ")
    return worst[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--hdf5", action="store_true", help="compare .h5 files as HDF5, the rest as text")
    ap.add_argument("generated")
    ap.add_argument("committed")
    a = ap.parse_args()
    pairs = []
    if os.path.isdir(a.committed):
        for root, _, files in os.walk(a.committed):
            for f in sorted(files):
                c = os.path.join(root, f)
                g = os.path.join(a.generated, os.path.relpath(c, a.committed))
                pairs.append((g, c))
        for root, _, files in os.walk(a.generated):
            for f in files:
                g = os.path.join(root, f)
                if not os.path.exists(os.path.join(a.committed, os.path.relpath(g, a.generated))):
                    pairs.append((g, None))
    else:
        pairs.append((a.generated, a.committed))
    problems, worst, values = [], 0.0, 0
    for g, c in pairs:
        if c is None:
            problems.append(f"{g}: generated, not committed")
        elif not os.path.exists(g):
            problems.append(f"{c}: committed, not generated")
        elif a.hdf5 and c.endswith(".h5"):
            worst = max(worst, compare_hdf5(g, c, a.rtol, a.atol, problems))
        else:
            worst = max(worst, compare_text(g, c, a.rtol, a.atol, problems))
    for p in problems[:5]:
        print(f"compare: {p}")
    if problems:
        return 1
    print(f"compare: {a.committed}: {len(pairs)} files equal within rtol {a.rtol:g}, atol {a.atol:g} (largest relative difference {worst:.2g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
