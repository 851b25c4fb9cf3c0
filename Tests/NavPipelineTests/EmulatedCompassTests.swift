import Foundation
import NavAids
import NavCore
import NavPipeline
import NavSignal
import Testing

@Suite struct EmulatedCompassTests {
    /// A body turning about +y toward north then holding, a magnetic field pointing 5° east of true
    /// north: the emulated compass reads 5° low, so the calibrated offset misses the optical
    /// heading by exactly 5° (circular mean; no noise).
    @Test func magneticDeclinationBecomesOffsetError() throws {
        let declination = 5.0 * .pi / 180
        let field = Vector3(20 * sin(declination), -40, -20 * cos(declination))  // north = −z, east = +x
        var t: [Double] = [], poses: [Pose] = [], mag: [Vector3] = []
        for k in 0..<2000 {
            let time = Double(k) / 100
            // The body's x axis heading: from 60° east of north down to 0°, then held.
            let heading = max(0, 60 - 20 * time) * .pi / 180
            // Rotation about +y by −(heading + 90°) turns +x (east) to that heading.
            let q = Quaternion(yaw: -(heading) + .pi / 2)
            t.append(time); poses.append(Pose(rotation: q)); mag.append(q.conjugate.act(on: field))
        }
        let imu = IMUStream(timestamps: t, accelerometer: t.map { _ in Vector3(0, 9.8, 0) }, gyroscope: t.map { _ in .zero }, magnetometer: mag)
        let s = Session(
            metadata: SessionMetadata(kind: .recording, sessionID: "emulated", routeID: "", venue: "", device: ""),
            imu: imu, groundTruth: GroundTruthStream(timestamps: t, poses: poses))
        let e = try #require(emulatedCompass(s))
        let last = e.compass.heading.count - 1
        #expect(abs(wrapDegrees180(e.compass.heading[last] - (e.truth[last] - 5))) < 1e-9)
        var p = CalibrationParameters()
        p.estimator = "circmean"
        let (result, metrics) = try runCalibration(s, parameters: p)
        #expect(result.offset != nil)
        #expect(abs(metrics.first { $0.name == "offset_error" }!.value - 5) < 1e-9)
    }
}
