import NavCore
import NavGeometry
import Testing

/// Timestamp association: evo's nearest (not one-to-one), TUM's one-to-one, interpolation,
/// and the one-line error naming both inputs. (Parity with evo on real data: NavMetricsTests.)
@Suite struct AssociationTests {
    func traj(_ t: [Double]) throws -> Trajectory {
        try Trajectory(timestamps: t, poses: t.map { Pose(translation: Vector3($0, 0, 0)) })
    }

    @Test func nearestIsNotOneToOne() throws {
        // Estimate (3 poses) is shorter: each of its stamps takes the nearest reference stamp.
        let ref = try traj([0.0, 0.1, 0.2, 0.3]), est = try traj([0.101, 0.104, 0.296])
        let a = try associate(reference: ref, estimate: est, maxDifference: 0.01)
        #expect(a.estimateIndices == [0, 1, 2])
        #expect(a.referenceIndices == [1, 1, 3])  // reference pose 1 used twice, as in evo
        let o = try associate(reference: ref, estimate: est, method: .oneToOne, maxDifference: 0.01)
        #expect(o.referenceIndices == [1, 3])
        #expect(o.estimateIndices == [0, 2])
    }

    @Test func tiesAndLimits() throws {
        // Exactly halfway: evo takes the earlier stamp (Δ⁻ ≤ Δ⁺); |Δt| = max-diff is accepted.
        let ref = try traj([0.0, 0.5]), est = try traj([0.25])
        let a = try associate(reference: ref, estimate: est, maxDifference: 0.25)
        #expect(a.referenceIndices == [0])
        // With an offset added to the estimate's stamps.
        let b = try associate(reference: ref, estimate: est, maxDifference: 0.001, offset: 0.25)
        #expect(b.referenceIndices == [1])
    }

    @Test func interpolationResamplesTheLongerTrajectory() throws {
        let ref = try traj([0.0, 0.1, 0.2, 0.3, 0.4]), est = try traj([0.105, 0.295])
        let a = try associate(reference: ref, estimate: est, method: .interpolation, maxDifference: 0.01)
        #expect(a.count == 2)
        #expect(abs(a.reference[0].translation.x - 0.105) < 1e-12)
        #expect(abs(a.reference[1].translation.x - 0.295) < 1e-12)
    }

    @Test func noMatchNamesBothInputs() throws {
        let ref = try traj([0, 1, 2]), est = try traj([10, 11])
        do {
            _ = try associate(reference: ref, estimate: est, maxDifference: 0.01, offset: 0.5, referenceName: "gt.tum", estimateName: "vio.tum")
            Issue.record("expected an error")
        } catch {
            let s = error.description
            #expect(!s.contains("\n"))
            #expect(s.contains("gt.tum") && s.contains("vio.tum") && s.contains("0.01 s") && s.contains("0.5 s"))
        }
    }
}
