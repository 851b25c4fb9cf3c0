import Foundation
import NavCore
import NavIO
import NavReport

/// What `navbench compare` decides about two runs: the replay metrics' gate (with the result
/// kinds' tables), the closed-loop gate, and the one count the headline, the JUnit failures and
/// the exit status all come from (`regressions`).
public struct RunComparison: Sendable {
    public var gate: GateResult
    public var closedLoop: ClosedLoopGate?
    /// Regressions of every kind (`gateRegressionCount`): `navbench compare` exits 1 exactly when above 0.
    public var regressions: Int { gateRegressionCount(gate, closedLoop: closedLoop) }

    /// The change table for a CI job summary.
    public func markdown(baselineName: String, currentName: String) -> String {
        gateMarkdown(gate, closedLoop: closedLoop, baselineName: baselineName, currentName: currentName)
    }

    /// The JUnit XML report.
    public func junit(suiteName: String) -> String { gateJUnitXML(gate, closedLoop: closedLoop, suiteName: suiteName) }
}

/// `metrics.csv` of a run folder, or `path` itself when it is a file.
public func runMetricsPath(_ path: String) -> String {
    isFolder(path) ? (path as NSString).appendingPathComponent("metrics.csv") : path
}

private func isFolder(_ p: String) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: p, isDirectory: &isDir) && isDir.boolValue
}

/// Compares CURRENT with BASELINE (run folders or `metrics.csv` files) as `navbench compare`
/// does, in one call a notebook or a test can make: the replay metrics (`noiseAwareGate`; when
/// BASELINE is a run folder, only if it has a `metrics.csv`), each
/// result kind of `kinds` whose CSV BASELINE has, and the closed loop when BASELINE has a
/// `closed-loop.csv`. The gate's false-alarm budget `alpha` covers the whole comparison: with
/// a closed loop it is split evenly between the closed-loop tests and the replay's pooled rows
/// of a rerun with other seeds (Bonferroni), so a rerun with other seeds and unchanged code fails
/// with probability at most `alpha` (docs/ci.md, "False alarms").
///
/// - Throws: `TraceError` naming the file when an input cannot be read.
/// - Complexity: O(rows · resamples).
public func compareRuns(
    baseline: String, current: String, tolerances: [String: CompareTolerance] = [:], resamples: Int = 10_000,
    kinds: [any ExperimentKind] = ExperimentKinds.standard, alpha: Double = 0.05
) throws(TraceError) -> RunComparison {
    // The replay is compared when BASELINE has it: a metrics.csv file, or a run folder with one
    // (a spec without the replay, e.g. aids and APE only, writes none).
    let replay = !isFolder(baseline) || FileManager.default.fileExists(atPath: runMetricsPath(baseline))
    let none = MetricsTable(parameterColumns: Configuration.columns, rows: [])
    let b = replay ? try MetricsTable.read(runMetricsPath(baseline)) : none
    let c = replay ? try MetricsTable.read(runMetricsPath(current)) : none
    let closedLoopTables = try closedLoopTables(baseline: baseline, current: current)
    let share = closedLoopTables == nil ? alpha : alpha / 2
    var result = noiseAwareGate(baseline: b, current: c, tolerances: tolerances, resamples: resamples, pooledAlpha: share)
    let kindResult = try resultKindGates(baseline: baseline, current: current, kinds: kinds, tolerances: tolerances, resamples: resamples)
    result.gated += kindResult.gated
    result.comparedRows += kindResult.comparedRows
    let closedLoop = closedLoopTables.map { ClosedLoopGate(baseline: $0.baseline, current: $0.current, alpha: share) }
    return RunComparison(gate: result, closedLoop: closedLoop)
}

/// Both run folders' `closed-loop.csv` when BASELINE is a folder with one (CURRENT without one:
/// an empty table, every cell missing); nil otherwise (a metrics.csv file given, or a spec
/// without closed_loop).
private func closedLoopTables(baseline: String, current: String) throws(TraceError) -> (baseline: MetricsTable, current: MetricsTable)? {
    func file(_ folder: String) -> String? {
        guard isFolder(folder) else { return nil }
        let p = (folder as NSString).appendingPathComponent("closed-loop.csv")
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }
    guard let b = file(baseline), isFolder(current) else { return nil }
    let base = try MetricsTable.read(b)
    let now =
        try file(current).map { (p: String) throws(TraceError) -> MetricsTable in try MetricsTable.read(p) }
        ?? MetricsTable(parameterColumns: base.parameterColumns, rows: [])
    return (base, now)
}

/// The result kinds' part of the comparison when BASELINE and CURRENT are run folders: for
/// each kind of `kinds` whose gated CSV (`ExperimentKind.gatedCSV`) BASELINE has, its table against
/// CURRENT's (missing there: every row missing) through the noise-aware gate, units route ×
/// session; the gated metrics carry the kind.
private func resultKindGates(
    baseline: String, current: String, kinds: [any ExperimentKind], tolerances: [String: CompareTolerance], resamples: Int
) throws(TraceError) -> GateResult {
    var out = GateResult(gated: [], comparedRows: 0)
    guard isFolder(baseline), isFolder(current) else { return out }
    for kind in kinds {
        guard let csv = kind.gatedCSV else { continue }
        let b = (baseline as NSString).appendingPathComponent(csv)
        guard FileManager.default.fileExists(atPath: b) else { continue }
        let base = try MetricsTable.read(b)
        let c = (current as NSString).appendingPathComponent(csv)
        let now =
            FileManager.default.fileExists(atPath: c) ? try MetricsTable.read(c) : MetricsTable(parameterColumns: base.parameterColumns, rows: [])
        let r = noiseAwareGate(baseline: base, current: now, tolerances: tolerances, resamples: resamples, kind: kind.name)
        out.gated += r.gated
        out.comparedRows += r.comparedRows
    }
    return out
}
