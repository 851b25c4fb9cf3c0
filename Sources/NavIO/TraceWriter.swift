import NavCore

/// Writes a `Session` as trace format v1, atomically (see `HDF5Writer`).
///
/// The same session always gives the same bytes.
public func writeTrace(_ session: Session, to path: String) throws(TraceError) {
    let w = try HDF5Writer(path: path)
    let m = session.metadata
    try w.setAttribute("format", string: TraceSchema.formatName)
    try w.setAttribute("format_version", integer: Int64(m.formatVersion))
    try w.setAttribute("session_kind", string: m.kind.rawValue)
    try w.setAttribute("session_id", string: m.sessionID)
    try w.setAttribute("route_id", string: m.routeID)
    try w.setAttribute("venue", string: m.venue)
    try w.setAttribute("device", string: m.device)
    try w.setAttribute("frame_convention", string: m.frameConvention)
    try w.setAttribute("generator", string: m.generator)
    if !session.attributes.isEmpty { try w.setAttribute("session_attributes", string: encodeSessionAttributes(session.attributes)) }

    func vectors(_ name: String, _ v: [Vector3], _ units: String) throws(TraceError) {
        try w.write(name, doubles: v.flatMap { [$0.x, $0.y, $0.z] }, shape: [v.count, 3], units: units)
    }
    func quaternions(_ name: String, _ q: [Quaternion]) throws(TraceError) {
        try w.write(name, doubles: q.flatMap { [$0.x, $0.y, $0.z, $0.w] }, shape: [q.count, 4], units: "1")
    }
    func scalars(_ name: String, _ v: [Double], _ units: String) throws(TraceError) {
        try w.write(name, doubles: v, shape: [v.count], units: units)
    }

    if let s = session.imu {
        try scalars("/imu/timestamps", s.timestamps, "s")
        try vectors("/imu/accelerometer", s.accelerometer, "m/s^2")
        try vectors("/imu/gyroscope", s.gyroscope, "rad/s")
        if let a = s.attitude { try quaternions("/imu/attitude", a) }
        if let mag = s.magnetometer { try vectors("/imu/magnetometer", mag, "uT") }
        if let m = s.moving { try w.write("/imu/moving", int8s: m.map { $0 ? 1 : 0 }, shape: [m.count], units: "1") }
    }
    if let s = session.compass {
        try scalars("/compass/timestamps", s.timestamps, "s")
        try scalars("/compass/heading", s.heading, "deg")
        if let a = s.accuracy { try scalars("/compass/accuracy", a, "deg") }
    }
    if let s = session.ble {
        try scalars("/ble/timestamps", s.timestamps, "s")
        try w.write("/ble/beacon", int32s: s.beaconIndex, shape: [s.beaconIndex.count], units: "1")
        try scalars("/ble/rssi", s.rssi, "dBm")
        try w.write("/ble/beacons/uuid", strings: s.beacons.map(\.uuid))
        try w.write("/ble/beacons/major", int32s: s.beacons.map(\.major), shape: [s.beacons.count], units: "1")
        try w.write("/ble/beacons/minor", int32s: s.beacons.map(\.minor), shape: [s.beacons.count], units: "1")
        try vectors("/ble/beacons/position", s.beacons.map { $0.position ?? Vector3(repeating: .nan) }, "m")
    }
    if let s = session.vio {
        try scalars("/vio/timestamps", s.timestamps, "s")
        try vectors("/vio/position", s.poses.map(\.translation), "m")
        try quaternions("/vio/orientation", s.poses.map(\.rotation))
        try w.write("/vio/tracking_state", int8s: s.trackingState.map(\.rawValue), shape: [s.trackingState.count], units: "1")
    }
    if let s = session.anchors {
        try scalars("/anchors/timestamps", s.timestamps, "s")
        try w.write("/anchors/anchor_id", int32s: s.anchorID, shape: [s.anchorID.count], units: "1")
        try vectors("/anchors/position", s.poses.map(\.translation), "m")
        try quaternions("/anchors/orientation", s.poses.map(\.rotation))
    }
    if let s = session.location {
        try scalars("/location/timestamps", s.timestamps, "s")
        try scalars("/location/latitude", s.latitude, "deg")
        try scalars("/location/longitude", s.longitude, "deg")
        try scalars("/location/altitude", s.altitude, "m")
        try scalars("/location/horizontal_accuracy", s.horizontalAccuracy, "m")
        try w.write("/location/floor", int32s: s.floor, shape: [s.floor.count], units: "level")
        try w.setAttribute("missing_value", integer: Int64(LocationStream.noFloor), on: "/location/floor")
    }
    if let s = session.groundTruth {
        try scalars("/groundtruth/timestamps", s.timestamps, "s")
        try vectors("/groundtruth/position", s.poses.map(\.translation), "m")
        try quaternions("/groundtruth/orientation", s.poses.map(\.rotation))
        if let f = s.floor { try w.write("/groundtruth/floor", int32s: f, shape: [f.count], units: "level") }
    }
    for a in session.annotations.sorted(by: { $0.name < $1.name }) {
        if let problem = a.problem() {
            throw TraceError(.badValue, file: path, object: "/\(TraceSchema.annotationsGroup)/\(a.name)", problem)
        }
        let group = "/\(TraceSchema.annotationsGroup)/\(a.name)"
        try scalars("\(group)/timestamps", a.start, "s")
        try scalars("\(group)/end", a.end, "s")
        try w.write("\(group)/label", strings: a.label)
        if let v = a.value { try scalars("\(group)/value", v, a.valueUnits) }
        try w.setAttribute("kind", string: a.kind.rawValue, on: group)
        try w.setAttribute("source", string: a.source, on: group)
    }
    try w.commit()
}
