import Foundation
import NavReport
import Testing

@testable import NavPipeline

/// Issue 51, item 4: the text alternatives of the replay's and the closed loop's figures state
/// what the figure draws, from the values that draw it; names from data come out escaped.
@Suite struct ReplayFigureFindingTests {
    static let hostile = "x](y) <script>\nz"
    static let escaped = "x\\](y) \\<script\\>\\\\nz"

    static func trend(_ series: [(String, [Double])]) -> SVGPlot {
        SVGPlot(
            title: "end_of_route_error vs RDP tolerance", xLabel: "RDP tolerance (m)", yLabel: "end_of_route_error (m)",
            series: series.map { s in
                SVGPlot.Series(label: s.0, points: zip([0.3, 0.6, 1.0], s.1).map { (x: $0, y: $1) })
            })
    }

    @Test func toleranceTrendSaysWhereTheMeanRisesAndFalls() {
        let plot = Self.trend([("R1", [1, 2, 3]), ("R2", [2, .nan, 1]), ("R3", [4, 5, 4.0001]), ("R4", [.nan, .nan, .nan])])
        #expect(
            toleranceTrendFinding(plot)
                == "end_of_route_error (m) vs RDP tolerance 0.3 → 1 m, mean per route: rises on 1 of 4 routes, falls on 1, unchanged on 1, "
                + "no value on 1 (R1 1 → 3, R2 2 → 1, R3 4 → 4).")
    }

    @Test func toleranceTrendCapsItsListAndEscapesNames() {
        let plot = Self.trend([(Self.hostile, [2, 1, 0.5])] + (1...5).map { ("R\($0)", [0.5, 1, 1.5]) })
        let alt = toleranceTrendFinding(plot)
        #expect(alt.hasPrefix("end_of_route_error (m) vs RDP tolerance 0.3 → 1 m, mean per route: rises on 5 of 6 routes, falls on 1 ("))
        #expect(alt.contains("(\(Self.escaped) 2 → 0.5, R1 0.5 → 1.5, R2 0.5 → 1.5, R3 0.5 → 1.5, and 2 more)."))
        #expect(!alt.contains("\n") && !alt.contains("<script>"))
    }

    @Test func walkedPathsGiveTheDistanceBetweenTheEnds() {
        let walks = [
            WalkedPaths.Walk(session: "nav1", truePath: [(x: 0, y: 0), (x: 3, y: 4)], estimatedPath: [(x: 0, y: 0), (x: 0, y: 0)]),
            WalkedPaths.Walk(session: Self.hostile, truePath: [(x: 1, y: 1)], estimatedPath: [(x: 1, y: 1.5)]),
        ]
        #expect(
            walkedPathsFinding(WalkedPaths(route: "B1", configuration: "tol=0.3", walks: walks))
                == "B1: walked paths of tol=0.3, 2 walks drawn; distance from the estimated path's end to the true end: nav1 5 m, "
                + "\(Self.escaped) 0.5 m.")
    }

    @Test func errorCDFNamesTheLowestAndHighestMedian() {
        let curves = [
            (label: "A (+1 identical)", values: [1.0, 2, 3]), (label: "B", values: [0.3, 0.1, 0.2, Double.nan]), (label: "C", values: [5.0, 4]),
        ]
        #expect(
            errorCDFFinding(route: "R1", configurations: 4, curves: curves)
                == "R1: position error CDF of 4 configurations (3 distinct curves): lowest median error 0.2 m (B, 3 samples), "
                + "highest 4.5 m (C, 2 samples).")
        #expect(
            errorCDFFinding(route: Self.hostile, configurations: 1, curves: [(label: "A", values: [1, 2])])
                == "\(Self.escaped): position error CDF of 1 configuration (1 distinct curve): median error 1.5 m (A, 2 samples).")
    }

    @Test func closedLoopLevelsNameTheHighestAndLowest() {
        let levels = [
            LevelEstimate(level: "0.3", value: 0.5, low: 0.4, high: 0.6, n: 60), LevelEstimate(level: "0.6", value: 0.7, low: 0.6, high: 0.8, n: 60),
            LevelEstimate(level: "1", value: 0.45, low: 0.35, high: 0.55, n: 60),
        ]
        #expect(
            closedLoopLevelFinding(measure: "success_rate (fraction)", dimension: "rdp_tolerance", levels: levels)
                == "Closed loop, success_rate (fraction) vs rdp_tolerance, all routes: 0.3: 0.5 [0.4, 0.6], 0.6: 0.7 [0.6, 0.8], "
                + "1: 0.45 [0.35, 0.55] (95 % CIs, n = 60 walkers per level); highest at 0.6, lowest at 1.")
        let uneven = [
            LevelEstimate(level: Self.hostile, value: 2, low: .nan, high: .nan, n: 3), LevelEstimate(level: "b", value: 2, low: 1, high: 3, n: 4),
        ]
        #expect(
            closedLoopLevelFinding(measure: "end_of_route_error (m)", dimension: "arrival", levels: uneven)
                == "Closed loop, end_of_route_error (m) vs arrival, all routes: \(Self.escaped): 2, b: 2 [1, 3] (95 % CIs, n = 3, 4 walkers); "
                + "the same at every level.")
    }
}
