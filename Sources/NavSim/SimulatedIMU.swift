import NavCore

extension WalkLog {
    /// Standard gravity, m/s².
    static let gravity = 9.80665

    /// What the phone's IMU measures of the walk, in the phone's frame at each `truthTimes`
    /// entry: the accelerometer the specific force of standing still (gravity only: the walk's
    /// own accelerations are not modelled) and the gyroscope the walker's rotation about the
    /// vertical, dψ/dt by central differences of `headings` (one-sided at the ends). Their dot
    /// product over the accelerometer's norm is the rate about gravity a step and turn detector
    /// reads (`TurnDetector.verticalRate`), so a simulated walk's turns and heading wander are
    /// measured from its IMU as a real walk's are. Nil without at least two samples.
    ///
    /// - Complexity: O(samples).
    public var imu: IMUStream? {
        let n = truthTimes.count
        guard n >= 2, truth.count == n, headings.count == n else { return nil }
        var accelerometer: [Vector3] = [], gyroscope: [Vector3] = []
        accelerometer.reserveCapacity(n)
        gyroscope.reserveCapacity(n)
        for i in 0..<n {
            let (a, b) = (max(0, i - 1), min(n - 1, i + 1))
            let dt = truthTimes[b] - truthTimes[a]
            let rate = dt > 0 ? (headings[b] - headings[a]) / dt : 0
            let toPhone = truth[i].rotation.conjugate
            accelerometer.append(toPhone.act(on: Vector3(0, Self.gravity, 0)))
            gyroscope.append(toPhone.act(on: Vector3(0, rate, 0)))
        }
        return IMUStream(timestamps: truthTimes, accelerometer: accelerometer, gyroscope: gyroscope)
    }
}
