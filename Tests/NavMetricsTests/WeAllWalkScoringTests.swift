import Foundation
import NavCore
import NavMetrics
import Testing

/// WeAllWalk's step-count metrics 1 and 3 and the turn matching equal the independent Python
/// implementation (scripts/pdr_reference.py) on its fixtures: a hand case, 40 random walks, three
/// real WeAllWalk walks; 30 random turn cases.
@Suite struct WeAllWalkScoringTests {
    struct StepCases: Decodable {
        struct Segment: Decodable {
            var id: String; var start: Double; var end: Double; var straight: Bool; var nominalDeg: Double?; var steps: [Double]
        }
        struct Feature: Decodable { var start: Double; var end: Double; var description: String }
        struct Walk: Decodable { var segments: [Segment]; var features: [Feature] }
        struct Expected: Decodable {
            var trueSteps, under1, over1, under3, over3: Int
            var under1Rate, over1Rate, under3Rate, over3Rate: Double
        }
        struct Case: Decodable { var name: String; var walk: Walk; var detections: [Double]; var expected: Expected }
        var cases: [Case]
    }

    func score(_ c: StepCases.Case) -> StepCountScore {
        scoreStepCount(
            straightSegments: c.walk.segments.filter(\.straight).map { TimeSpan($0.start, $0.end) },
            events: c.walk.features.map { TimeSpan($0.start, $0.end) },
            heelStrikes: c.walk.segments.flatMap(\.steps), detections: c.detections)
    }

    @Test func stepMetricsEqualTheReference() throws {
        let cases = try loadFixture("pdr/step_scoring.json", as: StepCases.self).cases
        #expect(cases.count == 44)
        for c in cases {
            let s = score(c), e = c.expected
            let counts: [Int] = [s.trueSteps, s.under1, s.over1, s.under3, s.over3]
            let expected: [Int] = [e.trueSteps, e.under1, e.over1, e.under3, e.over3]
            #expect(counts == expected, "\(c.name)")
            let rates: [Double] = [s.under1Rate, s.over1Rate, s.under3Rate, s.over3Rate]
            let expectedRates: [Double] = [e.under1Rate, e.over1Rate, e.under3Rate, e.over3Rate]
            #expect(rates == expectedRates, "\(c.name)")
        }
    }

    /// The hand case, counted by hand (scripts/make_pdr_fixtures.py explains each count).
    @Test func handCase() throws {
        let c = try loadFixture("pdr/step_scoring.json", as: StepCases.self).cases.first { $0.name == "hand" }!
        let s = score(c)
        #expect(s.trueSteps == 14 && s.under1 == 5 && s.over1 == 2 && s.under3 == 2 && s.over3 == 3)
        #expect(s.metric1Error == 7.0 / 14 && s.metric3Error == 5.0 / 14)
    }

    /// A perfect detector (each heel strike seen 0.14 s late, as acceleration peaks are) scores 0
    /// on both metrics; an extra detection right after each strike doubles every interval.
    @Test func perfectAndDoubledDetectors() {
        let strikes = stride(from: 1.0, through: 20, by: 0.6).map { $0 }
        let segments = [TimeSpan(0.5, 21)]
        let perfect = scoreStepCount(straightSegments: segments, events: [], heelStrikes: strikes, detections: strikes.map { $0 + 0.14 })
        #expect(perfect.under1 == 0 && perfect.over1 == 0 && perfect.under3 == 0 && perfect.over3 == 0 && perfect.trueSteps == strikes.count)
        let doubled = scoreStepCount(
            straightSegments: segments, events: [], heelStrikes: strikes, detections: strikes.flatMap { [$0 + 0.1, $0 + 0.2] })
        #expect(doubled.over1 == strikes.count && doubled.over3 == strikes.count && doubled.under1 == 0)
        // An event over the whole segment leaves nothing to score.
        let cut = scoreStepCount(straightSegments: segments, events: [TimeSpan(0, 30)], heelStrikes: strikes, detections: strikes)
        #expect(cut.trueSteps == 0 && cut.metric1Error == 0)
    }

    struct TurnCases: Decodable {
        struct Expected: Decodable {
            var annotated, detected, matched, missed: Int
            var `false`: Int
            var signErrors: Int
            var pairs: [[Double]]
        }
        struct Case: Decodable {
            var name: String; var annotated: [[Double]]; var detected: [[Double]]; var tolerance: Double; var expected: Expected
        }
        var cases: [Case]
    }

    @Test func turnMatchingEqualsTheReference() throws {
        let cases = try loadFixture("pdr/turn_scoring.json", as: TurnCases.self).cases
        #expect(cases.count >= 31)
        for c in cases {
            let s = scoreTurns(
                annotated: c.annotated.map { (TimeSpan($0[0], $0[1]), $0[2]) }, detected: c.detected.map { (TimeSpan($0[0], $0[1]), $0[2]) },
                tolerance: c.tolerance)
            let e = c.expected
            let counts: [Int] = [s.annotated, s.detected, s.matched, s.missed, s.falseDetections, s.signErrors]
            let expected: [Int] = [e.annotated, e.detected, e.matched, e.missed, e.false, e.signErrors]
            #expect(counts == expected, "\(c.name)")
            let pairs = s.pairs.sorted { $0.annotatedIndex < $1.annotatedIndex }.map {
                [Double($0.annotatedIndex), Double($0.detectedIndex), $0.angleError]
            }
            #expect(pairs.count == e.pairs.count, "\(c.name)")
            for (a, b) in zip(pairs, e.pairs) { #expect(a[0] == b[0] && a[1] == b[1] && abs(a[2] - b[2]) < 1e-9, "\(c.name): \(a) vs \(b)") }
        }
    }
}
