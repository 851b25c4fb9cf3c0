import NavCore
import RealModule

/// How a navigation session N is registered onto the recording R through an anchor A.
public enum RegistrationMode: String, Sendable, CaseIterable, Codable {
    /// T_RN = T_RA · T_NA⁻¹ (4×4, all six degrees of freedom).
    case full
    /// Clew / Clew Maps: T_RN = alignY(T_RA) · alignY(T_NA)⁻¹, a yaw about +y plus a 3-D
    /// translation; a tilted anchor detection cannot tilt the whole route.
    case gravityAligned = "gravity-aligned"
}

/// One sighting of the same physical anchor in both sessions.
public struct AnchorSighting: Sendable, Equatable {
    /// T_RA: the anchor's pose in the recording frame.
    public var inRecording: Pose
    /// T_NA: the anchor's pose in the navigation frame.
    public var inNavigation: Pose

    public init(inRecording: Pose, inNavigation: Pose) {
        self.inRecording = inRecording; self.inNavigation = inNavigation
    }
}

/// T_RN from one sighting: maps navigation-frame points into the recording frame.
///
/// Equation: T_RN = T_RA · T_NA⁻¹ (`.full`) or alignY(T_RA) · alignY(T_NA)⁻¹ (`.gravityAligned`).
///
/// - Complexity: O(1).
public func registration(_ s: AnchorSighting, mode: RegistrationMode = .gravityAligned) -> Pose {
    switch mode {
    case .full: return s.inRecording * s.inNavigation.inverse
    case .gravityAligned: return alignY(s.inRecording) * alignY(s.inNavigation).inverse
    }
}

/// Thresholds of the consensus over many sightings (Clew's values by default).
public struct RegistrationConsensusOptions: Sendable, Equatable {
    /// Width of the yaw histogram bins, radians (Clew: 0.02).
    public var yawBinWidth: Double = 0.02
    /// A sighting whose yaw differs from the consensus by more than this is rejected, radians (Clew: 1.0).
    public var maxYawDeviation: Double = 1.0
    /// A sighting whose translation differs from the consensus by more than this is rejected, metres (Clew: 7).
    public var maxTranslationDeviation: Double = 7.0
    public init() {}
}

/// The registration agreed by several sightings.
public struct RegistrationConsensus: Sendable, Equatable {
    /// T_RN from the inliers: mean yaw (circular) and mean translation for `.gravityAligned`;
    /// chordal mean rotation and mean translation for `.full`.
    public var transform: Pose
    /// Consensus yaw used for the rejection test, radians in (−π, π].
    public var consensusYaw: Double
    /// Consensus translation used for the rejection test (component-wise median).
    public var consensusTranslation: Vector3
    /// True when no yaw bin held a clear majority and the circular mean of all yaws was used.
    public var usedCircularMeanFallback: Bool
    public var inliers: [Int]
    public var rejected: [Int]
}

/// Why no registration can be computed.
public enum AnchorRegistrationError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSightings
    case nonFinite(sighting: Int)
    case invalidOptions(String)

    public var description: String {
        switch self {
        case .noSightings: return "no anchor sightings: registration needs the anchor seen in both sessions at least once"
        case let .nonFinite(i): return "anchor sighting \(i) has a non-finite pose"
        case let .invalidOptions(s): return "invalid registration options: \(s)"
        }
    }
}

/// Robust T_RN from many sightings, as Clew's visual alignment: each sighting proposes
/// T_RN,k; the consensus yaw is the most common yaw over bins of `yawBinWidth` (bin
/// k = round(yaw / width), the two bins at ±π merged), taken as the circular mean of that
/// bin's members; when the fullest bin holds one sighting or several bins tie, the circular
/// mean of all yaws (atan2(Σ sin, Σ cos)) is used instead. The consensus translation is the
/// component-wise median of the same members' translations. Sightings more than
/// `maxYawDeviation` or `maxTranslationDeviation` from the consensus are rejected (Clew: 1 rad,
/// 7 m), and the transform is re-estimated from the inliers.
///
/// Yaw of a proposal: `Quaternion.yaw` of its rotation (of its gravity-aligned part in `.full` mode).
///
/// - Throws: `AnchorRegistrationError` with no sightings, a non-finite pose, or
///   non-positive thresholds.
/// - Complexity: O(k log k) for k sightings.
public func consensusRegistration(
    _ sightings: [AnchorSighting], mode: RegistrationMode = .gravityAligned,
    options: RegistrationConsensusOptions = RegistrationConsensusOptions()
)
    throws(AnchorRegistrationError) -> RegistrationConsensus
{
    guard !sightings.isEmpty else { throw .noSightings }
    guard options.yawBinWidth > 0, options.maxYawDeviation > 0, options.maxTranslationDeviation > 0 else {
        throw .invalidOptions("bin width and thresholds must be > 0")
    }
    for (i, s) in sightings.enumerated() where !(s.inRecording.isFinite && s.inNavigation.isFinite) {
        throw .nonFinite(sighting: i)
    }
    let proposals = sightings.map { registration($0, mode: mode) }
    let yaws = proposals.map { Angle.wrapToPi($0.rotation.normalized.yaw) }

    // Histogram of yaws.
    let lastBin = Int((Double.pi / options.yawBinWidth).rounded())
    var bins: [Int: [Int]] = [:]
    for (i, y) in yaws.enumerated() {
        var k = Int((y / options.yawBinWidth).rounded())
        if k <= -lastBin { k = lastBin }  // −π and π are one direction
        bins[k, default: []].append(i)
    }
    let fullest = bins.values.map(\.count).max() ?? 0
    let winners = bins.filter { $0.value.count == fullest }
    let fallback = fullest < 2 || winners.count > 1
    let members = fallback ? Array(yaws.indices) : winners.first!.value
    let consensusYaw = circularMean(members.map { yaws[$0] })
    let consensusTranslation = componentwiseMedian(members.map { proposals[$0].translation })

    var inliers: [Int] = [], rejected: [Int] = []
    for i in proposals.indices {
        let dy = abs(Angle.wrapToPi(yaws[i] - consensusYaw))
        let dt = (proposals[i].translation - consensusTranslation).norm
        if dy > options.maxYawDeviation || dt > options.maxTranslationDeviation { rejected.append(i) } else { inliers.append(i) }
    }
    if inliers.isEmpty { inliers = members; rejected = proposals.indices.filter { !members.contains($0) } }

    var meanT = Vector3.zero
    for i in inliers { meanT += proposals[i].translation }
    meanT /= Double(inliers.count)
    let rotation: Quaternion
    switch mode {
    case .gravityAligned:
        rotation = Quaternion(yaw: circularMean(inliers.map { yaws[$0] }))
    case .full:
        // Chordal L2 mean: sign-align to the first inlier, sum, normalise.
        let ref = proposals[inliers[0]].rotation
        var sx = 0.0, sy = 0.0, sz = 0.0, sw = 0.0
        for i in inliers {
            let q = proposals[i].rotation
            let sign: Double = (q.x * ref.x + q.y * ref.y + q.z * ref.z + q.w * ref.w) < 0 ? -1 : 1
            sx += sign * q.x; sy += sign * q.y; sz += sign * q.z; sw += sign * q.w
        }
        rotation = Quaternion(x: sx, y: sy, z: sz, w: sw).normalized
    }
    return RegistrationConsensus(
        transform: Pose(rotation: rotation, translation: meanT), consensusYaw: consensusYaw,
        consensusTranslation: consensusTranslation, usedCircularMeanFallback: fallback,
        inliers: inliers, rejected: rejected)
}

/// Circular mean atan2(Σ sin θ, Σ cos θ), in (−π, π]; 0 for an empty list
/// (`CircularStatistics.mean` in radians, wrapped).
///
/// - Complexity: O(n).
public func circularMean(_ angles: [Double]) -> Double {
    angles.isEmpty ? 0 : Angle.wrapToPi(CircularStatistics.mean(angles, unit: .radians))
}

/// Median of each coordinate separately (numpy's median: mean of the middle two for even counts).
func componentwiseMedian(_ v: [Vector3]) -> Vector3 {
    func med(_ a: [Double]) -> Double {
        let s = a.sorted()
        let n = s.count
        if n == 0 { return 0 }
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }
    return Vector3(med(v.map(\.x)), med(v.map(\.y)), med(v.map(\.z)))
}

/// Clew's alignment update filter: what to do with a newly proposed T_RN given the current one.
public enum RegistrationUpdate: String, Sendable, Equatable {
    /// No current alignment, or a change within the accepted range: use the proposal.
    case accept
    /// Change below 0.005 rad and 0.05 m: keep the current alignment (avoids jitter).
    case ignore
    /// Jump over 1 rad or 7 m: an implausible detection, keep the current alignment.
    case reject
}

/// Clew's filter on alignment updates: ignore updates with yaw change < `minYaw` (0.005 rad)
/// and translation change < `minTranslation` (0.05 m); reject jumps with yaw change >
/// `maxYaw` (1 rad) or translation change > `maxTranslation` (7 m); accept otherwise.
/// Yaw change = |wrap(yaw(proposed) − yaw(current))|.
///
/// - Complexity: O(1).
public func filterRegistrationUpdate(
    current: Pose?, proposed: Pose, minYaw: Double = 0.005, minTranslation: Double = 0.05,
    maxYaw: Double = 1.0, maxTranslation: Double = 7.0
) -> RegistrationUpdate {
    guard let current else { return .accept }
    let dy = abs(Angle.wrapToPi(proposed.rotation.normalized.yaw - current.rotation.normalized.yaw))
    let dt = (proposed.translation - current.translation).norm
    if dy > maxYaw || dt > maxTranslation { return .reject }
    if dy < minYaw && dt < minTranslation { return .ignore }
    return .accept
}
