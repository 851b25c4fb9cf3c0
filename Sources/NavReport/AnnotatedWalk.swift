import NavCore
import NavIO
import NavMetrics

/// A walk with hand annotations, as step and turn detectors are scored on it: its IMU, who walked
/// it, and the annotation streams WeAllWalk's protocol reads (docs/pdr.md).
public struct AnnotatedWalk: Sendable {
    public var file: String
    /// The subject (the unit of analysis: walks of one subject are not independent).
    public var subject: String
    /// cane, guide-dog, sighted, or unknown (from the session attribute `mobility_aid`).
    public var community: String
    public var imu: IMUStream
    public var straightSegments: [TimeSpan]
    public var events: [TimeSpan]
    public var heelStrikes: [Double]
    public var turns: [(span: TimeSpan, nominal: Double)]
    /// The straight segments' labels (`SpatialSegmentID Direction` for WeAllWalk), in order.
    public var straightLabels: [String] = []
    /// The events' labels (free text: "touches wall", "stops", …), in order of `events`.
    public var eventLabels: [String] = []
    /// The path walked (session attribute `path`), "" when unknown.
    public var path: String = ""
    /// Where the walk comes from, with its licence (session attribute `dataset`), "" when unknown.
    public var dataset: String = ""
    /// The heading about gravity (degrees, unwrapped) where it is known directly — a simulated
    /// walk's; nil: integrated from `imu`'s rate about gravity (`GaitFit.measure`).
    public var heading: (times: [Double], degrees: [Double])?
}

/// A session as an annotated walk: it needs an `imu` stream and the hand-annotated streams
/// `steps` and `straight_segments` (`events` and `turns` when present).
///
/// - Throws: one line naming the file and what is missing.
public func annotatedWalk(_ session: Session, file: String) throws(TraceError) -> AnnotatedWalk {
    guard let imu = session.imu else { throw TraceError(.missing, file: file, object: "/imu", "no imu stream; step and turn detection read it") }
    func stream(_ name: String) throws(TraceError) -> AnnotationStream {
        guard let a = session.annotation(name) else {
            throw TraceError(
                .missing, file: file, object: "/annotations/\(name)",
                "no annotation stream \(name); expected the walk's hand annotations (navbench import weallwalk PHONE.csv WALK.xml)")
        }
        return a
    }
    let steps = try stream(AnnotationStream.WalkStream.heelStrikes)
    let straight = try stream(AnnotationStream.WalkStream.straightSegments)
    let events = session.annotation(AnnotationStream.WalkStream.events)
    let turns = session.annotation(AnnotationStream.WalkStream.turns)
    var turnList: [(span: TimeSpan, nominal: Double)] = []
    if let turns {
        guard let v = turns.value else {
            throw TraceError(.missing, file: file, object: "/annotations/turns/value", "turns need their signed nominal angle (degrees) as values")
        }
        for i in 0..<turns.count where v[i].isFinite {
            // A value of the file: bounded here, where it becomes a nominal angle (GaitFit groups by it).
            guard abs(v[i]) <= 360 else {
                throw TraceError(
                    .badValue, file: file, object: "/annotations/turns/value",
                    "row \(i): \(formatNumber(v[i]))°; a turn's nominal angle lies within ±360° (NaN for none)")
            }
            turnList.append((TimeSpan(turns.start[i], turns.end[i]), v[i]))
        }
    }
    return AnnotatedWalk(
        file: file, subject: session.attributes["subject"] ?? session.metadata.sessionID,
        community: session.attributes["mobility_aid"].flatMap(MobilityAid.init(rawValue:))?.community ?? "unknown", imu: imu,
        straightSegments: zip(straight.start, straight.end).map { TimeSpan($0, $1) },
        events: events.map { zip($0.start, $0.end).map { TimeSpan($0, $1) } } ?? [], heelStrikes: steps.start, turns: turnList,
        straightLabels: straight.label, eventLabels: events?.label ?? [], path: session.attributes["path"] ?? "",
        dataset: session.attributes["dataset"] ?? "")
}
