import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import Testing

@testable import NavReport

/// `--save-results`, `--plot` and `res`: reloading reproduces the statistics exactly, the
/// saved aligned estimate is the one evaluated, plots keep to their canvas with round ticks.
@Suite struct SavedResultsTests {
    static let dup = DuplicateTimestampTests.fixtures + "/duplicates"
    static func folder(_ name: String) -> String { NSTemporaryDirectory() + "navbench-saved-\(getpid())-\(name)" }

    @Test func apeReloadReproducesStatisticsExactly() throws {
        let dir = Self.folder("ape")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try prepareTrajectoryPair(
            reference: TrajectorySource(path: Self.dup + "/tum_groundtruth.tum"),
            estimate: TrajectorySource(path: Self.dup + "/tum_estimate.tum"), settings: EvaluationSettings(alignment: .sim3))
        let r = try apeReport(p, relation: .translationPart, settings: p.settings)
        try saveEvaluation(r, pair: p, to: dir)
        let s = try loadSavedEvaluation(dir)
        #expect(s.errorValues == r.errors)  // bit for bit
        #expect(s.statistics == SavedStatistics(r.statistics))
        #expect(SavedStatistics(try ErrorStatistics(s.errorValues)) == s.statistics)
        #expect(s.pairs == 702 && s.metric == "ape" && s.unit == "m")
        #expect(s.statsJSON == (try reportJSON(r)))
        // The CSV carries the same numbers as the JSON.
        let csv = try String(contentsOfFile: dir + "/errors.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(csv.map { Double($0.split(separator: ",")[4])! } == r.errors)
        // The trace's /vio is the aligned estimate (first pose of each repeated stamp dropped).
        let vio = try readTrajectory(at: dir + "/aligned.h5", stream: "vio").trajectory
        let last = p.alignedEstimate.last!
        #expect(vio.poses.values.last!.translation == last.translation)
        #expect(vio.count == Set(p.associated.referenceTimestamps).count)
    }

    @Test func rpeReloadReproducesStatisticsExactly() throws {
        let dir = Self.folder("rpe")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try prepareTrajectoryPair(
            reference: TrajectorySource(path: Self.dup + "/euroc_groundtruth.csv"),
            estimate: TrajectorySource(path: Self.dup + "/euroc_estimate.tum"), settings: EvaluationSettings(alignment: .se3))
        let r = try rpeReport(p, relation: .rotationAngleDeg, options: RPEOptions(delta: 5, unit: .frames, allPairs: true), settings: p.settings)
        try saveEvaluation(r, pair: p, to: dir)
        let s = try loadSavedEvaluation(dir + "/stats.json")
        #expect(s.errorValues == r.errors)
        #expect(SavedStatistics(try ErrorStatistics(s.errorValues)) == SavedStatistics(r.statistics))
        #expect(s.errors.map(\.i) == r.pairList.map(\.i) && s.errors.map(\.j) == r.pairList.map(\.j))
        #expect(s.unit == "deg")
    }

    @Test func missingResultIsOneLine() {
        do { _ = try loadSavedEvaluation("/nonexistent/result"); Issue.record("loaded nothing") } catch {
            #expect(
                error.description == "/nonexistent/result/stats.json: no stats.json; expected a folder written by navbench ape/rpe --save-results")
        }
    }

    @Test func niceTicksAreRound() {
        // Labels, not doubles: 3 × 0.2 is 0.6000000000000001 in binary, the label must read 0.6.
        let small = niceTicks(0.0123, 0.987)
        #expect(small.ticks.map { tickLabel($0, step: small.step) } == ["0.2", "0.4", "0.6", "0.8"])
        #expect(niceTicks(0, 23.4, target: 6).ticks == [0, 5, 10, 15, 20])
        #expect(niceTicks(-3.2, 12.9).step == 5)
        let stamps = niceTicks(1311868229.3, 1311868253.1)
        #expect(stamps.ticks.count >= 2 && stamps.ticks.allSatisfy { $0.truncatingRemainder(dividingBy: stamps.step) == 0 })
        #expect(stamps.ticks.allSatisfy { (1311868229.3...1311868253.1).contains($0) })
    }

    @Test func plotStaysInsideItsCanvasWithUnits() throws {
        let p = try prepareTrajectoryPair(
            reference: TrajectorySource(path: Self.dup + "/tum_groundtruth.tum"),
            estimate: TrajectorySource(path: Self.dup + "/tum_estimate.tum"), settings: EvaluationSettings(alignment: .se3))
        let r = try apeReport(p, relation: .translationPart, settings: p.settings)
        let svg = errorPlotSVG(ErrorPlotData(r, pair: p, plane: .xy))
        #expect(svg == errorPlotSVG(ErrorPlotData(r, pair: p, plane: .xy)))  // deterministic
        for label in [">x (m)<", ">y (m)<", ">error (m)<", ">time since the first pair (s)<", ">reference<"] {
            #expect(svg.contains(label), "\(label)")
        }
        // Every x coordinate and every rectangle's right edge lie inside the 760-pixel canvas.
        let xs = try Regex(#" x="(-?[0-9.]+)""#)
        for m in svg.matches(of: xs) { #expect(Double(m.output[1].substring!)! <= 760 && Double(m.output[1].substring!)! >= 0) }
        let rects = try Regex(#"<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)""#)
        for m in svg.matches(of: rects) { #expect(Double(m.output[1].substring!)! + Double(m.output[2].substring!)! <= 760) }
        let box = resultsBoxPlotSVG([
            try { () throws -> SavedEvaluation in
                let dir = Self.folder("box"); defer { try? FileManager.default.removeItem(atPath: dir) }
                try saveEvaluation(r, pair: p, to: dir); return try loadSavedEvaluation(dir)
            }()
        ])
        #expect(box.contains(">error (m)<") && box.contains("tum_estimate.tum"))
    }
}
