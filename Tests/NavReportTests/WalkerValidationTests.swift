import Foundation
import NavCore
import NavReport
import NavSim
import Testing

/// The walkers fitted from WeAllWalk and the simulated walk measured as a real one
/// (docs/navigator.md, "Walkers fitted from WeAllWalk" and "The simulated walk measured as a real one").
@Suite struct WalkerValidationTests {
    static let root = GaitFitTests.root

    /// The built-in gait equals the means over subjects of an independent computation from the
    /// 60 shared walks' XML (`scripts/make_gait_fixtures.py --all`), within 1e-12 relative.
    @Test func builtInGaitIsTheXMLReferenceOfTheSharedWalks() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/NavReportTests/Fixtures/gait_reference_shared.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let subjects = try #require(json["subjects"] as? [String: [String: Any]])
        #expect(json["walks"] as? Int == 60)
        for (community, gait) in NavigatorProfile.weAllWalkGait {
            let rows = subjects.values.filter { $0["community"] as? String == community }
            #expect(Set(rows.compactMap { $0["subject"] as? String }) == Set(gait.subjects))
            func mean(_ key: String) -> Double { rows.map { $0[key] as! Double }.reduce(0, +) / Double(rows.count) }
            let built: [(String, Double)] = [
                ("cadence", gait.cadence), ("relative_speed", gait.relativeSpeed), ("turn_duration_90", gait.turnDuration90),
            ]
            for (key, value) in built {
                #expect(abs(mean(key) - value) <= 1e-12 * value, "\(community) \(key): built in \(value), XML \(mean(key))")
            }
        }
    }

    /// The fitted profiles follow their definitions in closed form: speed = 1.27 m/s × relative
    /// speed, step length = speed ÷ cadence, turn rate = (90° + ample over-rotation) ÷ (90° turn
    /// segment − reaction time); the provenance says fitted, with n.
    @Test func fittedProfilesFollowTheirDefinitions() throws {
        for (name, community) in [("cane-weallwalk", "cane"), ("guide-dog-weallwalk", "guide-dog"), ("sighted", "sighted")] {
            let p = try #require(NavigatorProfile.named(name))
            let g = try #require(NavigatorProfile.weAllWalkGait[community])
            #expect(p.speed == 1.27 * g.relativeSpeed)
            #expect(abs(p.stepLength - p.speed / g.cadence) < 1e-15)
            #expect(abs(p.turnRateDegreesPerSecond - (90 + p.overRotationAmpleDegrees) / (g.turnDuration90 - p.speechReactionSeconds)) < 1e-12)
            #expect(p.stepTimeCV == g.stepTimeCV && p.steerBelowDegrees == 60)
            let speed = try #require(p.parameters.first { $0.key == "speed" })
            #expect(speed.source.text.hasPrefix("fitted (WeAllWalk, n = \(g.subjects.count) \(community) subjects"))
            #expect(try #require(p.parameters.first { $0.key == "reaction_time" }).source.text.hasPrefix("assumed"))
        }
        // The assumed profiles keep their values and sources.
        #expect(NavigatorProfile.named("cane")?.speed == 0.9)
        #expect(NavigatorProfile.named("cane")?.parameters.first { $0.key == "speed" }?.source.text.hasPrefix("assumed") == true)
    }

    /// The sensitivity ranges of speed, step length and turn rate are the blind subjects' range
    /// (each subject fitted as a community is, from the XML reference), rounded outwards: every
    /// subject inside, each bound within 0.01 m/s, 0.01 m or 1 deg/s of the nearest subject.
    @Test func sensitivityRangesAreTheBlindSubjectsRange() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/NavReportTests/Fixtures/gait_reference_shared.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let subjects = try #require(json["subjects"] as? [String: [String: Any]]).values.filter { $0["community"] as? String != "sighted" }
        #expect(subjects.count == 6)
        var derived: [String: [Double]] = [:]
        for v in subjects {
            let community = try #require(v["community"] as? String)
            let base = try #require(NavigatorProfile.named(community))
            let p = base.fitted(
                to: FittedGait(
                    cadence: v["cadence"] as! Double, relativeSpeed: v["relative_speed"] as! Double,
                    turnDuration90: v["turn_duration_90"] as! Double, stepTimeCV: v["step_time_cv"] as! Double, subjects: []))
            derived["speed", default: []].append(p.speed)
            derived["step_length", default: []].append(p.stepLength)
            derived["turn_rate", default: []].append(p.turnRateDegreesPerSecond)
        }
        let slack = ["speed": 0.01, "step_length": 0.01, "turn_rate": 1.0]
        for (key, values) in derived {
            let range = try #require(NavigatorProfile.plausibleRanges.first { $0.key == key }?.range)
            let lo = values.min()!, hi = values.max()!
            #expect(range.lowerBound <= lo && lo - range.lowerBound <= slack[key]!, "\(key): \(range) vs subjects \(lo)…\(hi)")
            #expect(range.upperBound >= hi && range.upperBound - hi <= slack[key]!, "\(key): \(range) vs subjects \(lo)…\(hi)")
        }
    }

    /// `walker fit --imu --out`'s fit on the bundled walks against the XML reference
    /// (`gait_reference.json`: cane subjects 2 and 3): speed = 1.27 × mean relative speed, step
    /// length = speed ÷ mean cadence, turn rate by its definition; the interval over the two
    /// subjects' own speeds is mean ± t(0.975, 1) · s / √2 with scipy's t = 12.706204736174694.
    @Test func walkerFitFromAnnotatedWalksEqualsTheXMLReference() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/NavReportTests/Fixtures/gait_reference.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let subjects = try #require(json["subjects"] as? [String: [String: Any]])
        let cane = ["2", "3"].map { subjects[$0]! }
        func mean(_ k: String) -> Double { cane.map { $0[k] as! Double }.reduce(0, +) / 2 }
        let base = try #require(NavigatorProfile.named("cane"))
        let fit = GaitFit.walkerFit(try GaitFitTests().walks(), community: "cane", base: base)
        #expect(fit.walks == 2 && fit.notes.isEmpty)
        let speed = try #require(fit.estimate("speed")), step = try #require(fit.estimate("step_length"))
        let turn = try #require(fit.estimate("turn_rate"))
        let v = 1.27 * mean("relative_speed")
        #expect(abs(speed.value - v) < 1e-12 && speed.n == 2 && speed.counts == "subjects 2, 3")
        #expect(abs(step.value - v / mean("cadence")) < 1e-12)
        #expect(abs(turn.value - 103.4 / (mean("turn_duration_90") - 1.2)) < 1e-9)
        let speeds = cane.map { 1.27 * ($0["relative_speed"] as! Double) }
        let half = 12.706204736174694 * abs(speeds[0] - speeds[1]) / 2.0.squareRoot() / 2.0.squareRoot()
        #expect(abs(speed.low - (v - half)) < 1e-9 && abs(speed.high - (v + half)) < 1e-9, "\(speed.low) \(speed.high) vs ±\(half)")
        #expect(GaitFit.walkerFit([], community: "cane", base: base).estimates.isEmpty)
    }

    /// The 95 % prediction interval against its closed form with scipy's t quantile
    /// (`scipy.stats.t.ppf(0.975, 3)` = 3.1824463052837078): values 1…4, mean 2.5, s = √(5/3).
    @Test func predictionIntervalIsTheClosedForm() throws {
        let pi = try #require(WalkerValidation.predictionInterval([1, 2, 3, 4]))
        let half = 3.1824463052837078 * (5.0 / 3).squareRoot() * (1.25).squareRoot()
        #expect(abs(pi.low - (2.5 - half)) < 1e-9 && abs(pi.high - (2.5 + half)) < 1e-9)
        #expect(WalkerValidation.predictionInterval([1]) == nil)
    }

    /// A simulated walk measured as a real one: an ideal walker (no delay, no veering, turning
    /// in place at once) on an L-shaped corridor steps at speed ÷ step length, makes one 90° turn,
    /// and walks the shape's two segments.
    @Test func anIdealWalkMeasuresAsItsParameters() throws {
        let shape = WalkerValidation.PathShape(path: "L", lengths: [20, 15], turns: [90])
        var walker = try #require(NavigatorProfile.named("ideal"))
        walker.speed = 1.2
        walker.stepLength = 0.6
        let walks = WalkerValidation.simulate(shape: shape, walker: walker, community: "sighted", subjects: 1)
        let walk = try #require(walks.first)
        #expect(walk.turns.count == 1 && walk.turns.first?.nominal == 90)
        #expect(walk.straightSegments.count == 2)
        let m = GaitFit.measure(walk)
        let cadence = Double(m.strikes) / m.straightSeconds
        #expect(abs(cadence - 2) < 0.05, "cadence \(cadence) steps/s, expected 1.2 / 0.6 = 2")
        #expect(m.wallContacts == 0 && m.stops == 0)
        // The walk covers both segments: 35 m at 1.2 m/s, within the 3 s start wait and the arrival box.
        #expect(abs(m.minutesWalked * 60 - 35 / 1.2) < 2.5, "walked \(m.minutesWalked * 60) s")
    }

    /// The comparison on the bundled walks (path T1; subjects 2, 3 cane, 1, 4 guide dog, 11, 12
    /// sighted): the corridor is shaped from the sighted walks, every community has its rows, the
    /// 90° turn segment — which the turn rate is fitted to — lies inside the real CI, and what
    /// docs/navigator.md says the model cannot match (wall contacts of sighted walkers) does not;
    /// reruns give the same table.
    @Test func theComparisonOnTheBundledWalks() throws {
        let real = try GaitFitTests().walks()
        let shapes = WalkerValidation.pathShapes(real)
        #expect(shapes.map(\.path) == ["T1"])
        #expect(shapes[0].lengths.allSatisfy { $0 > 1 } && shapes[0].turns.allSatisfy { [45, 90, 180].contains(abs($0)) })
        var walkers: [(community: String, walker: NavigatorProfile)] = []
        for d in WalkerValidation.defaultWalkers { walkers.append((d.community, try #require(NavigatorProfile.named(d.walker)))) }
        let simulated = WalkerValidation.simulate(shapes, walkers: walkers, subjects: 4, seed: 1)
        let rows = WalkerValidation.rows(real: real, simulated: simulated)
        #expect(Set(rows.map(\.community)) == ["cane", "guide-dog", "sighted"])
        let cane90 = try #require(rows.first { $0.community == "cane" && $0.quantity == "turn_duration_90" })
        #expect(cane90.inside == true, "cane 90° turn: simulated \(cane90.simulatedMean) s, real [\(cane90.realLow), \(cane90.realHigh)]")
        let sightedWalls = try #require(rows.first { $0.community == "sighted" && $0.quantity == "wall_contact_rate" })
        #expect(sightedWalls.realMean == 0 && sightedWalls.simulatedMean > 0 && sightedWalls.inside == false)
        let again = WalkerValidation.rows(real: real, simulated: WalkerValidation.simulate(shapes, walkers: walkers, subjects: 4, seed: 1))
        #expect(WalkerValidation.markdown(rows) == WalkerValidation.markdown(again))
        #expect(!WalkerValidation.markdown(rows).contains("nan"))
    }
}
