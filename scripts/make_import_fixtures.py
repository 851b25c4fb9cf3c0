#!/usr/bin/env python3
"""Writes the importer test fixtures under Tests/NavImportTests/Fixtures/import/ (committed, so
`swift test` needs neither Python nor the licensed originals):

- real/: excerpts of the real recordings in ../shared/real-data (first lines / rows only, with
  each source's licence file beside them);
- bad/: malformed copies, each with one defect the importers must report in one line;
- csv/: small hand-made CSV files and mapping files (units, sparse streams, errors).

Run from the repository root: python3 scripts/make_import_fixtures.py [--real ../shared/real-data]
Needs h5py and numpy (the BROAD excerpt is HDF5 in BROAD's own layout).
"""
import argparse
import os
import shutil

import h5py
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--real", default="../shared/real-data")
args = ap.parse_args()
SRC = args.real
OUT = "Tests/NavImportTests/Fixtures/import"


def path(*p):
    full = os.path.join(OUT, *p)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    return full


def head(src, dst, n):
    """The first n lines of a text file."""
    with open(src, encoding="utf-8") as f:
        lines = f.readlines()[:n]
    with open(path(dst), "w", encoding="utf-8") as f:
        f.writelines(lines)
    return lines


def write(dst, text):
    with open(path(dst), "w", encoding="utf-8") as f:
        f.write(text)


def copy(src, dst):
    shutil.copyfile(src, path(dst))


# --- real excerpts -------------------------------------------------------------------------
# TUM fr1/xyz: both files whole (APE against evo's 0.013470 m needs every pose).
for name in ["freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "LICENSE.md"]:
    copy(f"{SRC}/tum-fr1-xyz/{name}", f"real/tum-fr1-xyz/{name}")

# ARKit Data Logger: the first 300 frames.
arkit = head(f"{SRC}/arkit-data-logger/Visualization/ARKit_camera_pose.txt", "real/arkit-data-logger/ARKit_camera_pose.txt", 301)
copy(f"{SRC}/arkit-data-logger/LICENSE", "real/arkit-data-logger/LICENSE")

# CoreMotion logger: the first 300 samples of the files the importer reads, gps.txt whole.
cm = f"{SRC}/coremotion-data-logger/Visualization"
for name in ["game_rv.txt", "gyro.txt", "gravity.txt", "linacce.txt", "magnet.txt", "heading.txt"]:
    head(f"{cm}/{name}", f"real/coremotion-data-logger/{name}", 301)
copy(f"{cm}/gps.txt", "real/coremotion-data-logger/gps.txt")
copy(f"{SRC}/coremotion-data-logger/LICENSE", "real/coremotion-data-logger/LICENSE")

# BROAD: rows 0–1999 of trial 02 in BROAD's own layout (flat datasets, w-first ENU quaternions,
# NaN optical dropouts at the start, sampling_rate attribute, no timestamps).
with h5py.File(f"{SRC}/broad/02_undisturbed_slow_rotation_B.hdf5", "r") as src, \
        h5py.File(path("real/broad/02_excerpt.hdf5"), "w", track_order=True) as dst:
    for k, v in src.attrs.items():
        dst.attrs[k] = v
    for name in ["imu_acc", "imu_gyr", "imu_mag", "opt_quat", "opt_pos", "movement"]:
        dst.create_dataset(name, data=src[name][:2000])
copy(f"{SRC}/broad/LICENSE", "real/broad/LICENSE")

# BLE: the first 300 lines of straight_05 (line 175 holds the corrupt +42 dBm reading), the devices file.
ble = f"{SRC}/ble-position-annotated"
head(f"{ble}/trk/straight_05_all_sensors.mbd", "real/ble-position-annotated/trk/straight_05_all_sensors.mbd", 300)
head(f"{ble}/trk/rectangular_with_rotation_all_sensors.mbd", "real/ble-position-annotated/trk/rectangular_with_rotation_all_sensors.mbd", 400)
copy(f"{ble}/cnf/tetam.dev", "real/ble-position-annotated/cnf/tetam.dev")
copy(f"{ble}/LICENSE.md", "real/ble-position-annotated/LICENSE.md")

write("real/README.md", """# Excerpts of real recordings (test fixtures)

Cut from `../shared/real-data` by `scripts/make_import_fixtures.py`; each folder keeps its
source's licence. Attribution: TUM RGB-D fr1/xyz (Sturm et al., IROS 2012; CC BY 4.0);
ARKit Data Logger and CoreLocation/CoreMotion Data Logger (Pyojin Kim; MIT); BROAD (Laidig,
Caruso, Cereatti, Seel, Data 6(7), 2021; CC BY 4.0); Position-Annotated BLE RSSI Dataset
(Daniş et al., Pervasive and Mobile Computing 81, 2022; CC0 1.0).

| folder | excerpt |
|---|---|
| `tum-fr1-xyz/` | both trajectories whole |
| `arkit-data-logger/` | first 300 frames of `ARKit_camera_pose.txt` |
| `coremotion-data-logger/` | first 300 samples of game_rv, gyro, gravity, linacce, magnet, heading; gps.txt whole |
| `broad/02_excerpt.hdf5` | rows 0–1999 of trial 02 (same datasets and attributes) |
| `ble-position-annotated/` | first 300 lines of straight_05 (with the +42 dBm reading on line 175), first 400 of rectangular_with_rotation, `cnf/tetam.dev` |
""")

# --- malformed copies ----------------------------------------------------------------------
gt = open(f"{SRC}/tum-fr1-xyz/freiburg1_xyz-groundtruth.txt", encoding="utf-8").read().splitlines(True)
bad = gt[:20]
bad[10] = bad[10].replace(bad[10].split()[2], "0.6x2", 1)
write("bad/tum_letters.txt", "".join(bad))
bad = gt[:20]
bad[12], bad[13] = gt[13], gt[12]
write("bad/tum_unordered.txt", "".join(bad))

lines = arkit[:20]
write("bad/arkit_short_line/ARKit_camera_pose.txt", "".join(lines[:8] + [" ".join(lines[8].split()[:12]) + "\n"] + lines[9:]))
f = lines[5].split()
f[1], f[2] = "0.5", "0.5"  # r11, r12: no longer a rotation
write("bad/arkit_not_rotation/ARKit_camera_pose.txt", "".join(lines[:5] + [" ".join(f) + "\n"] + lines[6:]))

for name in ["game_rv.txt", "gravity.txt", "linacce.txt", "magnet.txt", "heading.txt"]:
    head(f"{cm}/{name}", f"bad/coremotion_time_mismatch/{name}", 21)
g = open(f"{cm}/gyro.txt", encoding="utf-8").read().splitlines(True)[:21]
f = g[7].split()
f[0] = str(int(f[0]) + 1000)
g[7] = " ".join(f) + " \n"
write("bad/coremotion_time_mismatch/gyro.txt", "".join(g))
for name in ["game_rv.txt", "gyro.txt", "gravity.txt", "linacce.txt", "magnet.txt"]:
    head(f"{cm}/{name}", f"bad/coremotion_heading/{name}", 21)
h = open(f"{cm}/heading.txt", encoding="utf-8").read().splitlines(True)[:21]
h[4] = h[4].split()[0] + " -1.000000 \n"
write("bad/coremotion_heading/heading.txt", "".join(h))

mbd = open(f"{ble}/trk/straight_01_all_sensors.mbd", encoding="utf-8").read().splitlines(True)[:30]
b = list(mbd)
b[6] = ",".join(b[6].split(",")[:15]) + "\n"
write("bad/ble/trk/short_line.mbd", "".join(b))
b = list(mbd)
b[9] = b[9].replace(b[9].split(",")[1], "aabbccddeeff", 1)
write("bad/ble/trk/unknown_receiver.mbd", "".join(b))
copy(f"{ble}/cnf/tetam.dev", "bad/ble/cnf/tetam.dev")

# BROAD layout with units attributes (one contradicting the mapping) and a misnamed dataset.
with h5py.File(f"{SRC}/broad/02_undisturbed_slow_rotation_B.hdf5", "r") as src, \
        h5py.File(path("bad/broad_units_attr.hdf5"), "w", track_order=True) as dst:
    dst.attrs["sampling_rate"] = src.attrs["sampling_rate"]
    for name, units in [("imu_acc", "m/s^2"), ("imu_gyr", "deg/s"), ("imu_mag", "uT"), ("opt_quat", None), ("opt_pos", "m")]:
        d = dst.create_dataset(name, data=src[name][:200])
        if units:
            d.attrs["units"] = units

# --- hand-made CSV files ---------------------------------------------------------------------
# Units and a sparse second stream: imu at 100 Hz in g and deg/s with ms times, compass at 10 Hz in rad.
rows = ["t_ms,ax_g,ay_g,az_g,gx_dps,gy_dps,gz_dps,heading_rad"]
for k in range(20):
    heading = f"{(k * 0.7) % 7 - 3.5:.4f}" if k % 10 == 0 else ""
    rows.append(f"{1000 + 10 * k},0.01,{1 + 0.001 * k:.3f},-0.02,{k * 0.5:.1f},0,-{k * 0.25:.2f},{heading}")
write("csv/phone.csv", "\n".join(rows) + "\n")
write("csv/phone.mapping.yaml", """# A phone log: IMU in g and deg/s at 100 Hz, compass heading in radians at 10 Hz, times in ms.
navbench_mapping: 1
source: csv
time: {column: t_ms, units: ms}
streams:
  imu:
    accelerometer: {columns: [ax_g, ay_g, az_g], units: g}
    gyroscope: {columns: [gx_dps, gy_dps, gz_dps], units: deg/s}
  compass:
    heading: {column: heading_rad, units: rad}
""")
# Headerless, whitespace-separated, ENU positions with w-first quaternions, ns times, comments.
rows = ["# t_ns east north up qw qx qy qz"]
for k in range(10):
    rows.append(f"{1_700_000_000_000_000_000 + 100_000_000 * k} {0.5 * k} {0.25 * k} 1.5 1 0 0 0")
write("csv/enu_track.txt", "\n".join(rows) + "\n")
write("csv/enu_track.mapping.yaml", """navbench_mapping: 1
source: csv
frame: enu
csv: {header: false, delimiter: whitespace, comment: "#"}
time: {column: 0, units: ns}
streams:
  groundtruth:
    position: {columns: [1, 2, 3], units: m}
    orientation: {columns: [4, 5, 6, 7], order: wxyz}
""")
mapping = open(path("csv/phone.mapping.yaml")).read()
write("bad/mapping_unknown_unit.yaml", mapping.replace("units: deg/s", "units: degrees/s"))
write("bad/mapping_unit_mismatch.yaml", mapping.replace("units: deg/s", "units: m/s^2"))
write("bad/mapping_missing_column.yaml", mapping.replace("gz_dps]", "gz_dps_typo]"))
write("bad/mapping_no_order.yaml", open(path("csv/enu_track.mapping.yaml")).read().replace(", order: wxyz", ""))
csv = open(path("csv/phone.csv")).read().splitlines(True)
csv[7] = csv[7].replace(",0,", ",zero,", 1)
write("bad/phone_not_a_number.csv", "".join(csv))
csv = open(path("csv/phone.csv")).read().splitlines(True)
csv[5] = ",".join(csv[5].split(",")[:6]) + "\n"
write("bad/phone_ragged.csv", "".join(csv))
csv = open(path("csv/phone.csv")).read().splitlines(True)
csv[9] = csv[9].replace(",-0.02,", ",,", 1)
write("bad/phone_half_empty.csv", "".join(csv))
print("fixtures written under", OUT)
