import NavCore

/// Reads a trace format v1 file into a `Session`.
///
/// The file is validated first (`validateTrace`); the first error is thrown, with the
/// number of further problems, so a caller sees one line. Warnings do not stop reading.
public func readTrace(at path: String, policy: HDF5ReadPolicy = .standard) throws(TraceError) -> Session {
    let report = validateTrace(at: path, policy: policy)
    if let first = report.errors.first {
        var e = first.error
        if report.errors.count > 1 { e.problem += " (and \(report.errors.count - 1) more problems: run navbench validate)" }
        throw e
    }
    return session(from: report.trace!)
}

/// The metadata of a trace file from its root attributes alone: no stream is opened, so a
/// planner can pair sessions by route before loading only those it needs (a shard of a sweep).
/// The root attributes get the checks `readTrace` makes of them; a full read validates the rest.
///
/// - Throws: `TraceError` for a non-HDF5 file or a missing or wrong `format`, `format_version`
///   or `session_kind` (one line, with the number of further problems).
/// - Complexity: O(1) in the recording's length.
public func readTraceMetadata(at path: String, policy: HDF5ReadPolicy = .standard) throws(TraceError) -> SessionMetadata {
    let reader = try HDF5Reader(path: path, policy: policy)
    var trace = LoadedTrace(file: path)
    var errors: [TraceError] = []
    readRootAttributes(reader, &trace) { kind, object, text in errors.append(TraceError(kind, file: path, object: object, text)) }
    if var e = errors.first {
        if errors.count > 1 { e.problem += " (and \(errors.count - 1) more problems: run navbench validate)" }
        throw e
    }
    return sessionMetadata(trace.attributes)
}

func sessionMetadata(_ a: [String: HDF5Attribute]) -> SessionMetadata {
    SessionMetadata(
        kind: SessionKind(rawValue: a["session_kind"]?.stringValue ?? "") ?? .navigation,
        sessionID: a["session_id"]?.stringValue ?? "",
        routeID: a["route_id"]?.stringValue ?? "",
        venue: a["venue"]?.stringValue ?? "",
        device: a["device"]?.stringValue ?? "",
        frameConvention: a["frame_convention"]?.stringValue ?? SessionMetadata.arkitFrame,
        generator: a["generator"]?.stringValue ?? "",
        formatVersion: Int(a["format_version"]?.integerValue ?? Int64(TraceSchema.formatVersion)))
}

/// Builds a `Session` from a validated `LoadedTrace`.
public func session(from trace: LoadedTrace) -> Session {
    var s = Session(metadata: sessionMetadata(trace.attributes))

    func vec(_ st: LoadedStream, _ name: String) -> [Vector3]? {
        guard let v = st.data[name]?.doubles else { return nil }
        return stride(from: 0, to: v.count, by: 3).map { Vector3(v[$0], v[$0 + 1], v[$0 + 2]) }
    }
    func quat(_ st: LoadedStream, _ name: String) -> [Quaternion]? {
        guard let v = st.data[name]?.doubles else { return nil }
        return stride(from: 0, to: v.count, by: 4).map { Quaternion(x: v[$0], y: v[$0 + 1], z: v[$0 + 2], w: v[$0 + 3]) }
    }
    func poses(_ st: LoadedStream) -> [Pose] {
        zip(quat(st, "orientation") ?? [], vec(st, "position") ?? []).map { Pose(rotation: $0, translation: $1) }
    }

    if let st = trace.stream("imu") {
        s.imu = IMUStream(
            timestamps: st.timestamps, accelerometer: vec(st, "accelerometer") ?? [],
            gyroscope: vec(st, "gyroscope") ?? [], attitude: quat(st, "attitude"),
            magnetometer: vec(st, "magnetometer"), moving: st.data["moving"]?.int32s.map { $0 != 0 })
    }
    if let st = trace.stream("compass") {
        s.compass = CompassStream(
            timestamps: st.timestamps, heading: st.data["heading"]?.doubles ?? [],
            accuracy: st.data["accuracy"]?.doubles)
    }
    if let st = trace.stream("ble") {
        let uuids = st.data["beacons/uuid"]?.strings ?? []
        let major = st.data["beacons/major"]?.int32s ?? []
        let minor = st.data["beacons/minor"]?.int32s ?? []
        let pos = vec(st, "beacons/position")
        let beacons = uuids.indices.map { i in
            Beacon(uuid: uuids[i], major: major[i], minor: minor[i], position: pos.flatMap { $0[i].isFinite ? $0[i] : nil })
        }
        s.ble = BLEStream(
            timestamps: st.timestamps, beaconIndex: st.data["beacon"]?.int32s ?? [],
            rssi: st.data["rssi"]?.doubles ?? [], beacons: beacons)
    }
    if let st = trace.stream("vio") {
        s.vio = VIOStream(
            timestamps: st.timestamps, poses: poses(st),
            trackingState: (st.data["tracking_state"]?.int32s ?? []).map { TrackingState(rawValue: Int8($0)) ?? .notAvailable })
    }
    if let st = trace.stream("anchors") {
        s.anchors = AnchorStream(timestamps: st.timestamps, anchorID: st.data["anchor_id"]?.int32s ?? [], poses: poses(st))
    }
    if let st = trace.stream("location") {
        s.location = LocationStream(
            timestamps: st.timestamps, latitude: st.data["latitude"]?.doubles ?? [],
            longitude: st.data["longitude"]?.doubles ?? [], altitude: st.data["altitude"]?.doubles ?? [],
            horizontalAccuracy: st.data["horizontal_accuracy"]?.doubles ?? [],
            floor: st.data["floor"]?.int32s ?? Array(repeating: LocationStream.noFloor, count: st.timestamps.count))
    }
    if let st = trace.stream("groundtruth") {
        s.groundTruth = GroundTruthStream(timestamps: st.timestamps, poses: poses(st), floor: st.data["floor"]?.int32s)
    }
    s.annotations = trace.streams.compactMap(decodedAnnotation)
    s.attributes = trace.attributes["session_attributes"].flatMap(decodeSessionAttributes) ?? [:]
    return s
}

/// A loaded annotation stream as a value (nil for a sensor stream).
public func decodedAnnotation(_ st: LoadedStream) -> AnnotationStream? {
    guard let name = TraceSchema.annotationName(st.name) else { return nil }
    return AnnotationStream(
        name: name, kind: AnnotationStream.Kind(rawValue: st.attributes["kind"] ?? "") ?? .intervals, source: st.attributes["source"] ?? "",
        start: st.timestamps, end: st.data["end"]?.doubles ?? st.timestamps, label: st.data["label"]?.strings ?? [],
        value: st.data["value"]?.doubles, valueUnits: st.units["value"] ?? "1")
}

/// An annotation stream as a trace stream (`annotations/<name>`), for `editTrace`.
public func loadedStream(_ a: AnnotationStream) -> LoadedStream {
    var s = LoadedStream(name: "\(TraceSchema.annotationsGroup)/\(a.name)")
    s.data["timestamps"] = .float(shape: [a.count], values: a.start)
    s.data["end"] = .float(shape: [a.count], values: a.end)
    s.data["label"] = .string(a.label)
    s.units = ["timestamps": "s", "end": "s"]
    if let v = a.value {
        s.data["value"] = .float(shape: [a.count], values: v)
        s.units["value"] = a.valueUnits
    }
    s.attributes = ["kind": a.kind.rawValue, "source": a.source]
    return s
}
