import Foundation
import NavCore

/// Per-dataset facts shown by `inspect`.
public struct DatasetSummary: Codable, Sendable, Equatable {
    public var name: String
    public var shape: [Int]
    public var units: String?
    /// Per-column minimum and maximum of the finite values (nil when none are finite, or strings).
    public var min: [Double?]
    public var max: [Double?]
}

/// Per-stream facts shown by `inspect`.
public struct StreamSummary: Codable, Sendable, Equatable {
    public var name: String
    public var samples: Int
    public var start: Double
    public var end: Double
    public var durationSeconds: Double
    public var meanRateHz: Double
    public var largestGapSeconds: Double
    public var datasets: [DatasetSummary]
    /// An annotation stream's kind (instants or intervals) and source; nil for a sensor stream.
    public var kind: String?
    public var source: String?
    /// An annotation stream's most frequent labels (at most 5, most frequent first, then by label).
    public var labels: [LabelCount]?
    /// A pose stream's (`vio`, `groundtruth`) path length: the sum of the 3-D distances between
    /// consecutive finite positions, metres (evo_traj's "path length"); nil for other streams.
    public var pathLengthMetres: Double?
}

/// How often a label occurs in an annotation stream.
public struct LabelCount: Codable, Sendable, Equatable {
    public var label: String
    public var count: Int
}

/// What `inspect` reports about one file.
public struct TraceSummary: Codable, Sendable, Equatable {
    public var file: String
    public var attributes: [String: String]
    public var streams: [StreamSummary]
    public var errors: Int
    public var warnings: Int
}

/// Summarises a trace file: per stream, sample count, duration, mean rate, largest gap, units
/// and per-column value ranges. Files with validation errors are summarised as far as they load.
///
/// - Throws: `TraceError` when the file cannot be opened as HDF5 at all.
/// - Complexity: O(total samples) plus the gap medians.
public func inspectTrace(at path: String, policy: HDF5ReadPolicy = .standard) throws(TraceError) -> TraceSummary {
    let report = validateTrace(at: path, policy: policy)
    guard let trace = report.trace else { throw report.errors.first!.error }
    var attrs: [String: String] = [:]
    for (k, v) in trace.attributes {
        switch v {
        case let .string(s): attrs[k] = s
        case let .integer(i): attrs[k] = String(i)
        case let .float(f): attrs[k] = fmt(f)
        case .other: attrs[k] = "?"
        }
    }
    var streams: [StreamSummary] = []
    for st in trace.streams {
        let t = st.timestamps
        let s = SamplingSummary(timestamps: t)
        guard let spec = TraceSchema.stream(named: st.name) else { continue }
        var datasets: [DatasetSummary] = []
        for ds in spec.datasets {
            guard let raw = st.data[ds.name] else { continue }
            var lo: [Double?] = [], hi: [Double?] = []
            if case .string = raw {
            } else {
                let cols = ds.columns ?? 1
                let v = raw.doubles
                for c in 0..<cols {
                    var mn = Double.infinity, mx = -Double.infinity
                    var i = c
                    while i < v.count { let x = v[i]; if x.isFinite { mn = Swift.min(mn, x); mx = Swift.max(mx, x) }; i += cols }
                    lo.append(mn.isFinite ? mn : nil)
                    hi.append(mx.isFinite ? mx : nil)
                }
            }
            datasets.append(DatasetSummary(name: ds.name, shape: raw.shape, units: st.units[ds.name], min: lo, max: hi))
        }
        var summary = StreamSummary(
            name: st.name, samples: t.count, start: s.start, end: s.end,
            durationSeconds: s.duration, meanRateHz: s.meanRate,
            largestGapSeconds: s.largestGap, datasets: datasets)
        if ["vio", "groundtruth"].contains(st.name), let p = st.data["position"]?.doubles, p.count == 3 * t.count {
            summary.pathLengthMetres = pathLength(positions: p)
        }
        if spec.isAnnotation {
            summary.kind = st.attributes["kind"]
            summary.source = st.attributes["source"]
            var counts: [String: Int] = [:]
            for l in st.data["label"]?.strings ?? [] { counts[l, default: 0] += 1 }
            summary.labels = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(5).map { LabelCount(label: $0.key, count: $0.value) }
        }
        streams.append(summary)
    }
    return TraceSummary(
        file: path, attributes: attrs, streams: streams,
        errors: report.errors.count, warnings: report.warnings.count)
}

extension TraceSummary {
    /// Plain-text table, deterministic, as printed by `navbench inspect`.
    public var text: String {
        // Names and attributes come from the file: escaped (raw ESC/OSC sequences and newlines
        // reached the terminal).
        var out = "\(escapedForMessage(file))\n"
        let keys = ["session_kind", "session_id", "route_id", "venue", "device"]
        out += "  " + keys.compactMap { k in attributes[k].map { "\(k)=\(escapedForMessage($0))" } }.joined(separator: " ") + "\n"
        if errors > 0 || warnings > 0 { out += "  validation: \(errors) errors, \(warnings) warnings (run navbench validate)\n" }
        for s in streams where s.kind == nil {
            out +=
                "  \(escapedForMessage(s.name)): \(s.samples) samples, \(fmt(s.durationSeconds, digits: 4)) s, "
                + "\(fmt(s.meanRateHz, digits: 4)) Hz mean, largest gap \(fmt(s.largestGapSeconds, digits: 4)) s\n"
            if let length = s.pathLengthMetres {
                let speed = s.durationSeconds > 0 ? fmt(length / s.durationSeconds, digits: 4) : "–"
                out += "    path length \(fmt(length, digits: 5)) m, mean speed \(speed) m/s\n"
            }
            for d in s.datasets where d.name != "timestamps" {
                let shape = "(" + d.shape.map(String.init).joined(separator: ", ") + ")"
                let ranges = zip(d.min, d.max).map { lo, hi in
                    guard let lo, let hi else { return "–" }
                    // Enough significant digits that the range's width shows (latitudes!).
                    let magnitude = Swift.max(Swift.abs(lo), Swift.abs(hi)), span = hi - lo
                    let digits = span > 0 && magnitude > 0 ? Swift.min(12, Swift.max(4, Int(log10(magnitude / span).rounded(.up)) + 3)) : 4
                    return "[\(fmt(lo, digits: digits)), \(fmt(hi, digits: digits))]"
                }.joined(separator: " ")
                out +=
                    "    \(escapedForMessage(d.name).padding(toLength: 20, withPad: " ", startingAt: 0)) \(shape.padding(toLength: 12, withPad: " ", startingAt: 0)) \(escapedForMessage(d.units ?? "").padding(toLength: 7, withPad: " ", startingAt: 0)) \(ranges)\n"
            }
        }
        for s in streams where s.kind != nil {
            out +=
                "  \(escapedForMessage(s.name)): \(s.samples) \(s.kind ?? ""), starts \(fmt(s.start, digits: 6))…\(fmt(s.end, digits: 6)) s; source: \(escapedForMessage(s.source ?? "", limit: 120))\n"
            if let labels = s.labels, !labels.isEmpty {
                out += "    labels: " + labels.map { "\"\(escapedForMessage($0.label, limit: 60))\" ×\($0.count)" }.joined(separator: ", ") + "\n"
            }
        }
        return out
    }
}

/// The sum of the 3-D distances between consecutive finite positions (x, y, z interleaved), metres.
///
/// - Complexity: O(n).
public func pathLength(positions p: [Double]) -> Double {
    var total = 0.0
    var last: (Double, Double, Double)?
    var i = 0
    while i + 2 < p.count {
        let q = (p[i], p[i + 1], p[i + 2])
        i += 3
        guard q.0.isFinite, q.1.isFinite, q.2.isFinite else { continue }
        if let l = last {
            let dx = q.0 - l.0, dy = q.1 - l.1, dz = q.2 - l.2
            total += (dx * dx + dy * dy + dz * dz).squareRoot()
        }
        last = q
    }
    return total
}
