#!/usr/bin/env python3
"""Writes the ROS 1 bag and MCAP fixtures of Tests/NavRosbagTests (committed).

The bags are written by the `rosbags` package (ROS 1 serialisation, its rosbag1 writer with
no / bz2 / lz4 chunk compression), the MCAP files by the `mcap` package's writer (chunks with
no / lz4 / zstd compression) with messages in ROS 2 CDR serialised by `rosbags`. The values
that went in are written to expected.json (floats as hex, so they compare exactly); the
malformed copies (truncated, wrong chunk length, unknown compression) are cut from the good
files here too. Seeded: the same versions give the same bytes.

    .venv/bin/python scripts/make_rosbag_fixtures.py      (make fixtures-rosbag)
"""
import json
import os
import random
import struct
import sys

import numpy as np
from mcap.writer import CompressionType, Writer as McapWriter
from rosbags.rosbag1 import Writer as Bag1Writer
from rosbags.typesys import Stores, get_types_from_msg, get_typestore

OUT = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavRosbagTests/Fixtures"
os.makedirs(OUT, exist_ok=True)
rng = random.Random(20261123)

TF_MSG = "geometry_msgs/TransformStamped[] transforms\n"


def stamp(t_ns):
    return t_ns // 1_000_000_000, t_ns % 1_000_000_000


def unit_quat():
    q = [rng.gauss(0, 1) for _ in range(4)]
    n = sum(v * v for v in q) ** 0.5
    return [v / n for v in q]


def vec(scale):
    return [rng.uniform(-scale, scale) for _ in range(3)]


# --- the data: stamps in ns, receive time = stamp + a per-message delay -----------------------
T0 = 1_700_000_000_123_456_789
data = {"imu": [], "pose": [], "odom": [], "tf": [], "mag": [], "fix": []}
for k in range(40):  # 100 Hz IMU
    data["imu"].append({"t": T0 + k * 10_000_000, "q": unit_quat(), "w": vec(2), "a": vec(12),
                        "recv": T0 + k * 10_000_000 + 1_000_000 + rng.randrange(1000)})
for k in range(16):  # 20 Hz poses, odometry, tf
    for key in ("pose", "odom"):
        data[key].append({"t": T0 + 5_000_000 + k * 50_000_000, "p": vec(30), "q": unit_quat(),
                          "recv": T0 + 5_000_000 + k * 50_000_000 + 2_000_000 + rng.randrange(1000)})
    data["tf"].append({"t": T0 + 7_000_000 + k * 50_000_000, "p": vec(30), "q": unit_quat(),
                       "other_p": vec(1), "other_q": unit_quat(),
                       "recv": T0 + 7_000_000 + k * 50_000_000 + 3_000_000 + rng.randrange(1000)})
for k in range(40):  # magnetometer at the IMU's stamps (as most drivers publish it)
    data["mag"].append({"t": T0 + k * 10_000_000, "m": [v * 1e-6 for v in vec(60)],
                        "recv": T0 + k * 10_000_000 + 1_500_000})
for k in range(4):  # 1 Hz fixes... at 5 Hz here to stay short
    data["fix"].append({"t": T0 + k * 200_000_000, "lat": 48.0 + rng.uniform(0, 1e-3), "lon": 11.0 + rng.uniform(0, 1e-3),
                        "alt": 500 + rng.uniform(0, 5), "cov": [rng.uniform(1, 9), 0, 0, 0, rng.uniform(1, 9), 0, 0, 0, 16],
                        "recv": T0 + k * 200_000_000 + 4_000_000})


def build(ts, ros2):
    """(topic, type, [(recv_ns, msg)]) for every topic, in a typestore."""
    T = ts.types
    Header = T["std_msgs/msg/Header"]
    Time = T["builtin_interfaces/msg/Time"]
    V3 = T["geometry_msgs/msg/Vector3"]
    Q = T["geometry_msgs/msg/Quaternion"]
    P = T["geometry_msgs/msg/Point"]
    Pose = T["geometry_msgs/msg/Pose"]

    def header(t, frame, seq):
        s, ns = stamp(t)
        if ros2:
            return Header(stamp=Time(sec=s, nanosec=ns), frame_id=frame)
        return Header(seq=seq, stamp=Time(sec=s, nanosec=ns), frame_id=frame)

    def cov(n, v=0.0):
        return np.full(n, v, dtype=np.float64)

    topics = []
    Imu = T["sensor_msgs/msg/Imu"]
    topics.append(("/imu0", "sensor_msgs/msg/Imu", [(d["recv"], Imu(
        header=header(d["t"], "imu", i), orientation=Q(*d["q"]) if False else Q(x=d["q"][0], y=d["q"][1], z=d["q"][2], w=d["q"][3]),
        orientation_covariance=cov(9, 0.01), angular_velocity=V3(x=d["w"][0], y=d["w"][1], z=d["w"][2]),
        angular_velocity_covariance=cov(9), linear_acceleration=V3(x=d["a"][0], y=d["a"][1], z=d["a"][2]),
        linear_acceleration_covariance=cov(9))) for i, d in enumerate(data["imu"])]))
    PoseStamped = T["geometry_msgs/msg/PoseStamped"]

    def pose(d, p="p", q="q"):
        return Pose(position=P(x=d[p][0], y=d[p][1], z=d[p][2]), orientation=Q(x=d[q][0], y=d[q][1], z=d[q][2], w=d[q][3]))
    topics.append(("/vicon/pose", "geometry_msgs/msg/PoseStamped",
                   [(d["recv"], PoseStamped(header=header(d["t"], "world", i), pose=pose(d))) for i, d in enumerate(data["pose"])]))
    Odometry = T["nav_msgs/msg/Odometry"]
    PWC = T["geometry_msgs/msg/PoseWithCovariance"]
    TWC = T["geometry_msgs/msg/TwistWithCovariance"]
    Twist = T["geometry_msgs/msg/Twist"]
    topics.append(("/odom", "nav_msgs/msg/Odometry", [(d["recv"], Odometry(
        header=header(d["t"], "odom", i), child_frame_id="base_link", pose=PWC(pose=pose(d), covariance=cov(36)),
        twist=TWC(twist=Twist(linear=V3(x=0.5, y=0, z=0), angular=V3(x=0, y=0, z=0.1)), covariance=cov(36))))
        for i, d in enumerate(data["odom"])]))
    TF = T["tf2_msgs/msg/TFMessage"]
    TS = T["geometry_msgs/msg/TransformStamped"]
    Tr = T["geometry_msgs/msg/Transform"]

    def transform(d, child, p, q, i):
        return TS(header=header(d["t"], "odom", i), child_frame_id=child,
                  transform=Tr(translation=V3(x=d[p][0], y=d[p][1], z=d[p][2]), rotation=Q(x=d[q][0], y=d[q][1], z=d[q][2], w=d[q][3])))
    topics.append(("/tf", "tf2_msgs/msg/TFMessage", [(d["recv"], TF(transforms=[
        transform(d, "camera", "other_p", "other_q", i), transform(d, "base_link", "p", "q", i)])) for i, d in enumerate(data["tf"])]))
    MF = T["sensor_msgs/msg/MagneticField"]
    topics.append(("/imu0/mag", "sensor_msgs/msg/MagneticField", [(d["recv"], MF(
        header=header(d["t"], "imu", i), magnetic_field=V3(x=d["m"][0], y=d["m"][1], z=d["m"][2]), magnetic_field_covariance=cov(9)))
        for i, d in enumerate(data["mag"])]))
    Fix = T["sensor_msgs/msg/NavSatFix"]
    Status = T["sensor_msgs/msg/NavSatStatus"]
    topics.append(("/fix", "sensor_msgs/msg/NavSatFix", [(d["recv"], Fix(
        header=header(d["t"], "gps", i), status=Status(status=0, service=1), latitude=d["lat"], longitude=d["lon"], altitude=d["alt"],
        position_covariance=np.array(d["cov"], dtype=np.float64), position_covariance_type=2)) for i, d in enumerate(data["fix"])]))
    String = T["std_msgs/msg/String"]
    topics.append(("/chatter", "std_msgs/msg/String", [(T0 + k * 100_000_000, String(data=f"hello {k}")) for k in range(3)]))
    return topics


def interleaved(topics):
    """All messages in receive-time order (ties: topic order), as a recorder writes them."""
    rows = [(recv, ti, k, msg) for ti, (_, _, msgs) in enumerate(topics) for k, (recv, msg) in enumerate(msgs)]
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return rows


# --- ROS 1 bags -------------------------------------------------------------------------------
ts1 = get_typestore(Stores.ROS1_NOETIC)
ts1.register(get_types_from_msg(TF_MSG, "tf2_msgs/msg/TFMessage"))
topics1 = build(ts1, ros2=False)
for name, fmt in (("none", None), ("bz2", Bag1Writer.CompressionFormat.BZ2), ("lz4", Bag1Writer.CompressionFormat.LZ4)):
    path = f"{OUT}/sample-{name}.bag"
    if os.path.exists(path):
        os.remove(path)
    w = Bag1Writer(path)
    if fmt is not None:
        w.set_compression(fmt)
    w.chunk_threshold = 4096  # several chunks
    w.open()
    conns = [w.add_connection(topic, typ, typestore=ts1, callerid="/fixture") for topic, typ, _ in topics1]
    for recv, ti, _, msg in interleaved(topics1):
        w.write(conns[ti], recv, ts1.serialize_ros1(msg, topics1[ti][1]))
    w.close()

# --- MCAP (ROS 2 CDR) ---------------------------------------------------------------------------
ts2 = get_typestore(Stores.ROS2_HUMBLE)
topics2 = build(ts2, ros2=True)
for name, comp in (("none", CompressionType.NONE), ("lz4", CompressionType.LZ4), ("zstd", CompressionType.ZSTD)):
    path = f"{OUT}/sample-{name}.mcap"
    with open(path, "wb") as f:
        w = McapWriter(f, chunk_size=4096, compression=comp)
        w.start(profile="ros2", library="navbench-fixtures")
        chans = []
        for topic, typ, _ in topics2:
            schema = w.register_schema(name=typ, encoding="ros2msg", data=ts2.generate_msgdef(typ, ros_version=2)[0].encode())
            chans.append(w.register_channel(topic=topic, message_encoding="cdr", schema_id=schema))
        seq = 0
        for recv, ti, _, msg in interleaved(topics2):
            w.add_message(channel_id=chans[ti], log_time=recv, publish_time=recv, data=bytes(ts2.serialize_cdr(msg, topics2[ti][1])), sequence=seq)
            seq += 1
        w.finish()

# --- malformed copies -----------------------------------------------------------------------------
def patch(src, dst, edit):
    b = bytearray(open(f"{OUT}/{src}", "rb").read())
    b = edit(b)
    open(f"{OUT}/{dst}", "wb").write(bytes(b))


def replace_once(b, old, new):
    i = b.find(old)
    assert i >= 0 and len(old) == len(new), old
    b[i:i + len(old)] = new
    return b


def bag_wrong_chunk_size(b):
    # the first chunk's `size` field (uncompressed bytes), one more than the truth
    i = b.find(b"\x09\x00\x00\x00size=")
    assert i >= 0
    j = i + len(b"\x09\x00\x00\x00size=")
    (n,) = struct.unpack_from("<I", b, j)
    struct.pack_into("<I", b, j, n + 1)
    return b


def mcap_wrong_chunk_size(b):
    # first Chunk record (op 0x06): u64 length, u64 start, u64 end, u64 uncompressed_size
    i = 8
    while b[i] != 0x06:
        (length,) = struct.unpack_from("<Q", b, i + 1)
        i += 9 + length
    (n,) = struct.unpack_from("<Q", b, i + 9 + 16)
    struct.pack_into("<Q", b, i + 9 + 16, n + 1)
    return b


patch("sample-bz2.bag", "bad-truncated.bag", lambda b: b[: len(b) * 2 // 3])
patch("sample-lz4.bag", "bad-chunk-size.bag", bag_wrong_chunk_size)
patch("sample-lz4.bag", "bad-compression.bag", lambda b: replace_once(b, b"compression=lz4", b"compression=xz4"))
patch("sample-zstd.mcap", "bad-truncated.mcap", lambda b: b[: len(b) * 2 // 3])
patch("sample-zstd.mcap", "bad-chunk-size.mcap", mcap_wrong_chunk_size)
patch("sample-zstd.mcap", "bad-compression.mcap", lambda b: replace_once(b, b"\x04\x00\x00\x00zstd", b"\x04\x00\x00\x00zstx"))

# --- expected values --------------------------------------------------------------------------
def H(v):
    return float(v).hex()
expected = {
    "t0_ns": T0,
    "imu": [{"sec": stamp(d["t"])[0], "nsec": stamp(d["t"])[1], "recv_ns": d["recv"], "orientation": [H(v) for v in d["q"]],
             "angular_velocity": [H(v) for v in d["w"]], "linear_acceleration": [H(v) for v in d["a"]]} for d in data["imu"]],
    "pose": [{"sec": stamp(d["t"])[0], "nsec": stamp(d["t"])[1], "recv_ns": d["recv"], "position": [H(v) for v in d["p"]],
              "orientation": [H(v) for v in d["q"]]} for d in data["pose"]],
    "odom": [{"sec": stamp(d["t"])[0], "nsec": stamp(d["t"])[1], "recv_ns": d["recv"], "position": [H(v) for v in d["p"]],
              "orientation": [H(v) for v in d["q"]]} for d in data["odom"]],
    "tf_base_link": [{"sec": stamp(d["t"])[0], "nsec": stamp(d["t"])[1], "recv_ns": d["recv"], "position": [H(v) for v in d["p"]],
                      "orientation": [H(v) for v in d["q"]]} for d in data["tf"]],
    "mag": [{"sec": stamp(d["t"])[0], "nsec": stamp(d["t"])[1], "recv_ns": d["recv"], "field": [H(v) for v in d["m"]]} for d in data["mag"]],
    "fix": [{"sec": stamp(d["t"])[0], "nsec": stamp(d["t"])[1], "recv_ns": d["recv"], "latitude": H(d["lat"]), "longitude": H(d["lon"]),
             "altitude": H(d["alt"]), "covariance": [H(v) for v in d["cov"]]} for d in data["fix"]],
    "md5": {typ.replace("/msg/", "/"): ts1.generate_msgdef(typ)[1] for _, typ, _ in topics1},
    "counts": {topic: len(msgs) for topic, _, msgs in topics1},
}
with open(f"{OUT}/expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
print("wrote", sorted(os.listdir(OUT)))
