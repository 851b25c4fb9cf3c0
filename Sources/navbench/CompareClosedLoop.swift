import Foundation
import NavIO
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
