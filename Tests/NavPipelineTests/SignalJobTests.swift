import Foundation
import NavCore
import NavIO
import NavPipeline
import NavSignal
import Testing

/// The signal tests' scipy reference (scripts/make_signal_fixtures.py), read in place.
private let reference: HDF5Reader = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../NavSignalTests/Fixtures/signal_reference.h5").standardizedFileURL.path
    return try! HDF5Reader(path: path)
}()
private func ref(_ path: String) -> [Double] { try! reference.readDoubles(path).values }

/// max |a − b| ≤ 1e-9 · max |b|.
private func expectMatches(_ a: [Double], _ b: [Double], _ what: String) {
    #expect(a.count == b.count, "\(what): \(a.count) vs \(b.count) values")
    let num = zip(a, b).map { abs($0 - $1) }.max() ?? 0, den = b.map(abs).max() ?? 0
    #expect(num <= 1e-9 * den, "\(what): max error \(num)")
}

@Suite struct SignalJobTests {
    /// The CSV job (what `navbench filter` runs) gives the reference numbers after a round trip
    /// through CSV text (17 significant digits).
    @Test func csvJobEqualsReference() throws {
        let x = ref("/inputs/seeded"), t = ref("/inputs/seeded_t")
        let dir = NSTemporaryDirectory() + "nb-csv-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let csv = "time,accel\n" + zip(t, x).map { "\(formatNumber($0)),\(formatNumber($1))" }.joined(separator: "\n") + "\n"
        try csv.write(toFile: dir + "/in.csv", atomically: true, encoding: .utf8)
        let out = try filterCSV(
            try CSVTable.read(dir + "/in.csv"), spec: try FilterSpec(parsing: "butter:order=4,cutoff=5,zero-phase"),
            column: "accel", outputColumn: "smooth", timeColumn: "time", rate: nil)
        try out.write(toFile: dir + "/out.csv", atomically: true, encoding: .utf8)
        let table = try CSVTable.read(dir + "/out.csv")
        #expect(table.header == ["time", "accel", "smooth"])
        #expect(try table.numbers("accel") == x)
        expectMatches(try table.numbers("smooth"), ref("/filter/seeded_low4/sosfiltfilt"), "CSV job")
    }
}
