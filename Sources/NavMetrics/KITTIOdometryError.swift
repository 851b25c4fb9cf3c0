import NavCore
import NavGeometry
import NavStatistics

/// The segment lengths of the KITTI odometry benchmark, metres.
public let kittiSegmentLengths: [Double] = [100, 200, 300, 400, 500, 600, 700, 800]

/// One evaluated sub-sequence of the KITTI protocol.
public struct KITTISegmentError: Sendable, Equatable, Codable {
    public var firstFrame: Int
    public var lastFrame: Int
    /// Metres of reference path asked for (the segment is at least this long).
    public var length: Double
    /// ‖t_E‖ / length (a fraction per metre; × 100 for %).
    public var translationErrorPerMetre: Double
    /// angle(R_E) / length, rad/m, with the devkit's acos formula.
    public var rotationErrorPerMetre: Double
}

/// The averages of one length.
public struct KITTILengthError: Sendable, Equatable, Codable {
    public var length: Double
    public var segments: Int
    public var translationPercent: Double
    public var rotationDegreesPerMetre: Double
}

/// The KITTI odometry figures: translation % and rotation deg/m averaged over every
/// (first frame, length) segment, as the leaderboard reports them.
public struct KITTIOdometryError: Sendable, Equatable, Codable {
    public var translationPercent: Double
    public var rotationDegreesPerMetre: Double
    public var segments: [KITTISegmentError]
    public var perLength: [KITTILengthError]
}

/// The KITTI odometry devkit's sequence error (Geiger, Lenz, Urtasun, CVPR 2012;
/// `evaluate_odometry.cpp`, `calcSequenceErrors`), in double precision:
///
/// - D = cumulative path of the **reference** (`trajectoryDistances`);
/// - for first frames i = 0, step, 2·step, … (step 10) and each length L (100…800 m), the
///   last frame j is the first with D_j > D_i + L (`lastFrameFromSegmentLength`; none: skipped);
/// - E = (P_i⁻¹P_j)⁻¹ · (Q_i⁻¹Q_j) (estimate P, reference Q);
/// - rotation error = acos(clamp(½(tr R_E − 1), −1, 1)) (the devkit's formula, kept so the
///   figures equal the devkit's), translation error = ‖t_E‖, both divided by L;
/// - result = means over all segments: translation × 100 (%), rotation × 180/π (deg/m).
///
/// The devkit keeps distances and errors in C `float`; navbench in `Double` (as the published
/// Python ports). `reference` and `estimate` are pose pairs (KITTI: frame by frame) whose
/// rotations are quaternions, composed as exact rotation matrices; for files that print their
/// rotations, pass the printed matrices (`kittiOdometryError(reference:estimate:…)` of
/// `MatrixPose`s), as the devkit reads them.
///
/// - Throws: `MetricError.countMismatch`; `.invalidArgument` for a step < 1 or a non-positive
///   length; `.noPairs` when the reference path is shorter than every length.
/// - Complexity: O(n · L / step · n) worst case for the linear end search, as the devkit;
///   O(n/step · L · log n) here (binary search on the non-decreasing D).
public func kittiOdometryError(
    reference q: [Pose], estimate p: [Pose], lengths: [Double] = kittiSegmentLengths,
    stepFrames: Int = 10
) throws(MetricError) -> KITTIOdometryError {
    try kittiOdometryError(reference: q.map(MatrixPose.init), estimate: p.map(MatrixPose.init), lengths: lengths, stepFrames: stepFrames)
}

/// `kittiOdometryError` of poses as the files print them (KITTI: 3×4 matrices, a rotation only
/// to the printed digits), inverted in general as the devkit's `Matrix::inv`: the devkit's
/// figures on its own files (the acos of a trace amplifies a departure from a rotation, so a
/// quaternion made from each matrix moves the rotation error by 3e-5 relative on KITTI 00).
///
/// Numerical contract: equal to the double-precision devkit port of
/// scripts/make_protocol_fixtures.py within 1e-9 on its fixtures.
///
/// - Throws: as `kittiOdometryError(reference:estimate:lengths:stepFrames:)` of poses.
/// - Complexity: as that function.
public func kittiOdometryError(
    reference q: [MatrixPose], estimate p: [MatrixPose], lengths: [Double] = kittiSegmentLengths,
    stepFrames: Int = 10
) throws(MetricError) -> KITTIOdometryError {
    guard q.count == p.count else { throw .countMismatch(reference: q.count, estimate: p.count) }
    guard stepFrames >= 1 else { throw .invalidArgument("step must be at least 1 frame, got \(stepFrames)") }
    guard lengths.allSatisfy({ $0.isFinite && $0 > 0 }) else { throw .invalidArgument("segment lengths must be positive metres") }
    let n = q.count
    var d = [Double](repeating: 0, count: n)
    for i in 1..<max(n, 1) {
        let a = q[i - 1].translation, b = q[i].translation
        let dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z
        d[i] = d[i - 1] + (dx * dx + dy * dy + dz * dz).squareRoot()
    }
    var segments: [KITTISegmentError] = []
    var first = 0
    while first < n {
        for length in lengths {
            let target = d[first] + length
            var lo = first, hi = n
            while lo < hi { let m = (lo + hi) / 2; if d[m] > target { hi = m } else { lo = m + 1 } }
            guard lo < n else { continue }
            let last = lo
            let deltaReference = q[first].inverse * q[last]
            let deltaEstimate = p[first].inverse * p[last]
            let e = deltaEstimate.inverse * deltaReference
            let cosine = 0.5 * (e.linear.trace - 1)
            let r = Double.acos(max(min(cosine, 1), -1))
            let t = e.translationNorm
            segments.append(
                KITTISegmentError(
                    firstFrame: first, lastFrame: last, length: length,
                    translationErrorPerMetre: t / length, rotationErrorPerMetre: r / length))
        }
        first += stepFrames
    }
    guard !segments.isEmpty else {
        throw .noPairs(
            "the reference path is \(d.last ?? 0) m long, shorter than every KITTI segment length (\(lengths.map { "\(Int($0))" }.joined(separator: ", ")) m)"
        )
    }
    let mean = Statistics.mean  // the segments of a length are never empty
    let perLength = lengths.compactMap { length -> KITTILengthError? in
        let s = segments.filter { $0.length == length }
        guard !s.isEmpty else { return nil }
        return KITTILengthError(
            length: length, segments: s.count, translationPercent: 100 * mean(s.map(\.translationErrorPerMetre)),
            rotationDegreesPerMetre: mean(s.map(\.rotationErrorPerMetre)) * 180 / .pi)
    }
    return KITTIOdometryError(
        translationPercent: 100 * mean(segments.map(\.translationErrorPerMetre)),
        rotationDegreesPerMetre: mean(segments.map(\.rotationErrorPerMetre)) * 180 / .pi,
        segments: segments, perLength: perLength)
}
