import NavCore
import RealModule
import Testing

@Suite struct QuaternionPoseTests {
    func close(_ a: Vector3, _ b: Vector3, _ tol: Double = 1e-12) -> Bool { (a - b).norm <= tol }

    @Test func quarterTurnAboutZ() {
        let q = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2)
        #expect(close(q.act(on: Vector3(1, 0, 0)), Vector3(0, 1, 0)))
        #expect(abs(q.angle - .pi / 2) < 1e-12)
    }

    @Test func actionEqualsMatrixProduct() {
        var rng = SeededRandom(seed: 5)
        for _ in 0..<100 {
            let q = Quaternion(x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian(), w: rng.gaussian()).normalized
            let v = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            let m = q.rotationMatrix
            let mv = Vector3(
                m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
                m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z)
            #expect(close(q.act(on: v), mv, 1e-12))
            let back = Quaternion(rotationMatrix: m).normalized
            let dx: Double = abs(back.x - q.x), dy: Double = abs(back.y - q.y), dz: Double = abs(back.z - q.z), dw: Double = abs(back.w - q.w)
            #expect(dx + dy + dz + dw < 1e-12)
        }
    }

    @Test func yawOfARKitCamera() {
        // Identity camera looks along −z: yaw 0. Rotating +90° about +y makes it look along −x.
        #expect(abs(Quaternion.identity.yaw) < 1e-15)
        let q = Quaternion(yaw: .pi / 2)
        #expect(close(q.act(on: Vector3(0, 0, -1)), Vector3(-1, 0, 0)))
        #expect(abs(q.yaw - .pi / 2) < 1e-12)
    }

    @Test func poseCompositionAndInverse() {
        var rng = SeededRandom(seed: 9)
        for _ in 0..<50 {
            func randomPose() -> Pose {
                Pose(
                    rotation: Quaternion(x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian(), w: rng.gaussian()).normalized,
                    translation: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 10)
            }
            let a = randomPose(), b = randomPose()
            let p = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            #expect(close((a * b).act(on: p), a.act(on: b.act(on: p)), 1e-11))
            let id = a * a.inverse
            #expect(id.translation.norm < 1e-12)
            #expect(id.rotation.angle < 1e-7)
        }
    }
}
