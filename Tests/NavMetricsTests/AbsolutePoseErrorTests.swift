import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import Testing

/// APE against evo 1.38.1 (fixtures from scripts/make_evo_fixtures.py): the same associated
/// pairs, the same alignment, and statistics within 1e-6 (relative to max(1, |value|)).
@Suite struct AbsolutePoseErrorTests {
    static let evo = try! loadFixture("evo_cases.json", as: EvoFixture.self)

    @Test(arguments: ["tum-fr1-xyz", "synthetic-walk", "synthetic-equal"])
    func associationMatchesEvo(_ name: String) throws {
        let d = try #require(Self.evo.datasets[name])
        let p = try prepare(d)
        #expect(p.associated.count == d.association.pairs)
        #expect(Array(p.associated.referenceIndices.prefix(10)) == d.association.referenceIndicesFirst10)
        #expect(Array(p.associated.estimateIndices.prefix(10)) == d.association.estimateIndicesFirst10)
        #expect(sha256Int64(p.associated.referenceIndices) == d.association.referenceIndicesSha256)
        #expect(sha256Int64(p.associated.estimateIndices) == d.association.estimateIndicesSha256)
    }

    @Test(arguments: ["tum-fr1-xyz", "synthetic-walk", "synthetic-equal"])
    func statisticsMatchEvo(_ name: String) throws {
        let d = try #require(Self.evo.datasets[name])
        let p = try prepare(d)
        var worst = 0.0
        for c in d.ape {
            let (t, est) = try #require(p.aligned[c.align])
            let e = try absolutePoseErrors(
                reference: p.associated.reference, estimate: est, relation: try #require(PoseRelation(rawValue: c.relation)))
            let s = try ErrorStatistics(e)
            #expect(e.count == c.pairs)
            let diff = statisticsDifference((s.rmse, s.mean, s.median, s.std, s.min, s.max, s.sse), c.stats)
            worst = max(worst, diff)
            #expect(diff <= 1e-6, "\(name) \(c.align) \(c.relation): differs by \(diff)")
            if let m = c.alignmentSim3 {
                let ours = t.matrix
                for i in 0..<4 { for j in 0..<4 { #expect(abs(ours[i][j] - m[i][j]) <= 1e-9, "\(name) \(c.align) T[\(i)][\(j)]") } }
            }
        }
        print("APE \(name): largest relative difference from evo \(worst)")
    }

    @Test func interpolatingAssociationMatchesEvo() throws {
        for name in ["tum-fr1-xyz", "synthetic-walk", "synthetic-equal"] {
            let d = try #require(Self.evo.datasets[name])
            let ref = try readTrajectory(at: fixture(d.reference)).trajectory
            let est = try readTrajectory(at: fixture(d.estimate)).trajectory
            let a = try associate(reference: ref, estimate: est, method: .interpolation, maxDifference: d.maxDiff)
            let s = try ErrorStatistics(try absolutePoseErrors(reference: a.reference, estimate: a.estimate, relation: .translationPart))
            #expect(a.count == d.interpolationApeTranslation.pairs)
            let diff = statisticsDifference((s.rmse, s.mean, s.median, s.std, s.min, s.max, s.sse), d.interpolationApeTranslation.stats)
            #expect(diff <= 1e-6, "\(name): \(diff)")
        }
    }

    @Test func knownErrorsByHand() throws {
        // Estimate displaced by (3, 4, 0) and turned 90° about y: translation error 5 m,
        // rotation angle 90°, ‖R − I‖_F = 2√2·sin 45° = 2, full = √(4 + 25).
        let q = Pose(rotation: .identity, translation: Vector3(1, 2, 3))
        let p = Pose(rotation: Quaternion(yaw: .pi / 2), translation: Vector3(4, 6, 3))
        func e(_ r: PoseRelation) throws -> Double { try absolutePoseErrors(reference: [q], estimate: [p], relation: r)[0] }
        #expect(abs(try e(.translationPart) - 5) < 1e-12)
        #expect(abs(try e(.rotationAngleDeg) - 90) < 1e-12)
        #expect(abs(try e(.rotationAngleRad) - .pi / 2) < 1e-12)
        #expect(abs(try e(.rotationPart) - 2) < 1e-12)
        #expect(abs(try e(.fullTransformation) - (4.0 + 25).squareRoot()) < 1e-12)
        #expect(throws: MetricError.unsupportedRelation(.pointDistanceErrorRatio, metric: "APE")) {
            try absolutePoseErrors(reference: [q], estimate: [p], relation: .pointDistanceErrorRatio)
        }
        #expect(throws: MetricError.countMismatch(reference: 1, estimate: 0)) {
            try absolutePoseErrors(reference: [q], estimate: [], relation: .translationPart)
        }
    }
}
