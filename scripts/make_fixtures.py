#!/usr/bin/env python3
"""Writes the HDF5 test fixtures of Tests/NavIOTests/Fixtures with h5py, independently of navbench.

Run from the repository root:  python3 scripts/make_fixtures.py
Needs h5py and numpy (make fixtures installs them). The output is committed, so
`swift test` needs no Python. Values are seeded; expected facts go to a JSON sidecar.
"""
import json
import os

import h5py
import numpy as np

OUT = os.path.join("Tests", "NavIOTests", "Fixtures")
rng = np.random.default_rng(20261122)


def unit_quats(n):
    q = rng.standard_normal((n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return q


def put(f, name, data, units=None, **kw):
    d = f.create_dataset(name, data=data, track_times=False, **kw)
    if units is not None:
        d.attrs["units"] = units
    return d


def root_attrs(f, kind="navigation"):
    f.attrs["format"] = "navbench-trace"
    f.attrs["format_version"] = 1
    f.attrs["session_kind"] = kind
    f.attrs["session_id"] = "h5py-fixture"
    f.attrs["route_id"] = "F1"
    f.attrs["venue"] = "fixture-venue"
    f.attrs["device"] = "h5py " + h5py.__version__


def valid_session(path):
    """Every stream of trace format v1, written the way a Python user following the docs would."""
    n_imu, n_c, n_v, n_gt = 5000, 100, 250, 500
    t_imu = 10.0 + np.arange(n_imu) / 100.0
    facts = {}
    with h5py.File(path, "w", track_order=False) as f:
        root_attrs(f)
        # imu: large stream, chunked + gzip as the format recommends
        acc = rng.standard_normal((n_imu, 3)) + [0, 9.81, 0]
        gyr = rng.standard_normal((n_imu, 3)) * 0.1
        put(f, "imu/timestamps", t_imu, "s", chunks=(1000,), compression="gzip", shuffle=True)
        put(f, "imu/accelerometer", acc, "m/s^2", chunks=(1000, 3), compression="gzip", shuffle=True)
        put(f, "imu/gyroscope", gyr, "rad/s", chunks=(1000, 3), compression="gzip")
        put(f, "imu/attitude", unit_quats(n_imu), "1")
        put(f, "imu/magnetometer", rng.standard_normal((n_imu, 3)) * 30, "uT")
        # compass stored as float32 on purpose: readers must convert
        t_c = 10.0 + np.arange(n_c) / 10.0
        heading = rng.uniform(0, 360, n_c).astype(np.float32)
        put(f, "compass/timestamps", t_c, "s")
        put(f, "compass/heading", heading, "deg")
        # ble: two beacons, rows of a scan share a timestamp
        t_b = np.repeat(10.0 + np.arange(20), 2)
        put(f, "ble/timestamps", t_b, "s")
        put(f, "ble/beacon", np.tile(np.array([0, 1], dtype=np.int32), 20), "1")
        put(f, "ble/rssi", rng.integers(-95, -50, 40).astype(np.float64), "dBm")
        f.create_dataset("ble/beacons/uuid", data=np.array([b"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"] * 2, dtype="S36"))
        put(f, "ble/beacons/major", np.array([1, 1], dtype=np.int32), "1")
        put(f, "ble/beacons/minor", np.array([7, 8], dtype=np.int32), "1")
        put(f, "ble/beacons/position", np.array([[1.0, 2.5, -3.0], [np.nan, np.nan, np.nan]]), "m")
        # vio
        t_v = 10.0 + np.arange(n_v) / 25.0
        vpos = np.cumsum(rng.standard_normal((n_v, 3)) * 0.01, axis=0)
        put(f, "vio/timestamps", t_v, "s")
        put(f, "vio/position", vpos, "m")
        put(f, "vio/orientation", unit_quats(n_v), "1")
        put(f, "vio/tracking_state", np.full(n_v, 2, dtype=np.int8), "1")
        # anchors
        put(f, "anchors/timestamps", np.array([10.5, 10.5, 11.0]), "s")
        put(f, "anchors/anchor_id", np.array([3, 4, 3], dtype=np.int32), "1")
        put(f, "anchors/position", rng.standard_normal((3, 3)), "m")
        put(f, "anchors/orientation", unit_quats(3), "1")
        # location
        put(f, "location/timestamps", 10.0 + np.arange(20.0), "s")
        put(f, "location/latitude", 42.29 + rng.standard_normal(20) * 1e-5, "deg")
        put(f, "location/longitude", -71.26 + rng.standard_normal(20) * 1e-5, "deg")
        put(f, "location/altitude", 45 + rng.standard_normal(20), "m")
        put(f, "location/horizontal_accuracy", 5 + rng.random(20), "m")
        put(f, "location/floor", np.array([0] * 10 + [1] * 10, dtype=np.int32), "level")
        # ground truth
        t_gt = 10.0 + np.arange(n_gt) / 50.0
        gpos = np.cumsum(rng.standard_normal((n_gt, 3)) * 0.01, axis=0)
        put(f, "groundtruth/timestamps", t_gt, "s")
        put(f, "groundtruth/position", gpos, "m")
        put(f, "groundtruth/orientation", unit_quats(n_gt), "1")
        facts = {
            "imu_samples": n_imu,
            "accelerometer_sum": float(acc.sum()),
            "accelerometer_row_4321": acc[4321].tolist(),
            "compass_heading_sum_as_float64": float(heading.astype(np.float64).sum()),
            "ble_rows": 40,
            "beacon_minor": [7, 8],
            "vio_samples": n_v,
            "vio_position_last": vpos[-1].tolist(),
            "anchor_ids": [3, 4, 3],
            "location_floor_sum": 10,
            "groundtruth_samples": n_gt,
            "groundtruth_path_length": float(np.linalg.norm(np.diff(gpos, axis=0), axis=1).sum()),
        }
    return facts


def small(path, mutate, kind="navigation"):
    """A small valid-looking file with a VIO stream, then `mutate(f)` breaks one thing."""
    with h5py.File(path, "w") as f:
        root_attrs(f, kind)
        put(f, "vio/timestamps", np.arange(10) * 0.04, "s")
        put(f, "vio/position", np.zeros((10, 3)), "m")
        put(f, "vio/orientation", np.tile([0.0, 0.0, 0.0, 1.0], (10, 1)), "1")
        put(f, "vio/tracking_state", np.full(10, 2, dtype=np.int8), "1")
        mutate(f)


def replace(f, name, data, units):
    del f[name]
    put(f, name, data, units)


def external_link_pair(folder):
    """links/linked.h5: a small valid session whose /vio/timestamps is an HDF5 external link to
    links/target.h5:/timestamps (read only with HDF5ReadPolicy(allowExternalLinks: true))."""
    os.makedirs(folder, exist_ok=True)
    with h5py.File(os.path.join(folder, "target.h5"), "w") as f:
        put(f, "timestamps", np.arange(10) * 0.04, "s")

    def link(f):
        del f["vio/timestamps"]
        f["vio/timestamps"] = h5py.ExternalLink("target.h5", "/timestamps")
    small(os.path.join(folder, "linked.h5"), link)


def outside_storage(folder):
    """links/vds_other.h5: /vio/timestamps a virtual dataset mapped from target.h5:/timestamps;
    links/vds_self.h5: mapped onto itself (overflowed libhdf5's stack); links/raw.h5: kept as
    external raw storage in raw_timestamps.bin. All refused by default; with external links
    allowed, vds_other and raw are read and vds_self still refused."""
    def vds(source_file, source_dataset):
        def make(f):
            del f["vio/timestamps"]
            layout = h5py.VirtualLayout(shape=(10,), dtype="f8")
            layout[:] = h5py.VirtualSource(source_file, source_dataset, shape=(10,))
            f.create_virtual_dataset("vio/timestamps", layout, fillvalue=0).attrs["units"] = "s"
        return make
    small(os.path.join(folder, "vds_other.h5"), vds("target.h5", "/timestamps"))
    small(os.path.join(folder, "vds_self.h5"), vds(".", "vio/timestamps"))
    (np.arange(10) * 0.04).astype("<f8").tofile(os.path.join(folder, "raw_timestamps.bin"))

    def raw(f):
        del f["vio/timestamps"]
        d = f.create_dataset("vio/timestamps", shape=(10,), dtype="<f8", external=[("raw_timestamps.bin", 0, h5py.h5f.UNLIMITED)])
        d.attrs["units"] = "s"
    small(os.path.join(folder, "raw.h5"), raw)


def main():
    os.makedirs(OUT, exist_ok=True)
    external_link_pair(os.path.join(OUT, "links"))
    outside_storage(os.path.join(OUT, "links"))
    facts = valid_session(os.path.join(OUT, "h5py_session.h5"))
    with open(os.path.join(OUT, "h5py_session.json"), "w") as fh:
        json.dump(facts, fh, indent=1, sort_keys=True)
    bad = os.path.join(OUT, "bad")
    os.makedirs(bad, exist_ok=True)
    open(os.path.join(bad, "empty.h5"), "wb").close()
    with open(os.path.join(bad, "text.h5"), "w") as fh:
        fh.write("timestamp,x,y,z\n0.0,1,2,3\n")
    with open(os.path.join(bad, "random.h5"), "wb") as fh:
        fh.write(rng.bytes(4096))
    whole = open(os.path.join(OUT, "h5py_session.h5"), "rb").read()
    with open(os.path.join(bad, "truncated.h5"), "wb") as fh:
        fh.write(whole[: len(whole) // 3])
    with h5py.File(os.path.join(bad, "nostreams.h5"), "w") as f:
        root_attrs(f)
        f.create_group("notes")
    small(os.path.join(bad, "nan_timestamp.h5"),
          lambda f: replace(f, "vio/timestamps", np.array([0, .04, .08, np.nan, .16, .2, .24, .28, .32, .36]), "s"))
    small(os.path.join(bad, "unordered.h5"),
          lambda f: replace(f, "vio/timestamps", np.array([0, .04, .08, .16, .12, .2, .24, .28, .32, .36]), "s"))
    small(os.path.join(bad, "wrong_shape.h5"), lambda f: replace(f, "vio/position", np.zeros((10, 2)), "m"))
    small(os.path.join(bad, "wrong_rows.h5"), lambda f: replace(f, "vio/position", np.zeros((9, 3)), "m"))
    small(os.path.join(bad, "wrong_units.h5"), lambda f: replace(f, "vio/position", np.zeros((10, 3)), "cm"))
    def integer_units(f):
        f["vio/position"].attrs["units"] = 3
    small(os.path.join(bad, "integer_units.h5"), integer_units)
    small(os.path.join(bad, "missing_dataset.h5"), lambda f: f.__delitem__("vio/orientation"))
    small(os.path.join(bad, "nonunit_quaternion.h5"),
          lambda f: replace(f, "vio/orientation", np.tile([0.0, 0.0, 0.0, 1.1], (10, 1)), "1"))
    small(os.path.join(bad, "nan_value.h5"),
          lambda f: replace(f, "vio/position", np.where(np.arange(30).reshape(10, 3) == 7, np.nan, 0.0), "m"))

    def no_version(f):
        del f.attrs["format_version"]
    small(os.path.join(bad, "no_version.h5"), no_version)


if __name__ == "__main__":
    main()
