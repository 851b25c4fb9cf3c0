import NavAids
import NavCore
import NavIO

/// How the proximity experiment forms scans and fits its path-loss model (issue 31, item 2):
/// the spec's `proximity_options:` and the `navbench proximity` flags, parsed once into
/// `ProximityParameters`' fields (docs/aids.md, "Path-loss fit").
public struct ProximityFitOptions: Sendable, Equatable {
    /// Scan length, s (nil: every distinct timestamp is a scan). Default 1 s (iOS ranging).
    public var scanWindow: Double? = 1.0
    public var fitData = PathLossFitData.scans
    public var fitMinDistance: Double?
    public var fitMaxDistance: Double?
    public init() {}

    /// True when every option has its default (unit keys then stay those of earlier versions).
    public var isDefault: Bool { self == ProximityFitOptions() }

    /// Sets the fields of `p`.
    public func apply(to p: inout ProximityParameters) {
        p.scanWindow = scanWindow
        p.fitData = fitData
        p.fitDistance = fitMinDistance != nil || fitMaxDistance != nil ? (fitMinDistance ?? 0)...(fitMaxDistance ?? .infinity) : nil
    }

    /// The options as one canonical text (a unit's key part; `--print-config`).
    public var canonical: String {
        func f(_ x: Double?) -> String { x.map { "\($0)" } ?? "none" }
        return "scan_window=\(f(scanWindow)),fit=\(fitData.rawValue),fit_min_distance=\(f(fitMinDistance)),fit_max_distance=\(f(fitMaxDistance))"
    }

    /// Checks the values (one line naming the option, `option` being its spelling at the edge:
    /// a YAML key or a flag): scan window 0 < w ≤ 3600 s, distances 0 ≤ d ≤ 10⁶ m, min < max.
    public func problem(spelling option: (String) -> String) -> String? {
        if let w = scanWindow, !(w > 0 && w <= 3600) { return "\(option("scan_window")): expected seconds in (0, 3600] or none, got \(w)" }
        for (k, v) in [("fit_min_distance", fitMinDistance), ("fit_max_distance", fitMaxDistance)] {
            if let v, !(v >= 0 && v <= 1e6) { return "\(option(k)): expected metres from 0 to 1000000, got \(v)" }
        }
        if let a = fitMinDistance, let b = fitMaxDistance, !(a < b) {
            return "\(option("fit_min_distance")) \(a) is not below \(option("fit_max_distance")) \(b)"
        }
        return nil
    }

    static let specKey = "proximity_options"
    static let keys = ["scan_window", "fit", "fit_min_distance", "fit_max_distance"]

    /// Parses the `proximity_options` mapping; errors name `proximity_options.KEY`.
    static func parse(_ node: Any, file: String) throws(SpecError) -> ProximityFitOptions {
        func fail(_ key: String, _ problem: String) -> SpecError {
            SpecError(file: file, key: "proximity_options" + (key.isEmpty ? "" : ".\(key)"), problem: problem)
        }
        guard let m = node as? [String: Any] else { throw fail("", "expected a mapping with keys \(keys.joined(separator: ", "))") }
        for k in m.keys.sorted() where !keys.contains(k) { throw fail(escapedForMessage(k), "unknown key; valid: \(keys.joined(separator: ", "))") }
        func number(_ k: String) throws(SpecError) -> Double? {
            guard let v = m[k] else { return nil }
            if let d = (v as? Double) ?? (v as? Int).map(Double.init), d.isFinite { return d }
            throw fail(k, "expected a number")
        }
        var o = ProximityFitOptions()
        if let v = m["scan_window"] {
            if (v as? String) == "none" { o.scanWindow = nil } else { o.scanWindow = try number("scan_window") }
        }
        if let v = m["fit"] {
            guard let t = v as? String, let d = PathLossFitData(rawValue: t) else { throw fail("fit", "expected scans or readings") }
            o.fitData = d
        }
        o.fitMinDistance = try number("fit_min_distance")
        o.fitMaxDistance = try number("fit_max_distance")
        if let problem = o.problem(spelling: { "proximity_options.\($0)" }) { throw SpecError(file: file, key: "", problem: problem) }
        return o
    }

    /// The section as a YAML line (`--print-config`); none when every option is the default.
    var resolvedYAML: String {
        guard !isDefault else { return "" }
        var parts = ["scan_window: " + (scanWindow.map(formatNumber) ?? "none"), "fit: \(fitData.rawValue)"]
        if let d = fitMinDistance { parts.append("fit_min_distance: \(formatNumber(d))") }
        if let d = fitMaxDistance { parts.append("fit_max_distance: \(formatNumber(d))") }
        return "\(Self.specKey): {" + parts.joined(separator: ", ") + "}\n"
    }
}
