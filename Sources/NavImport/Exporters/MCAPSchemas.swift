/// The schemas of `navbench export mcap`'s channels, as JSON Schema (MCAP schema encoding
/// `jsonschema`, messages `json`). Four are Foxglove's published schemas, with the field names,
/// types and enumerations Foxglove defines, so its panels read them without code; the IMU has
/// none there and gets navbench's own `navbench.Imu` (docs/importers.md, "MCAP export").
public enum MCAPSchema: String, CaseIterable, Sendable {
    case poseInFrame = "foxglove.PoseInFrame"
    case posesInFrame = "foxglove.PosesInFrame"
    case log = "foxglove.Log"
    case locationFix = "foxglove.LocationFix"
    case imu = "navbench.Imu"

    /// The schema name in the MCAP schema record.
    public var name: String { rawValue }

    /// The schema text (JSON Schema, compact).
    public var json: String {
        switch self {
        case .poseInFrame:
            return object(
                "foxglove.PoseInFrame", "A timestamped pose in a frame",
                [time("Timestamp of pose"), frameID("Frame of the pose"), "\"pose\":\(Self.pose("Pose in 3D space"))"])
        case .posesInFrame:
            return object(
                "foxglove.PosesInFrame", "Timestamped poses in a frame",
                [
                    time("Timestamp of the poses"), frameID("Frame of the poses"),
                    "\"poses\":{\"type\":\"array\",\"description\":\"Poses in 3D space\",\"items\":\(Self.pose("A pose"))}",
                ])
        case .log:
            let levels = ["UNKNOWN", "DEBUG", "INFO", "WARNING", "ERROR", "FATAL"].enumerated().map { "{\"title\":\"\($1)\",\"const\":\($0)}" }
            return object(
                "foxglove.Log", "A log message",
                [
                    time("Timestamp of log message"),
                    "\"level\":{\"title\":\"foxglove.LogLevel\",\"description\":\"Log level\",\"oneOf\":[\(levels.joined(separator: ","))]}",
                    "\"message\":{\"type\":\"string\",\"description\":\"Log message\"}",
                    "\"name\":{\"type\":\"string\",\"description\":\"Process or node name\"}",
                    "\"file\":{\"type\":\"string\",\"description\":\"Filename\"}",
                    "\"line\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"Line number in the file\"}",
                ])
        case .locationFix:
            let kinds = ["UNKNOWN", "APPROXIMATED", "DIAGONAL_KNOWN", "KNOWN"].enumerated().map { "{\"title\":\"\($1)\",\"const\":\($0)}" }
            return object(
                "foxglove.LocationFix", "A satellite or indoor location fix",
                [
                    frameID("Frame of the sensor"), time("Timestamp of the message"),
                    "\"latitude\":{\"type\":\"number\",\"description\":\"Latitude in degrees\"}",
                    "\"longitude\":{\"type\":\"number\",\"description\":\"Longitude in degrees\"}",
                    "\"altitude\":{\"type\":\"number\",\"description\":\"Altitude in meters\"}",
                    "\"position_covariance\":{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"minItems\":9,\"maxItems\":9,"
                        + "\"description\":\"Position covariance (m^2), East, North, Up, row-major\"}",
                    "\"position_covariance_type\":{\"title\":\"foxglove.PositionCovarianceType\",\"description\":\"Type of the covariance\","
                        + "\"oneOf\":[\(kinds.joined(separator: ","))]}",
                ])
        case .imu:
            return object(
                "navbench.Imu", "An inertial sample in the device frame (navbench trace format v1, stream imu)",
                [
                    time("Timestamp of the sample"), frameID("Frame of the device"),
                    "\"linear_acceleration\":\(Self.vector("Accelerometer, m/s^2, gravity included"))",
                    "\"angular_velocity\":\(Self.vector("Gyroscope, rad/s"))",
                    "\"orientation\":\(Self.quaternion("Attitude (device to reference frame), when the trace has one"))",
                    "\"magnetic_field\":\(Self.vector("Magnetometer, uT, when the trace has one"))",
                    "\"moving\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1,\"description\":\"1 while the device moves, when the trace says\"}",
                ], required: ["timestamp", "frame_id", "linear_acceleration", "angular_velocity"])
        }
    }

    private func object(_ title: String, _ description: String, _ properties: [String], required: [String] = []) -> String {
        let req = required.isEmpty ? "" : ",\"required\":[\(required.map { "\"\($0)\"" }.joined(separator: ","))]"
        return "{\"title\":\"\(title)\",\"description\":\"\(description)\",\"type\":\"object\","
            + "\"properties\":{\(properties.joined(separator: ","))}\(req)}"
    }

    private func time(_ description: String) -> String {
        "\"timestamp\":{\"type\":\"object\",\"title\":\"time\",\"description\":\"\(description)\",\"properties\":{"
            + "\"sec\":{\"type\":\"integer\",\"minimum\":0},\"nsec\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":999999999}}}"
    }

    private func frameID(_ description: String) -> String { "\"frame_id\":{\"type\":\"string\",\"description\":\"\(description)\"}" }

    private static func vector(_ description: String) -> String {
        "{\"title\":\"foxglove.Vector3\",\"description\":\"\(description)\",\"type\":\"object\",\"properties\":{"
            + ["x", "y", "z"].map { "\"\($0)\":{\"type\":\"number\"}" }.joined(separator: ",") + "}}"
    }

    private static func quaternion(_ description: String) -> String {
        "{\"title\":\"foxglove.Quaternion\",\"description\":\"\(description)\",\"type\":\"object\",\"properties\":{"
            + ["x", "y", "z", "w"].map { "\"\($0)\":{\"type\":\"number\"}" }.joined(separator: ",") + "}}"
    }

    private static func pose(_ description: String) -> String {
        "{\"title\":\"foxglove.Pose\",\"description\":\"\(description)\",\"type\":\"object\",\"properties\":{"
            + "\"position\":\(vector("Position, m")),\"orientation\":\(quaternion("Orientation"))}}"
    }
}
