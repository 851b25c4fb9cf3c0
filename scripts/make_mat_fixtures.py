#!/usr/bin/env python3
"""Writes the MAT-file fixtures of `navbench import mat-mapped` under
Tests/NavImportTests/Fixtures/import/mat/ (committed, so `swift test` needs no Python):

- qtm.mat, qtm_uncompressed.mat: a Qualisys QTM-like export (scipy.io.savemat, compressed and
  not): a 1×1 struct named `qtm` with File, Timestamp, StartFrame, Frames, FrameRate and
  RigidBodies (Bodies, Name, Positions 1×3×N in mm, Rotations 1×9×N column-major matrices,
  Residual 1×1×N); qtm_two_bodies.mat the same with two bodies (2×3×N, 2×9×N).
- numeric.mat: double, single, int16, uint8, int64 arrays, a char array, a cell array, nested
  structs; numeric_be.mat the same file byte-swapped to big-endian by `byteswap` below
  (scipy writes only the machine's order): every tag, dimension and datum is swapped by its mi
  type, the header's endian indicator becomes "MI"; scipy.io.loadmat reads it back equal.
- packed.mat: written by hand (MATLAB's own habit, scipy does not do it): a double array
  stored as miUINT8 and one as miINT16, names in small data elements.
- classes.mat: a sparse and a complex variable (refused when a mapping reaches them).
- bad/: truncated.mat (qtm_uncompressed.mat cut inside RigidBodies.Positions), overflow.mat
  (dimensions 2147483647×2147483647), lying.mat (a compressed element whose inner tag declares
  8 bytes more than it inflates to), bomb.mat (one declaring 2^31 − 8 bytes), deep.mat (structs
  nested 40 deep), v73.mat (a MAT 7.3 file: HDF5 after a 512-byte MAT header).
- reference.json: every value as numpy holds it (float.hex, bit-exact), the QTM quaternions the
  rotation matrices were made from, and the expected ground truth: the independent reference.

The header's "Created on" date is replaced by fixed text so that the bytes regenerate.
Run from the repository root with the project venv: .venv/bin/python scripts/make_mat_fixtures.py [OUT]
"""
import json
import os
import struct
import sys
import zlib

import h5py
import numpy as np
import scipy.io
import scipy.sparse

OUT = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavImportTests/Fixtures/import/mat"
HEADER = b"MATLAB 5.0 MAT-file, Platform: posix, Created by: scripts/make_mat_fixtures.py"


def path(*p):
    full = os.path.join(OUT, *p)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    return full


def savemat(name, data, compress):
    """scipy.io.savemat, then the 116-byte header text fixed (scipy writes the date)."""
    p = path(name)
    scipy.io.savemat(p, data, do_compression=compress, oned_as="row")
    with open(p, "r+b") as f:
        f.write(HEADER.ljust(116, b" "))
    return p


def hexes(a):
    return [float(x).hex() for x in np.asarray(a, dtype=np.float64).flatten(order="F")]


# --- QTM-like export ------------------------------------------------------------------------
N, RATE = 25, 100.0


def unit_quaternions(n, seed):
    """Quaternions (w, x, y, z) from small integers over a correctly rounded sqrt: no libm, no BLAS."""
    rng = np.random.default_rng(seed)
    q = rng.integers(-9, 10, size=(n, 4)).astype(np.float64)
    q[:, 0] = np.abs(q[:, 0]) + 1  # w > 0
    return q / np.sqrt((q * q).sum(axis=1))[:, None]


def matrix(q):
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def qtm(bodies, seed):
    rng = np.random.default_rng(seed)
    pos = np.round(rng.uniform(-3000, 3000, size=(bodies, 3, N)), 3)  # mm, 3 decimals as QTM writes
    quats = [unit_quaternions(N, seed + 1 + b) for b in range(bodies)]
    rot = np.zeros((bodies, 9, N))
    for b in range(bodies):
        for k in range(N):
            rot[b, :, k] = matrix(quats[b][k]).flatten(order="F")  # r11 r21 r31 r12 … r33
    names = np.empty((1, bodies), dtype=object)
    for b in range(bodies):
        names[0, b] = ["cane", "head"][b]
    rb = {"Bodies": float(bodies), "Name": names, "Positions": pos, "Rotations": rot,
          "Residual": np.round(rng.uniform(0, 2, size=(bodies, 1, N)), 3)}
    s = {"File": "C:\\QTM\\walk.qtm", "Timestamp": "2026-01-01, 10:00:00", "StartFrame": 1.0,
         "Frames": float(N), "FrameRate": RATE, "RigidBodies": rb}
    return s, pos, quats


one, pos1, quat1 = qtm(1, 52)
savemat("qtm.mat", {"qtm": one}, True)
savemat("qtm_uncompressed.mat", {"qtm": one}, False)
two, pos2, quat2 = qtm(2, 53)
savemat("qtm_two_bodies.mat", {"qtm": two}, True)

# --- numeric classes, char, cell, nested structs -------------------------------------------------
numeric = {
    "d": np.array([[np.pi, -0.0, 1e-300], [-2.5, np.inf, 6.02214076e23]]),
    "s": np.array([[1.5, -3.25, 0.1]], dtype=np.float32),
    "i16": np.array([[-32768, -1, 0, 32767]], dtype=np.int16),
    "u8": np.array([[0, 1, 254, 255]], dtype=np.uint8),
    "i64": np.array([[-(2 ** 53), 2 ** 53, -7]], dtype=np.int64),
    "t3": np.arange(24, dtype=np.float64).reshape((2, 3, 4), order="F") * 0.5,
    "txt": "hello",
    "c": np.array([[np.array([[1.0, 2.0]]), "two", np.array([[3]], dtype=np.int16)]], dtype=object),
    "nest": {"a": {"b": {"c": np.array([[7.0, 8.0, 9.0]])}}, "k": 4.0},
}
savemat("numeric.mat", numeric, False)

MI_SIZES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 9: 8, 12: 8, 13: 8, 16: 1, 17: 2, 18: 4}


def byteswap_elements(b, start, end):
    """Little- to big-endian, element by element from `start` to `end` (uncompressed data)."""
    out = bytearray(b[start:end])
    i = 0
    while i < len(out):
        typ, size = struct.unpack_from("<II", out, i)
        if typ >> 16:  # small data element: type and size in one word, data in the next 4 bytes
            size, typ = typ >> 16, typ & 0xFFFF
            struct.pack_into(">HH", out, i, size, typ)
            w = MI_SIZES.get(typ, 1)
            out[i + 4:i + 4 + size] = swap_items(out[i + 4:i + 4 + size], w)
            i += 8
            continue
        struct.pack_into(">II", out, i, typ, size)
        data = bytes(out[i + 8:i + 8 + size])
        if typ == 14:
            out[i + 8:i + 8 + size] = byteswap_elements(data, 0, size)
        else:
            out[i + 8:i + 8 + size] = swap_items(data, MI_SIZES[typ])
        i += 8 + (size + 7) // 8 * 8
    return bytes(out)


def swap_items(data, width):
    return b"".join(bytes(data[k:k + width])[::-1] for k in range(0, len(data), width))


def byteswap(src, dst):
    b = open(src, "rb").read()
    head = bytearray(b[:128])
    head[124:128] = b"\x01\x00MI"
    open(dst, "wb").write(bytes(head) + byteswap_elements(b, 128, len(b)))


byteswap(path("numeric.mat"), path("numeric_be.mat"))
back, orig = scipy.io.loadmat(path("numeric_be.mat")), scipy.io.loadmat(path("numeric.mat"))
for k in ["d", "s", "i16", "u8", "i64", "t3"]:
    a, b = back[k], orig[k]
    assert a.dtype.byteorder == ">" or a.dtype.itemsize == 1, k
    assert a.shape == b.shape and a.astype(b.dtype).tobytes() == b.tobytes(), k  # bit for bit


# --- hand-written: doubles stored as miUINT8 and miINT16 -------------------------------------------
def element(typ, data):
    if len(data) <= 4:  # small data element
        return struct.pack("<HH", typ, len(data)) + data.ljust(4, b"\0")
    return struct.pack("<II", typ, len(data)) + data + b"\0" * (-len(data) % 8)


def matrix_element(name, cls, dims, real_type, real, flags=0):
    body = element(6, struct.pack("<II", cls | flags, 0)) + element(5, struct.pack(f"<{len(dims)}i", *dims))
    body += element(1, name.encode()) + element(real_type, real)
    return struct.pack("<II", 14, len(body)) + body


def header():
    return HEADER.ljust(116, b" ") + b"\0" * 8 + b"\x00\x01IM"


packed = {"p8": [1.0, 2.0, 250.0], "p16": [-5.0, 300.0]}
with open(path("packed.mat"), "wb") as f:
    f.write(header())
    f.write(matrix_element("p8", 6, [1, 3], 2, bytes([1, 2, 250])))
    f.write(matrix_element("p16", 6, [2, 1], 3, struct.pack("<2h", -5, 300)))

hand = scipy.io.loadmat(path("packed.mat"), mat_dtype=True)  # scipy reads the hand-written file as intended
assert all(hand[k].dtype == np.float64 and list(hand[k].flatten(order="F")) == v for k, v in packed.items())

savemat("classes.mat", {"sp": scipy.sparse.csc_matrix(np.eye(3)), "z": np.array([[1 + 2j]]), "ok": 1.0}, False)

# --- hostile --------------------------------------------------------------------------------
full = open(path("qtm_uncompressed.mat"), "rb").read()
cut = full.find(struct.pack("<d", pos1[0, 0, 0]))
assert cut > 0
open(path("bad/truncated.mat"), "wb").write(full[:cut + 100])

with open(path("bad/overflow.mat"), "wb") as f:
    f.write(header() + matrix_element("big", 6, [2147483647, 2147483647], 9, b"\0" * 8))

inner = matrix_element("x", 6, [1, 2], 9, struct.pack("<2d", 1.0, 2.0))
lie = inner[:4] + struct.pack("<I", len(inner) - 8 + 8) + inner[8:]
z = zlib.compress(lie)
open(path("bad/lying.mat"), "wb").write(header() + struct.pack("<II", 15, len(z)) + z)
bomb = inner[:4] + struct.pack("<I", 2 ** 31 - 8) + inner[8:]
z = zlib.compress(bomb)
open(path("bad/bomb.mat"), "wb").write(header() + struct.pack("<II", 15, len(z)) + z)

deep = {"leaf": 1.0}
for _ in range(40):
    deep = {"s": deep}
savemat("bad/deep.mat", {"deep": deep}, False)

with h5py.File(path("bad/v73.mat"), "w", userblock_size=512) as f:
    f.create_dataset("x", data=np.arange(3.0))
with open(path("bad/v73.mat"), "r+b") as f:
    f.write(b"MATLAB 7.3 MAT-file, Platform: posix, Created by: scripts/make_mat_fixtures.py".ljust(116, b" ") + b"\0" * 8 + b"\x00\x02IM")


# --- the reference ----------------------------------------------------------------------------
def enu_to_arkit(v):
    return [v[0], v[2], -v[1]]


ref = {
    "numeric": {
        k: {"class": str(numeric[k].dtype), "dims": list(numeric[k].shape), "values": hexes(numeric[k])}
        for k in ["d", "s", "i16", "u8", "i64", "t3"]
    },
    "nest_a_b_c": hexes(numeric["nest"]["a"]["b"]["c"]),
    "cell_1": hexes(numeric["c"][0, 0]),
    "cell_3": hexes(numeric["c"][0, 2]),
    "packed": {k: [x.hex() for x in v] for k, v in packed.items()},
    "qtm": {
        "frame_rate": RATE,
        "times": [(k / RATE).hex() for k in range(N)],
        "positions_mm": hexes(pos1),
        "rotations": hexes(one["RigidBodies"]["Rotations"]),
        # The expected ground truth: positions in m (ENU → ARKit: x, z, −y), and the ENU
        # quaternions (w, x, y, z) the matrices were made from.
        "gt_positions_m": [[(x / 1000).hex() for x in enu_to_arkit(pos1[0, :, k])] for k in range(N)],
        "gt_quaternions_enu_wxyz": [[x.hex() for x in quat1[0][k]] for k in range(N)],
        "two_bodies_head_positions_m": [[(x / 1000).hex() for x in enu_to_arkit(pos2[1, :, k])] for k in range(N)],
        "two_bodies_head_quaternions_enu_wxyz": [[x.hex() for x in quat2[1][k]] for k in range(N)],
    },
}
with open(path("reference.json"), "w", encoding="utf-8") as f:
    json.dump(ref, f, indent=1, sort_keys=True)
    f.write("\n")
print(f"wrote {OUT}")
