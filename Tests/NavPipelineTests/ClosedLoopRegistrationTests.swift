import Foundation
import NavCore
import NavIO
import NavReport
import NavSim
import Testing

@testable import NavPipeline

/// `closed_loop.registration: simulated` (issue 30, item 6): the closed loop crosses the sweep's
/// registration and anchor-sighting levels and simulates Clew's registration from sightings, so
/// those choices change the walks and get their own Findings line; `perfect` (the default) keeps
/// one configuration and the walks of a perfect registration.
@Suite(.serialized) struct ClosedLoopRegistrationTests {
    func spec(_ out: String, registration: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            """
            name: r
            inputs:
              - \(datasets)/venue/B2-lobby_recording.h5
            output: \(out)
            sweep:
              registration: [gravity-aligned, full]
              anchor_sightings: [all, 1]
            closed_loop:
              walker: [cane]
              vio_error: [none]
              walls: [venue]
              runs: 20
              registration: \(registration)
            """, file: "r.yaml")
    }

    @Test func simulatedRegistrationIsCrossedAndChangesTheWalks() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let simulated = planClosedLoopCells(planExperiment(try spec(dir + "/s", registration: "simulated")))
        #expect(
            simulated.configurations.map(\.label) == [
                "reg=gravity-aligned anchors=all", "reg=gravity-aligned anchors=1", "reg=full anchors=all", "reg=full anchors=1",
            ])
        let perfect = planClosedLoopCells(planExperiment(try spec(dir + "/p", registration: "perfect")))
        #expect(perfect.configurations.map(\.label) == ["default"])
        #expect(Set(simulated.cells.map(\.key)).isDisjoint(with: perfect.cells.map(\.key)))
        let s = runClosedLoopSection(planExperiment(try spec(dir + "/s", registration: "simulated")))
        #expect(s.failures.isEmpty, "\(s.failures)")
        // Each configuration's walks differ from the perfect registration's (end errors, run by run).
        let p = runClosedLoopSection(planExperiment(try spec(dir + "/p", registration: "perfect")))
        func errors(_ section: ClosedLoopSection, _ label: String) -> [Double] {
            section.table.rows.filter { $0.metric == "end_of_route_error" && ($0.configuration.hasSuffix(label)) }.map(\.value)
        }
        let reference = errors(p, "default")
        #expect(reference.count == 1)
        for c in simulated.configurations {
            let e = errors(s, c.label)
            #expect(e.count == 1 && e != reference, "\(c.label): \(e) vs perfect \(reference)")
        }
        #expect(
            s.findings.contains { $0.hasPrefix("Closed loop, registration:") }
                && s.findings.contains { $0.hasPrefix("Closed loop, anchor_sightings:") })
    }

    @Test func badRegistrationValueIsOneLine() {
        #expect(throws: SpecError.self) { try spec("/tmp/unused", registration: "approximate") }
        do { _ = try spec("/tmp/unused", registration: "approximate") } catch {
            #expect("\(error)".hasPrefix("r.yaml: closed_loop.registration: expected perfect"))
        }
    }
}
