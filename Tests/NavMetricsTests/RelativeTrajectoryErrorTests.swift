import NavCore
import NavMetrics
import Testing

/// RoNIN relative trajectory error over a time window.
@Suite struct RelativeTrajectoryErrorTests {
    @Test func constantVelocityErrorOverTheWindow() throws {
        // 10 Hz for 200 s; the estimate drifts 0.01 m/s along x: over 60 s every window is 0.6 m off.
        let t = (0..<2000).map { 0.1 * Double($0) }
        let q = t.map { Vector3($0, 0, 0) }
        let p = t.map { Vector3(1.01 * $0, 0, 0) }
        let rte = try relativeTrajectoryError(reference: q, estimate: p, timestamps: t, window: 60)
        #expect(abs(rte - 0.6) < 1e-9)
    }

    @Test func shortTrajectoryIsScaledToTheWindow() throws {
        // 30 s only: RoNIN uses the whole trajectory and scales by 60/30.
        let t = (0...300).map { 0.1 * Double($0) }
        let q = t.map { Vector3($0, 0, 0) }
        let p = t.map { Vector3(1.01 * $0, 0, 0) }
        let rte = try relativeTrajectoryError(reference: q, estimate: p, timestamps: t, window: 60)
        #expect(abs(rte - 0.3 * 2) < 1e-9)
        #expect(throws: MetricError.self) { try relativeTrajectoryError(reference: q, estimate: p, timestamps: t, window: 0) }
    }
}
