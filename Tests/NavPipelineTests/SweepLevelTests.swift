import Foundation
import NavGuidance
import NavSim
import NavSynth
import Testing

@testable import NavPipeline

/// Sweep values are parsed once, where text enters, into typed levels: the canonical text for
/// labels and CSV, and the typed setting (no text parsed again, no force unwrap on a value).
@Suite struct SweepLevelTests {
    func options(_ d: SweepDimension, _ text: String) -> GuidanceOptions? {
        guard let level = d.level(parsing: text) else { return nil }
        var o = GuidanceOptions()
        level.apply(to: &o)
        return o
    }

    @Test func levelsCarryTheCanonicalTextAndTheTypedValue() throws {
        #expect(SweepDimension.rdpTolerance.level(parsing: "0.30")?.text == "0.3")
        #expect(options(.rdpTolerance, "1e0")?.rdpTolerance == 1.0)
        for bad in ["abc", "-1", "inf", "nan", ""] { #expect(SweepDimension.rdpTolerance.level(parsing: bad) == nil, "\(bad)") }
        #expect(SweepDimension.anchorSightings.level(parsing: "05")?.text == "5")
        #expect(options(.anchorSightings, "05")?.anchorSightings == 5)
        #expect(try #require(options(.anchorSightings, "all")).anchorSightings == nil)
        #expect(SweepDimension.anchorSightings.level(parsing: "0") == nil)
        #expect(options(.seeds, "18446744073709551615")?.seed == UInt64.max)
        #expect(try #require(options(.estimator, "arkit")).estimator == nil)
        #expect(options(.estimator, "mine")?.estimator == "mine")
        #expect(try #require(options(.positionFilter, "none")).positionFilter == nil)
        #expect(options(.positionFilter, "ema:tau=0.3")?.positionFilter == "ema:tau=0.3")
        #expect(SweepDimension.registration.level(parsing: "full")?.text == "full")
        #expect(SweepDimension.registration.level(parsing: "Full") == nil)
    }

    /// A spec's sweep holds levels; the tolerances and seeds are read from the typed options.
    @Test func aSpecSweepIsTyped() throws {
        let s = try ExperimentSpec.parse(
            "name: t\ninputs: [x.h5]\noutput: o\nsweep:\n  rdp_tolerance: [0.10, 1]\n  seeds: [3, 4]\n  anchor_sightings: [all, 2]\n", file: "t.yaml")
        #expect(s.sweep.rdpTolerance == [0.1, 1])
        #expect(s.sweep.seeds == [3, 4])
        #expect(s.sweep.values(of: .rdpTolerance) == ["0.1", "1"])
        let configurations = s.sweep.configurations
        #expect(configurations.count == 8)
        let tolerances: [Double] = configurations.map(\.options.rdpTolerance)
        #expect(tolerances.filter { $0 == 0.1 }.count == 4)
        let sightings: [Int?] = configurations.map(\.options.anchorSightings)
        #expect(sightings.filter { (n: Int?) -> Bool in n == 2 }.count == 4)
        #expect(configurations[0].label == "tol=0.1 anchors=all seed=3")
    }

    /// The closed loop's walker, VIO error and walls are parsed where the spec is read; each
    /// cell carries the parsed values, and a bad value is one SpecError naming the key.
    @Test func closedLoopValuesAreParsedOnce() throws {
        let node: [String: Any] = ["walker": ["cane:speed=0.8", "ideal"], "vio_error": "yaw_offset=3", "walls": "corridor:2"]
        let cl = try ClosedLoopSpec.parse(node, file: "t.yaml")
        #expect(cl.walkers == ["cane:speed=0.8", "ideal"])
        #expect(cl.walkerLevels[0].value == (try NavigatorProfile(parsing: "cane:speed=0.8")))
        #expect(cl.vioErrorLevels.map(\.value) == [try VIOErrorSpec(parsing: "yaw_offset=3")])
        #expect(cl.wallsLevels.map(\.value) == [.corridor(halfWidth: 2)])
        let defaults = try ClosedLoopSpec.parse([String: Any](), file: "t.yaml")
        #expect(defaults.walkers == ["ideal"] && defaults.vioErrors == ["none"] && defaults.walls == ["venue"])
        #expect(defaults.vioErrorLevels.map(\.value) == [VIOErrorSpec.none] && defaults.wallsLevels.map(\.value) == [.venue])
        #expect(throws: SpecError.self) { try ClosedLoopSpec.parse(["walker": "runner"], file: "t.yaml") }
        // The line is the parser's: what is wrong inside the value, on one line.
        do {
            _ = try ClosedLoopSpec.parse(["walker": "cane:speed=fast"], file: "t.yaml")
            Issue.record("a walker with a non-numeric speed was accepted")
        } catch {
            #expect(error.key == "closed_loop.walker")
            #expect(error.problem == "walker 'cane:speed=fast': expected key=number, got 'speed=fast'", "\(error.problem)")
            #expect(!error.description.contains("\n"))
        }
        do {
            _ = try ClosedLoopSpec.parse(["walls": "corridor:-1"], file: "t.yaml")
            Issue.record("a negative corridor half width was accepted")
        } catch {
            #expect(error.key == "closed_loop.walls")
        }
    }
}
