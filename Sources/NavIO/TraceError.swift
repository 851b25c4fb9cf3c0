/// A problem with one input or output file, reported as one line:
/// `FILE: OBJECT: problem` (the object is an HDF5 path, a CSV column, …).
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case notFound, empty, notHDF5, corrupt, missing, wrongShape, wrongType, wrongUnits,
             badValue, badTimestamps, unsupportedVersion, noStreams, writeFailed
    }

    public var kind: Kind
    public var file: String
    /// HDF5 object path (`/imu/timestamps`), attribute (`/@format_version`) or nil for the whole file.
    public var object: String?
    public var problem: String

    public init(_ kind: Kind, file: String, object: String? = nil, _ problem: String) {
        self.kind = kind; self.file = file; self.object = object; self.problem = problem
    }

    public var description: String {
        if let object { return "\(file): \(object): \(problem)" }
        return "\(file): \(problem)"
    }
}
