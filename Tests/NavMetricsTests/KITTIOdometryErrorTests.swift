import Foundation
import NavCore
import NavIO
import NavMetrics
import Testing

// `kittiOdometryError` against the golden fixture of scripts/make_protocol_fixtures.py: a
// double-precision port of the KITTI devkit's evaluate_odometry.cpp run once on a seeded
// 1.5 km drive (Fixtures/kitti, committed). Tolerance 1e-9 (the issue's).

@Suite struct KITTIOdometryErrorTests {
    struct Golden: Decodable {
        struct Length: Decodable { var length: Double; var segments: Int; var translationPercent: String; var rotationDegPerM: String }
        struct Segment: Decodable { var firstFrame: Int; var lastFrame: Int; var length: Double; var tErr: String; var rErr: String }
        var segments: Int
        var translationPercent: String
        var rotationDegPerM: String
        var perLength: [Length]
        var firstSegments: [Segment]
    }

    func hex(_ s: String) -> Double { Double(s)! }

    @Test func equalsTheDevkitPortWithin1e9() throws {
        let golden = try loadFixture("kitti/expected.json", as: Golden.self)
        let gt = try readTrajectory(at: fixture("kitti/gt.kitti"), format: .kitti).trajectory.poses.values
        let est = try readTrajectory(at: fixture("kitti/est.kitti"), format: .kitti).trajectory.poses.values
        let r = try kittiOdometryError(reference: gt, estimate: est)
        #expect(r.segments.count == golden.segments)
        #expect(abs(r.translationPercent - hex(golden.translationPercent)) <= 1e-9, "\(r.translationPercent)")
        #expect(abs(r.rotationDegreesPerMetre - hex(golden.rotationDegPerM)) <= 1e-9, "\(r.rotationDegreesPerMetre)")
        #expect(r.perLength.count == golden.perLength.count)
        for (a, b) in zip(r.perLength, golden.perLength) {
            #expect(a.length == b.length && a.segments == b.segments)
            #expect(abs(a.translationPercent - hex(b.translationPercent)) <= 1e-9)
            #expect(abs(a.rotationDegreesPerMetre - hex(b.rotationDegPerM)) <= 1e-9)
        }
        for (a, b) in zip(r.segments, golden.firstSegments) {
            #expect(a.firstFrame == b.firstFrame && a.lastFrame == b.lastFrame && a.length == b.length)
            #expect(abs(a.translationErrorPerMetre - hex(b.tErr)) <= 1e-12)
            #expect(abs(a.rotationErrorPerMetre - hex(b.rErr)) <= 1e-12)
        }
    }

    @Test func aPerfectEstimateHasNoErrorAndAShortPathNoSegments() throws {
        let poses = (0..<300).map { Pose(rotation: Quaternion(yaw: Double($0) * 0.001), translation: Vector3(0, 0, Double($0))) }
        let r = try kittiOdometryError(reference: poses, estimate: poses)
        // 300 m path: lengths 100 and 200 only, starts 0, 10, …, 190 (100 m) and 0…90 (200 m).
        #expect(r.perLength.map(\.segments) == [20, 10])
        #expect(r.translationPercent == 0)
        #expect(r.rotationDegreesPerMetre == 0)
        #expect(throws: MetricError.self) { try kittiOdometryError(reference: Array(poses.prefix(50)), estimate: Array(poses.prefix(50))) }
        #expect(throws: MetricError.countMismatch(reference: 300, estimate: 299)) {
            try kittiOdometryError(reference: poses, estimate: Array(poses.dropLast()))
        }
    }

    /// Closed form: an estimate scaled by 1.01 has 1 % translation drift on every segment and none in rotation.
    @Test func scaleErrorIsTranslationDrift() throws {
        let q = (0..<1000).map { Pose(rotation: .identity, translation: Vector3(Double($0), 0, 0)) }
        let p = q.map { Pose(rotation: .identity, translation: $0.translation * 1.01) }
        let r = try kittiOdometryError(reference: q, estimate: p)
        for s in r.segments {
            let true_ = Double(s.lastFrame - s.firstFrame)
            #expect(abs(s.translationErrorPerMetre - 0.01 * true_ / s.length) < 1e-12)
        }
        #expect(r.rotationDegreesPerMetre == 0)
    }
}
