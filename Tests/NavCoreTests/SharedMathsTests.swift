import NavCore
import RealModule
import Testing

/// The maths shared by several modules, against closed forms.
@Suite struct SharedMathsTests {
    /// A constant rotation about +y at ω: q_k⁻¹ q_{k+1} is a rotation by ωΔt, so the
    /// small-angle rate is 2·sin(ωΔt/2)/Δt on y exactly, at the midpoint times.
    @Test func angularRateOfAConstantRotation() {
        let omega = 0.7, dt = 0.01
        let t = (0..<50).map { Double($0) * dt }
        let (times, rates) = angularRate(timestamps: t, orientations: t.map { Quaternion(yaw: omega * $0) })
        #expect(times.count == 49 && abs(times[0] - dt / 2) < 1e-15)
        let expected = 2 * Double.sin(omega * dt / 2) / dt
        for r in rates {
            #expect(abs(r.y - expected) < 1e-9 && abs(r.x) < 1e-12 && abs(r.z) < 1e-12)
        }
    }

    @Test func unitKeepsTheSignAndChecksTheNorm() {
        let q = Quaternion(x: 0, y: 0, z: 0, w: -2)
        #expect(q.unit == Quaternion(x: 0, y: 0, z: 0, w: -1))
        #expect(q.normalized.w == 1)
        #expect(q.unit(tolerance: 0.01) == nil)
        #expect(Quaternion(x: 0, y: 0.6, z: 0, w: 0.8).unit(tolerance: 0.01) != nil)
        #expect(Quaternion(x: .nan, y: 0, z: 0, w: 1).unit(tolerance: 0.01) == nil)
    }

    @Test func degreeWraps() {
        #expect(wrapDegrees180(190) == -170 && wrapDegrees180(-180) == 180 && wrapDegrees180(180) == 180)
        #expect(wrapDegrees360(-10) == 350 && wrapDegrees360(360) == 0 && wrapDegrees360(725) == 5)
    }

    /// Half way between two yaws about the same axis is the mean yaw (Shoemake).
    @Test func slerpHalfWayIsTheMeanYaw() {
        let q = slerp(Quaternion(yaw: 0.2), Quaternion(yaw: 1.0), fraction: 0.5)
        let r = Quaternion(yaw: 0.6)
        #expect(abs(q.x - r.x) < 1e-15 && abs(q.y - r.y) < 1e-15 && abs(q.z - r.z) < 1e-15 && abs(q.w - r.w) < 1e-15)
    }
}
