import NavIO
import NavSignal

/// `filterCSV` as bytes, with any `SignalFilter` (a `FilterSpec`, an `exec:` plugin, a registered type) (the `navbench filter` path: no String of the whole output).
///
/// - Complexity: O(bytes) plus the filter's cost.
public func filterCSVBytes(
    _ table: CSVTable, spec: any SignalFilter, column: String, outputColumn: String,
    timeColumn: String?, rate: Double?
) throws -> [UInt8] {
    let s = try csvSeries(table, column: column, timeColumn: timeColumn, rate: rate)
    let fs = try sampleRate(of: s, given: rate)
    let y = try spec.apply(s.values, timestamps: s.timestamps, sampleRate: fs)
    return table.addingBytes(column: outputColumn, values: y)
}
