import NavIO
import NavSim
import NavStatistics

/// The `closed_loop.uncertainty` section of an experiment spec (issue 30, item 1; schema in
/// docs/experiments.md): how robust the closed loop's conclusions are to walker parameters no
/// publication fixes. A sensitivity design samples the box of plausible ranges; every sampled
/// walker walks every guidance configuration (common random numbers: walker r draws the same
/// streams everywhere), and the report states each parameter's influence and, for each
/// closed-loop Finding, the share of sampled walkers for which it holds.
public struct WalkerUncertaintySpec: Sendable, Equatable {
    public enum Method: String, Sendable, Equatable, CaseIterable {
        /// Morris' elementary effects (screening): `samples` trajectories of D + 1 walkers.
        case morris
        /// First-order and total Sobol' indices: `samples` base samples, D + 2 walkers each.
        case sobol
    }
    /// One varied parameter: a walker override key and its range.
    public struct Parameter: Sendable, Equatable {
        public var key: String
        public var range: ClosedRange<Double>
    }
    public var method = Method.morris
    /// Morris trajectories, or Sobol' base samples.
    public var samples = 10
    /// Walkers per sampled walker × configuration × VIO error level × walls × recording.
    public var runs = 10
    /// The walker profile the box is centred on (its other parameters stay as they are).
    public var walker: ClosedLoopLevel<NavigatorProfile>
    public var parameters: [Parameter]
    /// Globs choosing the recordings walked (default: the closed loop's).
    public var recordings: [String] = []
    /// Seed of the design and of the walkers' random streams.
    public var seed: UInt64 = 1

    /// Sampled walkers (points of the design).
    public var points: Int { method == .morris ? samples * (parameters.count + 1) : samples * (parameters.count + 2) }

    static let keys = ["method", "samples", "runs", "walker", "parameters", "recordings", "seed"]
    /// Largest design (sampled walkers) and walks per configuration, recording and VIO level a spec may ask for.
    static let maxPoints = 100_000
    static let maxWalksPerConfiguration = 10_000_000
    /// Largest number of units (sampled walkers × closed-loop configurations) per recording and walls.
    static let maxUnitsPerRecording = 1_000_000

    /// Parses the mapping; `walkers` are the closed loop's (the default centre: the first that is
    /// not `ideal`), `seed` its first seed. Errors name `closed_loop.uncertainty.KEY`.
    static func parse(
        _ node: Any, walkers: [ClosedLoopLevel<NavigatorProfile>], seed: UInt64, file: String
    ) throws(SpecError) -> WalkerUncertaintySpec {
        func fail(_ key: String, _ problem: String) -> SpecError {
            SpecError(file: file, key: "closed_loop.uncertainty" + (key.isEmpty ? "" : ".\(key)"), problem: problem)
        }
        guard let m = node as? [String: Any] else { throw fail("", "expected a mapping with keys \(keys.joined(separator: ", "))") }
        for k in m.keys.sorted() where !keys.contains(k) { throw fail(k, "unknown key; valid: \(keys.joined(separator: ", "))") }
        func integer(_ k: String, _ range: ClosedRange<Int>) throws(SpecError) -> Int? {
            guard let v = m[k] else { return nil }
            guard let n = v as? Int, range.contains(n) else { throw fail(k, "expected an integer \(range.lowerBound)…\(range.upperBound)") }
            return n
        }
        var method = Method.morris
        if let v = m["method"] {
            guard let t = v as? String, let x = Method(rawValue: t) else {
                throw fail("method", "expected one of \(Method.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            method = x
        }
        var centre: ClosedLoopLevel<NavigatorProfile>
        if let v = m["walker"] {
            guard let t = v as? String else { throw fail("walker", "expected a walker, e.g. cane or cane:speed=0.8") }
            do { centre = ClosedLoopLevel(text: t, value: try walkerProfile(parsing: t)) } catch {
                throw fail("walker", escapedForMessage("\(error)", limit: 300))
            }
        } else {
            guard let w = walkers.first(where: { $0.value.name != "ideal" }) ?? walkers.first else {
                throw fail("walker", "no closed-loop walker to vary; name one")
            }
            centre = w
        }
        var parameters: [Parameter] = []
        if let v = m["parameters"] {
            guard let map = v as? [String: Any], !map.isEmpty, map.count <= 30 else {
                throw fail("parameters", "expected a mapping of 1…30 walker keys to [low, high], e.g. {reaction_time: [0.5, 2]}")
            }
            // Table order (docs/navigator.md), not the YAML's: the design is a function of the set.
            for key in NavigatorProfile.numericKeys where map[key] != nil {
                let bounds = (map[key] as? [Any])?.compactMap { ($0 as? Double) ?? ($0 as? Int).map(Double.init) } ?? []
                guard bounds.count == 2, bounds[0].isFinite, bounds[1].isFinite, bounds[0] < bounds[1] else {
                    throw fail("parameters.\(key)", "expected [low, high], two numbers with low < high")
                }
                // Both ends must be walkers a text could name (`allowedRange`).
                for b in bounds {
                    do { _ = try centre.value.setting(key, to: b) } catch { throw fail("parameters.\(key)", escapedForMessage("\(error)")) }
                }
                parameters.append(Parameter(key: key, range: bounds[0]...bounds[1]))
            }
            for key in map.keys.sorted() where !NavigatorProfile.numericKeys.contains(key) {
                throw fail(
                    "parameters.\(escapedForMessage(key))",
                    "not a numeric walker parameter; valid: \(NavigatorProfile.numericKeys.joined(separator: ", "))")
            }
        } else {
            parameters = NavigatorProfile.plausibleRanges.map { Parameter(key: $0.key, range: $0.range) }
        }
        let samplesRange = method == .morris ? 1...10_000 : 2...100_000
        var s = WalkerUncertaintySpec(method: method, walker: centre, parameters: parameters, seed: seed)
        s.samples = try integer("samples", samplesRange) ?? (method == .morris ? 10 : 64)
        s.runs = try integer("runs", 1...10_000) ?? s.runs
        if let v = m["seed"] {
            guard let n = v as? Int, n >= 0 else { throw fail("seed", "expected a non-negative integer") }
            s.seed = UInt64(n)
        }
        // Bounded before anything is planned: a unit per sampled walker and configuration.
        guard s.points <= WalkerUncertaintySpec.maxPoints else {
            throw fail(
                "samples",
                "\(s.samples) samples of \(s.parameters.count) parameters make \(s.points) sampled walkers; at most \(WalkerUncertaintySpec.maxPoints)"
            )
        }
        guard s.points * s.runs <= WalkerUncertaintySpec.maxWalksPerConfiguration else {
            throw fail(
                "runs",
                "\(s.points) sampled walkers × \(s.runs) runs = \(s.points * s.runs) walks per configuration; at most \(WalkerUncertaintySpec.maxWalksPerConfiguration)"
            )
        }
        if let v = m["recordings"] {
            let l = (v as? [Any]) ?? [v]
            let globs = l.compactMap { $0 as? String }
            guard !globs.isEmpty, globs.count == l.count else { throw fail("recordings", "expected a non-empty list of globs") }
            s.recordings = globs
        }
        return s
    }

    init(method: Method, walker: ClosedLoopLevel<NavigatorProfile>, parameters: [Parameter], seed: UInt64) {
        self.method = method; self.walker = walker; self.parameters = parameters; self.seed = seed
    }

    /// The section as YAML lines under `closed_loop:` (`--print-config`).
    var resolvedYAML: String {
        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        var y = "  uncertainty:\n    method: \(method.rawValue)\n    samples: \(samples)\n    runs: \(runs)\n    walker: \(q(walker.text))\n"
        y += "    seed: \(seed)\n    parameters:\n"
        for p in parameters { y += "      \(p.key): [\(p.range.lowerBound), \(p.range.upperBound)]\n" }
        if !recordings.isEmpty { y += "    recordings: [" + recordings.map(q).joined(separator: ", ") + "]\n" }
        return y
    }
}

/// The sampled walkers of a `closed_loop.uncertainty` section: the design's points in the unit
/// hypercube, the same points on the parameters' ranges, and each as a walker (the centre with
/// the point's values set) with its text.
struct WalkerUncertaintyDesign {
    var unitPoints: [[Double]]
    var values: [[Double]]
    var walkers: [ClosedLoopLevel<NavigatorProfile>]
}

/// The design of `u` (a function of the spec alone: seed, method, samples, parameters). A value
/// the centre walker refuses (outside `allowedRange`, which the spec's parse already checked for
/// both ends of every range) keeps the centre's value.
func walkerUncertaintyDesign(_ u: WalkerUncertaintySpec) -> WalkerUncertaintyDesign {
    let d = u.parameters.count
    let design =
        (u.method == .morris
            ? SensitivityDesign.morris(parameters: d, trajectories: u.samples, seed: u.seed)
            : SensitivityDesign.saltelli(parameters: d, base: u.samples, seed: u.seed)) ?? SensitivityDesign(points: [], dimensions: d)
    let values = design.scaled(to: u.parameters.map(\.range))
    let base = u.walker.text.split(separator: ":", maxSplits: 1)
    let walkers = values.map { x in
        var profile = u.walker.value
        // The centre's own overrides, but those of the varied keys (set below instead).
        let varied = Set(u.parameters.map(\.key))
        var overrides = (base.count == 2 ? base[1].split(separator: ",").map(String.init) : []).filter { o in
            !varied.contains(o.split(separator: "=").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
        }
        for (p, v) in zip(u.parameters, x) {
            if let set = try? profile.setting(p.key, to: v) {
                profile = set
                profile.parameterSources[p.key] = nil  // sampled, not the file's value
                overrides.append("\(p.key)=\(v)")
            }
        }
        let text = String(base.first ?? "") + (overrides.isEmpty ? "" : ":" + overrides.joined(separator: ","))
        profile.name = text
        return ClosedLoopLevel(text: text, value: profile)
    }
    return WalkerUncertaintyDesign(unitPoints: design.points, values: values, walkers: walkers)
}
