import Foundation
import NavCore
import NavIO

/// The streams a session holds: what a planner needs to know of an input before loading it.
public struct SessionStreams: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let imu = SessionStreams(rawValue: 1 << 0)
    public static let compass = SessionStreams(rawValue: 1 << 1)
    public static let ble = SessionStreams(rawValue: 1 << 2)
    public static let vio = SessionStreams(rawValue: 1 << 3)
    public static let anchors = SessionStreams(rawValue: 1 << 4)
    public static let location = SessionStreams(rawValue: 1 << 5)
    public static let groundTruth = SessionStreams(rawValue: 1 << 6)

    /// The streams `session` holds.
    public init(of session: Session) {
        var s: SessionStreams = []
        if session.imu != nil { s.insert(.imu) }
        if session.compass != nil { s.insert(.compass) }
        if session.ble != nil { s.insert(.ble) }
        if session.vio != nil { s.insert(.vio) }
        if session.anchors != nil { s.insert(.anchors) }
        if session.location != nil { s.insert(.location) }
        if session.groundTruth != nil { s.insert(.groundTruth) }
        self = s
    }
}

/// An input was changed on disk between planning an experiment and loading it for a job.
public struct InputChangedError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var planned: String
    public var found: String
    public var description: String {
        "\(escapedForMessage(file)): changed since the experiment was planned (SHA-256 \(planned.prefix(12))… then, \(found.prefix(12))… now); run again"
    }
}

/// The input sessions of an experiment: every input's metadata and stream list held, its streams
/// loaded when a job asks for them and released when no recent job needs them.
///
/// A sweep's jobs come in route order (route, session, configuration), so the sessions of the few
/// routes in flight are the ones asked for: the catalog keeps the `capacity` most recently used
/// sessions and drops the rest. Peak memory is then O(capacity × session), not O(inputs × session):
/// flat in the number of routes (docs/scaling.md). A session asked for by two workers at once is
/// loaded once (the second waits for the first).
///
/// Three sources: a trace file (read again with `readTrace` at its planned checksum; a file changed
/// since planning is refused with `InputChangedError`), a session in memory (kept for the catalog's
/// life: `data_seeds:` venues, tests), or a generator called on demand (the sweep benchmark).
///
/// - Complexity: `session(_:)` O(1) when held, one load otherwise; memory O(inputs) for the
///   metadata plus O(capacity) sessions.
public final class SessionCatalog: @unchecked Sendable {  // mutable state guarded by `condition`
    /// Where a session's streams come from.
    public enum Source: Sendable {
        /// A trace file and its SHA-256 (hex) when planned.
        case file(path: String, sha256: String, policy: HDF5ReadPolicy)
        /// A session held in memory for the catalog's life.
        case memory(Session)
        /// A session made on demand (deterministic: every call gives the same session).
        case generated(@Sendable () throws -> Session)
    }

    /// What the planner knows of one input.
    public struct Entry: Sendable {
        public var metadata: SessionMetadata
        /// The streams it holds; nil when only its root attributes were read (inputs a shard
        /// does not need): such an entry is paired by route but never run.
        public var streams: SessionStreams?
        public var source: Source

        public init(metadata: SessionMetadata, streams: SessionStreams?, source: Source) {
            self.metadata = metadata; self.streams = streams; self.source = source
        }
    }

    /// The inputs by name (a path, or a label for sessions made in memory).
    public let entries: [String: Entry]
    /// The input names, sorted.
    public let names: [String]

    private let condition = NSCondition()
    private var held: [String: (session: Session, used: UInt64)] = [:]
    private var loading: Set<String> = []
    private var clock: UInt64 = 0
    private var capacity: Int

    /// - Parameter capacity: sessions kept loaded (at least 2: a recording and a navigation).
    public init(entries: [String: Entry], capacity: Int = 4) {
        self.entries = entries
        names = entries.keys.sorted()
        self.capacity = max(2, capacity)
    }

    /// A catalog of sessions in memory (tests, notebooks, the sweep benchmark's small cases).
    public convenience init(sessions: [String: Session]) {
        self.init(entries: sessions.mapValues { Entry(metadata: $0.metadata, streams: SessionStreams(of: $0), source: .memory($0)) })
    }

    public func metadata(_ name: String) -> SessionMetadata? { entries[name]?.metadata }

    /// Keeps at least the sessions `workers` jobs in flight need (a recording and a navigation
    /// each, and the next route's pair).
    public func reserve(workers: Int) {
        condition.lock()
        capacity = max(capacity, 2 * max(1, workers) + 2)
        condition.unlock()
    }

    /// The session `name` with its streams, loaded if it is not held.
    ///
    /// - Throws: `CatalogError.unknown` for a name that is not an input; the loader's error
    ///   (`TraceError`, `InputChangedError`, a generator's) otherwise. A failed load is not held.
    public func session(_ name: String) throws -> Session {
        guard let entry = entries[name] else { throw CatalogError(name: name) }
        if case .memory(let s) = entry.source { return s }
        condition.lock()
        while loading.contains(name) { condition.wait() }
        clock += 1
        if let h = held[name] {
            held[name] = (h.session, clock)
            condition.unlock()
            return h.session
        }
        loading.insert(name)
        condition.unlock()
        let result = Result(catching: { try Self.load(name, entry.source) })
        condition.lock()
        loading.remove(name)
        if case .success(let s) = result {
            clock += 1
            held[name] = (s, clock)
            while held.count > capacity, let oldest = held.min(by: { $0.value.used < $1.value.used })?.key { held[oldest] = nil }
        }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }

    /// Sessions held now (for tests of the release rule).
    public var heldCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return held.count
    }

    private static func load(_ name: String, _ source: Source) throws -> Session {
        switch source {
        case .memory(let s): return s
        case .generated(let make): return try make()
        case .file(let path, let planned, let policy):
            let now = try sha256Hex(ofFile: path)
            guard now == planned else { throw InputChangedError(file: path, planned: planned, found: now) }
            return try readTrace(at: path, policy: policy)
        }
    }
}

/// A session name that is not an input of the catalog (a programming error surfaced as one line).
public struct CatalogError: Error, CustomStringConvertible, Sendable, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
    public var description: String { "\(escapedForMessage(name)): not an input of this experiment" }
}
