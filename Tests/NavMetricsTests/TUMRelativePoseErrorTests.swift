import Foundation
import NavCore
import NavIO
import NavMetrics
import Testing

// `tumRelativePoseError` against the port of TUM's evaluate_rpe.py --fixed_delta in
// scripts/make_protocol_fixtures.py (Fixtures/tum-rpe): the same pairs (including the seeded
// Python 2 `random.sample` subsampling, both of its branches) and statistics within 1e-9.

@Suite struct TUMRelativePoseErrorTests {
    struct Golden: Decodable {
        struct Case: Decodable {
            var maxPairs: Int; var delta: Double; var unit: String
            var pairs: [[Int]]
            var translation: [String: String]; var rotationDeg: [String: String]
        }
        var cases: [Case]
    }

    @Test func matchesEvaluateRPEPairForPair() throws {
        let golden = try loadFixture("tum-rpe/expected.json", as: Golden.self)
        let gt = try readTrajectory(at: fixture("tum-rpe/gt.tum"), format: .tum).trajectory
        let est = try readTrajectory(at: fixture("tum-rpe/est.tum"), format: .tum).trajectory
        #expect(golden.cases.count == 5)
        for c in golden.cases {
            let options = TUMRPEOptions(delta: c.delta, unit: TUMDeltaUnit(rawValue: c.unit)!, maxPairs: c.maxPairs)
            let r = try tumRelativePoseError(
                referenceTimes: gt.timestamps, reference: gt.poses.values,
                estimateTimes: est.timestamps, estimate: est.poses.values, options: options)
            #expect(r.pairs.map { [$0.estimate0, $0.estimate1, $0.reference0, $0.reference1] } == c.pairs, "\(c.unit) \(c.maxPairs)")
            for (name, value) in [
                ("rmse", r.translation.rmse), ("mean", r.translation.mean), ("median", r.translation.median),
                ("std", r.translation.std), ("min", r.translation.min), ("max", r.translation.max),
            ] {
                #expect(abs(value - Double(c.translation[name]!)!) <= 1e-9, "\(c.unit) \(c.maxPairs) translation \(name)")
            }
            for (name, value) in [
                ("rmse", r.rotationDegrees.rmse), ("mean", r.rotationDegrees.mean), ("median", r.rotationDegrees.median),
                ("std", r.rotationDegrees.std), ("min", r.rotationDegrees.min), ("max", r.rotationDegrees.max),
            ] {
                #expect(abs(value - Double(c.rotationDeg[name]!)!) <= 1e-9, "\(c.unit) \(c.maxPairs) rotation \(name)")
            }
        }
    }

    /// CPython's documented first outputs of `random.seed(0); random.random()`.
    @Test func mersenneTwisterEqualsCPython() {
        var r = PythonRandom(seed: 0)
        #expect(r.random() == 0.8444218515250481)
        #expect(r.random() == 0.7579544029403025)
        var s = PythonRandom(seed: 42)
        #expect(s.random() == 0.6394267984578837)
    }
}
