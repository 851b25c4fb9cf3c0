import NavCore

/// The layout of trace format v1 (`docs/trace-format.md`), as data: the reader,
/// writer, validator and inspector all walk this one table.
public enum TraceSchema {
    public static let formatVersion = 1
    /// Relative tolerance on quaternion norms: |‖q‖ − 1| must not exceed it.
    public static let quaternionNormTolerance = 1e-6

    public enum ValueKind: Sendable { case float, integer, string }

    public enum Role: Sendable {
        case timestamps, values, quaternion
        /// Floats where NaN means "unknown" (beacon positions).
        case valuesOrNaN
    }

    /// Whose rows a dataset has: the stream's samples, or the beacon table's entries.
    public enum Rows: Sendable { case samples, beacons }

    public struct Dataset: Sendable {
        public let name: String
        /// nil for a 1-D dataset, else the fixed second dimension.
        public let columns: Int?
        public let units: String?
        public let kind: ValueKind
        public let role: Role
        public let required: Bool
        public let rows: Rows
        /// Inclusive range every value must lie in, when the quantity has one.
        public let range: ClosedRange<Double>?

        init(
            _ name: String, columns: Int? = nil, units: String?, kind: ValueKind = .float, role: Role = .values,
            required: Bool = true, rows: Rows = .samples, range: ClosedRange<Double>? = nil
        ) {
            self.name = name; self.columns = columns; self.units = units; self.kind = kind
            self.role = role; self.required = required; self.rows = rows; self.range = range
        }
    }

    public struct Stream: Sendable {
        public let name: String
        public let timeOrder: TimeOrderKind
        public let datasets: [Dataset]
        public let summary: String
        /// An annotation stream (`/annotations/<name>`): rows are labels, not samples, so no gap
        /// check, and the group carries the attributes `kind` and `source`.
        public var isAnnotation = false
    }

    /// The group holding annotation streams, one subgroup each (`docs/trace-format.md`).
    public static let annotationsGroup = "annotations"

    /// The schema of the annotation stream `/annotations/<name>`: `timestamps` = each row's
    /// start, `end`, `label` and an optional `value` in any unit its `units` attribute names.
    public static func annotationStream(_ name: String) -> Stream {
        Stream(
            name: "\(annotationsGroup)/\(name)", timeOrder: .nonDecreasing,
            datasets: [
                timestamps,
                Dataset("end", units: "s"),
                Dataset("label", units: nil, kind: .string),
                Dataset("value", units: nil, role: .valuesOrNaN, required: false),
            ], summary: "labelled instants or intervals", isAnnotation: true)
    }

    /// The annotation stream name in a stream path (`annotations/steps` → `steps`), nil for a sensor stream.
    public static func annotationName(_ streamName: String) -> String? {
        let prefix = annotationsGroup + "/"
        return streamName.hasPrefix(prefix) ? String(streamName.dropFirst(prefix.count)) : nil
    }

    public enum TimeOrderKind: Sendable { case strictlyIncreasing, nonDecreasing }

    static let timestamps = Dataset("timestamps", units: "s", role: .timestamps)

    public static let streams: [Stream] = [
        Stream(
            name: "imu", timeOrder: .strictlyIncreasing,
            datasets: [
                timestamps,
                Dataset("accelerometer", columns: 3, units: "m/s^2"),
                Dataset("gyroscope", columns: 3, units: "rad/s"),
                Dataset("attitude", columns: 4, units: "1", role: .quaternion, required: false),
                Dataset("magnetometer", columns: 3, units: "uT", required: false),
                Dataset("moving", units: "1", kind: .integer, required: false, range: 0...1),
            ], summary: "inertial samples in the device frame"),
        Stream(
            name: "compass", timeOrder: .strictlyIncreasing,
            datasets: [
                timestamps,
                Dataset("heading", units: "deg", range: 0...360),
                Dataset("accuracy", units: "deg", required: false, range: 0...360),
            ], summary: "heading, degrees clockwise from north"),
        Stream(
            name: "ble", timeOrder: .nonDecreasing,
            datasets: [
                timestamps,
                Dataset("beacon", units: "1", kind: .integer),
                Dataset("rssi", units: "dBm", range: -150...20),
                Dataset("beacons/uuid", units: nil, kind: .string, rows: .beacons),
                Dataset("beacons/major", units: "1", kind: .integer, rows: .beacons, range: 0...65535),
                Dataset("beacons/minor", units: "1", kind: .integer, rows: .beacons, range: 0...65535),
                Dataset("beacons/position", columns: 3, units: "m", role: .valuesOrNaN, required: false, rows: .beacons),
            ], summary: "BLE ranging; rows of one scan share a timestamp"),
        Stream(
            name: "vio", timeOrder: .strictlyIncreasing,
            datasets: [
                timestamps,
                Dataset("position", columns: 3, units: "m", range: positionRange),
                Dataset("orientation", columns: 4, units: "1", role: .quaternion),
                Dataset("tracking_state", units: "1", kind: .integer, range: 0...2),
            ], summary: "camera pose in the session frame"),
        Stream(
            name: "anchors", timeOrder: .nonDecreasing,
            datasets: [
                timestamps,
                Dataset("anchor_id", units: "1", kind: .integer),
                Dataset("position", columns: 3, units: "m", range: positionRange),
                Dataset("orientation", columns: 4, units: "1", role: .quaternion),
            ], summary: "anchor sightings: anchor pose in the session frame"),
        Stream(
            name: "location", timeOrder: .strictlyIncreasing,
            datasets: [
                timestamps,
                Dataset("latitude", units: "deg", range: -90...90),
                Dataset("longitude", units: "deg", range: -180...180),
                Dataset("altitude", units: "m"),
                Dataset("horizontal_accuracy", units: "m", range: 0...Double.infinity),
                Dataset("floor", units: "level", kind: .integer, required: false),
            ], summary: "location fixes with floor level"),
        Stream(
            name: "groundtruth", timeOrder: .strictlyIncreasing,
            datasets: [
                timestamps,
                Dataset("position", columns: 3, units: "m", range: positionRange),
                Dataset("orientation", columns: 4, units: "1", role: .quaternion),
                Dataset("floor", units: "level", kind: .integer, required: false),
            ], summary: "true device pose in the venue frame"),
    ]

    /// Every pose position, metres: within 10,000 km of the frame's origin on each axis (UTM
    /// northings fit). Larger values are corrupt data, and their squares and differences would
    /// overflow the geometry (1e308 crashed the guidance replay before this bound).
    public static let positionRange: ClosedRange<Double> = -1e7...1e7

    /// Root attributes: name, whether required, meaning.
    public static let rootAttributes: [(name: String, required: Bool, meaning: String)] = [
        ("format", true, "the string navbench-trace"),
        ("format_version", true, "integer 1"),
        ("session_kind", true, "recording or navigation"),
        ("session_id", false, "unique name of the session"),
        ("route_id", false, "route this session records or follows"),
        ("venue", false, "venue whose frame the ground truth uses"),
        ("device", false, "phone or recorder"),
        ("frame_convention", false, "coordinate conventions, ARKit by default"),
        ("generator", false, "JSON of the generator's parameters (synthetic sessions)"),
        ("processing", false, "what navbench did to derive this file from another (commands, in order)"),
        ("session_attributes", false, "JSON object of string values: subject, mobility aid, path, pocket, … (importers set them)"),
    ]

    public static let formatName = "navbench-trace"

    /// A sensor stream's schema by name, or an annotation stream's (`annotations/<valid name>`).
    public static func stream(named name: String) -> Stream? {
        if let a = annotationName(name) { return AnnotationStream.isValidName(a) ? annotationStream(a) : nil }
        return streams.first { $0.name == name }
    }
}
