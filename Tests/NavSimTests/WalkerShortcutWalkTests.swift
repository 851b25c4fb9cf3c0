import NavCore
import NavGuidance
import NavSynth
import Testing

@testable import NavSim

/// One walk's outcome and walked path, in text that tells −0 from +0, with its wall contacts and
/// its highest point; `configure` switches a shortcut on or off before the walk.
func walkWithPath(
    _ s: ClosedLoopScenario, _ settings: ClosedLoopSettings, run: Int, seed: UInt64, configure: (inout ClosedLoopWalker) -> Void
) -> (text: String, contacts: Int, highest: Double) {
    var w = ClosedLoopWalker(s, walls: WallIndex.byFloor(s.floorPlan), settings: settings, seed: seed, run: run, recordPath: true)
    configure(&w)
    w.walk()
    let path = w.path.map { p in [p.x, p.y, p.z].map { String($0.bitPattern, radix: 16) }.joined(separator: ",") }
    return ("\(w.outcome())\n" + path.joined(separator: "\n"), w.contacts, w.path.map(\.y).max() ?? -.infinity)
}

/// Every scenario × assumed profile × VIO spec, three runs each, with a label naming them.
func forEachShortcutWalk(
    _ scenarios: [ClosedLoopScenario], specs: [String], _ body: (ClosedLoopScenario, ClosedLoopSettings, Int, String) -> Void
) throws {
    for s in scenarios {
        for name in ["ideal", "cane", "guide-dog"] {
            for spec in specs {
                let settings = ClosedLoopSettings(walker: NavigatorProfile.named(name)!, vioError: try VIOErrorSpec(parsing: spec))
                for run in 0..<3 { body(s, settings, run, "\(s.routeID), \(name), \(spec), run \(run)") }
            }
        }
    }
}

/// A walker whose step lies in a wall-free box (`WallIndex.freeBox`) skips the wall index; the
/// walk must be the one that asks the index every tick: every outcome and every position, bit
/// for bit, along corridors (wide, narrow enough to be shorelined, with stairs between two
/// floors), for every assumed profile, with and without VIO error.
@Suite struct FreeBoxWalkTests {
    static func scenarios() -> [ClosedLoopScenario] {
        var wide = openRoute("wide", [(0, 0), (0, -14), (8, -14), (8, -22)])
        wide.floorPlan = FloorPlan.corridor(along: wide.trueRoute.keypoints.map(\.position), halfWidth: 1.2)
        var narrow = openRoute("narrow", [(0, 0), (0, -10), (-6, -16)])
        narrow.floorPlan = FloorPlan.corridor(along: narrow.trueRoute.keypoints.map(\.position), halfWidth: 0.45)
        let route = GuidanceRoute(positions: [Vector3(0, 1.3, 0), Vector3(0, 1.3, -6), Vector3(0, 4.5, -12), Vector3(6, 4.5, -12)])
        var stairs = ClosedLoopScenario(routeID: "stairs", route: route, trueRoute: route)
        stairs.floorPlan = FloorPlan.corridor(along: route.keypoints.map(\.position), halfWidth: 0.8)
        return [wide, narrow, stairs]
    }

    @Test func freeBoxesChangeNoWalk() throws {
        var walks = 0, contacts = 0
        #expect(Set(Self.scenarios()[2].floorPlan.walls.map(\.floor)).count == 2)
        try forEachShortcutWalk(Self.scenarios(), specs: ["none", "synth", "yaw_offset=8"]) { s, settings, run, label in
            let boxed = walkWithPath(s, settings, run: run, seed: 13) { $0.usesFreeBoxes = true }
            let asked = walkWithPath(s, settings, run: run, seed: 13) { $0.usesFreeBoxes = false }
            #expect(boxed.text == asked.text, "\(label)")
            walks += 1
            contacts += asked.contacts
        }
        #expect(walks == 3 * 3 * 3 * 3)
        // The walls were met: shorelining and corners are part of what is compared.
        #expect(contacts > 20, "only \(contacts) wall contacts in \(walks) walks")
    }
}

/// The walker's height found from sums of squares where they decide (`updateHeight`) changes
/// no walk: every outcome and position equal the walks that compare every candidate's `hypot`
/// (`exactHeights`), on stairs up, down and up again (corners where two segments are equally
/// near), with and without walls.
@Suite struct HeightShortcutWalkTests {
    static func scenarios() -> [ClosedLoopScenario] {
        let up = GuidanceRoute(positions: [Vector3(0, 1.3, 0), Vector3(0, 1.3, -6), Vector3(0, 4.5, -12), Vector3(6, 4.5, -12)])
        let zigzag = GuidanceRoute(positions: [
            Vector3(0, 1.3, 0), Vector3(0, 4.5, -5), Vector3(5, 4.5, -5), Vector3(5, 1.3, -10), Vector3(0, 1.3, -10), Vector3(0, 4.5, -15),
        ])
        var walled = ClosedLoopScenario(routeID: "walled", route: up, trueRoute: up)
        walled.floorPlan = FloorPlan.corridor(along: up.keypoints.map(\.position), halfWidth: 0.8)
        return [
            ClosedLoopScenario(routeID: "up", route: up, trueRoute: up), ClosedLoopScenario(routeID: "zigzag", route: zigzag, trueRoute: zigzag),
            walled,
        ]
    }

    @Test func heightsFromSquaresChangeNoWalk() throws {
        var walks = 0, climbed = 0
        try forEachShortcutWalk(Self.scenarios(), specs: ["none", "synth", "yaw_drift=2,position_noise=0.2"]) { s, settings, run, label in
            let shortcut = walkWithPath(s, settings, run: run, seed: 14) { $0.exactHeights = false }
            let exact = walkWithPath(s, settings, run: run, seed: 14) { $0.exactHeights = true }
            #expect(shortcut.text == exact.text, "\(label)")
            walks += 1
            // The walk went up a floor: its heights were found on the stairs.
            if shortcut.highest > 4 { climbed += 1 }
        }
        #expect(walks == 3 * 3 * 3 * 3)
        #expect(climbed > walks / 2, "only \(climbed) of \(walks) walks reached the upper floor")
    }
}
