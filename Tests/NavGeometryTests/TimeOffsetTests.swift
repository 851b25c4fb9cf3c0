import NavCore
import NavGeometry
import RealModule
import Testing

/// `estimateTimeOffset` on a seeded motion seen by two clocks: the estimate is the same
/// motion, sampled at another rate, in another frame, with its clock `shift` seconds late;
/// the offset to add to its stamps is −shift, recovered within one sample period.
@Suite struct TimeOffsetTests {
    /// A seeded motion: yaw rate, pitch and roll as sums of random sinusoids (turns at
    /// walking pace), positions integrated at 1.2 m/s.
    static func motion(at times: [Double], seed: UInt64) -> [Pose] {
        var rng = SeededRandom(seed: seed)
        let k = (0..<6).map { _ in (a: rng.uniform(0.2, 1.2), f: rng.uniform(0.05, 0.9), p: rng.uniform(0, 6.28)) }
        func yaw(_ t: Double) -> Double { k.reduce(0) { $0 + $1.a / (2 * .pi * $1.f) * Double.sin(2 * .pi * $1.f * t + $1.p) } }
        return times.map { t in
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: yaw(t)) * Quaternion(axis: Vector3(1, 0, 0), angle: 0.1 * Double.sin(1.3 * t))
            return Pose(rotation: q, translation: Vector3(Double.cos(yaw(t)), Double.sin(yaw(t)), 0) * (1.2 * t / 10))
        }
    }

    @Test(arguments: [0.0, 0.137, -0.42, 1.25])
    func recoversASeededShift(_ shift: Double) throws {
        let t0 = 1_700_000_000.0
        let refTimes = (0..<3000).map { t0 + Double($0) / 100 }  // 100 Hz, 30 s
        let estTrue = (0..<800).map { t0 + 2 + Double($0) / 30 }  // 30 Hz, 26.6 s, the true instants
        let frame = Pose(rotation: Quaternion(axis: Vector3(0.3, 1, 0.2), angle: 0.8), translation: Vector3(4, -2, 1))
        let ref = try Trajectory(timestamps: refTimes, poses: Self.motion(at: refTimes, seed: 15))
        let estPoses = Self.motion(at: estTrue, seed: 15).map { frame * $0 }
        let est = try Trajectory(timestamps: estTrue.map { $0 + shift }, poses: estPoses)
        let r = try estimateTimeOffset(reference: ref, estimate: est, maxOffset: 3)
        #expect(abs(r.offset - -shift) <= r.samplePeriod, "offset \(r.offset) for shift \(shift)")
        #expect(r.samplePeriod <= 0.01 + 1e-12)
        #expect(r.peakCorrelation > 0.99)
    }

    @Test func constantRotationHasNoPeak() throws {
        let t = (0..<200).map { Double($0) / 10 }
        let still = try Trajectory(timestamps: t, poses: Array(repeating: .identity, count: 200))
        #expect(throws: TimeOffsetError.self) { try estimateTimeOffset(reference: still, estimate: still) }
    }
}
