import Foundation
import NavCore

extension SynthVenue {
    /// Half width of the corridors venue's corridors and stair, m (3.5 m wide; R1's beacons hang
    /// 1.5 m either side of its centre line). No published value: a modelling choice.
    static let corridorHalfWidth = 1.75

    /// The corridors venue (`navbench synth`, the default venue; `Datasets/R*.h5`): the routes of
    /// `SynthRoute.venueRoutes` (a straight 30 m corridor, a right then a left turn, a stair up one
    /// floor and a turn), recorded and navigated the way people walk them, as on the building venue:
    /// the same planner (`route`: corners cut by Chaikin's scheme, a pause of 1 s at the stair's foot
    /// and head, slower on the stair, samples every 0.25 m smoothed) and the same walkers' own lines
    /// (`NavigatorLine`): the recorder meanders about the centre line (`recordingLineStd`), each
    /// navigation takes its own line (`navigationLineStd`), both bounded by the corridors' walls.
    /// The walls (`FloorPlan.corridor` along each polyline, 3.5 m apart) bound the lines only:
    /// the venue writes no floor plan, so `simulate --walls venue` walks its routes in the
    /// closed loop's corridor around their keypoints (1.25 m either side, docs/navigator.md).
    public static let corridors: SynthVenue = {
        func p(_ x: Double, _ z: Double, _ floor: Double = 0) -> Leg { Leg(x: x, z: z, y: floor * storey, kind: .point) }
        func pause(_ x: Double, _ z: Double, _ s: Double, _ floor: Double = 0) -> Leg { Leg(x: x, z: z, y: floor * storey, kind: .pause(s)) }
        let legs: [(String, [Leg])] = [
            ("R1-corridor", [p(0, 0), p(0, -30)]),
            ("R2-turns", [p(5, 0), p(5, -12), p(17, -12), p(17, -20)]),
            ("R3-stairs", [p(30, 0), pause(30, -8, 1.0), pause(30, -14, 1.0, 1), p(30, -16, 1), p(36, -16, 1)]),
        ]
        // The planner's legs are the original polylines, vertex for vertex.
        assert(
            zip(legs, SynthRoute.venueRoutes).allSatisfy { l, r in
                l.0 == r.id && l.1.map { Vector3($0.x, $0.y, $0.z) } == r.waypoints
            })
        let walls = SynthRoute.venueRoutes.flatMap {
            FloorPlan.corridor(along: $0.waypoints, halfWidth: corridorHalfWidth, floorHeight: storey).walls
        }
        return SynthVenue(
            name: SynthParameters().venue, floorPlan: FloorPlan(walls: walls, floorHeight: storey, phoneHeight: 1.3),
            routes: legs.map { route($0.0, $0.1) }, recordingLineStd: 1.0)
    }()
}
