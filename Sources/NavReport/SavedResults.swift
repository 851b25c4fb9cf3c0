import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics

/// The JSON navbench prints for a report (`--json`) and saves as `stats.json`: sorted keys,
/// indented, numbers in shortest round-trip form (so they read back bit for bit).
public func reportJSON<T: Encodable>(_ value: T) throws -> String {
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return String(decoding: try enc.encode(value), as: UTF8.self)
}

/// evo's statistics as saved in `stats.json`.
public struct SavedStatistics: Sendable, Equatable {
    public var rmse, mean, median, std, min, max, sse: Double

    public init(rmse: Double, mean: Double, median: Double, std: Double, min: Double, max: Double, sse: Double) {
        self.rmse = rmse; self.mean = mean; self.median = median; self.std = std; self.min = min; self.max = max; self.sse = sse
    }

    public init(_ s: ErrorStatistics) {
        self.init(rmse: s.rmse, mean: s.mean, median: s.median, std: s.std, min: s.min, max: s.max, sse: s.sse)
    }

    /// (name, value) in evo_res's column order.
    public var named: [(String, Double)] {
        [("rmse", rmse), ("mean", mean), ("median", median), ("std", std), ("min", min), ("max", max), ("sse", sse)]
    }
}

/// One error of a saved result: APE has one per associated pose (i = j = k), RPE one per
/// pose pair (i, j).
public struct SavedError: Sendable, Equatable {
    public var i: Int, j: Int
    public var time: Double, endTime: Double
    public var error: Double
}

/// A result folder written by `saveEvaluation` (`--save-results DIR`):
///
/// | file | content |
/// |---|---|
/// | `stats.json` | the `--json` report: settings, evo's statistics, alignment |
/// | `errors.csv`, `errors.json` | per error: `i`, `j` (associated-pose indices; APE i = j), `t_i`, `t_j` (reference stamps, s), `error` (the relation's unit) |
/// | `poses.csv`, `poses.json` | per associated pose: `k`, `reference_index`, `estimate_index`, `t_reference`, `t_estimate`, reference `x y z qx qy qz qw`, aligned estimate `x y z qx qy qz qw` |
/// | `aligned.h5` | trace format v1: `/groundtruth` = associated reference, `/vio` = aligned estimate (a repeated stamp keeps its last pair) |
///
/// Numbers are written in shortest round-trip form, so reloading gives the same doubles and
/// `ErrorStatistics` of the reloaded errors equals the saved statistics exactly.
public struct SavedEvaluation: Sendable {
    public var folder: String
    /// `stats.json` as written (the `--json` output).
    public var statsJSON: String
    /// Decoded from `stats.json`.
    public var metric: String, relation: String, unit: String, reference: String, estimate: String
    public var statistics: SavedStatistics
    public var pairs: Int
    public var errors: [SavedError]
    public var errorValues: [Double] { errors.map(\.error) }
}

/// Writes `--save-results DIR` for an APE or RPE report (see `SavedEvaluation` for the files).
///
/// - Throws: `EvaluationError.input` naming the file that could not be written.
/// - Complexity: O(n).
public func saveEvaluation<Report: PoseErrorReport>(_ report: Report, pair: PreparedPair, to folder: String) throws(EvaluationError) {
    let t = pair.associated.referenceTimestamps
    let errors = zip(report.errorPairs, report.errors).map { p, e in SavedError(i: p.i, j: p.j, time: t[p.i], endTime: t[p.j], error: e) }
    let json: String
    do { json = try reportJSON(report) } catch { throw .pairing("cannot encode the report: \(error)") }
    try saveFolder(folder, statsJSON: json, errors: errors, pair: pair)
}

private func saveFolder(_ folder: String, statsJSON: String, errors: [SavedError], pair: PreparedPair) throws(EvaluationError) {
    // Never the filesystem root, an input, or the folder of an input (it would replace aligned.h5
    // or stats.json that the evaluation read).
    do { try checkOutputPath(folder, flag: "--save-results", inputs: [pair.reference.path, pair.estimate.path], folder: true) } catch {
        throw .input(error)
    }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
        throw .input(TraceError(.notFound, file: folder, "cannot create the results folder (\(error.localizedDescription))"))
    }
    func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
    let a = pair.associated, est = pair.alignedEstimate
    do {
        try writeTextAtomically(statsJSON + "\n", to: path("stats.json"))
        // errors
        var csv = "i,j,t_i,t_j,error\n"
        csv.reserveCapacity(errors.count * 60)
        var ji = "", jj = "", jti = "", jtj = "", je = ""
        for (n, e) in errors.enumerated() {
            csv += "\(e.i),\(e.j),\(num(e.time)),\(num(e.endTime)),\(num(e.error))\n"
            let sep = n == 0 ? "" : ","
            ji += sep + String(e.i); jj += sep + String(e.j); jti += sep + num(e.time); jtj += sep + num(e.endTime); je += sep + num(e.error)
        }
        try writeTextAtomically(csv, to: path("errors.csv"))
        try writeTextAtomically("{\"i\":[\(ji)],\"j\":[\(jj)],\"t_i\":[\(jti)],\"t_j\":[\(jtj)],\"error\":[\(je)]}\n", to: path("errors.json"))
        // poses
        let names = [
            "k", "reference_index", "estimate_index", "t_reference", "t_estimate",
            "ref_x", "ref_y", "ref_z", "ref_qx", "ref_qy", "ref_qz", "ref_qw",
            "est_x", "est_y", "est_z", "est_qx", "est_qy", "est_qz", "est_qw",
        ]
        var columns = [[String]](repeating: [], count: names.count)
        var pcsv = names.joined(separator: ",") + "\n"
        for k in 0..<a.count {
            let r = a.reference[k], e = est[k]
            let row = [
                String(k), String(a.referenceIndices[k]), String(a.estimateIndices[k]), num(a.referenceTimestamps[k]), num(a.estimateTimestamps[k]),
                num(r.translation.x), num(r.translation.y), num(r.translation.z), num(r.rotation.x), num(r.rotation.y), num(r.rotation.z),
                num(r.rotation.w),
                num(e.translation.x), num(e.translation.y), num(e.translation.z), num(e.rotation.x), num(e.rotation.y), num(e.rotation.z),
                num(e.rotation.w),
            ]
            pcsv += row.joined(separator: ",") + "\n"
            for c in row.indices { columns[c].append(row[c]) }
        }
        try writeTextAtomically(pcsv, to: path("poses.csv"))
        let pjson = "{" + zip(names, columns).map { "\"\($0)\":[\($1.joined(separator: ","))]" }.joined(separator: ",") + "}\n"
        try writeTextAtomically(pjson, to: path("poses.json"))
        try writeAlignedTrace(pair, to: path("aligned.h5"))
    } catch {
        throw .input(error)
    }
}

/// Shortest round-trip text of a double; non-finite values as JSON cannot carry them, `null`
/// never occurs (errors and poses are finite by construction).
private func num(_ x: Double) -> String { x.description }

private func writeAlignedTrace(_ pair: PreparedPair, to path: String) throws(TraceError) {
    let a = pair.associated
    var t: [Double] = [], ref: [Pose] = [], est: [Pose] = []
    for k in 0..<a.count {
        let time = a.referenceTimestamps[k]
        if let last = t.last, !(time > last) {
            if time == last { ref[ref.count - 1] = a.reference[k]; est[est.count - 1] = pair.alignedEstimate[k] }
            continue
        }
        t.append(time); ref.append(a.reference[k]); est.append(pair.alignedEstimate[k])
    }
    let meta = SessionMetadata(
        kind: .recording, sessionID: "aligned", routeID: "", venue: "", device: "",
        frameConvention: "the reference trajectory's frame (\(pair.reference.format.rawValue) file \(pair.reference.path)); "
            + "vio = the estimate after \(pair.settings.alignment.rawValue) alignment")
    try writeTrace(
        Session(
            metadata: meta, vio: VIOStream(timestamps: t, poses: est, trackingState: Array(repeating: .normal, count: t.count)),
            groundTruth: GroundTruthStream(timestamps: t, poses: ref)), to: path)
}

/// Reads a folder written by `--save-results` (or its `stats.json`).
///
/// - Throws: `EvaluationError.input` naming the file and what is missing.
/// - Complexity: O(n).
public func loadSavedEvaluation(_ path: String) throws(EvaluationError) -> SavedEvaluation {
    let folder = path.hasSuffix(".json") ? (path as NSString).deletingLastPathComponent : path
    let statsPath = (folder as NSString).appendingPathComponent("stats.json")
    let errorsPath = (folder as NSString).appendingPathComponent("errors.json")
    func fail(_ file: String, _ what: String) -> EvaluationError { .input(TraceError(.badValue, file: file, what)) }
    guard let statsData = FileManager.default.contents(atPath: statsPath) else {
        throw .input(TraceError(.notFound, file: statsPath, "no stats.json; expected a folder written by navbench ape/rpe --save-results"))
    }
    struct StatsFile: Decodable {
        var metric, relation, unit, reference, estimate: String
        var rmse, mean, median, std, min, max, sse: Double
        var pairs: Int
    }
    let s: StatsFile
    do { s = try JSONDecoder().decode(StatsFile.self, from: statsData) } catch {
        throw fail(statsPath, "expected the --json report of navbench ape/rpe (\(error))")
    }
    struct ErrorsFile: Decodable { var i: [Int]; var j: [Int]; var t_i: [Double]; var t_j: [Double]; var error: [Double] }
    guard let errData = FileManager.default.contents(atPath: errorsPath) else {
        throw .input(TraceError(.notFound, file: errorsPath, "no errors.json; expected a folder written by --save-results"))
    }
    let ef: ErrorsFile
    do { ef = try JSONDecoder().decode(ErrorsFile.self, from: errData) } catch {
        throw fail(errorsPath, "expected arrays i, j, t_i, t_j, error (\(error))")
    }
    let n = ef.error.count
    guard ef.i.count == n, ef.j.count == n, ef.t_i.count == n, ef.t_j.count == n else {
        throw fail(errorsPath, "arrays i, j, t_i, t_j, error differ in length")
    }
    let stats = SavedStatistics(rmse: s.rmse, mean: s.mean, median: s.median, std: s.std, min: s.min, max: s.max, sse: s.sse)
    return SavedEvaluation(
        folder: folder, statsJSON: String(decoding: statsData, as: UTF8.self).trimmingCharacters(in: .newlines),
        metric: s.metric, relation: s.relation, unit: s.unit,
        reference: s.reference, estimate: s.estimate, statistics: stats, pairs: s.pairs,
        errors: (0..<n).map { SavedError(i: ef.i[$0], j: ef.j[$0], time: ef.t_i[$0], endTime: ef.t_j[$0], error: ef.error[$0]) })
}
