import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics

/// A trajectory file and how to read it.
public struct TrajectorySource: Sendable, Equatable {
    public var path: String
    /// nil: detect from extension / content.
    public var format: TrajectoryFormat?
    /// HDF5 stream (`groundtruth` or `vio`); nil: the default for the role (see `evaluateAPE`).
    public var stream: String?
    /// KITTI times file.
    public var timesPath: String?
    /// How an HDF5 source may be read (external links, memory budget): the caller's, never a global.
    public var readPolicy: HDF5ReadPolicy

    public init(
        path: String, format: TrajectoryFormat? = nil, stream: String? = nil, timesPath: String? = nil,
        readPolicy: HDF5ReadPolicy = .standard
    ) {
        self.path = path; self.format = format; self.stream = stream; self.timesPath = timesPath; self.readPolicy = readPolicy
    }

    /// Reads the source, `stream` standing for the source's own when it names none.
    public func read(defaultStream: String? = nil) throws(TraceError) -> TrajectoryFile {
        let file = try readTrajectory(at: path, format: format, stream: stream ?? defaultStream, timesPath: timesPath, policy: readPolicy)
        // Positions an evaluation can square and sum: a 1e308 coordinate overflowed into a NaN
        // covariance and a "degenerate point sets" message that named neither file nor pose.
        if let i = file.trajectory.poses.values.firstIndex(where: { p in
            !(abs(p.translation.x) <= maximumPositionMagnitude && abs(p.translation.y) <= maximumPositionMagnitude
                && abs(p.translation.z) <= maximumPositionMagnitude)
        }) {
            let t = file.trajectory.poses.values[i].translation
            throw TraceError(
                .badValue, file: path, object: "pose \(i + 1)",
                "position (\(formatNumber(t.x)), \(formatNumber(t.y)), \(formatNumber(t.z))) m is beyond ±10^9 m; expected metres in a local or Earth-centred frame"
            )
        }
        return file
    }
}

/// The largest |coordinate| an evaluation reads, m (an Earth-centred frame is 6.4·10^6 m).
public let maximumPositionMagnitude = 1e9

/// Association and alignment shared by APE and RPE.
public struct EvaluationSettings: Sendable, Equatable {
    public var alignment: AlignmentMethod = .none
    public var association: AssociationMethod = .nearest
    /// Seconds (evo's `--t_max_diff`, default 0.01).
    public var maxDifference = 0.01
    /// Seconds added to the estimate's stamps (evo's `--t_offset`).
    public var offset = 0.0
    /// Gravity axis of `.yaw` / `.posyaw` alignment; nil: auto (`resolveUpAxis`).
    public var upAxis: UpAxis?
    /// Align on the first n pairs only (evo's `--n_to_align`); nil: all.
    public var alignCount: Int?
    /// Estimate `offset` by cross-correlating angular speeds (`estimateTimeOffset`) instead of
    /// taking it as given.
    public var estimateOffset = false
    /// Largest |offset| searched by `estimateOffset`, seconds; nil: half the shorter duration.
    public var maxOffset: Double?
    public init(
        alignment: AlignmentMethod = .none, association: AssociationMethod = .nearest,
        maxDifference: Double = 0.01, offset: Double = 0, upAxis: UpAxis? = nil, alignCount: Int? = nil,
        estimateOffset: Bool = false, maxOffset: Double? = nil
    ) {
        self.alignment = alignment; self.association = association; self.maxDifference = maxDifference; self.offset = offset
        self.upAxis = upAxis; self.alignCount = alignCount; self.estimateOffset = estimateOffset; self.maxOffset = maxOffset
    }
}

/// Any failure of a trajectory evaluation, each a one-line description naming what failed.
public enum EvaluationError: Error, Equatable, Sendable, CustomStringConvertible {
    case input(TraceError)
    case association(AssociationError)
    case alignment(AlignmentError)
    case metric(MetricError)
    case route(RouteError)
    case pairing(String)
    /// Two orientation streams that cannot be aligned (`navbench attitude`).
    case orientation(reference: String, estimate: String, OrientationAlignmentError)

    public var description: String {
        switch self {
        case let .input(e): return e.description
        case let .association(e): return e.description
        case let .alignment(e): return "alignment failed: \(e.description)"
        case let .metric(e): return e.description
        case let .route(e): return e.description
        case let .pairing(s): return s
        case let .orientation(r, e, error): return "\(r), \(e): \(error.description)"
        }
    }
}

/// Associated, aligned pose pairs: the input of APE and RPE.
public struct PreparedPair: Sendable {
    public var reference: TrajectoryFile
    public var estimate: TrajectoryFile
    public var associated: AssociatedTrajectories
    /// The estimate after alignment (same order as `associated.estimate`).
    public var alignedEstimate: [Pose]
    public var alignment: Similarity3
    /// The settings as applied: `offset` is the estimated one with `estimateOffset`, `upAxis`
    /// the resolved axis of a yaw alignment.
    public var settings: EvaluationSettings = EvaluationSettings()
    /// What was decided on the way (up axis, estimated offset) and warnings.
    public var context = EvaluationContext()
    /// The pairs' poses with the rotations the files printed (`MatrixPose`), the estimate's
    /// aligned as evo aligns them, when a file prints rotation matrices (KITTI) and the pairs
    /// are poses of the files (not interpolated); APE and RPE are computed on them. nil otherwise.
    public var printedPoses: (reference: [MatrixPose], alignedEstimate: [MatrixPose])?

    public init(
        reference: TrajectoryFile, estimate: TrajectoryFile, associated: AssociatedTrajectories, alignedEstimate: [Pose],
        alignment: Similarity3, settings: EvaluationSettings = EvaluationSettings(), context: EvaluationContext = EvaluationContext()
    ) {
        self.reference = reference; self.estimate = estimate; self.associated = associated
        self.alignedEstimate = alignedEstimate; self.alignment = alignment
        self.settings = settings; self.context = context
    }

    /// Pairs the poses of two trajectories (by time, or by index when one has no timestamps)
    /// and aligns the estimate: the in-memory half of `prepareTrajectoryPair`, also for
    /// trajectories that never were files (`TrajectoryFile(name:trajectory:)`). Repeated stamps
    /// give a warning in `context`; `estimateOffset` finds the clock offset first; a yaw
    /// alignment resolves its up axis (both recorded in `settings` and `context`).
    ///
    /// - Throws: `EvaluationError`.
    /// - Complexity: O(n + m) plus the association's and the offset search's cost.
    public init(reference ref: TrajectoryFile, estimate est: TrajectoryFile, settings: EvaluationSettings) throws(EvaluationError) {
        var settings = settings
        var context = EvaluationContext()
        context.warnings = duplicateWarnings(ref, est)
        if settings.estimateOffset && !(ref.hasTimestamps && est.hasTimestamps) {
            throw .pairing("--estimate-t-offset needs timestamps in both files; KITTI poses have none without --ref-times/--est-times")
        }
        if settings.estimateOffset {
            do {
                context.offsetEstimate = try estimateTimeOffset(reference: ref.trajectory, estimate: est.trajectory, maxOffset: settings.maxOffset)
            } catch {
                throw .pairing("\(ref.path), \(est.path): \(error.description)")
            }
            if let why = context.offsetEstimate!.untrustedReason {
                context.warnings.append(
                    "\(ref.path), \(est.path): estimated time offset \(String(format: "%+.6f", context.offsetEstimate!.offset)) s not applied: "
                        + "\(why); the recorded stamps (and --t-offset) are used")
            } else {
                settings.offset = context.offsetEstimate!.offset
            }
        }
        let associated: AssociatedTrajectories
        if ref.hasTimestamps && est.hasTimestamps {
            do {
                associated = try associate(
                    reference: ref.trajectory, estimate: est.trajectory, method: settings.association,
                    maxDifference: settings.maxDifference, offset: settings.offset,
                    referenceName: ref.path, estimateName: est.path)
            } catch { throw .association(error) }
        } else {
            guard ref.trajectory.count == est.trajectory.count else {
                throw .pairing(
                    "\(ref.path) has \(ref.trajectory.count) poses and \(est.path) \(est.trajectory.count): "
                        + "without timestamps (KITTI without --times) poses are paired by index, so the counts must be equal")
            }
            let idx = Array(0..<ref.trajectory.count)
            associated = AssociatedTrajectories(
                referenceIndices: idx, estimateIndices: idx, reference: ref.trajectory.poses.values,
                estimate: est.trajectory.poses.values, referenceTimestamps: ref.trajectory.timestamps,
                estimateTimestamps: est.trajectory.timestamps)
        }
        if settings.alignment.isYawOnly {
            let (axis, source) = resolveUpAxis(settings.upAxis, reference: ref)
            settings.upAxis = axis
            context.upAxisSource = source
        }
        let transform: Similarity3
        do {
            transform = try alignmentTransform(
                reference: associated.reference, estimate: associated.estimate, method: settings.alignment,
                upAxis: settings.upAxis ?? .y, count: settings.alignCount)
        } catch {
            throw .alignment(error)
        }
        var aligned = settings.alignment == .none ? associated.estimate : transform.apply(to: associated.estimate)
        let printed = printedPosePairs(reference: ref, estimate: est, associated: associated, settings: settings, alignment: transform)
        if let printed {
            // Positions as evo moves them (the origin alignment composes the printed matrices).
            for i in aligned.indices { aligned[i].translation = printed.alignedEstimate[i].translation }
        }
        self.init(
            reference: ref, estimate: est, associated: associated, alignedEstimate: aligned, alignment: transform,
            settings: settings, context: context)
        printedPoses = printed
    }
}

/// The pairs' poses with the files' printed rotations (`PreparedPair.printedPoses`): nil unless
/// a file prints rotation matrices (one per pose) and the association keeps the files' poses.
/// A file of quaternions on the other side gives `MatrixPose(pose)`. The estimate is aligned as
/// evo aligns it: `align_origin` on the printed matrices, any other transform applied to each.
private func printedPosePairs(
    reference ref: TrajectoryFile, estimate est: TrajectoryFile, associated: AssociatedTrajectories,
    settings: EvaluationSettings, alignment: Similarity3
) -> (reference: [MatrixPose], alignedEstimate: [MatrixPose])? {
    guard ref.printedRotations != nil || est.printedRotations != nil, settings.association != .interpolation else { return nil }
    func poses(_ f: TrajectoryFile, _ indices: [Int]) -> [MatrixPose]? {
        let values = f.trajectory.poses.values
        guard let printed = f.printedRotations else { return indices.map { MatrixPose(values[$0]) } }
        guard printed.count == values.count, indices.allSatisfy(values.indices.contains) else { return nil }
        return indices.map { MatrixPose(linear: printed[$0], translation: values[$0].translation) }
    }
    guard let q = poses(ref, associated.referenceIndices), let p = poses(est, associated.estimateIndices) else { return nil }
    switch settings.alignment {
    case .none: return (q, p)
    case .origin: return (q, MatrixPose.originAligned(p, onto: q))
    default: return (q, p.map { $0.aligned(by: alignment) })
    }
}

/// Reads both files, pairs their poses and aligns the estimate: the first half of `navbench
/// ape` and `navbench rpe`. An HDF5 reference defaults to its `/groundtruth` stream and an
/// HDF5 estimate to its `/vio` stream. KITTI files without times are paired by index and
/// must have equal pose counts.
///
/// - Throws: `EvaluationError`.
/// - Complexity: O(n + m) plus the association's cost.
public func prepareTrajectoryPair(
    reference: TrajectorySource, estimate: TrajectorySource,
    settings: EvaluationSettings
) throws(EvaluationError) -> PreparedPair {
    // The two files are read side by side (two cores: parsing 40 MB of TUM text is most of an
    // APE); an error is the reference's when both fail, as when they were read in turn.
    let files: [TrajectoryFile]
    do {
        files = try mapConcurrently(2, workers: 2) { i throws(TraceError) in
            i == 0
                ? try reference.read(defaultStream: defaultStream(reference, "groundtruth"))
                : try estimate.read(defaultStream: defaultStream(estimate, "vio"))
        }
    } catch { throw .input(error) }
    return try PreparedPair(reference: files[0], estimate: files[1], settings: settings)
}

private func defaultStream(_ s: TrajectorySource, _ role: String) -> String? {
    let ext = (s.path as NSString).pathExtension.lowercased()
    return (s.format == .h5 || ((s.format == nil) && (ext == "h5" || ext == "hdf5"))) ? role : nil
}

/// What `--save-results` and `--plot` need of an APE or RPE report: the errors and the
/// associated-pose pair (i, j) each one was measured on (APE: i = j = k).
public protocol PoseErrorReport: Sendable, Encodable {
    /// "APE" or "RPE".
    var metricName: String { get }
    var estimatePath: String { get }
    var relation: PoseRelation { get }
    var statistics: ErrorStatistics { get }
    var errors: [Double] { get }
    /// One per error, in the same order.
    var errorPairs: [IndexPair] { get }
}

/// Result of `evaluateAPE`. JSON: statistics under evo's names at the top level
/// (`rmse`, `mean`, `median`, `std`, `min`, `max`, `sse`) plus `pairs`, `relation`, `unit`,
/// `align` and the alignment transform.
public struct APEReport: PoseErrorReport {
    public var referencePath: String
    public var estimatePath: String
    public var relation: PoseRelation
    public var settings: EvaluationSettings
    public var statistics: ErrorStatistics
    public var alignment: Similarity3
    public var errors: [Double]
    /// Associated pair indices (reference, estimate).
    public var referenceIndices: [Int]
    public var estimateIndices: [Int]
    public var context = EvaluationContext()

    public var pairs: Int { errors.count }
    public var metricName: String { "APE" }
    public var errorPairs: [IndexPair] { errors.indices.map { IndexPair($0, $0) } }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try encodeEvaluation(
            metric: "ape", reference: referencePath, estimate: estimatePath, relation: relation, settings: settings,
            statistics: statistics, pairs: pairs, alignment: alignment, into: &c)
        try encodeContext(context, settings: settings, into: &c)
    }

    /// evo-style text block.
    public var text: String {
        contextText(context, settings: settings)
            + statisticsText(title: "APE w.r.t. \(relation.title) (\(relation.unit))\n\(alignmentTitle(settings))", statistics, pairs: pairs)
    }
}

struct AlignmentJSON: Encodable {
    var rotation: [[Double]], translation: [Double], scale: Double
    init(_ s: Similarity3) {
        rotation = s.rotation.rows; translation = [s.translation.x, s.translation.y, s.translation.z]; scale = s.scale
    }
}

/// The JSON fields every trajectory comparison (ape, rpe, drift, score) starts with: what was
/// compared, how it was paired and aligned, and the pair count (keys are written sorted).
func encodeComparedPair(
    metric: String, reference: String, estimate: String, settings: EvaluationSettings, pairs: Int,
    into c: inout KeyedEncodingContainer<AnyKey>
) throws {
    try c.encode(metric, forKey: AnyKey("metric"))
    try c.encode(reference, forKey: AnyKey("reference"))
    try c.encode(estimate, forKey: AnyKey("estimate"))
    try c.encode(settings.alignment.rawValue, forKey: AnyKey("align"))
    try c.encode(settings.association.rawValue, forKey: AnyKey("association"))
    try c.encode(settings.maxDifference, forKey: AnyKey("max_diff"))
    try c.encode(pairs, forKey: AnyKey("pairs"))
}

/// The JSON fields APE and RPE share: what was compared and how, evo's statistics under their
/// names, the pair count and the alignment.
private func encodeEvaluation(
    metric: String, reference: String, estimate: String, relation: PoseRelation, settings: EvaluationSettings,
    statistics s: ErrorStatistics, pairs: Int, alignment: Similarity3,
    into c: inout KeyedEncodingContainer<AnyKey>
) throws {
    try encodeComparedPair(metric: metric, reference: reference, estimate: estimate, settings: settings, pairs: pairs, into: &c)
    try c.encode(relation.rawValue, forKey: AnyKey("relation"))
    try c.encode(relation.unit, forKey: AnyKey("unit"))
    for (name, v) in [("rmse", s.rmse), ("mean", s.mean), ("median", s.median), ("std", s.std), ("min", s.min), ("max", s.max), ("sse", s.sse)] {
        try c.encode(v, forKey: AnyKey(name))
    }
    try c.encode(AlignmentJSON(alignment), forKey: AnyKey("alignment"))
}

private func statisticsText(title: String, _ s: ErrorStatistics, pairs: Int) -> String {
    var out = title + "\n\n"
    for (name, v) in [("max", s.max), ("mean", s.mean), ("median", s.median), ("min", s.min), ("rmse", s.rmse), ("sse", s.sse), ("std", s.std)] {
        out += String(repeating: " ", count: max(0, 10 - name.count)) + name + "\t" + String(format: "%.6f", v) + "\n"
    }
    out += "     pairs\t\(pairs)\n"
    return out
}

/// `navbench ape`: read, associate, align, absolute pose error, statistics.
///
/// - Throws: `EvaluationError`.
/// - Complexity: O(n log n) (the median sorts).
public func evaluateAPE(
    reference: TrajectorySource, estimate: TrajectorySource, relation: PoseRelation = .translationPart,
    settings: EvaluationSettings = EvaluationSettings()
) throws(EvaluationError) -> APEReport {
    let p = try prepareTrajectoryPair(reference: reference, estimate: estimate, settings: settings)
    return try apeReport(p, relation: relation, settings: p.settings)
}

/// APE of two trajectories in memory (no files): `name`s stand for paths in the report.
///
/// - Throws: `EvaluationError`.
/// - Complexity: O(n log n) plus the association's cost.
public func evaluateAPE(
    reference: Trajectory, estimate: Trajectory, referenceName: String = "reference", estimateName: String = "estimate",
    relation: PoseRelation = .translationPart, settings: EvaluationSettings = EvaluationSettings()
) throws(EvaluationError) -> APEReport {
    let p = try PreparedPair(
        reference: TrajectoryFile(name: referenceName, trajectory: reference),
        estimate: TrajectoryFile(name: estimateName, trajectory: estimate), settings: settings)
    return try apeReport(p, relation: relation, settings: p.settings)
}

/// APE on an already prepared pair (lets a caller time or reuse the stages).
///
/// - Complexity: O(n log n).
public func apeReport(_ p: PreparedPair, relation: PoseRelation, settings: EvaluationSettings) throws(EvaluationError) -> APEReport {
    let errors: [Double], stats: ErrorStatistics
    do {
        if let printed = p.printedPoses {
            errors = try absolutePoseErrors(reference: printed.reference, estimate: printed.alignedEstimate, relation: relation)
        } else {
            errors = try absolutePoseErrors(reference: p.associated.reference, estimate: p.alignedEstimate, relation: relation)
        }
        stats = try ErrorStatistics(errors)
    } catch { throw .metric(error) }
    return APEReport(
        referencePath: p.reference.path, estimatePath: p.estimate.path, relation: relation, settings: settings,
        statistics: stats, alignment: p.alignment, errors: errors,
        referenceIndices: p.associated.referenceIndices, estimateIndices: p.associated.estimateIndices, context: p.context)
}

/// Result of `evaluateRPE`; JSON as `APEReport` plus `delta`, `delta_unit`, `all_pairs`, `pairing`.
public struct RPEReport: PoseErrorReport {
    public var referencePath: String
    public var estimatePath: String
    public var relation: PoseRelation
    public var options: RPEOptions
    public var settings: EvaluationSettings
    public var statistics: ErrorStatistics
    public var alignment: Similarity3
    public var errors: [Double]
    /// The pairs (i, j) in associated-pose indices (evo's `delta_ids` are the j).
    public var pairList: [IndexPair]
    public var context = EvaluationContext()

    public var pairs: Int { errors.count }
    public var metricName: String { "RPE" }
    public var errorPairs: [IndexPair] { pairList }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try encodeEvaluation(
            metric: "rpe", reference: referencePath, estimate: estimatePath, relation: relation, settings: settings,
            statistics: statistics, pairs: pairs, alignment: alignment, into: &c)
        try c.encode(options.delta, forKey: AnyKey("delta"))
        try c.encode(options.unit.rawValue, forKey: AnyKey("delta_unit"))
        try c.encode(options.allPairs, forKey: AnyKey("all_pairs"))
        try c.encode(options.pairing.rawValue, forKey: AnyKey("pairing"))
        try encodeContext(context, settings: settings, into: &c)
    }

    public var text: String {
        let unit = options.unit.name
        let title =
            "RPE w.r.t. \(relation.title) (\(relation.unit))\nfor delta = \(formatDelta(options)) (\(unit)) using "
            + (options.allPairs ? "all pairs" : "consecutive pairs") + (options.pairing == .evo ? "" : " (pairs: \(options.pairing.rawValue))")
            + "\n\(alignmentTitle(settings))"
        return contextText(context, settings: settings) + statisticsText(title: title, statistics, pairs: pairs)
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private func formatDelta(_ o: RPEOptions) -> String {
    o.unit == .frames ? String(Int(o.delta)) : String(o.delta)
}

/// `navbench rpe`: read, associate, align, choose pairs, relative pose error, statistics.
///
/// - Throws: `EvaluationError`.
/// - Complexity: O(n log n).
public func evaluateRPE(
    reference: TrajectorySource, estimate: TrajectorySource, relation: PoseRelation = .translationPart,
    options: RPEOptions = RPEOptions(), settings: EvaluationSettings = EvaluationSettings()
) throws(EvaluationError) -> RPEReport {
    let p = try prepareTrajectoryPair(reference: reference, estimate: estimate, settings: settings)
    return try rpeReport(p, relation: relation, options: options, settings: p.settings)
}

/// RPE of two trajectories in memory (no files): `name`s stand for paths in the report.
///
/// - Throws: `EvaluationError`.
public func evaluateRPE(
    reference: Trajectory, estimate: Trajectory, referenceName: String = "reference", estimateName: String = "estimate",
    relation: PoseRelation = .translationPart, options: RPEOptions = RPEOptions(),
    settings: EvaluationSettings = EvaluationSettings()
) throws(EvaluationError) -> RPEReport {
    let p = try PreparedPair(
        reference: TrajectoryFile(name: referenceName, trajectory: reference),
        estimate: TrajectoryFile(name: estimateName, trajectory: estimate), settings: settings)
    return try rpeReport(p, relation: relation, options: options, settings: p.settings)
}

/// RPE on an already prepared pair.
///
/// - Complexity: O(n log n).
public func rpeReport(
    _ p: PreparedPair, relation: PoseRelation, options: RPEOptions,
    settings: EvaluationSettings
) throws(EvaluationError) -> RPEReport {
    do {
        let ref = p.associated.reference, est = p.alignedEstimate
        let pairs = try rpePairs(
            referencePositions: ref.map(\.translation), estimatePositions: est.map(\.translation),
            referenceTimestamps: p.associated.referenceTimestamps,
            estimateTimestamps: p.associated.estimateTimestamps, options: options)
        let r: RelativePoseErrors
        if let printed = p.printedPoses {
            r = try relativePoseErrors(reference: printed.reference, estimate: printed.alignedEstimate, pairs: pairs, relation: relation)
        } else {
            r = try relativePoseErrors(reference: ref, estimate: est, pairs: pairs, relation: relation)
        }
        let stats = try ErrorStatistics(r.errors)
        return RPEReport(
            referencePath: p.reference.path, estimatePath: p.estimate.path, relation: relation, options: options,
            settings: settings, statistics: stats, alignment: p.alignment, errors: r.errors, pairList: r.pairs, context: p.context)
    } catch { throw .metric(error) }
}

/// `navbench simplify`: RDP keypoints of a trajectory file's positions, one result per tolerance.
///
/// - Throws: `EvaluationError` (`.input` for the file, `.route` for a bad tolerance).
/// - Complexity: k × RDP.
public func simplifyTrajectory(
    _ source: TrajectorySource, tolerances: [Double], distance: RDPDistance = .line,
    plane: RoutePlane = .xyz
) throws(EvaluationError) -> [RouteSimplification] {
    let file: TrajectoryFile
    do { file = try source.read() } catch {
        throw .input(error)
    }
    do { return try toleranceSweep(file.trajectory.positions, tolerances: tolerances, distance: distance, plane: plane) } catch {
        throw .route(error)
    }
}
