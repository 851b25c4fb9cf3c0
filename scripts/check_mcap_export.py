#!/usr/bin/env python3
"""Interop check of `navbench export mcap`: the files it writes are read by the official MCAP
reader (PyPI mcap, pinned in scripts/requirements-rosbag.txt) with CRCs validated, and every
value equals the trace's as h5py reads it, with no navbench code involved.

Per trace: the export runs twice (the bytes must be identical); the footer's summary CRC is
recomputed with zlib; schemas are the expected names with encoding jsonschema (valid JSON,
title = name); channels are json; the statistics count what is read; messages come in log-time
order with log_time = publish_time = the trace's seconds × 10⁹ rounded half away from zero, the
JSON timestamp the same instant, sequence 0, 1, …; poses, paths, IMU, location fixes and
annotation texts equal the trace's values exactly (JSON numbers are shortest round-trip).
Then a copy of the first trace with its times moved 1000 s before zero must be refused with one line.

Usage: python3 scripts/check_mcap_export.py NAVBENCH TRACE.h5 [...]
Prints 'N passed, M failed' and exits non-zero on any failure.
"""
import io
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import h5py
import numpy as np
from mcap.reader import make_reader
from mcap.stream_reader import StreamReader

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", file=sys.stderr)


def ns(t):
    """Seconds → ns as navbench rounds: the double product, to nearest, ties away from zero."""
    x = float(t) * 1e9
    r = math.floor(x)
    return int(r + 1 if x - r >= 0.5 else r)


def number(v):
    """A Swift formatNumber text (integers below 1e15 without a point)."""
    v = float(v)
    return str(int(v)) if v == round(v) and abs(v) < 1e15 else repr(v)


def expected_channels(path):
    """topic → (schema, [(log_time, message dict)]) from the trace through h5py."""
    out = {}
    with h5py.File(path, "r") as h:
        for name, frame in (("groundtruth", "venue"), ("vio", "session")):
            if name not in h:
                continue
            t = h[name]["timestamps"][:]
            p = h[name]["position"][:]
            q = h[name]["orientation"][:]
            poses = [{"position": dict(zip("xyz", map(float, p[i]))), "orientation": dict(zip("xyzw", map(float, q[i])))}
                     for i in range(len(t))]
            out["/" + name] = ("foxglove.PoseInFrame",
                               [(ns(t[i]), {"frame_id": frame, "pose": poses[i]}) for i in range(len(t))])
            out[f"/{name}/path"] = ("foxglove.PosesInFrame", [(ns(t[0]), {"frame_id": frame, "poses": poses})] if len(t) else [])
        if "imu" in h:
            g = {k: h["imu"][k][:] for k in h["imu"]}
            t = g["timestamps"]
            msgs = []
            for i in range(len(t)):
                m = {"frame_id": "device", "linear_acceleration": dict(zip("xyz", map(float, g["accelerometer"][i]))),
                     "angular_velocity": dict(zip("xyz", map(float, g["gyroscope"][i])))}
                if "attitude" in g:
                    m["orientation"] = dict(zip("xyzw", map(float, g["attitude"][i])))
                if "magnetometer" in g:
                    m["magnetic_field"] = dict(zip("xyz", map(float, g["magnetometer"][i])))
                if "moving" in g:
                    m["moving"] = int(g["moving"][i])
                msgs.append((ns(t[i]), m))
            out["/imu"] = ("navbench.Imu", msgs)
        if "location" in h:
            g = {k: h["location"][k][:] for k in h["location"]}
            t = g["timestamps"]
            msgs = []
            for i in range(len(t)):
                v = float(g["horizontal_accuracy"][i]) ** 2
                msgs.append((ns(t[i]), {"frame_id": "device", "latitude": float(g["latitude"][i]),
                                        "longitude": float(g["longitude"][i]), "altitude": float(g["altitude"][i]),
                                        "position_covariance": [v, 0, 0, 0, v, 0, 0, 0, 0], "position_covariance_type": 1}))
            out["/location"] = ("foxglove.LocationFix", msgs)
        for a in sorted(h["annotations"]) if "annotations" in h else []:
            g = h["annotations"][a]
            t, end = g["timestamps"][:], g["end"][:]
            labels = [x.decode() if isinstance(x, bytes) else x for x in g["label"][:]]
            value = g["value"][:] if "value" in g else None
            units = (" " + g["value"].attrs["units"]) if value is not None and "units" in g["value"].attrs else ""
            if isinstance(units, bytes):
                units = units.decode()
            msgs = []
            for i in range(len(t)):
                notes = []
                if end[i] > t[i]:
                    notes.append(f"to {number(end[i])} s")
                if value is not None and not np.isnan(value[i]):
                    notes.append(f"value {number(value[i])}{units}")
                text = labels[i] + (f" ({'; '.join(notes)})" if notes else "")
                msgs.append((ns(t[i]), {"level": 2, "message": text, "name": f"annotations/{a}", "file": "", "line": 0}))
            out[f"/annotations/{a}"] = ("foxglove.Log", msgs)
    return out


def check_footer_crc(data, label):
    check(data[:8] == b"\x89MCAP0\r\n" and data[-8:] == b"\x89MCAP0\r\n", f"{label}: magic at both ends")
    footer = data[-8 - 29:-8]
    op, length, summary_start, summary_offset_start, crc = struct.unpack("<BQQQI", footer)
    check(op == 0x02 and length == 20, f"{label}: footer record")
    check(0 < summary_start < summary_offset_start < len(data), f"{label}: summary offsets {summary_start} {summary_offset_start}")
    check(zlib.crc32(data[summary_start:len(data) - 8 - 4]) == crc, f"{label}: summary CRC (zlib) = footer's {crc}")


def check_trace(navbench, trace, work):
    label = os.path.basename(trace)
    outs = [os.path.join(work, f"{label}.{k}.mcap") for k in (1, 2)]
    for out in outs:
        r = subprocess.run([navbench, "export", "mcap", trace, "--out", out], capture_output=True, text=True)
        check(r.returncode == 0, f"{label}: export exit {r.returncode}: {r.stderr}")
    data = open(outs[0], "rb").read()
    check(data == open(outs[1], "rb").read(), f"{label}: a rerun writes the same bytes")
    check_footer_crc(data, label)
    # The whole file, records in order, chunk and data-section CRCs validated.
    records = list(StreamReader(io.BytesIO(data), validate_crcs=True, emit_chunks=True).records)
    check(type(records[0]).__name__ == "Header" and records[0].library == "navbench", f"{label}: header first")
    names = [type(r).__name__ for r in records]
    check(names[-1] == "Footer" and "DataEnd" in names, f"{label}: data end and footer")

    expected = expected_channels(trace)
    reader = make_reader(io.BytesIO(data), validate_crcs=True)
    summary = reader.get_summary()
    schemas = {s.id: s for s in summary.schemas.values()}
    for s in schemas.values():
        check(s.encoding == "jsonschema", f"{label}: schema {s.name} encoding {s.encoding}")
        check(json.loads(s.data).get("title") == s.name, f"{label}: schema {s.name} is JSON titled with its name")
    channels = {c.id: c for c in summary.channels.values()}
    check(sorted(c.topic for c in channels.values()) == sorted(expected), f"{label}: topics {sorted(c.topic for c in channels.values())}")
    for c in channels.values():
        check(c.message_encoding == "json", f"{label}: {c.topic} message encoding {c.message_encoding}")
        if c.topic in expected:
            check(schemas[c.schema_id].name == expected[c.topic][0], f"{label}: {c.topic} schema {schemas[c.schema_id].name}")
    got = {c.topic: [] for c in channels.values()}
    last = -1
    in_order = True
    for schema, channel, message in reader.iter_messages(log_time_order=False):
        in_order &= message.log_time >= last
        last = message.log_time
        got[channel.topic].append(message)
    check(in_order, f"{label}: messages in log-time order in the file")
    stats = summary.statistics
    check(stats.message_count == sum(map(len, got.values())), f"{label}: statistics message count {stats.message_count}")
    check(all(stats.channel_message_counts.get(i, 0) == len(got[c.topic]) for i, c in channels.items()),
          f"{label}: statistics per-channel counts")
    check(stats.chunk_count == len(summary.chunk_indexes) > 0, f"{label}: chunk count {stats.chunk_count}")
    for topic, (schema, msgs) in expected.items():
        read = got.get(topic, [])
        check(len(read) == len(msgs), f"{label}: {topic}: {len(read)} messages, expected {len(msgs)}")
        bad = 0
        for k, (m, (time, want)) in enumerate(zip(read, msgs)):
            body = json.loads(m.data)
            stamp = body.pop("timestamp", None)
            ok = (m.log_time == m.publish_time == time and m.sequence == k
                  and stamp == {"sec": time // 10**9, "nsec": time % 10**9} and body == want)
            if not ok:
                bad += 1
                if bad == 1:
                    print(f"  first difference, {topic} message {k}: {m.log_time} {body} vs {time} {want}", file=sys.stderr)
        check(bad == 0, f"{label}: {topic}: {bad} messages differ from the trace")


def check_negative_time_refused(navbench, trace, work):
    moved = os.path.join(work, "negative.h5")
    shutil.copyfile(trace, moved)
    with h5py.File(moved, "r+") as h:
        first = [k for k in ("groundtruth", "vio", "imu", "location") if k in h][0]  # the first channel's stream
        for k in h:
            if "timestamps" in h[k]:
                h[k]["timestamps"][...] = h[k]["timestamps"][:] - 1000.0
        t0 = float(h[first]["timestamps"][0])
    out = os.path.join(work, "negative.mcap")
    r = subprocess.run([navbench, "export", "mcap", moved, "--out", out], capture_output=True, text=True)
    want = (f"navbench: error: {moved}: /{first}/timestamps: row 0: {number(t0)} s; expected a finite time from 0 to "
            "18446744073 s (MCAP times are unsigned 64-bit nanoseconds)\n")
    check(r.returncode == 1 and r.stdout == "" and r.stderr == want, f"negative time: exit {r.returncode}, {r.stderr!r}, expected {want!r}")
    check(not os.path.exists(out) and not [f for f in os.listdir(work) if ".tmp-" in f], "negative time: nothing written")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    navbench, traces = sys.argv[1], sys.argv[2:]
    work = tempfile.mkdtemp(prefix="mcap-check-")
    try:
        for trace in traces:
            check_trace(navbench, trace, work)
        check_negative_time_refused(navbench, traces[0], work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"mcap-check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
