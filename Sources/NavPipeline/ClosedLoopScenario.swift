import Foundation
import NavCore
import NavGeometry
import NavGuidance
import NavIO
import NavSim
import NavSynth

/// Which walls a closed-loop walk meets.
public enum WallsMode: Sendable, Hashable, Codable {
    /// None: open space (imported real routes).
    case none
    /// The venue's floor plan (`VENUE.floorplan.json` beside the recording, written by
    /// `navbench synth --venue building`); a corridor of 1.25 m half width when there is none.
    case venue
    /// A corridor of this half width (m) around the true keypoint polyline.
    case corridor(halfWidth: Double)

    /// `none`, `venue`, `corridor` (half width 1.25 m) or `corridor:W`.
    public init(parsing text: String) throws(GuidanceJobError) {
        if text == "none" { self = .none; return }
        if text == "venue" { self = .venue; return }
        if text == "corridor" { self = .corridor(halfWidth: 1.25); return }
        if text.hasPrefix("corridor:"), let w = Double(text.dropFirst(9)), w.isFinite, w > 0, w <= 100 { self = .corridor(halfWidth: w); return }
        throw GuidanceJobError("walls '\(escapedForMessage(text))': expected venue, none, corridor or corridor:HALF_WIDTH_M (0 < W ≤ 100)")
    }
}

/// The largest floor-plan file read, bytes (checked before reading).
let maxFloorPlanBytes = 16 << 20

/// Where a recording's venue floor plan would be: `<folder>/<venue>.floorplan.json`.
func venueFloorPlanPath(recordingPath: String, metadata: SessionMetadata) -> String {
    let folder = (recordingPath as NSString).deletingLastPathComponent
    return (folder as NSString).appendingPathComponent(safeFileComponent(metadata.venue) + ".floorplan.json")
}

/// The floor plan of a recording's venue: `<folder>/<venue>.floorplan.json` (the venue name
/// from the file's metadata through `safeFileComponent`), or nil when there is none.
///
/// - Throws: `GuidanceJobError` naming the file when it exists but is not a floor plan.
public func venueFloorPlan(recordingPath: String, session: Session) throws -> FloorPlan? {
    try venueFloorPlanFile(recordingPath: recordingPath, metadata: session.metadata)?.plan
}

/// The venue floor plan and the SHA-256 of the very bytes it was parsed from (a closed-loop
/// cell's key), or nil when there is none. Errors as `venueFloorPlan`.
func venueFloorPlanFile(recordingPath: String, metadata: SessionMetadata) throws -> (plan: FloorPlan, sha256: String)? {
    let path = venueFloorPlanPath(recordingPath: recordingPath, metadata: metadata)
    guard let attrs = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
    guard attrs[.type] as? FileAttributeType == .typeRegular else {
        throw GuidanceJobError("\(escapedForMessage(path)): not a regular file, expected a floor plan (JSON)")
    }
    let size = (attrs[.size] as? NSNumber)?.intValue ?? 0
    guard size <= maxFloorPlanBytes else {
        throw GuidanceJobError("\(escapedForMessage(path)): \(size) bytes, more than the \(maxFloorPlanBytes)-byte limit of a floor plan")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw GuidanceJobError("\(escapedForMessage(path)): cannot read the floor plan")
    }
    do {
        let plan = try JSONDecoder().decode(FloorPlan.self, from: data)
        let inVenue = TraceSchema.positionRange
        guard plan.floorHeight.isFinite, (0.5...100).contains(plan.floorHeight), (-100...100).contains(plan.phoneHeight),
            plan.walls.allSatisfy({ [$0.x0, $0.z0, $0.x1, $0.z1].allSatisfy(inVenue.contains) })
        else {
            throw GuidanceJobError(
                "\(escapedForMessage(path)): expected floorHeight 0.5–100 m, phoneHeight within ±100 m and wall ends within ±10⁷ m")
        }
        return (plan, sha256Hex(of: data))
    } catch let e as GuidanceJobError { throw e } catch {
        throw GuidanceJobError(
            "\(escapedForMessage(path)): not a floor plan (expected JSON {walls: [{x0, z0, x1, z1, floor}], floorHeight, phoneHeight})")
    }
}

/// The closed-loop scenario of a recording: the route Clew would record from it (crumbs of the
/// VIO every `crumbInterval`, RDP with `rdpTolerance`, as `runGuidance`), the true keypoints
/// from its ground truth at the same crumbs. With ground truth the phone's route frame is the
/// venue frame (the recording's own VIO drift is not replayed) and the anchor is its first
/// sighting mapped into the venue; a recording without ground truth (an imported real route)
/// is walked in its own VIO frame as the truth, in open space. `venuePlan` is the venue's
/// floor plan for `walls: .venue` (`venueFloorPlan`).
public func closedLoopScenario(recording: Session, options o: GuidanceOptions, walls: WallsMode, venuePlan: FloorPlan? = nil) throws
    -> ClosedLoopScenario
{
    let rid = recording.metadata.sessionID
    guard let rvio = recording.vio, rvio.poses.count >= 2 else {
        throw GuidanceJobError(
            "\(escapedForMessage(rid)): a recording needs a vio stream with at least two poses (an imported route or ARKit log has one; BLE-only or IMU-only files cannot be walked)"
        )
    }
    let c = crumbs(rvio.timestamps, rvio.poses, interval: o.crumbInterval)
    let kept = try ramerDouglasPeucker(c.poses.map(\.translation), tolerance: o.rdpTolerance, distance: o.rdpDistance)
    let vioRoute = GuidanceRoute(positions: kept.map { c.poses[$0].translation })
    var trueRoute = vioRoute
    var anchorPose = recording.anchors?.poses.first
    if let rgt = recording.groundTruth, !rgt.poses.isEmpty {
        // The keypoints where they truly are; the phone's route frame is the venue frame, so
        // that "no VIO error" means none: the recording's own drift is not replayed (a
        // registration error is the `yaw_offset` of the VIO error spec).
        let sampler = PoseSampler(timestamps: rgt.timestamps, poses: rgt.poses)
        trueRoute = GuidanceRoute(positions: kept.map { (sampler.pose(at: c.times[$0]) ?? rgt.poses[0]).translation })
        let venueFromVIO = try trueSessionToVenue(recording)
        anchorPose = anchorPose.map { venueFromVIO * $0 }
    }
    let route = trueRoute
    // Walls: a venue's floor plan lives in the venue frame, which only ground truth places the
    // route in; without it (an imported Clew route, an ARKit log) `venue` is open space (a
    // recorded path may wander or cross itself, which a corridor along it would wall off), and
    // an explicit corridor is built along the recorded path (honoured, never ignored).
    var plan = FloorPlan.openSpace
    let along = trueRoute.keypoints.map(\.position)
    switch walls {
    case .none: break
    case .venue:
        if recording.groundTruth != nil { plan = venuePlan ?? FloorPlan.corridor(along: along, halfWidth: 1.25) }
    case .corridor(let w): plan = FloorPlan.corridor(along: along, halfWidth: w)
    }
    return ClosedLoopScenario(
        routeID: recording.metadata.routeID.isEmpty ? rid : recording.metadata.routeID, route: route, trueRoute: trueRoute,
        anchor: anchorPose?.translation, floorPlan: plan, anchorPose: anchorPose)
}
