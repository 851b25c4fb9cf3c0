import Foundation
import NavCore
import NavIO
import NavSim
import NavSynth

/// The `closed_loop` section of an experiment spec (docs/experiments.md): walker profiles ×
/// VIO error levels × the sweep's guidance configurations × seeds, `runs` walkers per cell,
/// on every recording of the inputs.
public struct ClosedLoopSpec: Sendable, Equatable {
    /// The walker profiles, VIO error levels and walls, each parsed once where the spec is read
    /// (`parse`): the text as given (cell labels, `closed-loop.csv` columns, keys) and its value.
    /// Empty in a section not read from a spec (no cells).
    public private(set) var walkerLevels: [ClosedLoopLevel<NavigatorProfile>] = []
    public private(set) var vioErrorLevels: [ClosedLoopLevel<VIOErrorSpec>] = []
    public private(set) var wallsLevels: [ClosedLoopLevel<WallsMode>] = []
    /// Walkers per cell.
    public var runs = 30
    public var seeds: [UInt64] = [1]
    /// Walked paths drawn per route (first walker, last VIO level, first configuration).
    public var samplePaths = 8
    /// Globs choosing the recordings walked among the experiment's inputs (all when empty).
    public var recordings: [String] = []
    /// Robustness to walker parameters (`closed_loop.uncertainty`; nil: not asked).
    public var uncertainty: WalkerUncertaintySpec?
    /// `registration: simulated`: Clew's registration is simulated from anchor sightings and the
    /// closed loop crosses the sweep's `registration` and `anchor_sightings` levels (default
    /// `perfect`: registration error only as a VIO error level's `yaw_offset`).
    public var simulatesRegistration = false
    public init() {}

    /// The texts of a closed-loop dimension's values.
    public func values(of d: SweepDimension) -> [String] {
        switch d.key {
        case SweepDimension.walker.key: return walkers
        case SweepDimension.vioError.key: return vioErrors
        case SweepDimension.walls.key: return walls
        default: return []
        }
    }
    public var walkers: [String] { walkerLevels.map(\.text) }
    public var vioErrors: [String] { vioErrorLevels.map(\.text) }
    public var walls: [String] { wallsLevels.map(\.text) }

    static let specKey = "closed_loop"
    /// The keys whose override `a,b` is a list.
    static var listKeys: Set<String> { Set(SweepDimension.closedLoop.map(\.key) + ["seeds", "recordings"]) }

    static var keys: [String] {
        SweepDimension.closedLoop.map(\.key) + ["runs", "seeds", "sample_paths", "recordings", "registration", "uncertainty"]
    }

    /// Parses the `closed_loop` mapping; errors name `closed_loop.KEY`.
    static func parse(_ node: Any, file: String) throws(SpecError) -> ClosedLoopSpec {
        func fail(_ key: String, _ problem: String) -> SpecError {
            SpecError(file: file, key: "closed_loop" + (key.isEmpty ? "" : ".\(key)"), problem: problem)
        }
        guard let m = node as? [String: Any] else { throw fail("", "expected a mapping with keys \(keys.joined(separator: ", "))") }
        for k in m.keys.sorted() where !keys.contains(k) { throw fail(k, "unknown key; valid: \(keys.joined(separator: ", "))") }
        var s = ClosedLoopSpec()
        func strings(_ k: String) throws(SpecError) -> [String]? {
            guard let v = m[k] else { return nil }
            let l = (v as? [Any]) ?? [v]
            let out = l.compactMap { $0 as? String ?? ($0 as? CustomStringConvertible).map { "\($0)" } }
            guard !out.isEmpty, out.count == l.count else { throw fail(k, "expected a non-empty list") }
            var seen = Set<String>()
            for x in out where !seen.insert(x).inserted { throw fail(k, "'\(escapedForMessage(x))' is listed twice; each value once") }
            return out
        }
        /// The levels of dimension `d` (its default alone when not given), each text parsed once.
        func levels<V>(_ d: SweepDimension, _ parse: (String) throws -> V) throws(SpecError) -> [ClosedLoopLevel<V>] {
            var out: [ClosedLoopLevel<V>] = []
            for x in try strings(d.key) ?? [d.defaultValue] {
                do { out.append(ClosedLoopLevel(text: x, value: try parse(x))) } catch {
                    // The parser's own line says what is wrong in the value and what it expected.
                    throw fail(d.key, escapedForMessage("\(error)", limit: 300))
                }
            }
            return out
        }
        s.walkerLevels = try levels(.walker) { try walkerProfile(parsing: $0) }
        s.vioErrorLevels = try levels(.vioError) { try VIOErrorSpec(parsing: $0) }
        s.wallsLevels = try levels(.walls) { try WallsMode(parsing: $0) }
        if let l = try strings("recordings") { s.recordings = l }
        if let v = m["runs"] {
            guard let n = v as? Int, n >= 1, n <= 100_000 else { throw fail("runs", "expected walkers per cell, an integer 1…100000") }
            s.runs = n
        }
        if let v = m["sample_paths"] {
            guard let n = v as? Int, n >= 0, n <= 100 else { throw fail("sample_paths", "expected an integer 0…100") }
            s.samplePaths = n
        }
        if let l = try strings("seeds") {
            s.seeds = try l.map { (x: String) throws(SpecError) -> UInt64 in
                guard let u = UInt64(x) else { throw fail("seeds", "'\(escapedForMessage(x))' is not a non-negative integer") }
                return u
            }
        }
        if let v = m["registration"] {
            guard let t = v as? String, t == "perfect" || t == "simulated" else {
                throw fail(
                    "registration", "expected perfect (the registration error is a VIO error level's yaw_offset) or simulated (from anchor sightings)"
                )
            }
            s.simulatesRegistration = t == "simulated"
        }
        if let u = m["uncertainty"] {
            s.uncertainty = try WalkerUncertaintySpec.parse(u, walkers: s.walkerLevels, seed: s.seeds.first ?? 1, file: file)
        }
        return s
    }

    /// Refuses a closed loop whose cells (walker × vio_error × walls × seeds × the guidance
    /// configurations of `sweep` it crosses), or walker-uncertainty units per recording, exceed
    /// the limits: counted, with overflow checked, before anything is built (as `sweep:` is,
    /// SpecLimits.swift).
    func checkLimits(sweep: Sweep, limits: SpecLimits, file: String) throws(SpecError) {
        let guidance = closedLoopDimensions(simulatesRegistration: simulatesRegistration).map { sweep.levels(of: $0).count }
        var cells = 1, overflow = false
        for n in [walkerLevels.count, vioErrorLevels.count, wallsLevels.count, seeds.count] + guidance where !overflow {
            (cells, overflow) = cells.multipliedReportingOverflow(by: n)
        }
        guard !overflow, cells <= limits.maxConfigurations else {
            throw SpecError(
                file: file, key: Self.specKey,
                problem:
                    "\(overflow ? "more than 2^63" : String(cells)) cells (walker × vio_error × walls × seeds × guidance configurations), more than the limit of \(limits.maxConfigurations) (--max-configurations raises it)"
            )
        }
        if let u = uncertainty {
            // A walker-uncertainty unit per sampled walker and closed-loop configuration (per recording and walls).
            let configurations = guidance.reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
            let (units, overflow) = u.points.multipliedReportingOverflow(by: configurations)
            guard !overflow, units <= WalkerUncertaintySpec.maxUnitsPerRecording else {
                throw SpecError(
                    file: file, key: "\(Self.specKey).uncertainty",
                    problem:
                        "\(u.points) sampled walkers × \(configurations) guidance configurations is more than \(WalkerUncertaintySpec.maxUnitsPerRecording) units per recording"
                )
            }
        }
    }

    /// The section as YAML lines (`--print-config`).
    var resolvedYAML: String {
        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        var y = "closed_loop:\n"
        for d in SweepDimension.closedLoop { y += "  \(d.key): [" + values(of: d).map(q).joined(separator: ", ") + "]\n" }
        y += "  runs: \(runs)\n  seeds: [" + seeds.map(String.init).joined(separator: ", ") + "]\n  sample_paths: \(samplePaths)\n"
        if !recordings.isEmpty { y += "  recordings: [" + recordings.map(q).joined(separator: ", ") + "]\n" }
        y += "  registration: \(simulatesRegistration ? "simulated" : "perfect")\n"
        if let uncertainty { y += uncertainty.resolvedYAML }
        return y
    }
}
