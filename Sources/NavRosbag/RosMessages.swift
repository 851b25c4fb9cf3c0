import NavCore

/// The message types navbench decodes, by their ROS 1 names. ROS 2's `pkg/msg/Name` and ROS
/// 1's old `tf/tfMessage` (the same layout as `tf2_msgs/TFMessage`) map onto them.
public enum RosMessageType: String, Sendable, CaseIterable {
    case imu = "sensor_msgs/Imu"
    case poseStamped = "geometry_msgs/PoseStamped"
    case odometry = "nav_msgs/Odometry"
    case tfMessage = "tf2_msgs/TFMessage"
    case magneticField = "sensor_msgs/MagneticField"
    case navSatFix = "sensor_msgs/NavSatFix"

    static func shortName(_ typeName: String) -> String {
        let parts = typeName.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3 && parts[1] == "msg" { return "\(parts[0])/\(parts[2])" }
        return typeName
    }

    public init?(typeName: String) {
        let short = Self.shortName(typeName)
        if short == "tf/tfMessage" { self = .tfMessage; return }
        self.init(rawValue: short)
    }

    /// The MD5 of the ROS 1 definition (as `rosmsg md5`; a bag records it per connection).
    public var ros1MD5: String {
        switch self {
        case .imu: "6a62c6daae103f4ff57a132d6f95cec2"
        case .poseStamped: "d3812c3cbc69362b77dc0b19b345f8f5"
        case .odometry: "cd5e73d190d741a2f92e81eda573aca7"
        case .tfMessage: "94810edda583a504dfda3829e70d7eec"
        case .magneticField: "2f3b0b43eed0c9501de0fa3ff89a45aa"
        case .navSatFix: "2d3a8cd499b9b4a0249fb98fd05cfa48"
        }
    }

    /// Pose-carrying types (a trajectory topic).
    public var carriesPose: Bool { self == .poseStamped || self == .odometry || self == .tfMessage }
}

/// A `std_msgs/Header` stamp: whole seconds and nanoseconds.
public struct RosStamp: Sendable, Hashable, Comparable {
    public var sec: Int64
    public var nsec: UInt32

    public init(sec: Int64, nsec: UInt32) { self.sec = sec; self.nsec = nsec }

    /// Seconds, rounded once from the exact (sec, nsec) split (what a float of
    /// `sec + nsec·1e-9` in Python gives: the integer part is exact below 2⁵³).
    public var seconds: Double { Double(sec) + Double(nsec) / 1e9 }

    /// From nanoseconds since the epoch (a receive time).
    public init(nanoseconds ns: UInt64) {
        sec = Int64(ns / 1_000_000_000); nsec = UInt32(ns % 1_000_000_000)
    }

    /// `sec.nsec` with nine decimals, as rosbag prints times.
    public var text: String {
        let n = String(nsec)
        return "\(sec).\(String(repeating: "0", count: 9 - n.count))\(n)"
    }

    public static func < (a: RosStamp, b: RosStamp) -> Bool { (a.sec, a.nsec) < (b.sec, b.nsec) }
}

/// `sensor_msgs/Imu`.
public struct RosImu: Sendable, Equatable {
    public var stamp: RosStamp
    public var frameID: String
    /// (x, y, z, w); all zero or `orientationCovariance0 == −1` means "no orientation" (REP 145).
    public var orientation: Quaternion
    public var orientationCovariance0: Double
    /// rad/s.
    public var angularVelocity: Vector3
    /// m/s², specific force (gravity included).
    public var linearAcceleration: Vector3

    public var hasOrientation: Bool {
        orientationCovariance0 != -1 && !(orientation.x == 0 && orientation.y == 0 && orientation.z == 0 && orientation.w == 0)
    }
}

/// A stamped pose from `PoseStamped`, `Odometry` (pose.pose) or one transform of a `TFMessage`.
public struct RosPose: Sendable, Equatable {
    public var stamp: RosStamp
    /// The parent frame (`header.frame_id`).
    public var frameID: String
    /// The child frame (Odometry and transforms; empty for PoseStamped).
    public var childFrameID: String
    public var position: Vector3
    /// (x, y, z, w) as stored.
    public var orientation: Quaternion
}

/// `sensor_msgs/MagneticField`.
public struct RosMagneticField: Sendable, Equatable {
    public var stamp: RosStamp
    /// Tesla.
    public var field: Vector3
}

/// `sensor_msgs/NavSatFix`.
public struct RosNavSatFix: Sendable, Equatable {
    public var stamp: RosStamp
    /// −1 no fix, 0 fix, 1 SBAS, 2 GBAS.
    public var status: Int8
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double
    /// Row-major ENU covariance, m².
    public var positionCovariance: [Double]
    /// 0 unknown, 1 approximated, 2 diagonal known, 3 known.
    public var covarianceType: UInt8
}

/// One decoded message.
public enum RosMessage: Sendable, Equatable {
    case imu(RosImu)
    case poses([RosPose])
    case magneticField(RosMagneticField)
    case navSatFix(RosNavSatFix)
}

/// Why a payload did not decode: a one-line description (the caller adds file and topic).
public struct MessageDecodingError: Error, Sendable, CustomStringConvertible {
    public var problem: String
    public var description: String { problem }
}

/// A cursor for ROS 1 (packed little-endian) or CDR (aligned, either byte order) payloads.
struct MessageReader {
    var r: ByteReader
    let cdr: Bool
    let bigEndian: Bool
    /// Offset CDR alignment is counted from (after the encapsulation header).
    let origin: Int

    init(payload: UnsafeRawBufferPointer, encoding: MessageEncoding) throws(MessageDecodingError) {
        r = ByteReader(payload)
        switch encoding {
        case .ros1:
            cdr = false; bigEndian = false; origin = 0
        case .cdr:
            guard payload.count >= 4 else {
                throw MessageDecodingError(problem: "\(payload.count) bytes, expected at least the 4-byte CDR encapsulation header")
            }
            let kind = (UInt16(payload[0]) << 8) | UInt16(payload[1])
            switch kind {
            case 0x0000: bigEndian = true
            case 0x0001: bigEndian = false
            default:
                throw MessageDecodingError(
                    problem: "CDR encapsulation 0x\(String(kind, radix: 16)), expected plain CDR (0x0000 big-endian or 0x0001 little-endian)")
            }
            cdr = true; origin = 4
            r = ByteReader(payload, from: 4)
        }
    }

    mutating func align(_ n: Int) throws(MessageDecodingError) {
        guard cdr else { return }
        let misalignment = (r.offset - origin) % n
        if misalignment != 0 { try wrap { () throws(Shortfall) in try r.skip(n - misalignment) } }
    }

    func wrap<T>(_ body: () throws(Shortfall) -> T) throws(MessageDecodingError) -> T {
        do { return try body() } catch {
            throw MessageDecodingError(
                problem: "ends after \(error.offset) bytes, expected \(error.needed) more (a truncated message or another layout)")
        }
    }

    mutating func u8() throws(MessageDecodingError) -> UInt8 { try wrap { () throws(Shortfall) in try r.u8() } }

    mutating func u16() throws(MessageDecodingError) -> UInt16 {
        try align(2)
        let v = try wrap { () throws(Shortfall) in try r.u16() }
        return bigEndian ? v.byteSwapped : v
    }

    mutating func u32() throws(MessageDecodingError) -> UInt32 {
        try align(4)
        let v = try wrap { () throws(Shortfall) in try r.u32() }
        return bigEndian ? v.byteSwapped : v
    }

    mutating func f64() throws(MessageDecodingError) -> Double {
        try align(8)
        let v = try wrap { () throws(Shortfall) in try r.u64() }
        return Double(bitPattern: bigEndian ? v.byteSwapped : v)
    }

    mutating func skipF64(_ n: Int) throws(MessageDecodingError) {
        try align(8)
        try wrap { () throws(Shortfall) in try r.skip(8 * n) }
    }

    mutating func vector3() throws(MessageDecodingError) -> Vector3 { Vector3(try f64(), try f64(), try f64()) }

    mutating func quaternion() throws(MessageDecodingError) -> Quaternion {
        Quaternion(x: try f64(), y: try f64(), z: try f64(), w: try f64())
    }

    /// ROS 1: u32 length + bytes. CDR: u32 length including the terminating NUL + bytes.
    mutating func string() throws(MessageDecodingError) -> String {
        let n = Int(try u32())
        let bytes = try wrap { () throws(Shortfall) in try r.bytes(n) }
        if cdr, n > 0, bytes[n - 1] == 0 { return UnsafeRawBufferPointer(rebasing: bytes[0..<(n - 1)]).text }
        return bytes.text
    }

    /// `std_msgs/Header`: ROS 1 (seq u32, stamp u32 sec, u32 nsec, frame_id); ROS 2 (stamp
    /// i32 sec, u32 nanosec, frame_id).
    mutating func header() throws(MessageDecodingError) -> (RosStamp, String) {
        if !cdr { _ = try u32() }
        let rawSec = try u32()
        let sec = cdr ? Int64(Int32(bitPattern: rawSec)) : Int64(rawSec)
        let nsec = try u32()
        guard nsec < 1_000_000_000 else { throw MessageDecodingError(problem: "header stamp has \(nsec) ns, expected < 10⁹") }
        return (RosStamp(sec: sec, nsec: nsec), try string())
    }

    mutating func pose() throws(MessageDecodingError) -> (Vector3, Quaternion) { (try vector3(), try quaternion()) }

    /// Checks the payload was used up (CDR may end with up to 7 alignment bytes).
    func finish() throws(MessageDecodingError) {
        let left = r.remaining
        if cdr ? left > 7 : left != 0 {
            throw MessageDecodingError(problem: "\(left) bytes left after the message, expected none (another layout under this type name?)")
        }
    }
}

/// Decodes a payload of a known type.
///
/// - Throws: a `MessageDecodingError` when the payload is too short, too long, or has a
///   field that cannot be (a nanosecond count ≥ 10⁹, a sequence longer than the payload).
/// - Complexity: O(payload size).
public func decodeRosMessage(_ payload: UnsafeRawBufferPointer, type: RosMessageType, encoding: MessageEncoding) throws(MessageDecodingError)
    -> RosMessage
{
    var m = try MessageReader(payload: payload, encoding: encoding)
    let out: RosMessage
    switch type {
    case .imu:
        let (stamp, frame) = try m.header()
        let q = try m.quaternion()
        let c0 = try m.f64(); try m.skipF64(8)
        let w = try m.vector3(); try m.skipF64(9)
        let a = try m.vector3(); try m.skipF64(9)
        out = .imu(RosImu(stamp: stamp, frameID: frame, orientation: q, orientationCovariance0: c0, angularVelocity: w, linearAcceleration: a))
    case .poseStamped:
        let (stamp, frame) = try m.header()
        let (p, q) = try m.pose()
        out = .poses([RosPose(stamp: stamp, frameID: frame, childFrameID: "", position: p, orientation: q)])
    case .odometry:
        let (stamp, frame) = try m.header()
        let child = try m.string()
        let (p, q) = try m.pose()
        try m.skipF64(36)  // pose covariance
        try m.skipF64(6 + 36)  // twist and its covariance
        out = .poses([RosPose(stamp: stamp, frameID: frame, childFrameID: child, position: p, orientation: q)])
    case .tfMessage:
        let n = Int(try m.u32())
        // Each TransformStamped takes at least 12 + 4 + 4 + 56 bytes: refuse counts the payload cannot hold.
        guard n <= m.r.remaining / 76 + 1 else {
            throw MessageDecodingError(problem: "declares \(n) transforms, more than its \(m.r.remaining) bytes can hold")
        }
        var poses: [RosPose] = []
        poses.reserveCapacity(n)
        for _ in 0..<n {
            let (stamp, frame) = try m.header()
            let child = try m.string()
            let (p, q) = try m.pose()
            poses.append(RosPose(stamp: stamp, frameID: frame, childFrameID: child, position: p, orientation: q))
        }
        out = .poses(poses)
    case .magneticField:
        let (stamp, _) = try m.header()
        let f = try m.vector3(); try m.skipF64(9)
        out = .magneticField(RosMagneticField(stamp: stamp, field: f))
    case .navSatFix:
        let (stamp, _) = try m.header()
        let status = Int8(bitPattern: try m.u8())
        _ = try m.u16()
        let lat = try m.f64(), lon = try m.f64(), alt = try m.f64()
        var cov: [Double] = []
        cov.reserveCapacity(9)
        for _ in 0..<9 { cov.append(try m.f64()) }
        let type = try m.u8()
        out = .navSatFix(
            RosNavSatFix(stamp: stamp, status: status, latitude: lat, longitude: lon, altitude: alt, positionCovariance: cov, covarianceType: type))
    }
    try m.finish()
    return out
}
