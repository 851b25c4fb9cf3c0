import NavCore
import NavGeometry
import NavMetrics
import RealModule
import Testing

/// Registration error of T_RN and the error it induces along a route.
@Suite struct RegistrationErrorTests {
    @Test func yawErrorAtTheAnchorGrowsAsTheChord() throws {
        // True registration: identity. Estimated: a yaw error δ about a vertical axis through the
        // anchor at c. A point d metres (horizontally) from the anchor moves by 2·d·sin(δ/2).
        let c = Vector3(2, 0, -1)
        for delta in [0.01, 0.035, 0.2, -0.5] {
            let rot = Quaternion(yaw: delta)
            let est = Pose(rotation: rot, translation: c - rot.act(on: c))
            for d in [1.0, 10, 63] {
                let x = c + Vector3(d, 1.7, 0)
                let a = registrationAccuracy(estimated: est, truth: .identity, routePoints: [x])
                #expect(abs(a.inducedErrors[0] - yawInducedDisplacement(distance: d, yawError: delta)) < 1e-12 * d)
                #expect(abs(a.yawErrorDegrees - delta * 180 / .pi) < 1e-10)
                #expect(abs(a.rotationErrorDegrees - abs(delta) * 180 / .pi) < 1e-10)
            }
        }
        // 2° at 50 m is 1.745 m.
        #expect(abs(yawInducedDisplacement(distance: 50, yawError: 2 * .pi / 180) - 1.74524) < 1e-5)
    }

    @Test func translationError() {
        let a = registrationAccuracy(
            estimated: Pose(translation: Vector3(0.3, 0, 0.4)), truth: .identity,
            routePoints: [Vector3(5, 0, 5), Vector3(-1, 2, 0)])
        #expect(abs(a.translationError - 0.5) < 1e-15)
        #expect(a.inducedErrors.allSatisfy { abs($0 - 0.5) < 1e-15 })
        #expect(a.yawErrorDegrees == 0)
        #expect(abs(a.maxInducedError - 0.5) < 1e-15 && abs(a.meanInducedError - 0.5) < 1e-15)
    }
}
