import Foundation
import NavCore
import NavIO

/// Clew's interval between two crumbs of a recorded route: `dropCrumb` runs on a 0.3 s timer
/// (Clew's ViewController). The `.crd` file stores no time per crumb.
public let clewCrumbInterval = 0.3

/// Imports a Clew route file (`.crd`): an NSKeyedArchiver binary property list whose root is
/// `RouteDocumentData` (key `route` → `SavedRoute`: `id`, `name`, `crumbs`, `dateCreated`,
/// `beginRouteAnchorPoint`, `endRouteAnchorPoint`, `intermediateAnchorPoints`). Class names
/// may carry the module prefix `Clew.`, `Clew_Dev.` or `Clew_More.`.
///
/// Each crumb is a `LocationInfo` (an `ARAnchor`) whose `transform` holds 64 bytes: the 4×4
/// camera-to-world matrix as 16 little-endian float32, column-major (simd_float4x4).
///
/// - Output: a recording session with
///   - `vio`: crumb k at k × 0.3 s (`clewCrumbInterval`; Clew drops a crumb every 0.3 s while
///     tracking, so the times are nominal), pose from the transform (translation = column 3,
///     rotation from the upper 3×3, normalised), tracking state 2;
///   - `anchors` (when present): the anchor points' ARAnchor transforms, id 0 = begin, 1 = end,
///     2… = intermediate, seen at the time of the crumb nearest to them (begin at the first
///     crumb's time, end at the last's);
///   - route id = the route's `name`, session id = its `id` (unless options say otherwise).
///   Keypoints are not stored in `.crd` files (Clew computes them on demand); `navbench simplify`
///   derives them from the `vio` crumbs. The ARWorldMap (`map`) and cloud anchors are not read.
/// - Throws: one line naming the file and the object (missing key, wrong class, a transform that
///   is not 64 bytes or not a rigid motion within 1e-3).
/// Most intermediate anchor points a `.crd` may hold; bounds the import at O(crumbs × 1000).
public let clewMaxIntermediateAnchors = 1000

public func importClewRoute(_ path: String, options: ImportOptions = ImportOptions()) throws(TraceError) -> ImportResult {
    let bytes = try readFileBytes(path)
    guard !bytes.isEmpty else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected a Clew route (.crd)") }
    let archive: KeyedArchive
    do { archive = try KeyedArchive(try parseBinaryPlist(bytes)) } catch {
        throw TraceError(.badValue, file: path, "\(error.problem); expected a Clew route (.crd, an NSKeyedArchiver binary plist)")
    }
    func isClass(_ object: PlistValue?, _ name: String) -> Bool {
        guard let c = archive.className(object) else { return false }
        return c == name || ["Clew.", "Clew_Dev.", "Clew_More."].contains { c == $0 + name }
    }
    func fail(_ object: String, _ problem: String) -> TraceError { TraceError(.badValue, file: path, object: object, problem) }

    let root = archive.objects[archive.root]
    guard isClass(root, "RouteDocumentData") else {
        throw fail("$top.root", "class \(archive.className(root) ?? "?"), expected Clew.RouteDocumentData (or Clew_Dev., Clew_More.)")
    }
    guard let route = archive.resolve(root.dict?["route"]), isClass(route, "SavedRoute") else {
        throw fail("route", "missing or not a SavedRoute")
    }
    let r = route.dict ?? [:]
    let routeName = archive.string(r["name"]) ?? ""
    let routeID = archive.string(r["id"]) ?? ""
    guard let crumbs = archive.elements(archive.resolve(r["crumbs"])) else {
        throw fail("route.crumbs", "missing; expected an array of LocationInfo")
    }
    guard !crumbs.isEmpty else { throw fail("route.crumbs", "empty; a route needs at least one crumb") }

    /// The pose of an ARAnchor-like object's `transform`.
    func pose(_ anchor: PlistValue, _ label: String) throws(TraceError) -> Pose {
        guard let d = anchor.dict else { throw fail(label, "expected an ARAnchor object") }
        guard let raw = archive.bytes(d["transform"]) else { throw fail("\(label).transform", "missing; expected 64 bytes (simd_float4x4)") }
        guard raw.count == 64 else { throw fail("\(label).transform", "\(raw.count) bytes, expected 64 (16 little-endian float32, column-major)") }
        let f: [Double] = (0..<16).map { k in
            let u = UInt32(raw[4 * k]) | UInt32(raw[4 * k + 1]) << 8 | UInt32(raw[4 * k + 2]) << 16 | UInt32(raw[4 * k + 3]) << 24
            return Double(Float(bitPattern: u))
        }
        // Column-major: element (row i, column j) is f[4j + i].
        let m = (0..<3).map { i in (0..<3).map { j in f[4 * j + i] } }
        guard f.allSatisfy(\.isFinite), abs(f[3]) <= 1e-3, abs(f[7]) <= 1e-3, abs(f[11]) <= 1e-3, abs(f[15] - 1) <= 1e-3,
            let q = rotationFromMatrix(m, tolerance: 1e-3)
        else {
            throw fail("\(label).transform", "not a rigid transform within 1e-3 (rotation and bottom row 0 0 0 1)")
        }
        return Pose(rotation: q, translation: Vector3(f[12], f[13], f[14]))
    }

    var poses: [Pose] = []
    for (k, c) in crumbs.enumerated() {
        let chain = archive.classChain(c)
        guard isClass(c, "LocationInfo") || chain.contains("ARAnchor") else {
            throw fail("route.crumbs[\(k)]", "class \(archive.className(c) ?? "?"), expected Clew.LocationInfo (an ARAnchor)")
        }
        poses.append(try pose(c, "route.crumbs[\(k)]"))
    }
    let times = poses.indices.map { Double($0) * clewCrumbInterval }
    let vio = VIOStream(timestamps: times, poses: poses, trackingState: Array(repeating: .normal, count: poses.count))

    // Anchor points.
    func anchorPose(_ point: PlistValue?, _ label: String) throws(TraceError) -> Pose? {
        guard let point = archive.resolve(point), let d = point.dict else { return nil }
        // RouteAnchorPoint stores an ARAnchor under `anchor` (newer) or `transformAsARAnchor` (older);
        // the old RouteLandmark under `transformAsARAnchor`.
        guard let a = archive.resolve(d["anchor"]) ?? archive.resolve(d["transformAsARAnchor"]) else { return nil }
        return try pose(a, label)
    }
    var sightings: [(id: Int32, time: Double, pose: Pose)] = []
    let crumbPositions = poses.map(\.translation)
    /// O(crumbs) per anchor; with at most `clewMaxIntermediateAnchors` anchors the import is linear.
    func nearestCrumbTime(_ p: Pose) -> Double {
        var best = 0, bestD = Double.infinity
        for (k, c) in crumbPositions.enumerated() {
            let v = c - p.translation; let d = v.dot(v)
            if d < bestD { bestD = d; best = k }
        }
        return times[best]
    }
    if let p = try anchorPose(r["beginRouteAnchorPoint"] ?? r["beginRouteLandmark"], "route.beginRouteAnchorPoint") {
        sightings.append((0, times.first!, p))
    }
    if let p = try anchorPose(r["endRouteAnchorPoint"] ?? r["endRouteLandmark"], "route.endRouteAnchorPoint") {
        sightings.append((1, times.last!, p))
    }
    let intermediate = archive.elements(archive.resolve(r["intermediateAnchorPoints"])) ?? []
    guard intermediate.count <= clewMaxIntermediateAnchors else {
        throw fail(
            "route.intermediateAnchorPoints",
            "\(intermediate.count) anchor points, at most \(clewMaxIntermediateAnchors) accepted (Clew saves a handful)")
    }
    for (i, point) in intermediate.enumerated() {
        if let p = try anchorPose(point, "route.intermediateAnchorPoints[\(i)]") { sightings.append((Int32(2 + i), nearestCrumbTime(p), p)) }
    }
    sightings.sort { ($0.time, $0.id) < ($1.time, $1.id) }
    var session = Session(
        metadata: importMetadata(
            options, sessionID: routeID, routeID: routeName, device: "Clew",
            frameConvention: SessionMetadata.arkitFrame + "; Clew route: ARKit session frame of the recording; crumb times nominal (k × 0.3 s)"))
    session.vio = vio
    if !sightings.isEmpty {
        session.anchors = AnchorStream(timestamps: sightings.map(\.time), anchorID: sightings.map(\.id), poses: sightings.map(\.pose))
    }
    return ImportResult(session: session)
}

private func simd_distance(_ a: Vector3, _ b: Vector3) -> Double { (a - b).norm }
