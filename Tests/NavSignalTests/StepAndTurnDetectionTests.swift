import Foundation
import NavCore
import NavSignal
import Testing

/// Step and turn detectors on signals whose answer is known in closed form.
@Suite struct StepAndTurnDetectionTests {
    /// A walk at `cadence` steps/s: the specific force's magnitude oscillates once per step
    /// about g (cos, 2 m/s²), the thigh's rate about device x once per stride (two steps), the
    /// phone upright (+y up, identity attitude).
    func walk(cadence: Double, seconds: Double, rate: Double = 25, turnRate: (Double) -> Double = { _ in 0 }) -> IMUStream {
        let n = Int(seconds * rate)
        let t = (0..<n).map { Double($0) / rate }
        let acc = t.map { Vector3(0, 9.80665 + 2 * cos(2 * .pi * cadence * $0), 0) }
        let gyr = t.map { Vector3(1.5 * sin(.pi * cadence * $0 + 0.3), turnRate($0) * .pi / 180, 0) }
        return IMUStream(
            timestamps: t, accelerometer: acc, gyroscope: gyr, attitude: Array(repeating: Quaternion(x: 0, y: 0, z: 0, w: 1), count: n))
    }

    /// Peaks of cos(2π f t) at t = k / f: the peak detector finds every one but the first (an end
    /// sample is never a peak) and the last when it falls past the end; zero crossings and the
    /// thigh's swing count the same steps (±1 at the ends).
    @Test(arguments: [1.5, 1.8, 2.0])
    func detectorsCountAPeriodicWalk(cadence: Double) throws {
        let imu = walk(cadence: cadence, seconds: 30)
        let expected = Int((30 * cadence).rounded(.down))
        let peak = try StepDetector(method: .peak, signal: .magnitude).detect(imu)
        #expect(abs(peak.count - expected) <= 1, "peak: \(peak.count) vs \(expected)")
        // Each detection sits on a peak of the cosine: t·f an integer, to a sample (0.04 s).
        for s in peak { #expect(abs(s * cadence - (s * cadence).rounded()) * (1 / cadence) <= 0.021, "\(s)") }
        let zero = try StepDetector(method: .zeroCrossing, signal: .vertical).detect(imu)
        #expect(abs(zero.count - expected) <= 1, "zero-crossing: \(zero.count) vs \(expected)")
        let gyro = try StepDetector(method: .gyroscope).detect(imu)
        #expect(abs(gyro.count - expected) <= 2, "gyroscope: \(gyro.count) vs \(expected)")
        // The same after a zero-phase low-pass (it does not move the peaks of a sinusoid).
        let filtered = try StepDetector(method: .peak, filter: FilterSpec(parsing: "butter:order=4,cutoff=3,zero-phase")).detect(imu)
        #expect(abs(filtered.count - expected) <= 1)
    }

    /// Standing still (g alone, sensor noise of 0.05 m/s²): the least height keeps every peak out.
    @Test func standingStillHasNoSteps() throws {
        var rng = SeededRandom(seed: 7)
        let n = 750
        let t = (0..<n).map { Double($0) / 25 }
        let acc = t.map { _ in Vector3(0, 9.80665 + 0.05 * rng.gaussian(), 0) }
        let imu = IMUStream(timestamps: t, accelerometer: acc, gyroscope: Array(repeating: Vector3(0, 0, 0), count: n))
        #expect(try StepDetector(method: .peak).detect(imu).isEmpty)
    }

    @Test func parametersAreBounded() {
        #expect(StepDetector(minimumInterval: 0).problem() != nil)
        #expect(StepDetector(threshold: .nan).problem() != nil)
        #expect(StepDetector(window: 1e300).problem() != nil)
        #expect(TurnDetector(onsetRate: -1).problem() != nil)
        #expect(TurnDetector(releaseRate: 50).problem() != nil)
        let tooShort = IMUStream(timestamps: [0, 1], accelerometer: [Vector3(0, 9.8, 0), Vector3(0, 9.8, 0)], gyroscope: [Vector3(), Vector3()])
        #expect(throws: StepDetectionError.self) { try StepDetector().detect(tooShort) }
    }

    /// A left turn of 90° at 30°/s (3 s) and a right turn of 45° at 22.5°/s (2 s), with a step
    /// sway of ±20°/s on the vertical rate: both found, angles within 2° (the heading windows
    /// average the sway), the start and end within the smoothing window of the truth.
    @Test func turnsOfKnownAngle() throws {
        let rate: (Double) -> Double = { t in
            let sway = 20 * sin(2 * .pi * 1.0 * t)  // whole periods in the 1 s heading windows
            if t >= 10 && t < 13 { return 30 + sway }
            if t >= 20 && t < 22 { return -22.5 + sway }
            return sway
        }
        let imu = walk(cadence: 1.8, seconds: 30, turnRate: rate)
        // No bias removal here: a median of a 20°/s sway with 5 s of turning is itself ~1°/s off.
        let turns = try TurnDetector(onsetRate: 15, releaseRate: 8, smoothing: 2, minimumAngle: 30, removesBias: false, headingWindow: 1).detect(imu)
        #expect(turns.count == 2, "\(turns)")
        guard turns.count == 2 else { return }
        #expect(abs(turns[0].angle - 90) < 2, "\(turns[0].angle)")
        #expect(abs(turns[1].angle + 45) < 2, "\(turns[1].angle)")
        #expect(abs(turns[0].start - 10) < 1.5 && abs(turns[0].end - 13) < 1.5)
    }

    /// A gyroscope bias of 0.02 rad/s about the vertical (1.15°/s: 69° a minute) is removed by the
    /// median: a straight walk shows no turn and its heading does not drift.
    @Test func biasIsRemoved() throws {
        let imu = walk(cadence: 1.8, seconds: 60, turnRate: { (t: Double) -> Double in 0.02 * 180 / Double.pi + 20 * sin(2 * Double.pi * t) })
        let d = TurnDetector(onsetRate: 15, releaseRate: 8, smoothing: 2, minimumAngle: 30)
        #expect(try d.detect(imu).isEmpty)
        let w = try d.verticalRate(imu)
        #expect(abs(w.reduce(0, +) / Double(w.count)) < 0.05)
        var biased = d
        biased.removesBias = false
        #expect(try biased.verticalRate(imu).reduce(0, +) / Double(w.count) > 1.1)
    }

    /// The vertical rate does not depend on how the phone is held: the same walk with the phone
    /// pitched 70° (a trouser pocket) gives the same rate about gravity.
    @Test func verticalRateIsIndependentOfThePhonesPitch() throws {
        let upright = walk(cadence: 1.8, seconds: 10, turnRate: { _ in 25 })
        let pitch = Quaternion(axis: Vector3(1, 0, 0), angle: 70 * .pi / 180)  // device → world
        let pocket = IMUStream(
            timestamps: upright.timestamps, accelerometer: upright.accelerometer.map { pitch.conjugate.act(on: $0) },
            gyroscope: upright.gyroscope.map { pitch.conjugate.act(on: $0) }, attitude: upright.timestamps.map { _ in pitch })
        let d = TurnDetector(removesBias: false)
        let a = try d.verticalRate(upright), b = try d.verticalRate(pocket)
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(abs(a[0] - 25) < 1e-9)
    }
}
