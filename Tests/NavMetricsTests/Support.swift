import Foundation
import NavCore
import NavGeometry
import NavIO
import NavTestSupport

/// Path of a committed fixture.
func fixture(_ name: String) -> String { bundledFixture(.module, name) }

/// Decodes a committed JSON fixture (snake_case keys).
func loadFixture<T: Decodable>(_ name: String, as: T.Type) throws -> T {
    let data = try Data(contentsOf: URL(fileURLWithPath: fixture(name)))
    let dec = JSONDecoder()
    dec.keyDecodingStrategy = .convertFromSnakeCase
    return try dec.decode(T.self, from: data)
}

/// SHA-256 of the little-endian int64 bytes of `ids` (numpy `astype('<i8').tobytes()`).
func sha256Int64(_ ids: [Int]) -> String {
    var data = Data(capacity: ids.count * 8)
    for i in ids { withUnsafeBytes(of: Int64(i).littleEndian) { data.append(contentsOf: $0) } }
    return sha256Hex(of: data)
}

/// evo's statistics block.
struct EvoStats: Decodable {
    var rmse, mean, median, std, min, max, sse: Double
    var all: [(String, Double)] { [("rmse", rmse), ("mean", mean), ("median", median), ("std", std), ("min", min), ("max", max), ("sse", sse)] }
}

struct EvoFixture: Decodable {
    struct Association: Decodable {
        var pairs: Int
        var referenceIndicesSha256, estimateIndicesSha256: String
        var referenceIndicesFirst10, estimateIndicesFirst10: [Int]
    }
    struct APECase: Decodable {
        var align: String, relation: String, pairs: Int, stats: EvoStats
        var alignmentSim3: [[Double]]?
    }
    struct RPECase: Decodable {
        var align: String, relation: String, delta: Double, deltaUnit: String, allPairs: Bool, pairsFromReference: Bool
        var pairs: Int, endIdsSha256: String, endIdsFirst10: [Int], stats: EvoStats
    }
    struct Interpolated: Decodable { var pairs: Int; var stats: EvoStats }
    struct Dataset: Decodable {
        var reference, estimate: String
        var maxDiff: Double
        var referencePoses, estimatePoses: Int
        var association: Association
        var interpolationApeTranslation: Interpolated
        var ape: [APECase]
        var rpe: [RPECase]
    }
    var datasets: [String: Dataset]
}

/// Largest |navbench − evo| seen, relative to max(1, |evo|), across the parity tests
/// (printed so the figure can be reported).
func statisticsDifference(
    _ s: (rmse: Double, mean: Double, median: Double, std: Double, min: Double, max: Double, sse: Double),
    _ e: EvoStats
) -> Double {
    let ours = [s.rmse, s.mean, s.median, s.std, s.min, s.max, s.sse]
    return zip(ours, e.all.map(\.1)).map { abs($0 - $1) / Swift.max(1, abs($1)) }.max() ?? 0
}

/// The associated, aligned trajectories of a fixture dataset.
struct PreparedDataset {
    var associated: AssociatedTrajectories
    var aligned: [String: (Similarity3, [Pose])]
}

func prepare(_ d: EvoFixture.Dataset) throws -> PreparedDataset {
    let ref = try readTrajectory(at: fixture(d.reference)).trajectory
    let est = try readTrajectory(at: fixture(d.estimate)).trajectory
    let a = try associate(reference: ref, estimate: est, maxDifference: d.maxDiff)
    var aligned: [String: (Similarity3, [Pose])] = [:]
    for m in ["none", "se3", "sim3", "origin"] {
        let t = try alignmentTransform(reference: a.reference, estimate: a.estimate, method: AlignmentMethod(rawValue: m)!)
        aligned[m] = (t, m == "none" ? a.estimate : t.apply(to: a.estimate))
    }
    return PreparedDataset(associated: a, aligned: aligned)
}
