import Foundation
import NavCore

/// A synthetic venue with a floor plan: walls per floor (doors are gaps) and routes recorded the
/// way a sighted person walks them (docs/synthetic-data.md, "The building venue").
public struct SynthVenue: Sendable {
    public var name: String
    public var floorPlan: FloorPlan
    public var routes: [SynthRoute]
    /// The recorder's own line (`SynthParameters.recordingLineStd`, m): nil for the building
    /// venue, whose planner's legs already curve; set for the corridors venue.
    public var recordingLineStd: Double? = nil

    /// The generator's parameters for this venue: the defaults and the venue's name.
    public func parameters(navigations: Int) -> SynthParameters {
        var p = SynthParameters()
        p.navigationSessionsPerRoute = navigations
        p.venue = name
        p.navigationLineStd = 1.6
        p.navigationLineTimeConstant = 10
        p.navigationWallMargin = 0.4
        p.recordingLineStd = recordingLineStd
        return p
    }

    /// Every session of the venue (`navbench synth --venue …`): its routes with its parameters,
    /// bounded by its floor plan.
    public func sessions(seed: UInt64, navigations: Int) -> [SynthesizedSession] {
        synthesizeVenue(seed: seed, parameters: parameters(navigations: navigations), routes: routes, floorPlan: floorPlan)
    }
}

/// One leg of a route as a planner writes it: a point on a floor, and what happens there.
struct Leg {
    enum Kind { case point, door(normalX: Double, normalZ: Double), pause(Double) }
    var x: Double, z: Double, y: Double
    var kind: Kind
}

extension SynthVenue {
    /// Storey height and door width of the building, m.
    static let storey = 3.2, doorHalfWidth = 0.7

    /// The building: two storeys of 48 × 30 m (x east, z south; the south façade at z = 0, the
    /// north one at z = −30). On each floor an east–west corridor 3 m wide (z −12…−15); south of
    /// it two offices (x 0–12, 12–24) and an open lobby (x 24–48) with a column and a bench; north
    /// of it three rooms (x 0–16, 16–32, 32–44) and the stairwell (x 44–48, a straight stair rising
    /// 3.2 m over 6 m northward, entered from the corridor on floor 0 and through a door at its
    /// top landing on floor 1). Doors are 1.4 m wide; the lobby has the entrance (2 m) on floor 0.
    ///
    /// Routes (20–150 m): `B1-offices` (office to room across the corridor), `B2-lobby` (entrance,
    /// diagonally across the lobby around the column, along the corridor into an office),
    /// `B3-stairs` (office, corridor, stair up, two rooms on floor 1) and `B4-tour` (a long loop on
    /// floor 0 through rooms, corridor and lobby). The waypoints are the planner's legs with
    /// corners cut (Chaikin, 3 passes) the way people walk them; door passages stay straight and
    /// perpendicular for 0.8 m either side; pauses at doors and stairs, slower through doors and
    /// on stairs. The session synthesizer adds body sway, wander and speed variation.
    public static let building: SynthVenue = {
        var walls: [Wall] = []
        let dh = doorHalfWidth
        /// A wall from (x0, z0) to (x1, z1) on `floor` with door gaps centred at `doors` (positions along it).
        func wall(_ x0: Double, _ z0: Double, _ x1: Double, _ z1: Double, floor: Int, doors: [Double] = [], half: Double = dh) {
            let len = Double.hypot(x1 - x0, z1 - z0)
            let ux = (x1 - x0) / len, uz = (z1 - z0) / len
            var start = 0.0
            for d in doors.sorted() {
                let a = d - half, b = d + half
                if a > start { walls.append(Wall(x0 + ux * start, z0 + uz * start, x0 + ux * a, z0 + uz * a, floor: floor)) }
                start = b
            }
            if start < len { walls.append(Wall(x0 + ux * start, z0 + uz * start, x1, z1, floor: floor)) }
        }
        func box(_ cx: Double, _ cz: Double, _ hx: Double, _ hz: Double, floor: Int) {
            wall(cx - hx, cz - hz, cx + hx, cz - hz, floor: floor); wall(cx + hx, cz - hz, cx + hx, cz + hz, floor: floor)
            wall(cx + hx, cz + hz, cx - hx, cz + hz, floor: floor); wall(cx - hx, cz + hz, cx - hx, cz - hz, floor: floor)
        }
        for f in 0...1 {
            // Façades (the entrance on floor 0: 2 m at x = 36).
            wall(0, 0, 48, 0, floor: f, doors: f == 0 ? [36] : [], half: 1.0)
            wall(48, 0, 48, -30, floor: f); wall(48, -30, 0, -30, floor: f); wall(0, -30, 0, 0, floor: f)
            // Corridor, south side: offices S1 (door x 6), S2 (door x 18); the lobby is open.
            wall(0, -12, 24, -12, floor: f, doors: [6, 18])
            wall(12, 0, 12, -12, floor: f); wall(24, 0, 24, -12, floor: f)
            // Corridor, north side: rooms N1 (door x 8), N2 (door x 24), N3 (door x 38); on floor 1 the
            // stairwell is closed to the corridor.
            wall(0, -15, 44, -15, floor: f, doors: [8, 24, 38])
            if f == 1 { wall(44, -15, 48, -15, floor: f) }
            wall(16, -15, 16, -30, floor: f); wall(32, -15, 32, -30, floor: f)
            // Stairwell west wall; on floor 1 its door (z −25) opens into N3.
            wall(44, -15, 44, -30, floor: f, doors: f == 1 ? [10] : [])
            // Lobby furniture: a column and a bench.
            box(36, -6, 0.6, 0.6, floor: f)
            box(29, -4, 1.5, 0.4, floor: f)
        }
        // The stair flight between its side walls (both floors, so a walker on it meets them).
        for f in 0...1 { wall(45, -16.5, 45, -22.5, floor: f); wall(47, -16.5, 47, -22.5, floor: f) }
        let plan = FloorPlan(walls: walls, floorHeight: storey, phoneHeight: 1.3)

        func p(_ x: Double, _ z: Double, _ floor: Double = 0) -> Leg { Leg(x: x, z: z, y: floor * storey, kind: .point) }
        func door(_ x: Double, _ z: Double, _ nx: Double, _ nz: Double, floor: Double = 0) -> Leg {
            Leg(x: x, z: z, y: floor * storey, kind: .door(normalX: nx, normalZ: nz))
        }
        func pause(_ x: Double, _ z: Double, _ s: Double, _ floor: Double = 0) -> Leg { Leg(x: x, z: z, y: floor * storey, kind: .pause(s)) }

        let routes = [
            route(
                "B1-offices",
                [
                    p(3.5, -3.5), p(2.8, -6.5), p(4.8, -9.2), door(6, -12, 0, -1), p(9, -13.4), p(20, -13.6), door(24, -15, 0, -1),
                    p(25.5, -19.5), p(23, -23.5), p(19.5, -25),
                ]),
            route(
                "B2-lobby",
                [
                    p(36, 2.5), pause(36, 0.8, 1.5), door(36, 0, 0, -1), p(34, -3.5), p(33.2, -6.5), p(30.5, -9.5),
                    p(25, -13.5), p(10, -13.4), door(6, -12, 0, 1), p(7.5, -8), p(9, -5),
                ]),
            route(
                "B3-stairs",
                [
                    p(20, -5), p(18.8, -8.5), door(18, -12, 0, -1), p(21, -13.5), p(42, -13.4), p(46, -14.2),
                    pause(46, -15.8, 1.0), p(46, -16.5), p(46, -22.5, 1), pause(46, -24.2, 1.0, 1), door(44, -25, -1, 0, floor: 1),
                    p(40.5, -22, 1), door(38, -15, 0, 1, floor: 1), p(34, -13.6, 1), p(12, -13.4, 1),
                    door(8, -15, 0, -1, floor: 1), p(7, -20, 1), p(5, -26, 1),
                ]),
            route(
                "B4-tour",
                [
                    p(4, -27), p(6.5, -20), door(8, -15, 0, 1), p(11, -13.5), p(22, -13.6), door(24, -15, 0, -1),
                    p(26, -20), p(29, -25), p(26.5, -27.5), p(23, -22), door(24, -15, 0, 1), p(27, -13.3),
                    p(31, -12), p(33.5, -9.8), p(38.5, -8.2), p(39.5, -4.5), p(37.5, -2.2), p(33, -2.4),
                    p(27.5, -2.4), p(25.6, -6), p(25.8, -10), p(27, -13.4), p(20, -13.4),
                    door(18, -12, 0, 1), p(16, -7), p(19.5, -3),
                ]),
        ]
        return SynthVenue(name: "building", floorPlan: plan, routes: routes)
    }()

    /// A route from the planner's legs: door passages become (0.8 m before, the door, 0.8 m
    /// after) along the door's normal, walked at 0.7 of the speed with a 0.8 s pause before
    /// every door; stairs (a change of height) at 0.6; corners cut by three Chaikin passes; the
    /// result sampled every 0.25 m (arc length) and smoothed (±0.75 m moving average, twice).
    static func route(_ id: String, _ legs: [Leg]) -> SynthRoute {
        // 1. Expand doors and mark the segments' kinds.
        var pts: [Vector3] = [], fixed: [Bool] = []
        var pauseAt: [(Int, Double)] = [], slowFrom: [(Int, Double)] = []
        for l in legs {
            switch l.kind {
            case .point:
                pts.append(Vector3(l.x, l.y, l.z)); fixed.append(false)
            case .pause(let s):
                pts.append(Vector3(l.x, l.y, l.z)); fixed.append(true); pauseAt.append((pts.count - 1, s))
            case .door(let nx, let nz):
                pts.append(Vector3(l.x - 0.8 * nx, l.y, l.z - 0.8 * nz)); fixed.append(true)
                pauseAt.append((pts.count - 1, 0.8)); slowFrom.append((pts.count - 1, 0.7))
                pts.append(Vector3(l.x, l.y, l.z)); fixed.append(true)
                pts.append(Vector3(l.x + 0.8 * nx, l.y, l.z + 0.8 * nz)); fixed.append(true)
                slowFrom.append((pts.count - 1, 1.0))
            }
        }
        // Stairs: slow from the foot to the head.
        for i in 1..<pts.count where abs(pts[i].y - pts[i - 1].y) > 0.01 {
            slowFrom.append((i - 1, 0.6)); slowFrom.append((i, 1.0)); fixed[i - 1] = true; fixed[i] = true
        }
        // 2. Corner cutting (Chaikin's scheme per vertex): each free interior vertex v between
        //    a and b becomes v + c·(a − v)/|a − v| and v + c·(b − v)/|b − v| with
        //    c = min(¼·segment, 1.5 m); fixed vertices (doors, stair ends, pauses) and the ends stay.
        var cur = pts.enumerated().map { (p: $0.element, fixed: fixed[$0.offset] || $0.offset == 0 || $0.offset == pts.count - 1, tag: $0.offset) }
        for _ in 0..<3 {
            var next: [(p: Vector3, fixed: Bool, tag: Int)] = []
            for i in cur.indices {
                let v = cur[i]
                if v.fixed { next.append(v); continue }
                for nb in [cur[i - 1].p, cur[i + 1].p] {
                    let d = nb - v.p, len = d.norm
                    next.append((v.p + (min(0.25 * len, 1.5) / len) * d, false, -1))
                }
            }
            var clean: [(p: Vector3, fixed: Bool, tag: Int)] = []
            for q in next where clean.last.map({ ($0.p - q.p).norm > 1e-6 }) ?? true { clean.append(q) }
            cur = clean
        }
        // 3. Resample every 0.25 m of arc length, keeping tagged points' arc lengths.
        var cumulative = [0.0]
        for i in 1..<cur.count { cumulative.append(cumulative[i - 1] + (cur[i].p - cur[i - 1].p).norm) }
        let length = cumulative.last!
        var out: [Vector3] = []
        var k = 1
        for s in stride(from: 0.0, to: length, by: 0.25) {
            while k < cur.count - 1 && cumulative[k] < s { k += 1 }
            let f = (s - cumulative[k - 1]) / (cumulative[k] - cumulative[k - 1])
            out.append(cur[k - 1].p + f * (cur[k].p - cur[k - 1].p))
        }
        if let last = cur.last?.p, (out.last.map { ($0 - last).norm > 0.05 } ?? true) { out.append(last) }
        // 4. Two passes of a ±0.75 m moving average (ends kept): no corner left, door passages
        //    stay within a few centimetres of their line.
        for _ in 0..<2 {
            var smooth = out
            for i in 1..<(out.count - 1) {
                let lo = max(0, i - 3), hi = min(out.count - 1, i + 3)
                smooth[i] = out[lo...hi].reduce(Vector3.zero, +) / Double(hi - lo + 1)
            }
            out = smooth
        }
        func arc(_ tag: Int) -> Double { cur.firstIndex { $0.tag == tag }.map { cumulative[$0] } ?? 0 }
        let pauses = pauseAt.map { SynthPause(at: arc($0.0), seconds: $0.1) }.sorted { $0.at < $1.at }
        let speeds = slowFrom.map { SynthSpeedChange(at: arc($0.0), factor: $0.1) }.sorted { $0.at < $1.at }
        return SynthRoute(id: id, waypoints: out, pauses: pauses, speedChanges: speeds)
    }
}
