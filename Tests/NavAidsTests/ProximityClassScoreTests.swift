import Foundation
import Testing

@testable import NavAids

/// Balanced accuracy and per-class scores (issue 52, item 5), by their definition on a hand-made
/// confusion: 8 readings truly far (7 estimated far, 1 near), 2 truly near (1 near, 1 far), 1
/// truly immediate estimated unknown. Recalls: far 7/8, near 1/2, immediate 0 → balanced
/// (7/8 + 1/2 + 0) / 3; accuracy 8/11; precisions: far 7/8, near 1/2, immediate NaN.
@Suite struct ProximityClassScoreTests {
    @Test func balancedAccuracyByDefinition() {
        func reading(_ truth: ProximityClass, _ estimated: ProximityClass) -> ScoredReading {
            ScoredReading(time: 0, beacon: 0, estimatedDistance: 1, trueDistance: 1, estimated: estimated, truth: truth)
        }
        let readings =
            Array(repeating: reading(.far, .far), count: 7) + [reading(.far, .near), reading(.near, .near), reading(.near, .far)]
            + [reading(.immediate, .unknown)]
        let r = ProximityResult(
            model: PathLossModel(rssiAtOneMetre: -59, exponent: 2), readings: readings, events: [], trueEvents: [], duration: 60)
        let m = Dictionary(uniqueKeysWithValues: proximityMetrics(r, parameters: ProximityParameters()).map { ($0.name, $0.value) })
        let balanced: Double = (7.0 / 8 + 1.0 / 2 + 0) / 3
        #expect(m["balanced_accuracy"] == balanced)
        #expect(m["class_accuracy"] == 8.0 / 11)
        #expect(m["recall_far"] == 7.0 / 8 && m["recall_near"] == 0.5 && m["recall_immediate"] == 0)
        #expect(m["precision_far"] == 7.0 / 8 && m["precision_near"] == 0.5 && m["precision_immediate"]!.isNaN)
    }
}
