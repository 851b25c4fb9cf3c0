import Foundation
import NavReport
import NavStatistics

/// A guidance configuration against the reference (the sweep's first) over the same virtual
/// walkers: walker `run` of a (walls, walker profile, VIO error, seed) cell walks every
/// configuration with the same random streams (common random numbers), so the two outcomes of
/// one walker are a pair and the walker is the independent unit.
public struct ClosedLoopComparison: Sendable, Equatable {
    /// The route, or `allRoutesLabel` for the walkers of every route pooled.
    public var route: String
    public var configuration: String
    public var reference: String
    /// Walkers paired (both configurations walked them).
    public var walkers: Int
    /// Mean over walkers of (arrived here − arrived under the reference), with its Student t 95 % CI.
    public var successDifference: Double
    public var successLow: Double
    public var successHigh: Double
    /// Discordant walkers: arrived only under this configuration, only under the reference.
    public var onlyHere: Int
    public var onlyReference: Int
    /// McNemar's exact test on the discordant walkers, and its Holm adjustment over the section.
    public var successP: Double
    public var successAdjustedP = Double.nan
    /// Walkers with a finite end-of-route error under both.
    public var errorWalkers: Int
    /// Mean paired difference of the end-of-route error (m), with its Student t 95 % CI.
    public var errorDifference: Double
    public var errorLow: Double
    public var errorHigh: Double
    /// Wilcoxon signed-rank test of the paired errors, and its Holm adjustment over the section.
    public var errorP: Double
    public var errorAdjustedP = Double.nan
}

/// The pairs of one comparison, gathered over cells.
private struct WalkerPairs {
    var success: [Double] = [], onlyHere = 0, onlyReference = 0, errors: [Double] = []

    mutating func add(_ here: ClosedLoopWalkers, _ reference: ClosedLoopWalkers) {
        for i in 0..<min(here.success.count, reference.success.count) {
            let (a, b) = (here.success[i], reference.success[i])
            success.append((a ? 1 : 0) - (b ? 1 : 0))
            if a && !b { onlyHere += 1 }
            if b && !a { onlyReference += 1 }
            let d = here.endOfRouteError[i] - reference.endOfRouteError[i]
            if d.isFinite { errors.append(d) }
        }
    }

    mutating func add(_ other: WalkerPairs) {
        success += other.success
        onlyHere += other.onlyHere
        onlyReference += other.onlyReference
        errors += other.errors
    }

    func comparison(route: String, configuration: String, reference: String) -> ClosedLoopComparison {
        let s = StudentTInterval(success), e = StudentTInterval(errors)
        return ClosedLoopComparison(
            route: route, configuration: configuration, reference: reference, walkers: success.count, successDifference: s.mean,
            successLow: s.low, successHigh: s.high, onlyHere: onlyHere, onlyReference: onlyReference,
            successP: McNemarExact(firstOnly: onlyHere, secondOnly: onlyReference)?.pValue ?? .nan, errorWalkers: errors.count,
            errorDifference: e.mean, errorLow: e.low, errorHigh: e.high,
            // All differences zero: no evidence of any difference.
            errorP: errors.isEmpty ? .nan : (WilcoxonSignedRank(differences: errors)?.pValue ?? 1))
    }
}

/// One walked closed-loop cell as the comparisons see it: its route, the cell's identity apart
/// from the guidance configuration (recording, walls, walker, VIO error, seed), the
/// configuration's index and its walkers.
struct WalkedCell {
    var route: String
    var cell: String
    var configuration: Int
    var walkers: ClosedLoopWalkers
}

/// Every guidance configuration but the first (of `labels`) against the first, per route (in
/// the order of `cells`) and pooled over routes, over the walkers both walked; p-values
/// Holm-adjusted over every test of the list (success and error, routes and pooled rows: one
/// family for the section).
///
/// - Complexity: O(cells · walkers + tests · log tests), plus Wilcoxon's O(w log w) per test.
func closedLoopComparisons(_ cells: [WalkedCell], labels: [String]) -> [ClosedLoopComparison] {
    guard labels.count > 1 else { return [] }
    var routeOrder: [String] = []
    var byRoute: [String: [String: [Int: ClosedLoopWalkers]]] = [:]  // route → cell → configuration
    for c in cells {
        if byRoute[c.route] == nil { routeOrder.append(c.route) }
        byRoute[c.route, default: [:]][c.cell, default: [:]][c.configuration] = c.walkers
    }
    var out: [ClosedLoopComparison] = []
    var pooled = [WalkerPairs](repeating: WalkerPairs(), count: labels.count)
    for route in routeOrder {
        let cells = byRoute[route]!
        for ci in 1..<labels.count {
            var pairs = WalkerPairs()
            for key in cells.keys.sorted() {
                guard let here = cells[key]![ci], let reference = cells[key]![0] else { continue }
                pairs.add(here, reference)
            }
            guard !pairs.success.isEmpty else { continue }
            pooled[ci].add(pairs)
            out.append(pairs.comparison(route: route, configuration: labels[ci], reference: labels[0]))
        }
    }
    if routeOrder.count > 1 {
        for ci in 1..<labels.count where !pooled[ci].success.isEmpty {
            out.append(pooled[ci].comparison(route: allRoutesLabel, configuration: labels[ci], reference: labels[0]))
        }
    }
    let adjusted = holmAdjusted(out.map(\.successP) + out.map(\.errorP))
    for i in out.indices {
        out[i].successAdjustedP = adjusted[i]
        out[i].errorAdjustedP = adjusted[out.count + i]
    }
    return out
}

/// The Markdown table of `comparisons` for one route (or the pooled rows): per configuration,
/// walkers, the success difference [CI] with the discordant walkers and McNemar's Holm-adjusted
/// p, the end-error difference [CI] with Wilcoxon's Holm-adjusted p; significant ones (adjusted
/// p < 0.05) in bold with their direction.
func closedLoopComparisonMarkdown(_ comparisons: [ClosedLoopComparison], tests: Int) -> String {
    guard let first = comparisons.first else { return "" }
    var md =
        "\nPaired against `\(markdownInline(first.reference))` over the same walkers (common random numbers; n = walkers): "
        + "success difference [95 % t CI] with the discordant walkers (arrived only here / only there) and McNemar's exact p; "
        + "end-of-route error difference in m [95 % t CI] with the Wilcoxon signed-rank p; p Holm-adjusted over the section's "
        + "\(tests) tests, **bold** where below 0.05.\n\n"
    md += "| guidance | walkers | success difference | discordant | p (Holm) | end error difference (m) | p (Holm) |\n"
    md += "|---|---:|---|---:|---:|---|---:|\n"
    func mark(_ text: String, _ p: Double, better: Bool) -> String {
        p < 0.05 ? "**\(text) \(better ? "better" : "worse")**" : text
    }
    for c in comparisons {
        let success = String(format: "%+.3f [%+.3f, %+.3f]", c.successDifference, c.successLow, c.successHigh)
        let error =
            c.errorWalkers > 0 ? String(format: "%+.2f [%+.2f, %+.2f]", c.errorDifference, c.errorLow, c.errorHigh) : "–"
        md +=
            "| \(markdownInline(c.configuration)) | \(c.walkers) | \(mark(success, c.successAdjustedP, better: c.successDifference > 0)) | "
            + "\(c.onlyHere)/\(c.onlyReference) | \(pText(c.successAdjustedP)) | \(mark(error, c.errorAdjustedP, better: c.errorDifference < 0)) | "
            + "\(pText(c.errorAdjustedP)) |\n"
    }
    return md
}

/// A p-value of a table: 2 significant digits, "–" when there is none.
private func pText(_ p: Double) -> String { p.isFinite ? String(format: "%.2g", p) : "–" }
