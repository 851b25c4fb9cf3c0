import Foundation
import NavCore
import NavGeometry
import NavIO

/// What an evaluation decided on its way, beyond the settings: the up axis of a yaw
/// alignment and why, an estimated time offset, and warnings (one line each) the command
/// prints on standard error.
public struct EvaluationContext: Sendable, Equatable {
    /// Why `EvaluationSettings.upAxis` is what it is (`--up-axis`, a format's convention, or
    /// the reference's positions); nil when no yaw alignment was made.
    public var upAxisSource: String?
    /// Set with `--estimate-t-offset`.
    public var offsetEstimate: TimeOffsetEstimate?
    public var warnings: [String] = []
    public init() {}
}

/// One warning line per file with repeated stamps (kept, as evo keeps them).
func duplicateWarnings(_ files: TrajectoryFile...) -> [String] {
    files.filter { $0.duplicateTimestamps > 0 }.map {
        "\($0.path): \($0.duplicateTimestamps) duplicate timestamp\($0.duplicateTimestamps == 1 ? "" : "s") (a pose with its predecessor's stamp); "
            + "kept and associated as evo does"
    }
}

/// The up axis of a yaw alignment: the one given, else the format's convention (trace HDF5:
/// ARKit y; EuRoC: z, its motion-capture world; KITTI: y, the camera frame), else for TUM
/// (whose files come in any frame) the axis along which the reference's positions spread
/// least (`inferUpAxis`), falling back to z (TUM RGB-D's motion-capture world).
///
/// - Returns: the axis and a phrase saying where it came from.
/// - Complexity: O(n).
public func resolveUpAxis(_ given: UpAxis?, reference: TrajectoryFile) -> (UpAxis, String) {
    if let given { return (given, "--up-axis") }
    switch reference.format {
    case .h5: return (.y, "auto: trace format convention, ARKit +y up")
    case .euroc: return (.z, "auto: EuRoC convention, z up")
    case .kitti: return (.y, "auto: KITTI camera frame, y vertical")
    case .tum:
        if let a = inferUpAxis(reference.trajectory.positions) { return (a, "auto: smallest spread of the reference positions") }
        return (.z, "auto: TUM RGB-D convention, z up")
    case .rosbag, .mcap: return (.z, "auto: ROS convention (REP 103), z up")
    }
}

/// The alignment line of the text report, evo's wording plus the up axis of a yaw alignment
/// and evo's " (aligned poses: n)".
func alignmentTitle(_ s: EvaluationSettings) -> String {
    var t = s.alignment.title(upAxis: s.upAxis ?? .y)
    if let n = s.alignCount, [.se3, .sim3, .yaw, .posyaw].contains(s.alignment) { t += " (aligned poses: \(n))" }
    return t
}

/// Lines before the statistics: the up axis and an estimated offset, when there are any.
func contextText(_ c: EvaluationContext, settings s: EvaluationSettings) -> String {
    var out = ""
    if let src = c.upAxisSource, let a = s.upAxis { out += "up axis: \(a.rawValue) (\(src))\n" }
    if let e = c.offsetEstimate {
        out +=
            "estimated time offset: \(String(format: "%.6f", e.offset)) s \(e.untrustedReason == nil ? "added to the estimate" : "not applied") "
            + "(angular-speed correlation peak \(String(format: "%.4f", e.peakCorrelation)), sample period \(String(format: "%.6f", e.samplePeriod)) s)\n"
    }
    return out.isEmpty ? "" : out + "\n"
}

/// JSON fields of the context: `t_offset` always; `up_axis`, `up_axis_source` with a yaw
/// alignment; `n_to_align` when set; `t_offset_estimate` with an estimated offset.
func encodeContext(_ c: EvaluationContext, settings s: EvaluationSettings, into k: inout KeyedEncodingContainer<AnyKey>) throws {
    try k.encode(s.offset, forKey: AnyKey("t_offset"))
    if let src = c.upAxisSource, let a = s.upAxis {
        try k.encode(a.rawValue, forKey: AnyKey("up_axis"))
        try k.encode(src, forKey: AnyKey("up_axis_source"))
    }
    if let n = s.alignCount { try k.encode(n, forKey: AnyKey("n_to_align")) }
    if let e = c.offsetEstimate { try k.encode(e, forKey: AnyKey("t_offset_estimate")) }
}
