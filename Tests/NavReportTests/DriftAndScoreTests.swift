import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport
import Testing

/// `navbench drift` and `navbench score` on trajectories with closed-form answers.
@Suite struct DriftAndScoreTests {
    static func write(_ name: String, _ t: [Double], _ p: [Vector3]) throws -> String {
        let path = NSTemporaryDirectory() + "navbench-ds-\(getpid())-\(name).tum"
        try writeTUM(Trajectory(timestamps: t, poses: p.map { Pose(rotation: .identity, translation: $0) }), to: path)
        return path
    }

    /// A coordinate an evaluation cannot square (1e308) is one error naming the file and the pose
    /// (issue 50, item 17), not a NaN covariance called "degenerate point sets".
    @Test func aHugeCoordinateNamesTheFileAndPose() throws {
        let t = [0.0, 1, 2, 3], p = [Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(1e308, 0, 0), Vector3(3, 0, 0)]
        let ref = try Self.write("huge", t, p)
        defer { try? FileManager.default.removeItem(atPath: ref) }
        #expect {
            try prepareTrajectoryPair(reference: TrajectorySource(path: ref), estimate: TrajectorySource(path: ref), settings: EvaluationSettings())
        } throws: { "\($0)".contains("\(ref): pose 3: position (1e+308, 0, 0) m is beyond ±10^9 m") }
    }

    @Test func scaledStraightWalkDriftsTwoPercent() throws {
        // 1 m/s along x for 99.9 s at 10 Hz; the estimate is 2 % long.
        let t = (0..<1000).map { Double($0) / 10 }
        let q = t.map { Vector3($0, 0, 0) }
        let ref = try Self.write("line-ref", t, q), est = try Self.write("line-est", t, q.map { 1.02 * $0 })
        defer { try? FileManager.default.removeItem(atPath: ref); try? FileManager.default.removeItem(atPath: est) }
        let p = try prepareTrajectoryPair(
            reference: TrajectorySource(path: ref), estimate: TrajectorySource(path: est), settings: EvaluationSettings())
        let r = try driftReport(p, options: DriftOptions(lengths: [10, 20], step: 10, rteWindow: 10))
        // A segment ends at the first pose past L metres: D_j = D_i + L + 0.1, error 0.02·(L + 0.1).
        for s in r.segments {
            #expect(abs(s.translationPercent - 2 * (s.length + 0.1) / s.length) < 1e-9, "\(s.length)")
            #expect(s.rotationDegreesPerMetre == 0)
        }
        #expect(r.segments[0].segments == Int((99.9 - 10.1) / 1.0) + 1)  // starts 0, 1 m, 2 m … while a pose lies past i + L
        #expect(abs(r.rte - 0.2) < 1e-9)  // Δ = 100 frames = 10 m, error 0.02·10 m
        #expect(abs(r.endPoint.endPointError - 0.02 * 99.9) < 1e-9)
        #expect(abs(r.endPoint.drift - 0.02) < 1e-12)
        let json = try reportJSON(r)
        #expect(json.contains("\"rte_m\" : 0.2"))
    }

    @Test func offsetCircleScoresHalfAMetre() throws {
        // A 10 m circle in the xy plane (z up); the estimate is shifted by (0.3, 0.4, 3.5): 0.5 m horizontally.
        let t = (0..<628).map { Double($0) / 10 }
        let q = t.map { Vector3(10 * Double.cos($0 / 10), 10 * Double.sin($0 / 10), 1 + 0.2 * Double.sin($0)) }
        let shift = Vector3(0.3, 0.4, 3.5)
        let ref = try Self.write("circle-ref", t, q), est = try Self.write("circle-est", t, q.map { $0 + shift })
        defer { try? FileManager.default.removeItem(atPath: ref); try? FileManager.default.removeItem(atPath: est) }
        let p = try prepareTrajectoryPair(
            reference: TrajectorySource(path: ref), estimate: TrajectorySource(path: est), settings: EvaluationSettings())
        let s = try scoreReport(p, options: ScoreOptions())
        #expect(s.upAxis == .z)
        for v in [s.ce50, s.ce95, s.ipin, s.meanHorizontalError] { #expect(abs(v - 0.5) < 1e-12) }
        // The best rigid registration removes the shift: the identity is off by |shift|.
        #expect(abs(s.registration.translationError - shift.norm) < 1e-9)
        #expect(abs(s.registration.rotationErrorDegrees) < 1e-6)
        #expect(abs(s.registration.maxInducedError - shift.norm) < 1e-9)
        // Floors every 3 m: the 3.5 m vertical shift puts every pair one floor off: + 15 m.
        let f = try scoreReport(p, options: ScoreOptions(floorHeight: 3))
        #expect(f.floorMismatches == 628)
        #expect(abs(f.ipin - 15.5) < 1e-12)
        // A height that makes floor indices beyond ±10^9 is one line, not a trapped conversion (issue 50, item 3).
        #expect { try scoreReport(p, options: ScoreOptions(floorHeight: 1e-300)) } throws: { "\($0)".contains("expected a floor index within ±10^9") }
    }
}
