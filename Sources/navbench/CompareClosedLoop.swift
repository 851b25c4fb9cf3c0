import Foundation
import NavIO
import NavPipeline
import NavReport

/// The closed-loop gate of `navbench compare` when BASELINE and CURRENT are run folders and
/// BASELINE has a `closed-loop.csv`: nil otherwise (a metrics.csv file given, or a spec without
/// closed_loop); a CURRENT folder without one misses every cell.
func closedLoopGate(baseline: String, current: String) throws(TraceError) -> ClosedLoopGate? {
    func file(_ folder: String) -> String? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else { return nil }
        let p = (folder as NSString).appendingPathComponent("closed-loop.csv")
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }
    var isDir: ObjCBool = false
    guard let b = file(baseline), FileManager.default.fileExists(atPath: current, isDirectory: &isDir), isDir.boolValue else { return nil }
    let base = try MetricsTable.read(b)
    let now =
        try file(current).map { (p: String) throws(TraceError) -> MetricsTable in try MetricsTable.read(p) }
        ?? MetricsTable(parameterColumns: base.parameterColumns, rows: [])
    return ClosedLoopGate(baseline: base, current: now)
}

/// The result kinds' part of `navbench compare` when BASELINE and CURRENT are run folders: for
/// each kind of `kinds` whose CSV (`ResultKind.csvFile`) BASELINE has, its table against
/// CURRENT's (missing there: every row missing) through the noise-aware gate, units route ×
/// session; the gated metrics carry the kind.
func resultKindGates(
    baseline: String, current: String, kinds: [any ResultKind], tolerances: [String: CompareTolerance], resamples: Int
) throws(TraceError) -> GateResult {
    var out = GateResult(gated: [], comparedRows: 0)
    func isFolder(_ p: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: p, isDirectory: &isDir) && isDir.boolValue
    }
    guard isFolder(baseline), isFolder(current) else { return out }
    for kind in kinds {
        let b = (baseline as NSString).appendingPathComponent(kind.csvFile)
        guard FileManager.default.fileExists(atPath: b) else { continue }
        let base = try MetricsTable.read(b)
        let c = (current as NSString).appendingPathComponent(kind.csvFile)
        let now =
            FileManager.default.fileExists(atPath: c) ? try MetricsTable.read(c) : MetricsTable(parameterColumns: base.parameterColumns, rows: [])
        let r = noiseAwareGate(baseline: base, current: now, tolerances: tolerances, resamples: resamples, kind: kind.name)
        out.gated += r.gated
        out.comparedRows += r.comparedRows
    }
    return out
}
