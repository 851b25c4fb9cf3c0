/// A stream of time-stamped labels beside a session's sensor streams: instants (a heel strike
/// with its foot, any labelled moment) or intervals (a straight segment with its direction, a
/// turn with its signed nominal angle, a free-text event such as a wall contact or a stop).
///
/// Every stream names its `source` ("hand-annotated (WeAllWalk)", "detected by peak …"): hand
/// labels and detections live side by side and are scored against each other.
/// Stored in a trace under `/annotations/<name>` (docs/trace-format.md).
public struct AnnotationStream: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// `end == start` for every row.
        case instants
        /// `end ≥ start` for every row.
        case intervals
    }

    /// The stream's name in the trace: 1–64 characters of `a–z`, `0–9`, `_`, `-` (`isValidName`).
    public var name: String
    public var kind: Kind
    /// Who or what made the labels (free text, data: escaped wherever it is shown).
    public var source: String
    /// Start times, seconds on the session's clock, non-decreasing.
    public var start: [Double]
    /// End times (equal to `start` for instants), seconds.
    public var end: [Double]
    /// One label per row (free text: a foot "L"/"R", a segment id, an event's description).
    public var label: [String]
    /// One number per row where the stream has one (a turn's signed angle), NaN where a row has none.
    public var value: [Double]?
    /// The unit of `value` ("deg", "1", …).
    public var valueUnits: String

    public init(
        name: String, kind: Kind, source: String, start: [Double], end: [Double]? = nil, label: [String],
        value: [Double]? = nil, valueUnits: String = "1"
    ) {
        self.name = name; self.kind = kind; self.source = source; self.start = start
        self.end = end ?? start; self.label = label; self.value = value; self.valueUnits = valueUnits
    }

    public var count: Int { start.count }

    /// The names of the hand-annotated streams a walk's scores read (`import weallwalk` writes them).
    public enum WalkStream {
        /// Heel strikes (instants, labelled with the foot).
        public static let heelStrikes = "steps"
        /// Straight segments (intervals labelled `ID DIRECTION`).
        public static let straightSegments = "straight_segments"
        /// Turns (intervals, value = signed nominal angle in degrees, + left).
        public static let turns = "turns"
        /// Events (intervals, free-text labels: "touches wall", "stops", …).
        public static let events = "events"
    }

    /// The characters a stream name may use: it becomes an HDF5 path component and a file-name
    /// part, so nothing else is allowed.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D }
    }

    /// The first problem of the stream's values, or nil: counts agree, times are finite and
    /// non-decreasing by start, every end ≥ its start (= for instants), the name is valid.
    ///
    /// - Complexity: O(n).
    public func problem() -> String? {
        guard Self.isValidName(name) else {
            return "name \"\(name)\": expected 1–64 characters of a–z, 0–9, _ or -"
        }
        guard end.count == start.count, label.count == start.count, value.map({ $0.count == start.count }) ?? true else {
            return
                "expected one end, label\(value == nil ? "" : " and value") per start; found \(start.count) starts, \(end.count) ends, \(label.count) labels"
                + (value.map { ", \($0.count) values" } ?? "")
        }
        guard !source.isEmpty, source.utf8.count <= 4_096 else { return "source: expected 1–4,096 bytes naming who or what made the labels" }
        if let bad = label.firstIndex(where: { $0.utf8.count > 4_096 || $0.utf8.contains(0) }) {
            return "row \(bad): a label must hold no NUL and at most 4,096 bytes"
        }
        guard !valueUnits.isEmpty, valueUnits.utf8.count <= 64 else { return "value units: expected 1–64 bytes" }
        for i in start.indices {
            guard start[i].isFinite, end[i].isFinite else { return "row \(i): times must be finite" }
            if i > 0, start[i] < start[i - 1] {
                return "row \(i): start \(start[i]) s is before the previous row's start \(start[i - 1]) s (rows must be sorted by start)"
            }
            switch kind {
            case .instants where end[i] != start[i]:
                return "row \(i): an instant's end (\(end[i]) s) must equal its start (\(start[i]) s)"
            case .intervals where end[i] < start[i]:
                return "row \(i): the interval ends (\(end[i]) s) before it starts (\(start[i]) s)"
            default: break
            }
            if let v = value?[i], v.isInfinite { return "row \(i): value is infinite (NaN marks a row without one)" }
        }
        return nil
    }
}
