import NavCore
import NavSignal
import NavTestSupport
import Testing

/// Kalman filters against filterpy 2.0.0 (the class for the random walk and constant
/// velocity, its functional predict/update for the wrapped-heading and fusion filters).
@Suite struct KalmanTests {
    @Test func randomWalkEqualsFilterpy() throws {
        let z = ref("/kalman/rssi")
        let kf = try RandomWalkKalman(processNoise: refAttr("q", "/kalman"), measurementNoise: refAttr("r", "/kalman"))
        let out = kf.filter(z)
        expectMatches(out.map(\.mean), ref("/kalman/random_walk"), "random walk mean")
        expectMatches(out.map(\.variance), ref("/kalman/random_walk_var"), "random walk variance")
        // Stateful and pure forms agree exactly.
        var stateful = kf
        #expect(z.map { stateful.step($0) } == out.map(\.mean))
    }

    @Test func constantVelocityEqualsFilterpyOnIrregularTimes() throws {
        let t = ref("/kalman/cv_t"), z = ref("/kalman/cv_z")
        let kf = try ConstantVelocityKalman(processNoise: refAttr("cv_q", "/kalman"), measurementNoise: refAttr("cv_r", "/kalman"))
        let initial = Gaussian2(mean: (z[0], 0), covariance: Matrix2(kf.measurementNoise, 0, 0, 1))
        let out = try kf.filter(z, timestamps: t, initial: initial, firstInterval: 0.1)
        expectMatches(out.flatMap { [$0.mean.0, $0.mean.1] }, ref("/kalman/cv_mean"), "cv mean")
        var tracker = ConstantVelocityKalman.Tracker(model: kf, prior: initial)
        let stateful = t.indices.map { tracker.step(z[$0], dt: $0 == 0 ? 0.1 : t[$0] - t[$0 - 1]) }
        #expect(stateful == out.map { $0.mean.0 })  // stateful and pure forms agree exactly
        // Covariances: filterpy updates in Joseph form; equal in exact arithmetic.
        expectMatches(
            out.flatMap { [$0.covariance.a, $0.covariance.b, $0.covariance.c, $0.covariance.d] }, ref("/kalman/cv_cov"), "cv covariance",
            tolerance: 1e-8)
    }

    @Test func fastPathEqualsGeneralForm() throws {
        let z = ref("/kalman/rts_z")
        let kf = try ConstantVelocityKalman(processNoise: 0.5, measurementNoise: 0.0025)
        let initial = Gaussian2(mean: (0, 0), covariance: Matrix2(1, 0, 0, 1))
        let general = try kf.filter(z, timestamps: z.indices.map { Double($0) * 0.1 }, initial: initial, firstInterval: 0.1).map(\.mean.0)
        expectMatches(kf.filterPositions(z, interval: 0.1, initial: initial), general, "fast path", tolerance: 1e-12)
    }

    @Test func rtsSmootherEqualsFilterpy() throws {
        let z = ref("/kalman/rts_z")
        let kf = try ConstantVelocityKalman(processNoise: refAttr("cv_q", "/kalman"), measurementNoise: refAttr("cv_r", "/kalman"))
        // filterpy's batch_filter predicts first, so the prior is one step before z₀.
        let initial = Gaussian2(mean: (z[0], 0), covariance: Matrix2(kf.measurementNoise, 0, 0, 1))
        let filtered = try kf.filter(z, timestamps: z.indices.map { Double($0) * 0.1 }, initial: initial, firstInterval: 0.1)
        expectMatches(filtered.flatMap { [$0.mean.0, $0.mean.1] }, ref("/kalman/rts_filtered"), "filtered")
        let smoothed = RTSSmoother.smooth(filtered, model: kf, interval: 0.1)
        expectMatches(smoothed.flatMap { [$0.mean.0, $0.mean.1] }, ref("/kalman/rts_smoothed"), "smoothed")
        expectMatches(
            smoothed.flatMap { [$0.covariance.a, $0.covariance.b, $0.covariance.c, $0.covariance.d] },
            ref("/kalman/rts_smoothed_cov"), "smoothed covariance", tolerance: 1e-8)
    }

    @Test func headingFilterEqualsFilterpyWithWrappedInnovation() throws {
        let kf = try HeadingKalman(processNoise: refAttr("heading_q", "/kalman"), measurementNoise: refAttr("heading_r", "/kalman"))
        for (input, expected) in [("/kalman/heading_z", "/kalman/heading"), ("/inputs/coremotion_heading", "/kalman/heading_coremotion")] {
            let ours = kf.filter(ref(input)), theirs = ref(expected)
            var stateful = kf
            #expect(ref(input).map { stateful.step($0) } == ours)
            let worst = zip(ours, theirs).map { abs(wrapDegrees180($0 - $1)) }.max()!
            #expect(worst <= 360 * relativeTolerance, "\(input): \(worst)°")
        }
    }

    @Test func gyroCompassFusionEqualsReference() throws {
        let fusion = try GyroCompassFusion(
            processNoise: refAttr("fusion_q", "/kalman"), measurementNoise: refAttr("fusion_r", "/kalman"),
            gate: refAttr("fusion_gate", "/kalman"))
        let out = try fusion.fuse(
            gyroTimes: ref("/kalman/fusion_gyro_t"), yawRate: ref("/kalman/fusion_yaw_rate"),
            compassTimes: ref("/kalman/fusion_compass_t"), heading: ref("/kalman/fusion_compass"))
        let theirs = ref("/kalman/fusion_heading")
        let worst = zip(out.heading, theirs).map { abs(wrapDegrees180($0 - $1)) }.max()!
        #expect(worst <= 360 * relativeTolerance)
        #expect(out.accepted.map { $0 ? 1.0 : 0.0 } == ref("/kalman/fusion_accepted"))
        // The gate rejected the injected disturbance (readings 100–114) and flip (200–204).
        #expect(out.accepted[100..<115].filter { !$0 }.count >= 10)
        #expect(out.accepted[200..<205].allSatisfy { !$0 })
    }

    @Test func badParametersAreOneLine() {
        #expect(throws: SignalError.invalidParameter(name: "r", value: "0.0", expected: "a measurement noise variance > 0")) {
            try RandomWalkKalman(processNoise: 1, measurementNoise: 0)
        }
    }
}
