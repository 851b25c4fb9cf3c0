#!/usr/bin/env python3
"""Writes navbench's hostile-input corpus (deterministic: same bytes every run, except the FIFO,
which is made by the runner). Usage: make_corpus.py OUTDIR [DATASETS_DIR]

Layout: OUTDIR/<reader>/<case>.<ext>; readers: h5, text (tum/kitti/euroc/csv/ipin), crd, spec, mapping,
mbd (BLE annotated), arkit (ARKit logger), rosbag and mcap. Needs h5py and numpy (the project venv)."""
import os, struct, sys, shutil
import numpy as np
import h5py

out = sys.argv[1]
datasets = sys.argv[2] if len(sys.argv) > 2 else "Datasets"
rng = np.random.default_rng(20261123)
REC = os.path.join(datasets, "R1-corridor_recording.h5")
NAV = os.path.join(datasets, "R1-corridor_nav1.h5")

def path(reader, name):
    d = os.path.join(out, reader); os.makedirs(d, exist_ok=True)
    return os.path.join(d, name)

HOSTILE_NAMES = {
    "traversal": "../../victim/metrics", "deep_traversal": "../" * 40 + "tmp/x", "absolute": "/tmp/navbench-fuzz-abs",
    "newline_md": "R1\n# injected heading\n| a | b |", "formula": "=HYPERLINK(\"http://x\",\"y\")", "plus": "+1+2",
    "at": "@SUM(A1)", "control": "R\x1b[31m\x07\x00x", "long": "R" * 10000, "dot": ".", "dotdot": "..",
    "slash": "a/b", "empty": "", "pipe": "a|b|c", "backtick": "`rm -rf`", "unicode_rtl": "R\u202eevil",
    "python_inject": 'x"]; __import__("os").system("touch PWNED"); _ = ["',
}

# ---------------------------------------------------------------- HDF5
def copy_trace(name, src=NAV):
    p = path("h5", name); shutil.copyfile(src, p); return p

def h5(name, src=NAV):
    return h5py.File(copy_trace(name, src), "r+")

count = {}
def note(reader): count[reader] = count.get(reader, 0) + 1

# hostile ids (route_id, session_id) in otherwise valid traces: recording + navigation pairs
for key, v in HOSTILE_NAMES.items():
    for kind, src in (("rec", REC), ("nav", NAV)):
        with h5(f"id_{key}_{kind}.h5", src) as f:
            f.attrs["route_id"] = v.replace("\x00", "")
            f.attrs["session_id"] = (v + "_" + kind).replace("\x00", "")
        note("h5")
# external links
targets = {"file": "../h5/linked_target.h5", "fifo": "fifo", "devzero": "/dev/zero", "folder": "..",
           "missing": "does_not_exist.h5", "self": "ext_self.h5", "devnull": "/dev/null"}
with h5py.File(path("h5", "linked_target.h5"), "w") as f:
    f["secret"] = np.arange(10.0)
note("h5")
for key, t in targets.items():
    with h5(f"ext_{key}.h5") as f:
        del f["vio/timestamps"]
        f["vio/timestamps"] = h5py.ExternalLink(t, "/secret")
        f["extra_link"] = h5py.ExternalLink(t, "/")
    note("h5")
with h5("ext_group.h5") as f:
    del f["imu"]; f["imu"] = h5py.ExternalLink("linked_target.h5", "/")
note("h5")
# virtual datasets (VDS): onto itself (a stack overflow in libhdf5), another file, the FIFO the
# runner makes, a chain (a source that is itself virtual); external raw storage: /etc/passwd,
# /dev/zero, the FIFO, a plain raw file. Refused without --allow-external-links; with it, only
# the plain raw file and the other file's dataset are read.
def vds(name, source_file, source_dataset, where="vio/timestamps"):
    with h5(name) as f:
        n = f[where].shape[0]
        del f[where]
        layout = h5py.VirtualLayout(shape=(n,), dtype="f8")
        layout[:] = h5py.VirtualSource(source_file, source_dataset, shape=(n,))
        f.create_virtual_dataset(where, layout, fillvalue=0)
    note("h5")
vds("ext_vds_self.h5", ".", "vio/timestamps")
vds("ext_vds_other.h5", "linked_target.h5", "secret")
vds("ext_vds_fifo.h5", "fifo", "secret")
vds("ext_vds_chain.h5", "ext_vds_other.h5", "vio/timestamps")
with h5py.File(NAV, "r") as f:
    np.asarray(f["vio/timestamps"][:], dtype="<f8").tofile(path("h5", "raw_timestamps.bin"))
for key, target in {"passwd": "/etc/passwd", "devzero": "/dev/zero", "fifo": "fifo", "file": "raw_timestamps.bin"}.items():
    with h5(f"ext_raw_{key}.h5") as f:
        n = f["vio/timestamps"].shape[0]
        attrs = dict(f["vio/timestamps"].attrs)
        del f["vio/timestamps"]
        d = f.create_dataset("vio/timestamps", shape=(n,), dtype="<f8", external=[(target, 0, h5py.h5f.UNLIMITED)])
        for k, v in attrs.items():
            d.attrs[k] = v
    note("h5")
# declared sizes
def huge(name, shape, chunks=None, dtype="f8", where="vio/timestamps"):
    with h5(name) as f:
        del f[where]
        d = f.create_dataset(where, shape=shape, dtype=dtype, chunks=chunks)
        d.attrs["units"] = "s"
    note("h5")
huge("huge_2p40_contiguous.h5", (2**40,))
huge("huge_2p40_chunked.h5", (2**40,), chunks=(4096,))
huge("huge_2p62.h5", (2**62,), chunks=(1 << 20,))
huge("huge_2d_overflow.h5", (2**40, 2**40), chunks=(16, 16), where="vio/position")
huge("huge_imu.h5", (2**35, 3), chunks=(1024, 3), where="imu/accelerometer")
huge("huge_strings.h5", (2**40,), chunks=(1024,), dtype="S36", where="ble/beacons/uuid")
# annotation streams (/annotations/<name>): hostile groups in an otherwise valid trace
def annotations(name, build):
    with h5(name) as f:
        build(f)
    note("h5")
def ann_group(f, g, start, end, label=None, kind="intervals", source="x", value=None):
    grp = f.create_group(f"annotations/{g}")
    grp["timestamps"] = np.asarray(start, dtype="f8"); grp["timestamps"].attrs["units"] = "s"
    grp["end"] = np.asarray(end, dtype="f8"); grp["end"].attrs["units"] = "s"
    grp["label"] = np.array(label if label is not None else [b"a"] * len(start), dtype="S")
    if kind is not None: grp.attrs["kind"] = kind
    if source is not None: grp.attrs["source"] = source
    if value is not None: grp["value"] = np.asarray(value, dtype="f8"); grp["value"].attrs["units"] = "deg"
annotations("ann_ok.h5", lambda f: ann_group(f, "turns", [1, 2], [1.5, 3], value=[90, -90]))
annotations("ann_bad_name.h5", lambda f: ann_group(f, "A B\x1b[31m", [1], [1]))
annotations("ann_long_name.h5", lambda f: ann_group(f, "a" * 10000, [1], [1]))
annotations("ann_end_before_start.h5", lambda f: ann_group(f, "a", [2], [1]))
annotations("ann_instant_length.h5", lambda f: ann_group(f, "a", [1], [2], kind="instants"))
annotations("ann_no_kind.h5", lambda f: ann_group(f, "a", [1], [1], kind=None))
annotations("ann_huge_source.h5", lambda f: ann_group(f, "a", [1], [1], source="s" * 10_000_000))
annotations("ann_value_inf.h5", lambda f: ann_group(f, "a", [1], [1], value=[np.inf]))
annotations("ann_nan_times.h5", lambda f: ann_group(f, "a", [np.nan, 1e300], [np.nan, 1e300]))
annotations("ann_label_nul.h5", lambda f: ann_group(f, "a", [1], [1], label=[b"x\x00y" + b"z" * 5000]))
annotations("ann_rows.h5", lambda f: ann_group(f, "a", [1, 2, 3], [1]))
annotations("ann_empty_group.h5", lambda f: f.create_group("annotations"))
annotations("ann_dataset.h5", lambda f: f.create_dataset("annotations", data=[1, 2, 3]))
annotations("ann_session_attrs.h5", lambda f: f.attrs.__setitem__("session_attributes", '{"subject": ' * 5000))
with h5("ann_huge_rows.h5") as f:
    ann_group(f, "a", [1], [1])
    del f["annotations/a/timestamps"]
    f.create_dataset("annotations/a/timestamps", shape=(2**40,), dtype="f8", chunks=(1024,)).attrs["units"] = "s"
note("h5")
huge("huge_rows_vs_ts.h5", (2**33, 4), chunks=(1024, 4), where="vio/orientation")
# numeric hostility
def setds(name, where, values, src=NAV):
    with h5(name, src) as f:
        units = f[where].attrs.get("units", None)
        del f[where]
        f[where] = values
        if units is not None: f[where].attrs["units"] = units
    note("h5")
vio_n = h5py.File(NAV, "r")["vio/timestamps"].shape[0]
base_t = h5py.File(NAV, "r")["vio/timestamps"][()]
setds("ts_1e300.h5", "vio/timestamps", np.linspace(0, 1e300, vio_n))
setds("ts_9p3e9.h5", "groundtruth/timestamps", h5py.File(NAV, "r")["groundtruth/timestamps"][()] + 9.3e9)
setds("ts_37days.h5", "vio/timestamps", np.concatenate([base_t[:-1], [base_t[0] + 37 * 86400]]))
setds("ts_nan.h5", "vio/timestamps", np.full(vio_n, np.nan))
setds("ts_inf.h5", "imu/timestamps", np.full(h5py.File(NAV, "r")["imu/timestamps"].shape[0], np.inf))
setds("ts_negative_huge.h5", "vio/timestamps", base_t - 1e19)
setds("ble_1e300.h5", "ble/timestamps", np.linspace(0, 1e300, h5py.File(NAV, "r")["ble/timestamps"].shape[0]))
setds("ble_index_u64.h5", "ble/beacon", np.full(h5py.File(NAV, "r")["ble/beacon"].shape[0], 2**63 + 5, dtype="u8"))
setds("ble_index_neg.h5", "ble/beacon", np.full(h5py.File(NAV, "r")["ble/beacon"].shape[0], -1, dtype="i4"))
setds("ble_index_big.h5", "ble/beacon", np.full(h5py.File(NAV, "r")["ble/beacon"].shape[0], 2**31 - 1, dtype="i4"))
setds("vio_pos_1e308.h5", "vio/position", np.full((vio_n, 3), 1.7e308))
setds("vio_quat_zero.h5", "vio/orientation", np.zeros((vio_n, 4)))
setds("vio_strings.h5", "vio/position", np.array([b"abc"] * vio_n))
setds("vio_1d_position.h5", "vio/position", np.zeros(vio_n))
setds("vio_empty.h5", "vio/timestamps", np.zeros(0))
setds("vio_one_row.h5", "vio/timestamps", np.zeros(1))
setds("tracking_u64.h5", "vio/tracking_state", np.full(vio_n, 2**64 - 1, dtype="u8"))
setds("anchor_id_huge.h5", "anchors/anchor_id", np.full(h5py.File(NAV, "r")["anchors/anchor_id"].shape[0], 2**62, dtype="i8"))
setds("compound.h5", "vio/timestamps", np.zeros(vio_n, dtype=[("a", "f8"), ("b", "i4")]))
for kind in ("recording", "navigation", "bogus", ""):
    with h5(f"kind_{kind or 'empty'}.h5") as f: f.attrs["session_kind"] = kind
    note("h5")
with h5("kind_swapped_rec_as_nav.h5", REC) as f: f.attrs["session_kind"] = "navigation"
note("h5")
with h5("route_other.h5") as f: f.attrs["route_id"] = "R2-turns"
note("h5")
with h5("units_array.h5") as f: f["vio/timestamps"].attrs["units"] = np.array([b"s", b"s"])
note("h5")
with h5("units_int.h5") as f: f["vio/timestamps"].attrs["units"] = 7
note("h5")
with h5("version_huge.h5") as f: f.attrs["format_version"] = np.uint64(2**64 - 1)
note("h5")
with h5("version_float.h5") as f: f.attrs["format_version"] = 1e300
note("h5")
with h5("softlink_loop.h5") as f:
    f["loop_a"] = h5py.SoftLink("/loop_b"); f["loop_b"] = h5py.SoftLink("/loop_a")
    del f["vio/position"]; f["vio/position"] = h5py.SoftLink("/loop_a")
note("h5")
with h5("deep_groups.h5") as f:
    g = f
    for i in range(2000): g = g.create_group("g")
note("h5")
with h5("many_attrs.h5") as f:
    for i in range(2000): f.attrs[f"a{i}"] = "x" * 100
note("h5")
with h5("attr_long_route.h5") as f: f.attrs["route_id"] = "r" * 1_000_000
note("h5")
with h5("nonutf8_attr.h5") as f: f.attrs["route_id"] = np.bytes_(b"\xff\xfe\x80route")
note("h5")
# raw byte hostility
valid = open(NAV, "rb").read()
for i, cut in enumerate([0, 8, 100, 512, 2048, len(valid) // 2, len(valid) - 1]):
    open(path("h5", f"truncated_{i}.h5"), "wb").write(valid[:cut]); note("h5")
for i in range(12):
    b = bytearray(valid); idx = rng.integers(0, len(b), size=64)
    for j in idx: b[j] = int(rng.integers(0, 256))
    open(path("h5", f"bitflip_{i}.h5"), "wb").write(bytes(b)); note("h5")
open(path("h5", "random.h5"), "wb").write(rng.integers(0, 256, 4096, dtype=np.uint8).tobytes()); note("h5")
open(path("h5", "signature_only.h5"), "wb").write(b"\x89HDF\r\n\x1a\n" + b"\0" * 100); note("h5")

# ---------------------------------------------------------------- text trajectories
def text(reader, name, data):
    p = path(reader, name)
    open(p, "wb").write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")); note(reader)
tum_ok = "".join(f"{i*0.1:.3f} {i*0.1} 0 0 0 0 0 1\n" for i in range(50))
text("tum", "ok.tum", tum_ok)
text("tum", "crlf.tum", tum_ok.replace("\n", "\r\n"))
text("tum", "nul.tum", tum_ok[:100] + "\0\0\0" + tum_ok[100:])
text("tum", "huge_line.tum", "1 " * 2_000_000 + "\n")
text("tum", "ts_1e300.tum", "".join(f"{i*1e299} 0 0 0 0 0 0 1\n" for i in range(10)))
text("tum", "nan.tum", "nan nan nan nan nan nan nan nan\n" * 5)
text("tum", "non_utf8.tum", b"\xff\xfe 1 2 3\n" * 10)
text("tum", "exp_bomb.tum", "1e999999999 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n")
text("tum", "many_digits.tum", "0." + "1" * 100000 + " 0 0 0 0 0 0 1\n")
text("tum", "zero_quat.tum", "".join(f"{i} 0 0 0 0 0 0 0\n" for i in range(10)))
text("tum", "empty.tum", "")
text("tum", "comments_only.tum", "# a\n# b\n")
text("tum", "binary.tum", rng.integers(0, 256, 5000, dtype=np.uint8).tobytes())
text("tum", "short_rows.tum", "1 2 3\n4 5\n")
text("tum", "unordered.tum", "".join(f"{(10-i)} 0 0 0 0 0 0 1\n" for i in range(10)))
euroc_hdr = "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z []\n"
text("euroc", "ok.csv", euroc_hdr + "".join(f"{i*100000000},{i*0.1},0,0,1,0,0,0\n" for i in range(50)))
text("euroc", "ns_2p63.csv", euroc_hdr + "".join(f"{2**63 - 1 - i},{i},0,0,1,0,0,0\n" for i in range(5, 0, -1)))
text("euroc", "ns_1e30.csv", euroc_hdr + "".join(f"{i}e30,{i},0,0,1,0,0,0\n" for i in range(1, 6)))
text("euroc", "ns_negative.csv", euroc_hdr + "".join(f"{-10**19 + i},{i},0,0,1,0,0,0\n" for i in range(5)))
text("euroc", "crlf.csv", (euroc_hdr + "".join(f"{i*100000000},{i*0.1},0,0,1,0,0,0\n" for i in range(50))).replace("\n", "\r\n"))
text("euroc", "ragged.csv", euroc_hdr + "1,2\n3,4,5,6,7,8,9,10,11,12\n")
kitti_ok = "".join("1 0 0 %d 0 1 0 0 0 0 1 0\n" % i for i in range(20))
text("kitti", "ok.kitti", kitti_ok)
text("kitti", "times.txt", "".join(f"{i*0.1}\n" for i in range(20)))
text("kitti", "times_short.txt", "0\n")
text("kitti", "times_1e300.txt", "".join(f"{i*1e300}\n" for i in range(20)))
text("kitti", "not_rotation.kitti", "".join("2 0 0 %d 0 2 0 0 0 0 2 0\n" % i for i in range(20)))
text("kitti", "huge.kitti", "".join("1e308 0 0 1e308 0 1e308 0 0 0 0 1e308 0\n" for i in range(20)))
# CSV + mapping
csv_ok = "time,accel,ax,ay,az\n" + "".join(f"{i*0.01},{np.sin(i)},{i},0,9.8\n" for i in range(200))
text("csv", "ok.csv", csv_ok)
text("csv", "crlf.csv", csv_ok.replace("\n", "\r\n"))
text("csv", "bom.csv", "\ufeff" + csv_ok)
text("csv", "formula.csv", "time,accel\n" + "".join(f"{i},=cmd|' /C calc'!A0\n" for i in range(10)))
text("csv", "huge_time.csv", "time,accel,ax,ay,az\n" + "".join(f"{i}e300,1,0,0,9.8\n" for i in range(1, 50)))
text("csv", "one_column.csv", "time\n1\n2\n")
text("csv", "ragged.csv", "time,accel\n1\n2,3,4\n")
text("csv", "quotes.csv", 'time,accel\n"1,"2\n"unterminated\n')
text("csv", "header_only.csv", "time,accel\n")
text("csv", "nul_header.csv", "ti\0me,accel\n1,2\n")
text("csv", "dup_cols.csv", "time,time,time\n1,2,3\n")
text("csv", "long_field.csv", "time,accel\n1," + "9" * 2_000_000 + "\n")

# ---------------------------------------------------------------- mappings (YAML)
map_ok = """streams:
  imu:
    time: {column: time, units: s}
    accelerometer: {columns: [ax, ay, az], units: m/s^2}
"""
text("mapping", "ok.yaml", map_ok)
bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
for i, (p, c) in enumerate(zip("bcdefghi", "abcdefgh")):
    bomb += f"{p}: &{p} [" + ",".join([f"*{c}"] * 9) + "]\n"
bomb += "streams: *i\n"
text("mapping", "alias_bomb.yaml", bomb)
text("mapping", "deep.yaml", "streams: " + "[" * 5000 + "]" * 5000 + "\n")
text("mapping", "tabs.yaml", "streams:\n\timu: 1\n")
text("mapping", "huge_index.yaml", "streams:\n  imu:\n    time: {column: 99999999999999999999999, units: s}\n")
text("mapping", "neg_index.yaml", "streams:\n  imu:\n    time: {column: -1, units: s}\n")
text("mapping", "selection_huge.yaml", "streams:\n  vio:\n    position: {dataset: /vio/position, select: [9223372036854775807, 0, 1], units: m}\n    time: {dataset: /vio/timestamps, units: s}\n")
text("mapping", "hdf5_ok.yaml", "streams:\n  vio:\n    time: {dataset: /vio/timestamps, units: s}\n    position: {dataset: /vio/position, units: m}\n    orientation: {dataset: /vio/orientation, order: xyzw}\n")
text("mapping", "binary.yaml", rng.integers(0, 256, 2000, dtype=np.uint8).tobytes())
text("mapping", "unknown_key.yaml", "streams:\n  imu:\n    bogus: 1\n")

# ---------------------------------------------------------------- specs (YAML)
def spec(name, body):
    if isinstance(body, str): body = body.replace("CORPUS", os.path.abspath(out))
    text("spec", name, body)
INPUT = "inputs: [CORPUS/h5/id_traversal_rec.h5, CORPUS/h5/id_traversal_nav.h5]\n"
spec("ok.yaml", "name: fuzz-ok\n" + INPUT)
for key in ("traversal", "newline_md", "formula", "control", "long", "dotdot", "slash", "python_inject", "pipe", "empty", "dot", "absolute"):
    spec(f"ids_{key}.yaml", f"name: fuzz-{key.replace('_', '-')}\ninputs: [CORPUS/h5/id_{key}_rec.h5, CORPUS/h5/id_{key}_nav.h5]\n")
spec("alias_bomb.yaml", bomb.replace("streams: *i", "name: x\ninputs: *i"))
spec("grid_1e9.yaml", "name: grid\n" + INPUT + "sweep:\n  rdp_tolerance: [" + ",".join(str(0.1 * i) for i in range(1, 11)) + "]\n"
     + "  seeds: [" + ",".join(map(str, range(100))) + "]\n  anchor_sightings: [" + ",".join(map(str, range(1, 101))) + "]\n"
     + "  position_filter: [" + ",".join(f"'ema:tau={0.01 * i:.2f}'" for i in range(1, 101)) + "]\n  registration: [gravity-aligned, full]\n")
spec("grid_1e6.yaml", "name: grid\n" + INPUT + "sweep:\n  seeds: [" + ",".join(map(str, range(1000))) + "]\n  anchor_sightings: [" + ",".join(map(str, range(1, 1001))) + "]\n")
spec("repeated.yaml", "name: rep\n" + INPUT + "sweep:\n  rdp_tolerance: [0.3, 0.3, 0.30]\n")
spec("metric_inject.yaml", "name: inj\n" + INPUT + 'metrics: [\'x"]; __import__("os").system("touch PWNED"); _ = ["\', "pos_error_mean"]\n')
spec("metric_unknown.yaml", "name: unk\n" + INPUT + "metrics: [no_such_metric]\n")
spec("output_root.yaml", "name: root\n" + INPUT + "output: /\n")
spec("output_empty.yaml", "name: empty\n" + INPUT + "output: ''\n")
spec("output_dot.yaml", "name: dot\n" + INPUT + "output: .\n")
spec("output_input_folder.yaml", "name: inf\n" + INPUT + "output: CORPUS/h5\n")
spec("output_traversal.yaml", "name: trav\n" + INPUT + "output: ../../escaped\n")
spec("filter_bad.yaml", "name: fb\n" + INPUT + "calibration: ['kalman:q=-1']\n")
spec("filter_nan.yaml", "name: fn\n" + INPUT + "sweep:\n  position_filter: ['ema:tau=nan', 'butter:order=99999999999']\n")
spec("gyro_bad.yaml", "name: gb\n" + INPUT + "gyro_filters: ['butter:cutoff=1e308,order=1000000']\n")
spec("ape_missing.yaml", "name: am\n" + INPUT + "ape: [{reference: /nonexistent.tum, estimate: CORPUS/tum/ok.tum}]\n")
spec("ape_fifo.yaml", "name: af\n" + INPUT + "ape: [{reference: CORPUS/h5/fifo, estimate: CORPUS/tum/ok.tum}]\n")
spec("inputs_fifo.yaml", "name: if\ninputs: [CORPUS/h5/fifo, CORPUS/h5/ext_fifo.h5]\n")
spec("inputs_huge.yaml", "name: ih\ninputs: [CORPUS/h5/huge_*.h5, " + "CORPUS/h5/id_traversal_rec.h5]\n")
spec("inputs_glob_everything.yaml", "name: ge\ninputs: ['CORPUS/h5/*.h5']\n")
spec("deep.yaml", "name: d\ninputs: " + "[" * 3000 + "]" * 3000 + "\n")
spec("unknown_key.yaml", "name: u\n" + INPUT + "bogus: 1\n")
spec("binary.yaml", rng.integers(0, 256, 3000, dtype=np.uint8).tobytes())
spec("name_bad.yaml", "name: '../x'\n" + INPUT)
spec("uncertainty_huge.yaml", "name: uh\n" + INPUT + "closed_loop:\n  walker: [cane]\n  uncertainty: {samples: 10000, runs: 10000, parameters: {speed: [0.1, 1e308]}}\n")
spec("uncertainty_units.yaml", "name: uu\n" + INPUT + "sweep:\n  rdp_tolerance: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]\n  arrival: [faithful, symmetric]\n  wording: [clock, six-sector]\nclosed_loop:\n  walker: [cane]\n  uncertainty: {samples: 3000, runs: 1}\n")
spec("proximity_options_bad.yaml", "name: pb\n" + INPUT + "proximity: [none]\nproximity_options: {scan_window: -1e308, fit_min_distance: nan}\n")
spec("anchors_huge.yaml", "name: ah\n" + INPUT + "sweep:\n  anchor_sightings: [9223372036854775807, 99999999999999999999999]\n")
spec("seeds_neg.yaml", "name: sn\n" + INPUT + "sweep:\n  seeds: [-1, 18446744073709551616]\n")
spec("compare_bad.yaml", "name: cb\n" + INPUT + "compare: {pos_error_mean: {absolute: -1, relative: .nan}}\n")
# Fourth pass (issue 50): a closed-loop grid of 10^9 cells by its own keys, an infinite tolerance.
spec("closed_loop_grid.yaml", "name: clg\n" + INPUT + "closed_loop:\n  walker: [" + ",".join(f"'cane:speed={0.5 + i / 1000:.3f}'" for i in range(1000)) + "]\n"
     + "  seeds: [" + ",".join(map(str, range(1000))) + "]\n  vio_error: [" + ",".join(f"'yaw_offset={i / 100:.2f}'" for i in range(1000)) + "]\n")
spec("compare_inf.yaml", "name: ci\n" + INPUT + "compare: {success_rate: {absolute: .inf, relative: 0}}\n")

# ---------------------------------------------------------------- Clew routes (.crd binary plists)
def bplist(objects, top, ref_size=2, offset_size=4):
    """objects: list of raw encoded object bytes; returns a bplist00."""
    body = b"bplist00"; offsets = []
    for o in objects: offsets.append(len(body)); body += o
    table = len(body)
    for o in offsets: body += o.to_bytes(offset_size, "big")
    body += b"\0" * 6 + bytes([offset_size, ref_size]) + len(objects).to_bytes(8, "big") + top.to_bytes(8, "big") + table.to_bytes(8, "big")
    return body
def s(x): b = x.encode(); return bytes([0x50 | len(b)]) + b if len(b) < 15 else bytes([0x5F, 0x10, len(b)]) + b
def uid(n, width=1): return bytes([0x80 | (width - 1)]) + n.to_bytes(width, "big")
def d(keys, vals, rs=2):
    return bytes([0xD0 | len(keys)]) + b"".join(k.to_bytes(rs, "big") for k in keys) + b"".join(v.to_bytes(rs, "big") for v in vals)
# objects: 0 top dict {$archiver: 1, $objects: 2, $top: 3}; 1 "NSKeyedArchiver"; 2 array [4]; 3 dict {root: 5}; 4 "$null"; 5 uid
def archive(uid_obj):
    objs = [d([6, 7, 8], [1, 2, 3]), s("NSKeyedArchiver"), bytes([0xA1]) + (4).to_bytes(2, "big"), d([9], [5]), s("$null"), uid_obj,
            s("$archiver"), s("$objects"), s("$top"), s("root")]
    return bplist(objs, 0)
text("crd", "uid_2p63.crd", archive(uid(2**63 + 1, 8)))
text("crd", "uid_max.crd", archive(uid(2**64 - 1, 8)))
text("crd", "uid_small.crd", archive(uid(0)))
objs = [d([6, 7, 8], [1, 2, 3]), s("NSKeyedArchiver"), bytes([0xA1]) + (0xFFFF).to_bytes(2, "big"), d([9], [5]), s("$null"), uid(0), s("$archiver"), s("$objects"), s("$top"), s("root")]
text("crd", "ref_out_of_range.crd", bplist(objs, 0))
objs8 = [bytes([0xA1]) + (2**63 + 7).to_bytes(8, "big")]
text("crd", "ref_2p63.crd", bplist(objs8 + [s("x")], 0, ref_size=8))
text("crd", "self_cycle.crd", bplist([bytes([0xA1]) + (0).to_bytes(2, "big")], 0))
text("crd", "trailer_huge_count.crd", b"bplist00" + b"\0" * 10 + b"\0" * 6 + bytes([8, 8]) + (2**64 - 1).to_bytes(8, "big") + (0).to_bytes(8, "big") + (8).to_bytes(8, "big"))
text("crd", "trailer_table_overflow.crd", b"bplist00" + b"\x00" * 10 + b"\0" * 6 + bytes([8, 8]) + (5).to_bytes(8, "big") + (0).to_bytes(8, "big") + (2**64 - 9).to_bytes(8, "big"))
text("crd", "length_huge.crd", bplist([bytes([0x5F, 0x13]) + (2**63).to_bytes(8, "big")], 0))
text("crd", "int_16byte.crd", bplist([bytes([0x14]) + b"\1" * 16], 0))
text("crd", "bplist01.crd", b"bplist01" + b"\0" * 40)
text("crd", "empty.crd", b"")
text("crd", "random.crd", b"bplist00" + rng.integers(0, 256, 3000, dtype=np.uint8).tobytes())
# deep nesting: arrays each referencing the next
n = 400
text("crd", "deep_nesting.crd", bplist([bytes([0xA1]) + (i + 1).to_bytes(2, "big") for i in range(n)] + [s("end")], 0))
# exponential sharing: array k = [k+1, k+1] (a DAG with 2^60 paths)
n = 60
text("crd", "dag_bomb.crd", bplist([bytes([0xA2]) + (i + 1).to_bytes(2, "big") * 2 for i in range(n)] + [s("leaf")], 0))
CLEW_FIXTURES = "Tests/NavImportTests/Fixtures/import/clew"
assert os.path.isdir(CLEW_FIXTURES), f"{CLEW_FIXTURES}: missing (the mutated .crd inputs come from it)"
for name in sorted(os.listdir(CLEW_FIXTURES)):
    if name.endswith(".crd"):
        b = bytearray(open(os.path.join(CLEW_FIXTURES, name), "rb").read())
        for i in range(6):
            c = bytearray(b)
            for j in rng.integers(8, len(c) - 32, size=16): c[j] = int(rng.integers(0, 256))
            text("crd", f"mut_{name[:-4]}_{i}.crd", bytes(c))
        text("crd", f"trunc_{name}", bytes(b[: len(b) // 2]))

# ---------------------------------------------------------------- BLE annotated (.mbd) and ARKit logger
text("mbd", "crlf.mbd", "time;mac;rssi\r\n1;aa:bb;-50\r\n")
text("mbd", "huge_time.mbd", "".join(f"{i}e300 aa:bb:cc:dd:ee:ff -50\n" for i in range(1, 20)))
text("mbd", "binary.mbd", rng.integers(0, 256, 4000, dtype=np.uint8).tobytes())
text("arkit", "ARKit_camera_pose.txt", "".join(f"{i*1e300} 0 0 0 0 0 0 1\n" for i in range(10)))
text("arkit", "nan_pose.txt", "".join("nan nan nan nan nan nan nan nan\n" for i in range(10)))
text("arkit", "crlf_pose.txt", "".join(f"{i*0.1} 0 0 0 0 0 0 1\r\n" for i in range(10)))

# ---------------------------------------------------------------- IPIN/EvAAL smartphone logfiles (import ipin)
ipin_ok = "% Manufacturer: acme\n% Model: P1\n" + "".join(
    f"ACCE;{i*0.01:.4f};{1000+i*0.01:.4f};0.1;9.8;0.2;3\nGYRO;{i*0.01:.4f};{1000+i*0.01:.4f};0.01;0.02;0.03;3\n" for i in range(100)
) + "POSI;0.2;1;49.4612;11.1109;0;100\nPOSI;0.8;2;49.4613;11.1109;1;100\n"
text("ipin", "ok.txt", ipin_ok)
text("ipin", "crlf.txt", ipin_ok.replace("\n", "\r\n"))
text("ipin", "nan.txt", ipin_ok.replace("0.1;9.8", "nan;inf"))
text("ipin", "huge_times.txt", ipin_ok.replace("ACCE;0.", "ACCE;1e300").replace("POSI;0.2", "POSI;1e308"))
text("ipin", "lat_1e308.txt", ipin_ok + "POSI;0.9;3;1e308;-1e308;1e30;100\n")
text("ipin", "rotation_vector_2.txt", ipin_ok + "AHRS;0.5;1000.5;1;2;3;2.0;2.0;2.0;3\nAHRS;0.6;1000.6;1;2;3;0;0;0;3\n")
text("ipin", "ble_rssi_1e9.txt", ipin_ok + "BLE4;0.5;iBeacon;AA;1e9;-59;70000;-1;" + "u" * 100 + "\n")
text("ipin", "backwards.txt", ipin_ok + "ACCE;0.001;999.0;0;0;0;3\n")
text("ipin", "two_buildings.txt", ipin_ok + "POSI;0.9;3;49.46;11.11;0;200\n")
# IPIN scoring files (score --protocol ipin): a NUL inside a number, positions off the Earth, 10^5 estimates at one time.
text("ipinscore", "gt.csv", "1,11.1,49.4,0,1\n2,11.1,49.4,0,2\n")
text("ipinscore", "gt_371.csv", "1,371,49.4,0,1\n")
text("ipinscore", "nul.est", "0\n0\n0.5,0,0,0,11.1,49\x00.4,0\n")
text("ipinscore", "lat_1e308.est", "0\n0\n0.5,0,0,0,11.1,1e308,0\n")
text("ipinscore", "same_time.est", "0\n0\n" + "0.5,0,0,0,11.1,49.4,0\n" * 100_000)
text("ipin", "only_header.txt", "% just a header\n%\n")
text("ipin", "many_fields.txt", "ACCE;" + ";".join(["1"] * 200_000) + "\n")
text("ipin", "binary.txt", rng.integers(0, 256, 5000, dtype=np.uint8).tobytes())

# ---------------------------------------------------------------- ROS 1 bags and MCAP (built from the specifications)
import bz2
def le(fmt, *v): return struct.pack("<" + fmt, *v)
def bag_record(fields, data=b""):
    h = b"".join(le("I", len(k) + 1 + len(v)) + k.encode() + b"=" + v for k, v in fields)
    return le("I", len(h)) + h + le("I", len(data)) + data
def bag_fields(fields): return b"".join(le("I", len(k) + 1 + len(v)) + k.encode() + b"=" + v for k, v in fields)
def bag_conn(cid, topic, typ):
    t = topic.encode("utf-8", "surrogatepass")
    return bag_record([("op", b"\x07"), ("conn", le("I", cid)), ("topic", t)], bag_fields([("topic", t), ("type", typ.encode()), ("md5sum", b"*")]))
def bag_msg(cid, sec, payload, nsec=0): return bag_record([("op", b"\x02"), ("conn", le("I", cid)), ("time", le("II", sec, nsec))], payload)
def bag_chunk(records, compression="none", size=None, data=None):
    if data is None: data = bz2.compress(records) if compression == "bz2" else records
    return bag_record([("op", b"\x05"), ("compression", compression.encode()), ("size", le("I", len(records) if size is None else size))], data)
def bag(*records, index_pos=0):
    return b"#ROSBAG V2.0\n" + bag_record([("op", b"\x03"), ("index_pos", le("Q", index_pos)), ("conn_count", le("I", 1)), ("chunk_count", le("I", 1))]) + b"".join(records)
def ros_str(x): return le("I", len(x)) + x
def pose_stamped(sec, nsec=0, frame=b"map", q=(0, 0, 0, 1)): return le("III", 0, sec, nsec) + ros_str(frame) + le("7d", 0, 0, 0, *q)
def tf(transforms): return le("I", len(transforms)) + b"".join(le("III", 0, s, 0) + ros_str(b"map") + ros_str(c) + le("7d", 0, 0, 0, 0, 0, 0, 1) for s, c in transforms)
def poses(n, **kw): return [bag_msg(0, 100 + i, pose_stamped(100 + i, **kw)) for i in range(n)]
PS = "geometry_msgs/PoseStamped"
bomb = bz2.compress(b"\0" * (64 << 20), 9)  # 79 bytes
text("rosbag", "ok.bag", bag(bag_chunk(bag_conn(0, "/pose", PS) + b"".join(poses(5)))))
text("rosbag", "bomb_declared_small.bag", bag(bag_chunk(b"", "bz2", size=1000, data=bomb)))
text("rosbag", "bomb_declared_64mib.bag", bag(bag_chunk(b"", "bz2", size=64 << 20, data=bomb)))
text("rosbag", "chunk_size_max.bag", bag(bag_chunk(b"", "bz2", size=2**32 - 1, data=bomb)))
text("rosbag", "chunk_size_short.bag", bag(bag_chunk(bag_conn(0, "/pose", PS) + b"".join(poses(5)), "bz2", size=10)))
text("rosbag", "lz4_garbage.bag", bag(bag_chunk(b"", "lz4", size=5000, data=b"\x04\x22\x4d\x18" + b"\xff" * 64)))
text("rosbag", "field_len_max.bag", b"#ROSBAG V2.0\n" + le("I", 8) + le("I", 2**32 - 1) + b"\0" * 4 + le("I", 0))
text("rosbag", "header_len_max.bag", b"#ROSBAG V2.0\n" + le("I", 2**32 - 1) + b"\0" * 64)
text("rosbag", "index_pos_max.bag", bag(index_pos=2**64 - 1))
text("rosbag", "nsec_too_big.bag", bag(bag_chunk(bag_conn(0, "/pose", PS) + bag_msg(0, 1, pose_stamped(1), nsec=2**32 - 1))))
text("rosbag", "stamp_nsec_too_big.bag", bag(bag_chunk(bag_conn(0, "/pose", PS) + bag_msg(0, 1, pose_stamped(1, nsec=2**32 - 1)))))
text("rosbag", "stamp_max.bag", bag(bag_chunk(bag_conn(0, "/pose", PS) + b"".join(bag_msg(0, 1, pose_stamped(2**32 - 1 - i)) for i in range(3)))))
text("rosbag", "unknown_conn.bag", bag(bag_chunk(bag_msg(7, 1, pose_stamped(1)))))
text("rosbag", "nested_chunk.bag", bag(bag_chunk(bag_chunk(bag_conn(0, "/pose", PS)))))
text("rosbag", "frame_len_max.bag", bag(bag_chunk(bag_conn(0, "/pose", PS) + bag_msg(0, 1, le("III", 0, 1, 0) + le("I", 2**32 - 1) + b"\0" * 56))))
text("rosbag", "not_unit.bag", bag(bag_chunk(bag_conn(0, "/pose", PS) + b"".join(poses(5, q=(0, 0, 0, 0))))))
text("rosbag", "tf_count_max.bag", bag(bag_chunk(bag_conn(0, "/tf", "tf2_msgs/TFMessage") + bag_msg(0, 1, le("I", 2**32 - 1) + b"\0" * 80))))
text("rosbag", "tf_many_frames.bag", bag(bag_chunk(bag_conn(0, "/tf", "tf2_msgs/TFMessage") + bag_msg(0, 1, tf([(1, f"f{i}\n\x1b[2J".encode()) for i in range(2000)])))))
for key in ("newline_md", "control", "long", "unicode_rtl", "traversal", "empty"):
    name = "/" + HOSTILE_NAMES[key]
    text("rosbag", f"topic_{key}.bag", bag(bag_chunk(bag_conn(0, name, PS) + bag_conn(1, name + "x", "evil\n/Type\x1b[31m") + b"".join(poses(3)) + bag_msg(1, 1, b"x"))))
text("rosbag", "op_unknown.bag", bag(bag_record([("op", b"\x09")])))
text("rosbag", "empty_magic.bag", b"#ROSBAG V2.0\n")

def mcap_rec(op, content): return bytes([op]) + le("Q", len(content)) + content
def mcap_str(x): x = x.encode("utf-8", "surrogatepass") if isinstance(x, str) else x; return le("I", len(x)) + x
MAGIC = b"\x89MCAP0\r\n"
def mcap(*records, footer=True):
    body = MAGIC + mcap_rec(0x01, mcap_str("ros2") + mcap_str("fuzz")) + b"".join(records)
    return body + (mcap_rec(0x0F, le("I", 0)) + mcap_rec(0x02, b"\0" * 20) + MAGIC if footer else b"")
def mcap_schema(sid, name): return mcap_rec(0x03, le("H", sid) + mcap_str(name) + mcap_str("ros2msg") + le("I", 0))
def mcap_channel(cid, sid, topic): return mcap_rec(0x04, le("HH", cid, sid) + mcap_str(topic) + mcap_str("cdr") + le("I", 0))
def cdr_pose(sec): return b"\0\1\0\0" + le("iI", sec, 0) + mcap_str(b"map\0") + b"\0" * 0 + b"\0" * ((8 - (12 + 4) % 8) % 8) + le("7d", 0, 0, 0, 0, 0, 0, 1)
def mcap_msg(cid, t, payload): return mcap_rec(0x05, le("HIQQ", cid, 0, t, t) + payload)
def mcap_chunk(records, compression="", size=None, length=None):
    return mcap_rec(0x06, le("QQQI", 0, 0, len(records) if size is None else size, 0) + mcap_str(compression) + le("Q", len(records) if length is None else length) + records)
defs = mcap_schema(1, "geometry_msgs/msg/PoseStamped") + mcap_channel(1, 1, "/pose")
mp = b"".join(mcap_msg(1, (100 + i) * 10**9, cdr_pose(100 + i)) for i in range(5))
text("mcap", "ok.mcap", mcap(mcap_chunk(defs + mp)))
text("mcap", "record_len_max.mcap", MAGIC + bytes([0x01]) + le("Q", 2**64 - 1) + b"\0" * 16)
text("mcap", "chunk_size_max.mcap", mcap(mcap_chunk(b"\0" * 16, "zstd", size=2**64 - 1)))
text("mcap", "chunk_size_limit.mcap", mcap(mcap_chunk(b"\0" * 16, "zstd", size=(256 << 20) + 1)))
text("mcap", "chunk_records_len_max.mcap", mcap(mcap_chunk(defs, length=2**64 - 1)))
text("mcap", "chunk_size_short.mcap", mcap(mcap_chunk(defs + mp, size=10)))
text("mcap", "zstd_garbage.mcap", mcap(mcap_chunk(b"\x28\xb5\x2f\xfd" + b"\xff" * 64, "zstd", size=5000)))
text("mcap", "inner_len_max.mcap", mcap(mcap_chunk(bytes([0x05]) + le("Q", 2**64 - 1) + b"\0" * 30)))
text("mcap", "string_len_max.mcap", MAGIC + mcap_rec(0x01, le("I", 2**32 - 1) + b"ros2"))
text("mcap", "no_footer.mcap", mcap(mcap_chunk(defs + mp), footer=False))
text("mcap", "unknown_schema.mcap", mcap(mcap_channel(1, 9, "/pose")))
text("mcap", "unknown_channel.mcap", mcap(mcap_msg(5, 1, cdr_pose(1))))
text("mcap", "cdr_big_endian_junk.mcap", mcap(defs, mcap_msg(1, 1, b"\0\0\0\0" + b"\xff" * 72)))
text("mcap", "cdr_encapsulation.mcap", mcap(defs, mcap_msg(1, 1, b"\0\x07\0\0" + b"\0" * 72)))
text("mcap", "tf_count_max.mcap", mcap(mcap_schema(1, "tf2_msgs/msg/TFMessage"), mcap_channel(1, 1, "/tf"), mcap_msg(1, 1, b"\0\1\0\0" + le("I", 2**32 - 1) + b"\0" * 80)))
text("mcap", "topic_control.mcap", mcap(mcap_schema(1, "evil\n\x1b[31m"), mcap_channel(1, 1, "/a\n/b\x1b]0;x\x07"), mcap_msg(1, 1, b"x")))
text("mcap", "empty_magic.mcap", MAGIC)

# the committed fixtures, truncated and with bit flips
fix = "Tests/NavRosbagTests/Fixtures"
for name in ("sample-bz2.bag", "sample-lz4.bag", "sample-none.bag", "sample-lz4.mcap", "sample-zstd.mcap", "sample-none.mcap"):
    reader = "rosbag" if name.endswith(".bag") else "mcap"
    b = open(os.path.join(fix, name), "rb").read()
    for i, cut in enumerate((len(b) // 3, len(b) - 7)):
        text(reader, f"trunc{i}_{name}", b[:cut])
    for i in range(3):
        c = bytearray(b)
        for j in rng.integers(13, len(c), size=8): c[j] = int(rng.integers(0, 256))
        text(reader, f"flip{i}_{name}", bytes(c))

# ---------------------------------------------------------------- WeAllWalk phone files and walk XML
def ww_row(t, extra=None):
    v = [f"{t:.6f}"] + ["0.100000"] * 12 + ["0.000000", "0.000000", "0.000000", "1.000000"] + ["0.010000"] * 12 + ["-1"] \
        + ["0.010000", "-0.990000", "0.050000"] + ["0.001000"] * 3 + ["20.0", "30.0", "-40.0"] + ["0", "0"]
    if extra: extra(v)
    return ",".join(v) + "\n"
ww_ok = "".join(ww_row(i * 0.04) for i in range(300))
text("weallwalk", "iPhoneSensors_T1_ID1_1L_WC.csv", ww_ok)
text("weallwalk", "iPhoneSensors_T1_ID2_1L_WC.csv", ww_ok.replace("\n", "\r\n"))
text("weallwalk", "iPhoneSensors_T1_ID3_1L_WC.csv", ww_ok[:5000] + "0.1,\0" + ww_ok[5000:])
text("weallwalk", "iPhoneSensors_T1_ID4_1L_GD.csv", "".join(ww_row(i * 1e306) for i in range(50)))
text("weallwalk", "iPhoneSensors_T1_ID5_1L_WC.csv", "".join(ww_row(10 - i * 0.04) for i in range(50)))
text("weallwalk", "iPhoneSensors_T2_ID1_1L_WC.csv", "".join(ww_row(0.0) for i in range(50)))
text("weallwalk", "iPhoneSensors_T2_ID2_1L_WC.csv", "".join(ww_row(i * 0.04, lambda v: v.__setitem__(31, "nan")) for i in range(50)))
text("weallwalk", "iPhoneSensors_T2_ID3_1L_WC.csv", "".join(ww_row(i * 0.04, lambda v: v.__setitem__(14, "1e300")) for i in range(50)))
text("weallwalk", "iPhoneSensors_T2_ID4_1L_GD.csv", "1," * 200000 + "\n")
text("weallwalk", "iPhoneSensors_T2_ID5_1L_WC.csv", rng.integers(0, 256, 5000, dtype=np.uint8).tobytes())
text("weallwalk", "iPhoneSensors_T3_ID1_1L_WC.csv", "")
text("weallwalk", "iPhoneSensors_T3_ID2_1L_WC.csv", ww_ok[:-30])
def ww_xml(segments, head="<PathID>1</PathID><SubjectID>1</SubjectID><MobilityTool>WC</MobilityTool>", prolog=""):
    return prolog + "<root>" + head + "<Segments>" + segments + "</Segments></root>\n"
def seg(sid, start, end, steps=(), turn=None, features=""):
    t = f"<TurnInDegrees>{turn}</TurnInDegrees>" if turn is not None else ""
    d = "TurnEtoS" if turn is not None else "E"
    st = "".join(f"<Step><WhichFoot>L</WhichFoot><Time>{s}</Time></Step>" for s in steps)
    return (f"<PathSegment><SpatialSegmentID>{sid}</SpatialSegmentID><StartTime>{start}</StartTime><EndTime>{end}</EndTime>"
            f"<Direction>{d}</Direction>{t}<Steps>{st}</Steps><Features>{features}</Features></PathSegment>")
def ww_case(name, xml):
    """A walk folder: the phone file and its XML under the name steps/turns look for beside it."""
    d = os.path.join(out, "weallwalk", name); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "iPhoneSensors_T1_ID1_1L_WC.csv"), "w").write(ww_ok)
    open(os.path.join(d, "T1_ID1_WC.xml"), "wb").write(xml if isinstance(xml, bytes) else xml.encode("utf-8", "surrogatepass"))
    note("weallwalk")
ok_segments = seg("1", 0.5, 6, [1, 1.5, 2, 2.5, 3, 3.5, 4]) + seg("1-2", 6, 8, [6.5, 7], turn=-90) + seg("2", 8, 11.9, [8.5, 9, 9.5])
def feature(desc): return f"<Feature><StartTime>1</StartTime><EndTime>2</EndTime><Description>{desc}</Description></Feature>"
ww_case("ok", ww_xml(ok_segments))
ww_case("xxe", ww_xml(seg("1", 0.5, 6, [1], features=feature("&xxe;")),
        prolog='<?xml version="1.0"?><!DOCTYPE root [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'))
lol = '<!DOCTYPE root [<!ENTITY a "lollollollollollollollollollol">' + "".join(
    f'<!ENTITY {c} "' + f"&{p};" * 10 + '">' for p, c in zip("abcdefgh", "bcdefghi")) + "]>"
ww_case("billion_laughs", ww_xml(seg("1", 0.5, 6, [1], features=feature("&i;")), prolog=lol))
ww_case("deep", "<root>" + "<a>" * 100000 + "</a>" * 100000 + "</root>\n")
ww_case("reversed", ww_xml(seg("1", 6, 0.5, [1])))
ww_case("huge_times", ww_xml(seg("1", 0.5, 1e308, [1e308, 1e300]) + seg("1-2", -1e308, 1e308, [], turn=1e9)))
ww_case("nan_times", ww_xml(seg("1", "nan", "inf", ["nan"])))
ww_case("nul_time", ww_xml(seg("1", 0.5, 6, ["1&#0;.5"])))
ww_case("hostile_text", ww_xml(ok_segments.replace("<Features></Features>", "<Features>" + feature(
    "&lt;/script&gt;&lt;!-- | `x` $(reboot) \u202e =cmd|' /C calc'!A0\n## heading") + "</Features>", 1)))
ww_case("many_steps", ww_xml(seg("1", 0, 11.9, [i * 1e-5 for i in range(200000)])))
ww_case("subject_mismatch", ww_xml(ok_segments, head="<PathID>9</PathID><SubjectID>77</SubjectID><MobilityTool>GD</MobilityTool>"))
ww_case("binary", rng.integers(0, 256, 3000, dtype=np.uint8).tobytes())
ww_case("empty", "")

total = sum(count.values())
with open(os.path.join(out, "COUNTS"), "w") as f:
    for k in sorted(count): f.write(f"{k} {count[k]}\n")
    f.write(f"total {total}\n")
print(f"{total} hostile inputs in {out}: " + ", ".join(f"{k} {v}" for k, v in sorted(count.items())))
