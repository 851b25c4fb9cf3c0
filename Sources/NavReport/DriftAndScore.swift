import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics

/// Options of `navbench drift`.
public struct DriftOptions: Sendable, Equatable {
    /// Segment lengths, metres; nil: `pathFractionLengths` of the reference path (rpg).
    public var lengths: [Double]?
    /// Start frames every `step` associated poses (KITTI devkit: 10).
    public var step = 10
    public var anchoring: SegmentAnchoring = .se3
    /// RTE window, seconds (RoNIN: 60).
    public var rteWindow = 60.0
    /// Segment drift by the KITTI devkit's definition (`kittiOdometryError`: the files' printed
    /// matrices, general inverses, the acos of the trace), not `segmentDrift`'s accurate
    /// angle; with `.se3` anchoring only (`navbench drift --kitti`).
    public var devkit = false
    public init(lengths: [Double]? = nil, step: Int = 10, anchoring: SegmentAnchoring = .se3, rteWindow: Double = 60, devkit: Bool = false) {
        self.lengths = lengths; self.step = step; self.anchoring = anchoring; self.rteWindow = rteWindow; self.devkit = devkit
    }

    /// KITTI odometry benchmark lengths, 100…800 m.
    public static let kittiLengths: [Double] = [100, 200, 300, 400, 500, 600, 700, 800]
}

/// Result of `navbench drift`: KITTI-style segment drift per length and over all segments,
/// RoNIN's RTE and TLIO's end-point drift, on the associated (and `--align`ed) pairs.
public struct DriftReport: Sendable, Encodable {
    public var reference: String, estimate: String
    public var settings: EvaluationSettings
    public var options: DriftOptions
    public var pairs: Int
    public var pathLength: Double
    public var segments: [SegmentDrift]
    /// Mean translation drift over every segment of every length (the KITTI devkit's
    /// average), percent; NaN when no segment fits.
    public var averageTranslationPercent: Double
    /// Segment-count-weighted mean rotation drift, deg/m.
    public var averageRotationDegreesPerMetre: Double
    public var rte: Double
    public var endPoint: EndPointDrift
    public var context = EvaluationContext()

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try encodeComparedPair(metric: "drift", reference: reference, estimate: estimate, settings: settings, pairs: pairs, into: &c)
        try c.encode(pathLength, forKey: AnyKey("reference_path_length_m"))
        try c.encode(options.anchoring.rawValue, forKey: AnyKey("anchoring"))
        try c.encode(options.step, forKey: AnyKey("step_frames"))
        struct Seg: Encodable {
            var length_m: Double, segments: Int, translation_percent: Double?, rotation_deg_per_m: Double?
        }
        try c.encode(
            segments.map {
                Seg(
                    length_m: $0.length, segments: $0.segments, translation_percent: finiteOrNil($0.translationPercent),
                    rotation_deg_per_m: finiteOrNil($0.rotationDegreesPerMetre))
            }, forKey: AnyKey("segment_drift"))
        try c.encode(finiteOrNil(averageTranslationPercent), forKey: AnyKey("average_translation_percent"))
        try c.encode(finiteOrNil(averageRotationDegreesPerMetre), forKey: AnyKey("average_rotation_deg_per_m"))
        try c.encode(options.rteWindow, forKey: AnyKey("rte_window_s"))
        try c.encode(rte, forKey: AnyKey("rte_m"))
        try c.encode(endPoint.endPointError, forKey: AnyKey("end_point_error_m"))
        try c.encode(finiteOrNil(endPoint.drift), forKey: AnyKey("end_point_drift"))
        try encodeContext(context, settings: settings, into: &c)
    }

    public var text: String {
        var s = contextText(context, settings: settings)
        s += "Drift of \(estimate) against \(reference)\n\(alignmentTitle(settings)), \(pairs) pairs, reference path \(f(pathLength, 3)) m\n\n"
        s += "segment drift (\(options.anchoring == .se3 ? "KITTI, relative motion" : "rpg posyaw anchoring"), start every \(options.step) frames)\n"
        s += "  length (m)  segments  translation (%)  rotation (deg/m)\n"
        for g in segments {
            s +=
                pad(f(g.length, 2), 12) + pad(String(g.segments), 10) + pad(f(g.translationPercent, 4), 17) + pad(f(g.rotationDegreesPerMetre, 5), 18)
                + "\n"
        }
        s +=
            "     average" + pad(String(segments.map(\.segments).reduce(0, +)), 10) + pad(f(averageTranslationPercent, 4), 17)
            + pad(f(averageRotationDegreesPerMetre, 5), 18) + "\n\n"
        s += "RTE (RoNIN, \(f(options.rteWindow, 1)) s window)   \(f(rte, 4)) m\n"
        s += "end-point drift (TLIO)         \(f(endPoint.endPointError, 4)) m = \(f(endPoint.drift * 100, 3)) % of the path\n"
        return s
    }
}

private func finiteOrNil(_ x: Double) -> Double? { x.isFinite ? x : nil }
private func f(_ x: Double, _ d: Int) -> String { x.isFinite ? String(format: "%.\(d)f", x) : "n/a" }
private func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }

/// `navbench drift` on a prepared pair.
///
/// - Throws: `EvaluationError.metric` (bad lengths, step or window).
/// - Complexity: O((n/step)·L·log n + n).
public func driftReport(_ p: PreparedPair, options: DriftOptions) throws(EvaluationError) -> DriftReport {
    let q = p.associated.reference, e = p.alignedEstimate
    let qPos = q.map(\.translation), ePos = e.map(\.translation)
    let path = cumulativePathLength(qPos)
    let lengths = options.lengths ?? pathFractionLengths(pathLength: path)
    do {
        let segs =
            options.devkit && options.anchoring == .se3
            ? try devkitSegments(p, lengths: lengths, step: options.step)
            : try segmentDrift(reference: q, estimate: e, lengths: lengths, stepFrames: options.step, anchoring: options.anchoring)
        let all = segs.flatMap(\.translationPercentPerSegment)
        let count = segs.map(\.segments).reduce(0, +)
        let rot =
            count == 0
            ? Double.nan : segs.filter { $0.segments > 0 }.map { $0.rotationDegreesPerMetre * Double($0.segments) }.reduce(0, +) / Double(count)
        let rte = try relativeTrajectoryError(
            reference: qPos, estimate: ePos, timestamps: p.associated.referenceTimestamps, window: options.rteWindow)
        let end = try endPointDrift(reference: qPos, estimate: ePos)
        return DriftReport(
            reference: p.reference.path, estimate: p.estimate.path, settings: p.settings, options: options, pairs: q.count,
            pathLength: path, segments: segs, averageTranslationPercent: all.isEmpty ? .nan : all.reduce(0, +) / Double(all.count),
            averageRotationDegreesPerMetre: rot, rte: rte, endPoint: end, context: p.context)
    } catch { throw .metric(error) }
}

/// Segment drift per length by the KITTI devkit's definition (`DriftOptions.devkit`), on the
/// printed matrices when the files print them.
private func devkitSegments(_ p: PreparedPair, lengths: [Double], step: Int) throws(MetricError) -> [SegmentDrift] {
    let k: KITTIOdometryError
    do {
        if let printed = p.printedPoses {
            k = try kittiOdometryError(reference: printed.reference, estimate: printed.alignedEstimate, lengths: lengths, stepFrames: step)
        } else {
            k = try kittiOdometryError(reference: p.associated.reference, estimate: p.alignedEstimate, lengths: lengths, stepFrames: step)
        }
    } catch .noPairs {  // a path shorter than every length: no segments, as `segmentDrift` gives
        return lengths.map {
            SegmentDrift(length: $0, segments: 0, translationPercent: .nan, rotationDegreesPerMetre: .nan, translationPercentPerSegment: [])
        }
    }
    return lengths.map { length in
        let s = k.segments.filter { $0.length == length }
        let rotation = s.isEmpty ? Double.nan : s.map(\.rotationErrorPerMetre).reduce(0, +) / Double(s.count) * 180 / .pi
        return SegmentDrift(
            length: length, segments: s.count,
            translationPercent: s.isEmpty ? .nan : 100 * s.map(\.translationErrorPerMetre).reduce(0, +) / Double(s.count),
            rotationDegreesPerMetre: rotation, translationPercentPerSegment: s.map { 100 * $0.translationErrorPerMetre })
    }
}

private func cumulativePathLength(_ p: [Vector3]) -> Double {
    var s = 0.0
    for i in p.indices.dropFirst() { s += (p[i] - p[i - 1]).norm }
    return s
}

/// Options of `navbench score`.
public struct ScoreOptions: Sendable, Equatable {
    /// Storey height for floor numbers ⌊h / height⌋ along the up axis; nil: no floor errors.
    public var floorHeight: Double?
    /// IPIN's penalty per floor, metres.
    public var floorPenalty = 15.0
    public var quantileMethod: QuantileMethod = .hazen
    public init(floorHeight: Double? = nil, floorPenalty: Double = 15, quantileMethod: QuantileMethod = .hazen) {
        self.floorHeight = floorHeight; self.floorPenalty = floorPenalty; self.quantileMethod = quantileMethod
    }
}

/// Result of `navbench score`: positioning scores of the (aligned) estimate — horizontal
/// errors in the floor plane of the up axis, CE50/CE95 (ISO/IEC 18305), the IPIN score — and
/// the registration error of the alignment against the best rigid registration.
public struct ScoreReport: Sendable, Encodable {
    public var reference: String, estimate: String
    public var settings: EvaluationSettings
    public var options: ScoreOptions
    public var upAxis: UpAxis
    public var pairs: Int
    public var ce50: Double, ce95: Double, ipin: Double
    public var meanHorizontalError: Double
    /// Pairs whose floor numbers differ (0 without `floorHeight`).
    public var floorMismatches: Int
    /// The evaluation's alignment against the SE(3) Umeyama registration of all pairs (the
    /// best rigid registration), induced errors at the estimate's positions.
    public var registration: RegistrationAccuracy
    public var context = EvaluationContext()

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try encodeComparedPair(metric: "score", reference: reference, estimate: estimate, settings: settings, pairs: pairs, into: &c)
        try c.encode(upAxis.rawValue, forKey: AnyKey("horizontal_plane_normal"))
        try c.encode(options.quantileMethod.rawValue, forKey: AnyKey("quantile_method"))
        try c.encode(ce50, forKey: AnyKey("ce50_m"))
        try c.encode(ce95, forKey: AnyKey("ce95_m"))
        try c.encode(ipin, forKey: AnyKey("ipin_score_m"))
        try c.encode(meanHorizontalError, forKey: AnyKey("mean_horizontal_error_m"))
        try c.encode(options.floorHeight, forKey: AnyKey("floor_height_m"))
        try c.encode(options.floorPenalty, forKey: AnyKey("floor_penalty_m"))
        try c.encode(floorMismatches, forKey: AnyKey("floor_mismatches"))
        try c.encode(registration.translationError, forKey: AnyKey("registration_translation_error_m"))
        try c.encode(registration.yawErrorDegrees, forKey: AnyKey("registration_yaw_error_deg"))
        try c.encode(registration.rotationErrorDegrees, forKey: AnyKey("registration_rotation_error_deg"))
        try c.encode(registration.maxInducedError, forKey: AnyKey("registration_max_induced_error_m"))
        try c.encode(registration.meanInducedError, forKey: AnyKey("registration_mean_induced_error_m"))
        try encodeContext(context, settings: settings, into: &c)
    }

    public var text: String {
        var s = contextText(context, settings: settings)
        s +=
            "Positioning scores of \(estimate) against \(reference)\n\(alignmentTitle(settings)), \(pairs) pairs, "
            + "horizontal = the plane normal to \(upAxis.rawValue)\n\n"
        s +=
            "      CE50\t\(f(ce50, 4)) m\n      CE95\t\(f(ce95, 4)) m\n      IPIN\t\(f(ipin, 4)) m (75th percentile, \(f(options.floorPenalty, 0)) m per floor"
            + (options.floorHeight == nil ? "; no floor errors without --floor-height)\n" : "; \(floorMismatches) pairs on a wrong floor)\n")
        s += "      mean\t\(f(meanHorizontalError, 4)) m horizontal\n\n"
        s += "registration (the alignment vs the best rigid registration of all pairs)\n"
        s +=
            "  translation \(f(registration.translationError, 4)) m, yaw \(f(registration.yawErrorDegrees, 3)) deg, rotation \(f(registration.rotationErrorDegrees, 3)) deg\n"
        s += "  induced at the estimate's positions: max \(f(registration.maxInducedError, 4)) m, mean \(f(registration.meanInducedError, 4)) m\n"
        return s
    }
}

/// `navbench score` on a prepared pair. The up axis is `settings.upAxis` when the pair was
/// yaw-aligned, else `resolveUpAxis` (the format's convention or the reference's flattest axis).
///
/// - Throws: `EvaluationError.metric` / `.alignment`.
/// - Complexity: O(n log n).
public func scoreReport(_ p: PreparedPair, options: ScoreOptions) throws(EvaluationError) -> ScoreReport {
    let up = p.settings.upAxis ?? resolveUpAxis(nil, reference: p.reference).0
    var context = p.context
    if context.upAxisSource == nil { context.upAxisSource = resolveUpAxis(p.settings.upAxis, reference: p.reference).1 }
    var settings = p.settings
    settings.upAxis = up
    let q = p.associated.reference.map(\.translation), e = p.alignedEstimate.map(\.translation)
    let n = up.vector
    let horizontal = zip(q, e).map { a, b -> Double in
        let d = b - a; return (d - d.dot(n) * n).norm
    }
    var floors = [Int](repeating: 0, count: q.count)
    if let h = options.floorHeight {
        // Floor indices from heights: bounded before they become Ints (a tiny height or a huge
        // position would trap the conversion).
        func floorIndex(_ p: Vector3, _ i: Int, _ which: String) throws(EvaluationError) -> Int {
            let f = (p.dot(n) / h).rounded(.down)
            guard f.isFinite, abs(f) <= 1e9 else {
                throw .pairing(
                    "\(which) pair \(i): height \(formatNumber(p.dot(n))) m is \(formatNumber(f)) floors of \(formatNumber(h)) m; expected a floor index within ±10^9 (check --floor-height and the positions' units)"
                )
            }
            return Int(f)
        }
        for i in q.indices { floors[i] = try floorIndex(e[i], i, "estimate of") - floorIndex(q[i], i, "reference of") }
    }
    let best: Similarity3
    do { best = try alignmentTransform(reference: p.associated.reference, estimate: p.associated.estimate, method: .se3) } catch {
        throw .alignment(error)
    }
    func pose(_ s: Similarity3) -> Pose { Pose(rotation: Quaternion(rotationMatrix: s.rotation.rows).normalized, translation: s.translation) }
    do {
        return ScoreReport(
            reference: p.reference.path, estimate: p.estimate.path, settings: settings, options: options, upAxis: up, pairs: q.count,
            ce50: try circularError(horizontal, percentile: 50, method: options.quantileMethod),
            ce95: try circularError(horizontal, percentile: 95, method: options.quantileMethod),
            ipin: try ipinScore(horizontalErrors: horizontal, floorErrors: floors, floorPenalty: options.floorPenalty),
            meanHorizontalError: horizontal.reduce(0, +) / Double(max(1, horizontal.count)),
            floorMismatches: floors.filter { $0 != 0 }.count,
            registration: registrationAccuracy(
                estimated: pose(p.alignment), truth: pose(best),
                routePoints: p.associated.estimate.map(\.translation)),
            context: context)
    } catch { throw .metric(error) }
}
