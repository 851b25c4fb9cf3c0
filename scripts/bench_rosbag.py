#!/usr/bin/env python3
"""Workload and peer of `make bench-rosbag` (scripts/bench-rosbag.sh).

    bench_rosbag.py generate DIR N_IMU   writes DIR/big.bag (ROS 1, uncompressed chunks, by the
                                         rosbags writer) and DIR/big.mcap (ROS 2 CDR, zstd chunks,
                                         by the mcap writer): N_IMU sensor_msgs/Imu at 1 kHz on
                                         /imu and N_IMU/10 geometry_msgs/PoseStamped on /pose
    bench_rosbag.py peer-bag FILE        rosbags AnyReader + deserialize → pandas DataFrames
    bench_rosbag.py peer-mcap FILE       mcap reader + rosbags deserialize_cdr → pandas DataFrames

Messages are serialised once per type and their stamps and values patched in place (the
writers still frame every message), so generating 1 GB takes about a minute.
"""
import math
import struct
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from rosbags.typesys import Stores, get_typestore

T0 = 1_700_000_000_000_000_000


def imu_msg(T, ros2):
    return T["sensor_msgs/msg/Imu"](
        header=T["std_msgs/msg/Header"](**({} if ros2 else {"seq": 0}), stamp=T["builtin_interfaces/msg/Time"](sec=0, nanosec=0), frame_id="imu"),
        orientation=T["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=0.0, w=1.0), orientation_covariance=np.zeros(9),
        angular_velocity=T["geometry_msgs/msg/Vector3"](x=0.0, y=0.0, z=0.0), angular_velocity_covariance=np.zeros(9),
        linear_acceleration=T["geometry_msgs/msg/Vector3"](x=0.0, y=0.0, z=0.0), linear_acceleration_covariance=np.zeros(9))


def pose_msg(T, ros2):
    return T["geometry_msgs/msg/PoseStamped"](
        header=T["std_msgs/msg/Header"](**({} if ros2 else {"seq": 0}), stamp=T["builtin_interfaces/msg/Time"](sec=0, nanosec=0), frame_id="world"),
        pose=T["geometry_msgs/msg/Pose"](position=T["geometry_msgs/msg/Point"](x=0.0, y=0.0, z=0.0),
                                         orientation=T["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=0.0, w=1.0)))


def generate(out, n):
    from mcap.writer import CompressionType, Writer as McapWriter
    from rosbags.rosbag1 import Writer as Bag1Writer
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for ros2 in (False, True):
        ts = get_typestore(Stores.ROS2_HUMBLE if ros2 else Stores.ROS1_NOETIC)
        T = ts.types
        ser = (lambda m, t: bytes(ts.serialize_cdr(m, t))) if ros2 else (lambda m, t: bytes(ts.serialize_ros1(m, t)))
        imu = bytearray(ser(imu_msg(T, ros2), "sensor_msgs/msg/Imu"))
        pose = bytearray(ser(pose_msg(T, ros2), "geometry_msgs/msg/PoseStamped"))
        # Offsets: ROS 1 header = seq u32, sec u32, nsec u32, frame_id; CDR = 4-byte encapsulation, sec i32, nsec u32, frame_id (+NUL, aligned to 8 for the doubles).
        stamp_at = 4 if ros2 else 4
        imu_frame_end = stamp_at + 8 + 4 + len("imu") + (1 if ros2 else 0)
        pose_frame_end = stamp_at + 8 + 4 + len("world") + (1 if ros2 else 0)
        def aligned(off):
            return off + (-(off - 4)) % 8 if ros2 else off
        imu_q = aligned(imu_frame_end)
        imu_w = imu_q + 32 + 72
        imu_a = imu_w + 24 + 72
        pose_p = aligned(pose_frame_end)

        def stamp(buf, t):
            struct.pack_into("<II", buf, stamp_at, t // 1_000_000_000, t % 1_000_000_000)

        def messages():
            for k in range(n):
                t = T0 + k * 1_000_000
                stamp(imu, t)
                s = k * 1e-3
                struct.pack_into("<4d", imu, imu_q, 0.0, 0.0, math.sin(s / 2), math.cos(s / 2))
                struct.pack_into("<3d", imu, imu_w, 0.01 * math.sin(s), 0.02, 1.0)
                struct.pack_into("<3d", imu, imu_a, 0.1 * math.cos(s), 0.0, 9.81)
                yield 0, t + 200_000, bytes(imu)
                if k % 10 == 0:
                    stamp(pose, t)
                    struct.pack_into("<7d", pose, pose_p, math.cos(s), math.sin(s), 0.0, 0.0, 0.0, math.sin(s / 2), math.cos(s / 2))
                    yield 1, t + 300_000, bytes(pose)

        if not ros2:
            path = out / "big.bag"
            if path.exists():
                path.unlink()
            w = Bag1Writer(path)
            w.open()
            conns = [w.add_connection("/imu", "sensor_msgs/msg/Imu", typestore=ts), w.add_connection("/pose", "geometry_msgs/msg/PoseStamped", typestore=ts)]
            for c, t, data in messages():
                w.write(conns[c], t, data)
            w.close()
        else:
            with open(out / "big.mcap", "wb") as f:
                w = McapWriter(f, compression=CompressionType.ZSTD)
                w.start(profile="ros2", library="navbench-bench")
                chans = []
                for topic, typ in (("/imu", "sensor_msgs/msg/Imu"), ("/pose", "geometry_msgs/msg/PoseStamped")):
                    sid = w.register_schema(name=typ, encoding="ros2msg", data=ts.generate_msgdef(typ, ros_version=2)[0].encode())
                    chans.append(w.register_channel(topic=topic, message_encoding="cdr", schema_id=sid))
                for seq, (c, t, data) in enumerate(messages()):
                    w.add_message(channel_id=chans[c], log_time=t, publish_time=t, data=data, sequence=seq)
                w.finish()


def frames(messages):
    """The peer's work after decoding: (topic, message) pairs into an IMU and a pose DataFrame."""
    rows_imu, rows_pose = [], []
    for topic, m in messages:
        t = m.header.stamp.sec + m.header.stamp.nanosec * 1e-9
        if topic == "/imu":
            a, g = m.linear_acceleration, m.angular_velocity
            rows_imu.append((t, a.x, a.y, a.z, g.x, g.y, g.z))
        else:
            p, q = m.pose.position, m.pose.orientation
            rows_pose.append((t, p.x, p.y, p.z, q.x, q.y, q.z, q.w))
    imu = pd.DataFrame(rows_imu, columns=["t", "ax", "ay", "az", "gx", "gy", "gz"])
    pose = pd.DataFrame(rows_pose, columns=["t", "x", "y", "z", "qx", "qy", "qz", "qw"])
    print(f"imu {len(imu)} rows, pose {len(pose)} rows, mean az {imu['az'].mean():.6f}")


def peer_bag(path):
    from rosbags.highlevel import AnyReader
    with AnyReader([Path(path)], default_typestore=get_typestore(Stores.ROS1_NOETIC)) as reader:
        frames((conn.topic, reader.deserialize(raw, conn.msgtype))
               for conn, _, raw in reader.messages(connections=reader.connections))


def peer_mcap(path):
    from mcap.reader import make_reader
    ts = get_typestore(Stores.ROS2_HUMBLE)
    with open(path, "rb") as f:
        frames((channel.topic, ts.deserialize_cdr(message.data, schema.name))
               for schema, channel, message in make_reader(f).iter_messages())


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "generate":
        generate(sys.argv[2], int(sys.argv[3]))
    elif cmd == "peer-bag":
        peer_bag(sys.argv[2])
    elif cmd == "peer-mcap":
        peer_mcap(sys.argv[2])
    else:
        sys.exit(f"unknown command {cmd}")
