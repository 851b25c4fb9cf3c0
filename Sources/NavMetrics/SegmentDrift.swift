import NavCore
import NavGeometry

/// How each sub-trajectory of a segment-drift evaluation is anchored at its first pose.
public enum SegmentAnchoring: String, Sendable, CaseIterable, Codable {
    /// KITTI: the relative motion over the segment is compared, i.e. the estimate is
    /// SE(3)-aligned at the segment's first pose.
    case se3
    /// rpg_trajectory_evaluation's VIO setting (`posyaw`): only position and yaw of the first
    /// pose are aligned, so an initial roll/pitch error shows up as drift.
    case yaw
}

/// Drift over segments of one length.
public struct SegmentDrift: Sendable, Equatable, Codable {
    /// Segment length, metres (on the reference path).
    public var length: Double
    /// Number of segments evaluated.
    public var segments: Int
    /// Mean of ‖translation error‖ / length × 100 over the segments, percent.
    public var translationPercent: Double
    /// Mean of rotation error angle / length, degrees per metre.
    public var rotationDegreesPerMetre: Double
    /// Per-segment translation drift, percent (for statistics or plots).
    public var translationPercentPerSegment: [Double]

    public init(length: Double, segments: Int, translationPercent: Double, rotationDegreesPerMetre: Double, translationPercentPerSegment: [Double]) {
        self.length = length; self.segments = segments; self.translationPercent = translationPercent
        self.rotationDegreesPerMetre = rotationDegreesPerMetre; self.translationPercentPerSegment = translationPercentPerSegment
    }
}

/// KITTI-style drift (Geiger et al. 2012, the odometry devkit's `calcSequenceErrors`):
/// for start frames i = 0, step, 2·step, … and each length L, the end frame j is the first
/// with D_j > D_i + L on the **reference** cumulative path D; the segment error is
/// E = (P_i⁻¹P_j)⁻¹ (Q_i⁻¹Q_j) (`.se3`), translation drift ‖t_E‖/L (× 100 %) and rotation
/// drift angle(R_E)/L (deg/m; the devkit's acos formula replaced by the accurate
/// 2·atan2(‖v‖, |w|)). With `.yaw` anchoring the estimate segment is aligned to the reference
/// by the yaw and position of pose i only (rpg_trajectory_evaluation `posyaw`) and the
/// error is the end-point difference.
///
/// `reference` and `estimate` are associated pose pairs (same count, same order).
///
/// - Throws: `MetricError.countMismatch`, `.invalidArgument` for non-positive lengths or step.
/// - Complexity: O((n/step) · L · log n) for L lengths.
public func segmentDrift(
    reference q: [Pose], estimate p: [Pose], lengths: [Double], stepFrames: Int = 10,
    anchoring: SegmentAnchoring = .se3
) throws(MetricError) -> [SegmentDrift] {
    guard q.count == p.count else { throw .countMismatch(reference: q.count, estimate: p.count) }
    guard stepFrames >= 1 else { throw .invalidArgument("step must be at least 1 frame, got \(stepFrames)") }
    guard lengths.allSatisfy({ $0.isFinite && $0 > 0 }) else { throw .invalidArgument("segment lengths must be positive metres") }
    let d = cumulativePath(q.map(\.translation))
    let n = q.count
    var out: [SegmentDrift] = []
    for length in lengths {
        var t: [Double] = [], r: [Double] = []
        var i = 0
        while i < n {
            // First j with D_j > D_i + L (binary search; D non-decreasing).
            let target = d[i] + length
            var lo = i, hi = n
            while lo < hi { let m = (lo + hi) / 2; if d[m] > target { hi = m } else { lo = m + 1 } }
            if lo < n {
                let j = lo
                switch anchoring {
                case .se3:
                    let e = (p[i].inverse * p[j]).inverse * (q[i].inverse * q[j])
                    t.append(e.translation.norm / length * 100)
                    r.append(rotationAngle(e.rotation) * 180 / .pi / length)
                case .yaw:
                    // Align the estimate at pose i by yaw and position only, then compare pose j.
                    let rot = Quaternion(yaw: yawAngle(of: q[i].rotation) - yawAngle(of: p[i].rotation))
                    let align = Pose(rotation: rot, translation: q[i].translation - rot.act(on: p[i].translation))
                    let moved = align * p[j]
                    t.append((moved.translation - q[j].translation).norm / length * 100)
                    r.append(rotationAngle(moved.rotation.conjugate * q[j].rotation) * 180 / .pi / length)
                }
            }
            i += stepFrames
        }
        let mean = { (a: [Double]) in a.isEmpty ? Double.nan : a.reduce(0, +) / Double(a.count) }
        out.append(
            SegmentDrift(
                length: length, segments: t.count, translationPercent: mean(t),
                rotationDegreesPerMetre: mean(r), translationPercentPerSegment: t))
    }
    return out
}

/// Segment lengths as fractions of the reference path length, as rpg_trajectory_evaluation:
/// ⌊f·L⌋ metres for f in `fractions` (default 10, 20, 30, 40, 50 %); on paths where that
/// rounds to 0 (shorter than 10 m) the unrounded f·L is used.
///
/// - Complexity: O(k) for k fractions.
public func pathFractionLengths(pathLength: Double, fractions: [Double] = [0.1, 0.2, 0.3, 0.4, 0.5]) -> [Double] {
    fractions.map { f in
        let l = (f * pathLength).rounded(.down)
        return l > 0 ? l : f * pathLength
    }
}
