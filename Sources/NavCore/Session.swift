/// What a session file records: a route being taught, or a later run guided along it.
public enum SessionKind: String, Sendable, Codable, CaseIterable {
    case recording, navigation
}

/// ARKit's tracking state, stored as an int8 code.
public enum TrackingState: Int8, Sendable, Codable, CaseIterable {
    case notAvailable = 0, limited = 1, normal = 2
}

/// Session-level facts, stored as HDF5 root attributes.
public struct SessionMetadata: Sendable, Equatable {
    public static let currentFormatVersion = 1
    public static let arkitFrame = "ARKit: right-handed, metres, +y up (against gravity), x east, z south (gravityAndHeading); quaternions x,y,z,w"

    public var formatVersion: Int
    public var kind: SessionKind
    public var sessionID: String
    public var routeID: String
    public var venue: String
    public var device: String
    public var frameConvention: String
    /// Generator parameters as canonical JSON ("" for recorded sessions).
    public var generator: String

    public init(
        kind: SessionKind, sessionID: String, routeID: String, venue: String,
        device: String, frameConvention: String = SessionMetadata.arkitFrame,
        generator: String = "", formatVersion: Int = SessionMetadata.currentFormatVersion
    ) {
        self.formatVersion = formatVersion
        self.kind = kind
        self.sessionID = sessionID
        self.routeID = routeID
        self.venue = venue
        self.device = device
        self.frameConvention = frameConvention
        self.generator = generator
    }
}

/// Inertial samples in the device frame.
public struct IMUStream: Sendable {
    public var timestamps: [Double]
    /// Specific force, m/s² (reads +9.81 along the device's up axis at rest).
    public var accelerometer: [Vector3]
    /// Angular rate, rad/s.
    public var gyroscope: [Vector3]
    /// Device-to-world rotation (+y up, yaw reference arbitrary), optional.
    public var attitude: [Quaternion]?
    /// Magnetic field, µT, optional.
    public var magnetometer: [Vector3]?

    /// Whether the device was moving at each sample, as the recording marks it (BROAD's
    /// `movement` phase); nil when it does not. Scores may be taken on the moving samples only.
    public var moving: [Bool]?
    public init(
        timestamps: [Double], accelerometer: [Vector3], gyroscope: [Vector3],
        attitude: [Quaternion]? = nil, magnetometer: [Vector3]? = nil, moving: [Bool]? = nil
    ) {
        self.timestamps = timestamps; self.accelerometer = accelerometer; self.gyroscope = gyroscope
        self.attitude = attitude; self.magnetometer = magnetometer; self.moving = moving
    }
}

/// Compass headings, degrees clockwise from north in [0, 360).
public struct CompassStream: Sendable {
    public var timestamps: [Double]
    public var heading: [Double]
    /// Estimated heading error, degrees (CoreLocation's headingAccuracy), optional.
    public var accuracy: [Double]?

    public init(timestamps: [Double], heading: [Double], accuracy: [Double]? = nil) {
        self.timestamps = timestamps; self.heading = heading; self.accuracy = accuracy
    }
}

/// One iBeacon: identity and, where known, its position in the venue frame.
public struct Beacon: Sendable, Equatable {
    public var uuid: String
    public var major: Int32
    public var minor: Int32
    public var position: Vector3?

    public init(uuid: String, major: Int32, minor: Int32, position: Vector3?) {
        self.uuid = uuid; self.major = major; self.minor = minor; self.position = position
    }
}

/// BLE ranging readings; several rows may share a scan's timestamp.
public struct BLEStream: Sendable {
    public var timestamps: [Double]
    /// Row index into `beacons`.
    public var beaconIndex: [Int32]
    /// Received signal strength, dBm.
    public var rssi: [Double]
    public var beacons: [Beacon]

    public init(timestamps: [Double], beaconIndex: [Int32], rssi: [Double], beacons: [Beacon]) {
        self.timestamps = timestamps; self.beaconIndex = beaconIndex; self.rssi = rssi; self.beacons = beacons
    }
}

/// Visual-inertial odometry: the camera pose in the session's own frame.
public struct VIOStream: Sendable {
    public var timestamps: [Double]
    public var poses: [Pose]
    public var trackingState: [TrackingState]

    public init(timestamps: [Double], poses: [Pose], trackingState: [TrackingState]) {
        self.timestamps = timestamps; self.poses = poses; self.trackingState = trackingState
    }
}

/// Anchor sightings: the detected anchor's pose in the session frame.
public struct AnchorStream: Sendable {
    public var timestamps: [Double]
    public var anchorID: [Int32]
    public var poses: [Pose]

    public init(timestamps: [Double], anchorID: [Int32], poses: [Pose]) {
        self.timestamps = timestamps; self.anchorID = anchorID; self.poses = poses
    }
}

/// Location fixes (CoreLocation-like).
public struct LocationStream: Sendable {
    public static let noFloor: Int32 = Int32.min
    public var timestamps: [Double]
    public var latitude: [Double]
    public var longitude: [Double]
    public var altitude: [Double]
    public var horizontalAccuracy: [Double]
    /// Level, 0 = ground, negative below; `noFloor` where unknown.
    public var floor: [Int32]

    public init(
        timestamps: [Double], latitude: [Double], longitude: [Double], altitude: [Double],
        horizontalAccuracy: [Double], floor: [Int32]
    ) {
        self.timestamps = timestamps; self.latitude = latitude; self.longitude = longitude
        self.altitude = altitude; self.horizontalAccuracy = horizontalAccuracy; self.floor = floor
    }
}

/// True device poses in the venue frame, shared by all sessions of a venue.
public struct GroundTruthStream: Sendable {
    public var timestamps: [Double]
    public var poses: [Pose]
    /// True floor level, optional.
    public var floor: [Int32]?

    public init(timestamps: [Double], poses: [Pose], floor: [Int32]? = nil) {
        self.timestamps = timestamps; self.poses = poses; self.floor = floor
    }

    public var trajectory: Trajectory {
        get throws(TimestampError) { try Trajectory(timestamps: timestamps, poses: poses) }
    }
}

/// One recorded session: metadata and any subset of the streams.
public struct Session: Sendable {
    public var metadata: SessionMetadata
    public var imu: IMUStream?
    public var compass: CompassStream?
    public var ble: BLEStream?
    public var vio: VIOStream?
    public var anchors: AnchorStream?
    public var location: LocationStream?
    public var groundTruth: GroundTruthStream?
    /// Labelled instants and intervals (heel strikes, segments, turns, events), by stream name.
    public var annotations: [AnnotationStream]
    /// Free-text facts about the session beside the root attributes above (a subject, a
    /// mobility aid, a pocket), stored as the root attribute `session_attributes` (JSON).
    public var attributes: [String: String]

    public init(
        metadata: SessionMetadata, imu: IMUStream? = nil, compass: CompassStream? = nil,
        ble: BLEStream? = nil, vio: VIOStream? = nil, anchors: AnchorStream? = nil,
        location: LocationStream? = nil, groundTruth: GroundTruthStream? = nil,
        annotations: [AnnotationStream] = [], attributes: [String: String] = [:]
    ) {
        self.metadata = metadata; self.imu = imu; self.compass = compass; self.ble = ble
        self.vio = vio; self.anchors = anchors; self.location = location; self.groundTruth = groundTruth
        self.annotations = annotations; self.attributes = attributes
    }

    /// The annotation stream called `name`, if the session has one.
    public func annotation(_ name: String) -> AnnotationStream? { annotations.first { $0.name == name } }
}
