import ArgumentParser
import Foundation
import NavIO
import NavSignal
import NavSpectral

struct BenchSignal: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signal",
        abstract: "Time the filters, Kalman, FFT, Welch and Allan deviation on peer-bench's workload (as bench_peers.py).")

    @Option(help: "peer-bench workload folder (make_workload.py output).") var data: String
    @Option(help: "Timed repeats.") var repeats: Int = 7

    func validate() throws { try checkRepeats(repeats) }

    func run() throws {
        let imu = try HDF5Reader(path: (data as NSString).appendingPathComponent("imu.h5"))
        let (shape, accel) = try imu.readDoubles("/imu/accel")
        let n = shape[0]
        let axes = (0..<3).map { c in (0..<n).map { accel[3 * $0 + c] } }
        let gyroX = try imu.readDoubles("/imu/gyro").values.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        let pathXYZ = try HDF5Reader(path: (data as NSString).appendingPathComponent("path.h5")).readDoubles("/path/xyz").values
        let pathX = stride(from: 0, to: pathXYZ.count, by: 3).map { pathXYZ[$0] }

        var rows: [String] = []
        func row(_ id: String, _ m: Double, _ check: [String: Any]) throws {
            rows.append(try jsonLine(["id": id, "median_s": m, "check": check]))
        }
        func list(_ v: ArraySlice<Double>) -> [Double] { Array(v) }

        let tf = try Butterworth.transferFunction(order: 4, band: .lowpass(cutoff: 5), sampleRate: 100)
        let sos = try Butterworth.sections(order: 4, band: .lowpass(cutoff: 5), sampleRate: 100)
        var out: [[Double]] = []
        var m = try medianSeconds(repeats: repeats) { out = try axes.map { try LinearFilter.filtfilt(tf, $0) } }.median
        try row("navbench_butter4_filtfilt_accel_3axes", m, ["x_first5": list(out[0].prefix(5))])
        m = try medianSeconds(repeats: repeats) { out = try axes.map { try SecondOrderFilter.sosfiltfilt(sos, $0) } }.median
        try row("navbench_butter4_sosfiltfilt_accel_3axes", m, ["x_first5": list(out[0].prefix(5))])
        m = try medianSeconds(repeats: repeats) { out = try axes.map { try LinearFilter.lfilter(tf, $0).output } }.median
        try row("navbench_butter4_lfilter_accel_3axes", m, ["x_first5": list(out[0].prefix(5))])
        var ma: [Double] = []
        m = try medianSeconds(repeats: repeats) { ma = try MovingAverage.centred(axes[0], window: 101) }.median
        try row("navbench_moving_average_w101", m, ["mid_value": ma[n / 2], "first": ma[0]])
        let z20 = Array(axes[2].prefix(1 << 20))
        // Timed as numpy's rfft is: the transform into a new complex array, nothing after it.
        var spectrum = RealFFT.forward(z20)
        m = medianSeconds(repeats: 3 * repeats) { spectrum = RealFFT.forward(z20) }.median
        try row("navbench_rfft_2pow20", m, ["dc": spectrum[0].real])
        var psd: Welch.Result?
        m = try medianSeconds(repeats: repeats) { psd = try Welch.psd(axes[2], sampleRate: 100, segmentLength: 1024) }.median
        try row("navbench_welch_accel_z_nperseg1024", m, ["p_bin10": psd!.power[10]])

        // Kalman CV over the first 1,000,000 path x values from the steady-state posterior.
        let kf = try ConstantVelocityKalman(processNoise: 0.5, measurementNoise: 0.04 * 0.04)
        let p0 = steadyStatePosterior(kf, interval: 0.1)
        let z = Array(pathX.prefix(1_000_000))
        var xhat: [Double] = []
        m =
            medianSeconds(repeats: repeats) {
                xhat = kf.filterPositions(z, interval: 0.1, initial: Gaussian2(mean: (0, 0), covariance: p0))
            }.median
        try row("navbench_kalman_cv_1M", m, ["xhat_first5": list(xhat.prefix(5)), "xhat_last": xhat.last!])

        var adev: [AllanDeviation.Point] = []
        m = try medianSeconds(repeats: 5) { adev = try AllanDeviation.overlapping(rates: gyroX, sampleRate: 100) }.median
        try row("navbench_oadev_gyro_x_octave", m, ["adev": list(adev.map(\.deviation)[...])])
        print(rows.joined(separator: "\n"))
    }
}

/// The posterior covariance the constant-velocity filter converges to (Riccati iteration).
func steadyStatePosterior(_ kf: ConstantVelocityKalman, interval dt: Double) -> Matrix2 {
    var s = Gaussian2(mean: (0, 0), covariance: Matrix2(1, 0, 0, 1))
    for _ in 0..<100_000 {
        let next = kf.updated(kf.predicted(s, dt: dt), measurement: 0)
        if next.covariance == s.covariance { break }
        s = next
    }
    return s.covariance
}
