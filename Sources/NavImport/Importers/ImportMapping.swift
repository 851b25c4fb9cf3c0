import Foundation
import NavCore
import NavIO

// The mapping file of the `csv` and `hdf5-mapped` importers: which column or dataset feeds
// which trace dataset, in which units, on which clock. Schema and examples: docs/importers.md.

/// A reference to a CSV column: by header name or by 0-based index.
public enum ColumnReference: Sendable, Equatable, CustomStringConvertible {
    case name(String), index(Int)
    public var description: String {
        switch self {
        case let .name(n): return "'\(n)'"
        case let .index(i): return "\(i)"
        }
    }
}

/// Where a field's values come from.
public enum ValueSource: Sendable, Equatable {
    /// CSV columns, one per component.
    case columns([ColumnReference])
    /// An HDF5 dataset or MAT-file array, optionally a selection of its columns (0-based).
    case dataset(String, columns: [Int]?)
    /// The same value for every sample: one number per component.
    case constant([Double])
}

/// How a rotation is laid out in the source: a quaternion's component order, or a 3×3
/// rotation matrix's nine entries.
public enum QuaternionOrder: String, Sendable, CaseIterable {
    /// x, y, z, w (scipy, ROS, TUM, the trace itself).
    case xyzw
    /// w, x, y, z (Eigen's coefficients constructor, BROAD, EuRoC).
    case wxyz
    /// A rotation matrix, r11 r12 r13 r21 … r33 (KITTI, most CSV exports).
    case rowMajor = "row-major"
    /// A rotation matrix, r11 r21 r31 r12 … r33 (MATLAB's and Eigen's storage).
    case columnMajor = "column-major"

    /// Source values per rotation: 4 for a quaternion, 9 for a matrix.
    public var width: Int { self == .xyzw || self == .wxyz ? 4 : 9 }
}

/// How a stream's sample times are obtained.
public enum TimeSpec: Sendable, Equatable {
    /// A column or dataset of times in `units` (s, ms, us, ns).
    case values(ValueSource, units: String)
    /// Sample k is at `start + k / rate` seconds.
    case sampleRate(RateSource, start: Double)
}

/// A sample rate in Hz: a number, an HDF5 attribute holding it, or a dataset (an HDF5 scalar,
/// a MAT-file variable such as QTM's FrameRate) holding it.
public enum RateSource: Sendable, Equatable {
    case hz(Double)
    case attribute(name: String, object: String)
    case dataset(String)
}

/// One trace dataset's source.
public struct FieldMapping: Sendable {
    public var target: String
    public var source: ValueSource
    public var units: String?
    public var order: QuaternionOrder?
    /// Multiplies the value after unit conversion (e.g. −1 for Core Motion's accelerations).
    public var scale: Double
    /// Line of the field in the mapping file.
    public var line: Int
    /// The input (1-based, `import csv IN…`) holding its columns; nil: the stream's. A field of
    /// another input than its stream's is read on that input's clock and interpolated at the
    /// stream's times.
    public var input: Int? = nil
}

/// One input file of a mapping with several (`inputs:`): its clock and its offset.
public struct InputMapping: Sendable {
    /// Its clock (nil: the mapping's `time`).
    public var time: TimeSpec?
    /// Seconds added to every time of this input (a per-file clock offset: boot time, alignment).
    public var offset: Double = 0
    public var line: Int
}

/// An entry of the BLE beacon table given in the mapping (keyed by the beacon column's value).
public struct BeaconMapping: Sendable {
    /// The value of the beacon column that names this beacon.
    public var key: String
    public var uuid: String?
    public var major: Int32?
    public var minor: Int32?
    /// In the mapping's `frame`, metres.
    public var position: Vector3?
}

/// One stream of the mapping.
public struct StreamMapping: Sendable {
    public var name: String
    /// The input (1-based) whose rows are the stream's samples; nil: 1.
    public var input: Int? = nil
    public var time: TimeSpec?
    public var invalidRows: InvalidRowPolicy?
    public var fields: [String: FieldMapping]
    /// BLE only: beacon identities and positions by key, in table order (these come first in
    /// the trace's beacon table, heard or not; other keys follow in order of appearance).
    public var beacons: [BeaconMapping]
    public var line: Int
    /// The world frame of this stream's positions, orientations, attitude and beacon positions
    /// (`frame:` in the stream); nil: the mapping's.
    public var frame: WorldFrame? = nil
    /// A fixed rotation of the body side of its orientations and of its body-frame vectors
    /// (`body_rotation:`; `BodyRotation`); nil: the body axes are kept.
    public var bodyRotation: BodyRotation? = nil

    /// Streams with world-frame values, which take a `frame:` of their own.
    public static let worldFrameStreams = ["imu", "ble", "vio", "anchors", "groundtruth"]
    /// Streams with a body side (orientations, body-frame vectors), which take `body_rotation:`.
    public static let bodyFrameStreams = ["imu", "vio", "anchors", "groundtruth"]
}

/// Layout of a delimited text file.
public struct CSVLayout: Sendable {
    /// Whether line 1 (after comments) names the columns.
    public var header = true
    /// The field separator; nil splits on runs of spaces and tabs.
    public var delimiter: Character? = ","
    /// Lines starting with this (after blanks) are skipped.
    public var comment: String?
    public init() {}
}

/// A parsed mapping file.
public struct ImportMapping: Sendable {
    /// The kind of file the mapping reads: CSV columns, or datasets of HDF5 or MAT-files.
    public enum Source: String, Sendable { case csv, hdf5, mat }

    public var file: String
    public var source: Source?
    /// World frame of positions, orientations and attitudes in the source.
    public var frame: WorldFrame = .arkit
    public var csv = CSVLayout()
    /// The clock of every stream that does not give its own.
    public var time: TimeSpec?
    /// The inputs' clocks and offsets, in command-line order (empty: one input on `time`).
    public var inputs: [InputMapping] = []
    /// In the order of the trace's streams.
    public var streams: [StreamMapping] = []

    public static let version = 1

    /// The trace's `frame_convention` after an import with this mapping (`format`: "CSV",
    /// "HDF5", …): the mapping's world frame, then each stream's own frame or body rotation.
    func frameConvention(format: String) -> String {
        var text =
            SessionMetadata.arkitFrame
            + (frame == .arkit ? "; imported \(format) (frame kept)" : "; imported \(format), world frame \(frame.rawValue) turned to ARKit's")
        for st in streams where st.frame != nil || st.bodyRotation != nil {
            var parts: [String] = []
            if let f = st.frame { parts.append(f == .arkit ? "world frame kept" : "world frame \(f.rawValue) turned to ARKit's") }
            if let r = st.bodyRotation?.quaternion {
                parts.append("body rotated by r = [w, x, y, z] [\([r.w, r.x, r.y, r.z].map(num).joined(separator: ", "))] (q ⊗ r, Rᵀ v)")
            }
            text += "; \(st.name): " + parts.joined(separator: ", ")
        }
        return text
    }
}
