import Foundation
import NavCore
import NavIO
import NavReport
import NavSignal
import NavSpectral

/// What `navbench plot` draws.
public enum StreamPlotKind: String, CaseIterable, Sendable {
    /// A dataset's columns over time (`imu/accelerometer` → x, y, z).
    case timeseries
    /// Pose streams' positions from above (east = x, north = −z), with path length, duration, speed.
    case trajectory
    /// Welch power spectral density of a dataset's columns (`Welch.psd`, as scipy.signal.welch).
    case psd
    /// A heading over time (`compass/heading` unless another dataset is named).
    case heading
}

/// A figure of one or more trace files, its text alternative, and per-series facts.
public struct StreamPlot: Sendable {
    public var plot: SVGPlot
    /// What the figure shows, in one sentence (the page's and the SVG's text alternative).
    public var description: String
    /// Header and one row per series: label, samples, and the kind's facts.
    public var header: [String]
    public var rows: [[String]]
}

/// Samples drawn per series at most (`decimatedForDisplay`: each bucket's minimum and maximum).
let plotBuckets = 2000

/// The figure of `kind` for `files` (one series per file and column). `dataset` names a stream's
/// dataset (`imu/accelerometer`); a trajectory takes a stream (`vio` or `groundtruth`; default:
/// the ground truth when a file has one). `magnitude`: ‖v‖ of a vector dataset instead of its columns.
///
/// - Throws: `TraceError` naming the file and dataset, `SignalError` from the PSD.
/// - Complexity: O(total samples) (+ the PSD's FFTs).
public func streamPlot(
    _ files: [String], kind: StreamPlotKind, dataset: String?, magnitude: Bool = false, segmentLength: Int = 256,
    readPolicy: HDF5ReadPolicy = .standard
) throws -> StreamPlot {
    var series: [SVGPlot.Series] = [], rows: [[String]] = []
    func fmt(_ v: Double) -> String { v.isFinite ? String(format: "%.4g", v) : "–" }
    switch kind {
    case .trajectory:
        for file in files {
            let s = try readTrace(at: file, policy: readPolicy)
            let name = dataset ?? (s.groundTruth != nil ? "groundtruth" : "vio")
            let stamped: (t: [Double], p: [Vector3])
            switch name {
            case "groundtruth", "groundtruth/position":
                guard let g = s.groundTruth else { throw TraceError(.missing, file: file, object: "/groundtruth", "no ground truth to plot") }
                stamped = (g.timestamps, g.poses.map(\.translation))
            case "vio", "vio/position":
                guard let v = s.vio else { throw TraceError(.missing, file: file, object: "/vio", "no VIO to plot") }
                stamped = (v.timestamps, v.poses.map(\.translation))
            default:
                throw TraceError(.badValue, file: file, object: "/" + name, "a trajectory is drawn from vio or groundtruth")
            }
            let length = pathLength(positions: stamped.p.flatMap { [$0.x, $0.y, $0.z] })
            let duration = (stamped.t.last ?? 0) - (stamped.t.first ?? 0)
            series.append(.init(label: "\(fileName(of: file)) \(name)", points: stamped.p.map { (x: $0.x, y: -$0.z) }))
            rows.append([
                "\(fileName(of: file)) \(name)", String(stamped.p.count), fmt(length), fmt(duration), fmt(duration > 0 ? length / duration : .nan),
            ])
        }
        let plot = SVGPlot(title: "Trajectories from above", xLabel: "east (m)", yLabel: "north (m)", series: series, equalAspect: true)
        let streams = "\(series.count) stream\(series.count == 1 ? "" : "s")"
        return StreamPlot(
            plot: plot, description: "Trajectories of \(streams) seen from above (east, north); lengths and speeds in the table",
            header: ["series", "poses", "path length (m)", "duration (s)", "mean speed (m/s)"], rows: rows)
    case .timeseries, .heading, .psd:
        let name = dataset ?? (kind == .heading ? "compass/heading" : "imu/accelerometer")
        for file in files {
            var columns = try traceSeries(file, dataset: name)
            if magnitude {
                guard let m = vectorMagnitude(columns) else {
                    throw TraceError(.badValue, file: file, object: "/" + name, "--magnitude needs a vector dataset (3 columns)")
                }
                columns = [m]
            }
            for c in columns {
                let label = "\(fileName(of: file)) \(c.name)"
                let t0 = c.timestamps.first ?? 0
                if kind == .psd {
                    let fs = 1 / SamplingSummary(timestamps: c.timestamps).medianInterval
                    let r = try Welch.psd(c.values, sampleRate: fs, segmentLength: min(segmentLength, c.values.count))
                    let peak = zip(r.frequencies, r.power).dropFirst().max { $0.1 < $1.1 }
                    series.append(.init(label: label, points: zip(r.frequencies, r.power).map { (x: $0, y: log10(max($1, 1e-300))) }))
                    rows.append([label, String(c.values.count), fmt(fs), fmt(peak?.0 ?? .nan)])
                } else {
                    let d = decimatedForDisplay(times: c.timestamps.map { $0 - t0 }, values: c.values, buckets: plotBuckets)
                    series.append(.init(label: label, points: zip(d.times, d.values).map { (x: $0, y: $1) }))
                    let finite = c.values.filter(\.isFinite)
                    rows.append([
                        label, String(c.values.count), fmt(finite.min() ?? .nan), fmt(finite.max() ?? .nan),
                        fmt(finite.isEmpty ? .nan : finite.reduce(0, +) / Double(finite.count)),
                    ])
                }
            }
        }
        let units = (try? traceSeries(files[0], dataset: name).first?.units).flatMap { $0 } ?? ""
        if kind == .psd {
            let plot = SVGPlot(
                title: "Power spectral density of \(name)", xLabel: "frequency (Hz)",
                yLabel: "log10 power (\(units.isEmpty ? "units" : units)²/Hz)", series: series)
            return StreamPlot(
                plot: plot, description: "Welch power spectral density of \(name) for \(series.count) series; the strongest frequencies in the table",
                header: ["series", "samples", "sample rate (Hz)", "strongest frequency (Hz)"], rows: rows)
        }
        let plot = SVGPlot(
            title: "\(name) over time", xLabel: "time since the file's first sample (s)",
            yLabel: units.isEmpty ? name : "\(name) (\(units))", series: series)
        return StreamPlot(
            plot: plot, description: "\(name) over time for \(series.count) series; minimum, maximum and mean in the table",
            header: ["series", "samples", "minimum", "maximum", "mean"], rows: rows)
    }
}
