import Foundation
import NavCore
import NavGeometry
import NavGuidance
import NavSim
import NavSynth

/// Which walls a closed-loop walk meets.
public enum WallsMode: Sendable, Hashable, Codable {
    /// None: open space (imported real routes).
    case none
    /// A corridor of this half width (m) around the true keypoint polyline.
    case corridor(halfWidth: Double)

    /// `none`, `corridor` (half width 1.25 m) or `corridor:W`.
    public init(parsing text: String) throws(GuidanceJobError) {
        if text == "none" { self = .none; return }
        if text == "corridor" { self = .corridor(halfWidth: 1.25); return }
        if text.hasPrefix("corridor:"), let w = Double(text.dropFirst(9)), w.isFinite, w > 0 { self = .corridor(halfWidth: w); return }
        throw GuidanceJobError("walls '\(text)': expected none, corridor or corridor:HALF_WIDTH_M (> 0)")
    }
}

/// The closed-loop scenario of a recording: the route Clew would record from it (crumbs of the
/// VIO every `crumbInterval`, RDP with `rdpTolerance`, as `runGuidance`), the true keypoints
/// from its ground truth at the same crumbs. With ground truth the phone's route frame is the
/// venue frame (the recording's own VIO drift is not replayed) and the anchor is its first
/// sighting mapped into the venue; a recording without ground truth (an imported real route)
/// is walked in its own VIO frame as the truth.
public func closedLoopScenario(recording: Session, options o: GuidanceOptions, walls: WallsMode) throws -> ClosedLoopScenario {
    let rid = recording.metadata.sessionID
    guard let rvio = recording.vio, rvio.poses.count >= 2 else {
        throw GuidanceJobError("\(rid): a recording needs a vio stream with at least two poses")
    }
    let c = crumbs(rvio.timestamps, rvio.poses, interval: o.crumbInterval)
    let kept = try ramerDouglasPeucker(c.poses.map(\.translation), tolerance: o.rdpTolerance, distance: o.rdpDistance)
    let vioRoute = GuidanceRoute(positions: kept.map { c.poses[$0].translation })
    var trueRoute = vioRoute
    var anchor = recording.anchors?.poses.first?.translation
    if let rgt = recording.groundTruth, !rgt.poses.isEmpty {
        // The keypoints where they truly are; the phone's route frame is the venue frame, so
        // that "no VIO error" means none: the recording's own drift is not replayed (a
        // registration error is the `yaw_offset` of the VIO error spec).
        let sampler = PoseSampler(timestamps: rgt.timestamps, poses: rgt.poses)
        trueRoute = GuidanceRoute(positions: kept.map { (sampler.pose(at: c.times[$0]) ?? rgt.poses[0]).translation })
        let venueFromVIO = try trueSessionToVenue(recording)
        anchor = anchor.map { venueFromVIO.act(on: $0) }
    }
    let route = trueRoute
    var plan = FloorPlan.openSpace
    if case .corridor(let w) = walls { plan = FloorPlan.corridor(along: trueRoute.keypoints.map(\.position), halfWidth: w) }
    return ClosedLoopScenario(routeID: recording.metadata.routeID.isEmpty ? rid : recording.metadata.routeID, route: route, trueRoute: trueRoute,
                              anchor: anchor, floorPlan: plan)
}
