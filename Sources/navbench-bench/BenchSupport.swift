import ArgumentParser
import Foundation

/// Median wall time of `repeats` runs after one warm-up.
func medianSeconds(repeats: Int, _ body: () throws -> Void) rethrows -> (median: Double, all: [Double]) {
    try body()
    var runs: [Double] = []
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        runs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let sorted = runs.sorted()
    let m = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    return (m, runs)
}

/// One JSON line of `object` (keys sorted; numbers as JSONSerialization writes them).
func jsonLine(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}

/// Bounds of a benchmark's `--repeats` (a number from a flag is bounded before use).
let repeatsRange = 1...1_000

/// Refuses `--repeats` outside `repeatsRange` in one line.
func checkRepeats(_ repeats: Int) throws {
    guard repeatsRange.contains(repeats) else {
        throw ValidationError("--repeats \(repeats): expected \(repeatsRange.lowerBound)…\(repeatsRange.upperBound)")
    }
}
