import Foundation
import NavMetrics
import NavReport
import Testing

/// The Indoor Location & Navigation (Kaggle 2021) mean position error against numpy on a seeded
/// ground truth and a shuffled submission with extra rows (scripts/make_kaggle_indoor_fixtures.py),
/// within 1e-12 relative; closed forms; a missing point named.
@Suite struct KaggleIndoorTests {
    static let folder =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/NavMetricsTests/Fixtures/kaggle-indoor/"
    struct Expected: Decodable {
        var points: Int
        var mean_position_error_m: Double, mean_horizontal_error_m: Double, floor_hit_rate: Double
        var errors_m: [Double]
    }

    @Test func equalsNumpy() throws {
        let e = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: Self.folder + "expected.json")))
        let s = try kaggleIndoorEvaluation(groundTruth: Self.folder + "ground_truth.csv", submission: Self.folder + "submission.csv")
        #expect(s.points == e.points)
        #expect(abs(s.meanPositionError - e.mean_position_error_m) <= 1e-12 * e.mean_position_error_m)
        #expect(abs(s.meanHorizontalError - e.mean_horizontal_error_m) <= 1e-12 * e.mean_horizontal_error_m)
        #expect(s.floorHitRate == e.floor_hit_rate)
        #expect(zip(s.errors, e.errors_m).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, $1) })
    }

    @Test func closedFormsAndAMissingPoint() throws {
        // A submission equal to the ground truth scores 0; (3, 4) m off on the next floor: 5 + 15.
        let a = IndoorFloorPosition(x: 1, y: 2, floor: 0)
        #expect(try kaggleIndoorScore(reference: [a], estimates: [a]).meanPositionError == 0)
        let s = try kaggleIndoorScore(reference: [a, a], estimates: [a, IndoorFloorPosition(x: 4, y: 6, floor: 1)])
        #expect(s.errors == [0, 20] && s.meanPositionError == 10 && s.floorHitRate == 0.5 && s.meanHorizontalError == 2.5)
        // A ground-truth point without a submission row is named, with the count.
        let dir = NSTemporaryDirectory() + "nb-kaggle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = try String(contentsOfFile: Self.folder + "submission.csv", encoding: .utf8).split(separator: "\n")
        let dropped = lines[1].split(separator: ",")[0]
        try (lines.prefix(1) + lines.dropFirst(2)).joined(separator: "\n").write(toFile: dir + "/sub.csv", atomically: true, encoding: .utf8)
        #expect(throws: KaggleIndoorError(file: dir + "/sub.csv", problem: "no row for 1 of the 240 ground-truth points (first: '\(dropped)')")) {
            _ = try kaggleIndoorEvaluation(groundTruth: Self.folder + "ground_truth.csv", submission: dir + "/sub.csv")
        }
    }
}
