import NavCore
import NavIO
import NavMetrics

/// Why a Kaggle indoor evaluation cannot be made, one line.
public struct KaggleIndoorError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var problem: String
    public init(file: String, problem: String) { self.file = file; self.problem = problem }
    public var description: String { "\(escapedForMessage(file)): \(problem)" }
}

/// Reads the ground truth and a submission of the Indoor Location & Navigation competition (CSV
/// with the header `site_path_timestamp,floor,x,y`, the competition's submission format) and
/// scores the submission (`kaggleIndoorScore`): every ground-truth row is paired with the
/// submission's row of the same `site_path_timestamp`. Extra submission rows are ignored (the
/// competition scores the ground truth's points only).
///
/// - Throws: `TraceError` for a file that cannot be read or a cell that is not a number;
///   `KaggleIndoorError` for a missing column, a key given twice, or a ground-truth key the
///   submission lacks (named, with how many are missing); `MetricError` from the score.
/// - Complexity: O(file sizes).
public func kaggleIndoorEvaluation(groundTruth: String, submission: String, floorPenalty: Double = 15) throws -> KaggleIndoorScore {
    func rows(_ path: String) throws -> (keys: [String], positions: [IndoorFloorPosition]) {
        let t = try CSVTable.read(path)
        for c in ["site_path_timestamp", "floor", "x", "y"] where !t.header.contains(c) {
            throw KaggleIndoorError(file: path, problem: "no column '\(c)'; expected the header site_path_timestamp,floor,x,y")
        }
        let k = try t.columnIndex("site_path_timestamp")
        let keys = (0..<t.rowCount).map { t.fields(ofRow: $0)[k] }
        let floor = try t.numbers("floor"), x = try t.numbers("x"), y = try t.numbers("y")
        return (keys, (0..<t.rowCount).map { IndoorFloorPosition(x: x[$0], y: y[$0], floor: floor[$0]) })
    }
    let (gtKeys, gt) = try rows(groundTruth)
    let (subKeys, sub) = try rows(submission)
    var index: [String: Int] = [:]
    for (i, key) in subKeys.enumerated() {
        guard index.updateValue(i, forKey: key) == nil else {
            throw KaggleIndoorError(file: submission, problem: "site_path_timestamp '\(escapedForMessage(key, limit: 80))' is given twice")
        }
    }
    var seen = Set<String>()
    var paired: [IndoorFloorPosition] = []
    var missing: [String] = []
    for key in gtKeys {
        guard seen.insert(key).inserted else {
            throw KaggleIndoorError(file: groundTruth, problem: "site_path_timestamp '\(escapedForMessage(key, limit: 80))' is given twice")
        }
        if let i = index[key] { paired.append(sub[i]) } else { missing.append(key) }
    }
    if let first = missing.first {
        throw KaggleIndoorError(
            file: submission,
            problem: "no row for \(missing.count) of the \(gtKeys.count) ground-truth points (first: '\(escapedForMessage(first, limit: 80))')")
    }
    return try kaggleIndoorScore(reference: gt, estimates: paired, floorPenalty: floorPenalty)
}
