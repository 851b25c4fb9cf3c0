import Foundation
import NavCore
import NavGeometry
import NavGuidance
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
/// from its ground truth, T_VR from the ground truth at the first VIO sample, the anchor at its
/// first sighting. A recording without ground truth (an imported real route) is walked in its
/// own VIO frame as the truth, in open space.
public func closedLoopScenario(recording: Session, options o: GuidanceOptions, walls: WallsMode) throws -> ClosedLoopScenario {
    let rid = recording.metadata.sessionID
    guard let rvio = recording.vio, rvio.poses.count >= 2 else {
        throw GuidanceJobError("\(rid): a recording needs a vio stream with at least two poses")
    }
    let c = crumbs(rvio.timestamps, rvio.poses, interval: o.crumbInterval)
    let kept = try ramerDouglasPeucker(c.poses.map(\.translation), tolerance: o.rdpTolerance, distance: o.rdpDistance)
    let route = GuidanceRoute(positions: kept.map { c.poses[$0].translation })
    var trueRoute = route
    var venueFromRoute = Pose.identity
    if let rgt = recording.groundTruth, !rgt.poses.isEmpty {
        let sampler = PoseSampler(timestamps: rgt.timestamps, poses: rgt.poses)
        trueRoute = GuidanceRoute(positions: kept.map { (sampler.pose(at: c.times[$0]) ?? rgt.poses[0]).translation })
        venueFromRoute = try trueSessionToVenue(recording)
    }
    let anchor = recording.anchors?.poses.first?.translation
    var plan = FloorPlan.openSpace
    if case .corridor(let w) = walls { plan = FloorPlan.corridor(along: trueRoute.keypoints.map(\.position), halfWidth: w) }
    return ClosedLoopScenario(routeID: recording.metadata.routeID.isEmpty ? rid : recording.metadata.routeID, route: route, trueRoute: trueRoute,
                              venueFromRoute: venueFromRoute, anchor: anchor, floorPlan: plan)
}
