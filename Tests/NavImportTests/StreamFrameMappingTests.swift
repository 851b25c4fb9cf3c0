import Foundation
import NavCore
import NavIO
import NavImport
import NavTestSupport
import Testing

// Issue 52, item 1: a stream's own `frame:` and `body_rotation:` in a mapping. Every expected
// value is a closed form written here by hand (matrices), not the importer's output.

/// Row-major 3×3 product.
func mul(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
    var product = [[Double]](repeating: [0, 0, 0], count: 3)
    for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { product[i][j] += a[i][k] * b[k][j] } } }
    return product
}

/// Rotation about z by θ (radians), active, row-major.
func rz(_ t: Double) -> [[Double]] { [[cos(t), -sin(t), 0], [sin(t), cos(t), 0], [0, 0, 1]] }

/// Rotation about y by θ (radians), active, row-major.
func ry(_ t: Double) -> [[Double]] { [[cos(t), 0, sin(t)], [0, 1, 0], [-sin(t), 0, cos(t)]] }

func maxDifference(_ a: [[Double]], _ b: [[Double]]) -> Double {
    var largest = 0.0
    for i in 0..<3 { for j in 0..<3 { largest = max(largest, abs(a[i][j] - b[i][j])) } }
    return largest
}

func near(_ a: Vector3, _ b: Vector3, _ tol: Double) -> Bool { (a - b).norm <= tol }

/// CoreMotion's north-west-up → ARKit (x east, y up, z south), by hand: (x, y, z) ↦ (−y, z, −x).
let nwuToARKit: [[Double]] = [[0, -1, 0], [0, 0, 1], [-1, 0, 0]]
/// R(r) of −90° about z, by hand: the trace body axes (ARKit camera: x = −y_CM, y = x_CM, z = z_CM)
/// as columns in CoreMotion's device axes.
let cameraInDevice: [[Double]] = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]

@Suite struct BodyRotationTests {
    /// 90° about z: the active rotation maps x to y, so the trace body's x axis is the device's
    /// y axis, and a vector along the device's x reads (0, −1, 0) in the trace body's axes.
    @Test func ninetyDegreesAboutZ() {
        let r = BodyRotation(axis: Vector3(0, 0, 1), angleDegrees: 90)
        #expect(near(r.quaternion.act(on: Vector3(1, 0, 0)), Vector3(0, 1, 0), 1e-15))
        #expect(r.apply(Vector3(1, 0, 0)) == Vector3(0, -1, 0))  // exact: the matrix holds only 0 and ±1
        #expect(near(r.applyToOrientation(.identity).act(on: Vector3(1, 0, 0)), Vector3(0, 1, 0), 1e-15))
        // The world direction of a vector does not change: q ⊗ r applied to Rᵀ v is q applied to v.
        let q = Quaternion(axis: Vector3(0.3, -1, 0.2), angle: 0.7)
        let v = Vector3(0.4, -2, 9.8)
        #expect(near(r.applyToOrientation(q).act(on: r.apply(v)), q.act(on: v), 1e-12))
    }

    /// r = q_z(90°) ⊗ q_x(90°) by hand: Rz(90°)·Rx(90°) = [[0, 0, 1], [1, 0, 0], [0, 1, 0]] (x → y,
    /// y → z, z → x), which is also 120° about (1, 1, 1) and the quaternion (½, ½, ½, ½).
    @Test func composedRotationAgainstAHandComputedMatrix() {
        let cyclic: [[Double]] = [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
        let composed = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2) * Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
        for r in [
            BodyRotation(quaternion: composed), BodyRotation(axis: Vector3(1, 1, 1), angleDegrees: 120),
            BodyRotation(quaternion: Quaternion(x: 0.5, y: 0.5, z: 0.5, w: 0.5)),
        ] {
            #expect(maxDifference(r.quaternion.rotationMatrix, cyclic) < 1e-15)
            #expect(r.apply(Vector3(1, 2, 3)) == Vector3(2, 3, 1))  // Rᵀ (1, 2, 3)
        }
        // A rotation off the axes keeps its exact value: 30° about z.
        let r30 = BodyRotation(axis: Vector3(0, 0, 2), angleDegrees: 30)
        #expect(maxDifference(r30.quaternion.rotationMatrix, rz(.pi / 6)) < 1e-15)
        #expect(near(r30.apply(Vector3(1, 0, 0)), Vector3(cos(.pi / 6), -sin(.pi / 6), 0), 1e-15))
    }

    /// The CoreMotion → ARKit camera constant is −90° about z: R(r) as written by hand above,
    /// and vectors turn (x, y, z) ↦ (−y, x, z).
    @Test func coreMotionConstant() {
        let r = coreMotionBodyToARKitCamera
        #expect(maxDifference(r.quaternion.rotationMatrix, cameraInDevice) < 1e-15)
        #expect(r.apply(Vector3(1, 2, 3)) == Vector3(-2, 1, 3))
    }
}

@Suite struct StreamFrameMappingTests {
    static func mapping(_ streams: String, frame: String = "arkit") -> String {
        "navbench_mapping: 1\nsource: csv\nframe: \(frame)\ntime: {column: t, units: s}\nstreams:\n" + streams
    }

    static func csv(_ label: String = #function) throws -> String {
        let path = temporaryFolder(label) + "/a.csv"
        try "t,ax,ay,az,gx,gy,gz,qw,qx,qy,qz,px,py,pz\n0,0,0,-1,1,2,3,1,0,0,0,1,2,3\n0.01,0,0,-1,1,2,3,1,0,0,0,1,2,3\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// One mapping, two world frames and two body rotations: ARKit poses kept, a z-up attitude
    /// turned from north-west-up, positions turned from east-north-up; the body rotations on the
    /// orientations' body side and the IMU's vectors.
    @Test func streamFramesAndBodyRotations() throws {
        let text = Self.mapping(
            """
              imu:
                frame: nwu
                body_rotation: {quaternion: [0.5, 0.5, 0.5, 0.5]}
                accelerometer: {columns: [ax, ay, az], units: g, scale: -1}
                gyroscope: {columns: [gx, gy, gz], units: rad/s}
                attitude: {columns: [qw, qx, qy, qz], order: wxyz}
              vio:
                body_rotation: {axis: [1, 1, 1], angle_deg: 120}
                position: {columns: [px, py, pz], units: m}
                orientation: {columns: [qw, qx, qy, qz], order: wxyz}
              groundtruth:
                frame: enu
                position: {columns: [px, py, pz], units: m}
                orientation: {columns: [qw, qx, qy, qz], order: wxyz}
            """)
        let m = try ImportMapping.parse(text, file: "m.yaml")
        let s = try importCSV(try Self.csv(), mapping: m).session
        let cyclic: [[Double]] = [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
        let imu = try #require(s.imu)
        #expect(imu.gyroscope[0] == Vector3(2, 3, 1))  // Rᵀ (1, 2, 3)
        #expect(imu.accelerometer[0] == Vector3(0, 9.80665, 0))  // (0, 0, +g) → Rᵀ: (0, g, 0)
        // Identity attitude in north-west-up: W · I · R.
        #expect(maxDifference(imu.attitude![0].rotationMatrix, mul(nwuToARKit, cyclic)) < 1e-15)
        let vio = try #require(s.vio)
        #expect(vio.poses[0].translation == Vector3(1, 2, 3))  // frame kept (the mapping's arkit)
        #expect(maxDifference(vio.poses[0].rotation.rotationMatrix, cyclic) < 1e-15)
        let gt = try #require(s.groundTruth)
        #expect(gt.poses[0].translation == Vector3(1, 3, -2))  // ENU (x, y, z) ↦ (x, z, −y)
        #expect(maxDifference(gt.poses[0].rotation.rotationMatrix, [[1, 0, 0], [0, 0, 1], [0, -1, 0]]) < 1e-15)
        #expect(s.metadata.frameConvention.contains("imu: world frame nwu turned to ARKit's, body rotated by r = [w, x, y, z] [0.5, 0.5, 0.5, 0.5]"))
        #expect(s.metadata.frameConvention.contains("groundtruth: world frame enu turned to ARKit's"))
        // A stream's frame overrides the mapping's only for that stream.
        let enu = try ImportMapping.parse(text.replacingOccurrences(of: "frame: arkit", with: "frame: enu"), file: "m.yaml")
        let s2 = try importCSV(try Self.csv(#function + "2"), mapping: enu).session
        #expect(s2.vio?.poses[0].translation == Vector3(1, 3, -2) && s2.groundTruth?.poses[0].translation == Vector3(1, 3, -2))
        #expect(maxDifference(s2.imu!.attitude![0].rotationMatrix, mul(nwuToARKit, cyclic)) < 1e-15)
    }

    @Test func mistakesNameTheLine() {
        func parse(_ streams: String) throws(TraceError) { _ = try ImportMapping.parse(Self.mapping(streams), file: "m.yaml") }
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "line 8, streams.compass.frame",
                "unknown key; expected one of heading, accuracy, time, invalid_rows, input")
        ) {
            try parse("  compass:\n    heading: {column: h, units: deg}\n    frame: enu\n")
        }
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "line 8, streams.imu.body_rotation.quaternion",
                "norm 1.01, expected a unit quaternion [w, x, y, z] (norm within 1e-3 of 1)")
        ) {
            try parse(
                "  imu:\n    accelerometer: {value: 0, units: g}\n    body_rotation: {quaternion: [1.01, 0, 0, 0]}\n    gyroscope: {value: 0, units: rad/s}\n"
            )
        }
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "line 7, streams.vio.body_rotation.angle",
                "unknown key; expected one of quaternion, axis, angle_deg")
        ) {
            try parse("  vio:\n    body_rotation: {axis: [0, 0, 1], angle: 90}\n")
        }
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "line 7, streams.vio.frame", "expected one of arkit, enu, ned, nwu, found 'up'")
        ) {
            try parse("  vio:\n    frame: up\n")
        }
        expectError(TraceError(.badValue, file: "m.yaml", object: "line 7, streams.vio.body_rotation.axis", "expected a non-zero axis [x, y, z]")) {
            try parse("  vio:\n    body_rotation: {axis: [0, 0, 0], angle_deg: 90}\n")
        }
    }

    /// The coremotion-logger preset and a mapping with `frame: nwu` and
    /// `body_rotation: {axis: [0, 0, 1], angle_deg: -90}` give the same gyroscope, magnetometer
    /// and attitude on the preset's fixture (one definition of the rotation, two routes to it).
    @Test func coreMotionPresetEqualsAMapping() throws {
        let folder = importFixture("real/coremotion-data-logger")
        let preset = try #require(try importCoreMotionLogger(folder).session.imu)
        let mapping = try ImportMapping.parse(
            """
            navbench_mapping: 1
            source: csv
            csv: {header: false, delimiter: whitespace, comment: "#"}
            inputs:
              - time: {column: 0, units: ns}
              - time: {column: 0, units: ns}
              - time: {column: 0, units: ns}
              - time: {column: 0, units: ns}
            streams:
              imu:
                frame: nwu
                body_rotation: {axis: [0, 0, 1], angle_deg: -90}
                attitude: {columns: [1, 2, 3, 4], order: xyzw}
                gyroscope: {input: 2, columns: [1, 2, 3], units: rad/s}
                accelerometer: {input: 3, columns: [1, 2, 3], units: m/s^2}
                magnetometer: {input: 4, columns: [1, 2, 3], units: uT}
            """, file: "cm.yaml")
        let mapped = try #require(
            try importCSV(["game_rv.txt", "gyro.txt", "gravity.txt", "magnet.txt"].map { folder + "/" + $0 }, mapping: mapping).session.imu)
        #expect(mapped.timestamps == preset.timestamps && mapped.timestamps.count == 300)
        // Equal but for the last bit of the last sample (interpolated at u = 1: a + 1·(b − a)).
        #expect(zip(mapped.gyroscope, preset.gyroscope).allSatisfy { near($0, $1, 1e-15) })
        #expect(zip(mapped.magnetometer!, preset.magnetometer!).allSatisfy { near($0, $1, 1e-12) })
        #expect(mapped.gyroscope.dropLast() == preset.gyroscope.dropLast())
        let worst = zip(mapped.attitude!, preset.attitude!).map { maxDifference($0.rotationMatrix, $1.rotationMatrix) }.max()!
        #expect(worst < 1e-12)
    }
}
