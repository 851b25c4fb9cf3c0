import Foundation
import NavCore
import NavSynth
import Testing

/// The building venue: routes that look like real ones, inside its floor plan.
@Suite struct BuildingVenueTests {
    static let recordings: [SynthesizedSession] = {
        let p = SynthVenue.building.parameters(navigations: 1)
        return synthesizeVenue(seed: 1, parameters: p, routes: SynthVenue.building.routes).filter { $0.session.metadata.kind == .recording }
    }()

    /// The sighted recorder never walks through a wall: every step of the ground truth (floor
    /// from the phone height) is tested against the floor plan's walls of its floor.
    @Test func recordingsStayInsideTheFloorPlan() throws {
        let plan = SynthVenue.building.floorPlan
        #expect(Self.recordings.count == 4)
        for r in Self.recordings {
            let gt = try #require(r.session.groundTruth).poses.map(\.translation)
            var crossings = 0
            for (a, b) in zip(gt, gt.dropFirst()) {
                let floor = plan.floor(phoneAt: a.y)
                if plan.move(x: a.x, z: a.z, dx: b.x - a.x, dz: b.z - a.z, floor: floor).contact { crossings += 1 }
            }
            #expect(crossings == 0, "\(r.fileName): \(crossings) ground-truth steps meet a wall")
        }
    }

    /// Lengths 20–150 m, two floors, pauses and speed changes: the routes a person records.
    @Test func routesAreLongCurvedAndSpanFloors() throws {
        var floors = Set<Int>()
        for route in SynthVenue.building.routes {
            let w = route.waypoints
            let length = zip(w, w.dropFirst()).map { ($1 - $0).norm }.reduce(0, +)
            #expect(length >= 20 && length <= 150, "\(route.id): \(length) m")
            #expect(!route.pauses.isEmpty && !route.speedChanges.isEmpty, "\(route.id)")
            for p in w { floors.insert(SynthVenue.building.floorPlan.floor(phoneAt: p.y + 1.3)) }
            // Curved: the heading changes by less than 30° between 0.25 m samples (no sharp corners) …
            var turns: [Double] = []
            for i in 1..<(w.count - 1) {
                let a = Double.atan2(y: w[i].x - w[i - 1].x, x: w[i].z - w[i - 1].z), b = Double.atan2(y: w[i + 1].x - w[i].x, x: w[i + 1].z - w[i].z)
                turns.append(abs(Angle.wrapToPi(b - a)))
            }
            #expect(turns.max()! < 30 * .pi / 180, "\(route.id): sharpest turn \(turns.max()! * 180 / .pi)°")
            // … and turns in total by more than 180°.
            #expect(turns.reduce(0, +) > .pi, "\(route.id)")
        }
        #expect(floors == [0, 1])
    }

    @Test func floorPlanRoundTripsThroughJSON() throws {
        let plan = SynthVenue.building.floorPlan
        let data = try JSONEncoder().encode(plan)
        #expect(try JSONDecoder().decode(FloorPlan.self, from: data) == plan)
    }
}
