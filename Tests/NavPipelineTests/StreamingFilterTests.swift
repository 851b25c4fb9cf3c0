import Foundation
import NavCore
import NavIO
import NavSignal
import Testing

@testable import NavPipeline

/// `filterTrace` reads, filters and writes a trace block by block (issue 16, long recordings):
/// the filtered stream equals the whole-array filter bit for bit at any block size, every other
/// dataset and attribute is copied unchanged, the output is a valid trace, and `--compression`
/// decides the layout.
@Suite struct StreamingFilterTests {
    static func makeTrace(_ path: String, rows n: Int) throws {
        var g = SeededRandom(seed: 20261123, label: "streaming-filter")
        var t = [Double](), acc = [Vector3](), gyro = [Vector3](), heading = [Double]()
        for k in 0..<n {
            let time = Double(k) / 100 + 0.001 * g.uniform()
            t.append(time)
            acc.append(Vector3(sin(time * 11) + 0.1 * g.uniform(), cos(time * 3), 9.81 + 0.05 * g.uniform()))
            gyro.append(Vector3(0.01 * g.uniform(), 0.02 * sin(time), -0.01))
            heading.append((355 + 20 * sin(time / 3) + g.uniform()).truncatingRemainder(dividingBy: 360))
        }
        let meta = SessionMetadata(kind: .recording, sessionID: "stream-test", routeID: "r", venue: "v", device: "d")
        let s = Session(
            metadata: meta, imu: IMUStream(timestamps: t, accelerometer: acc, gyroscope: gyro, attitude: nil, magnetometer: nil),
            compass: CompassStream(timestamps: t, heading: heading))
        try writeTrace(s, to: path)
    }

    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "nb-stream-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test(arguments: [
        "butter:order=4,cutoff=5", "butter:order=4,cutoff=5,zero-phase", "mean:window=9,centred", "ema:tau=0.2", "kalman-cv:q=0.5,r=0.0016",
    ])
    func blocksEqualTheWholeArrayFilter(_ text: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.h5"
        try Self.makeTrace(input, rows: 5_003)
        let spec = try FilterSpec(parsing: text)
        let source = try HDF5Reader(path: input)
        let t = try source.readDoubles("/imu/timestamps").values
        let raw = try source.readDoubles("/imu/accelerometer").values
        let fs = 1 / SamplingSummary(timestamps: t).medianInterval
        let columns = try (0..<3).map { c in try spec.apply(stride(from: c, to: raw.count, by: 3).map { raw[$0] }, timestamps: t, sampleRate: fs) }
        for (blockRows, compression) in [
            (7, HDF5Compression.none), (1_000, .gzip(level: 1)), (4_096, .gzip(level: 9)), (traceBlockRows, .filterDefault),
        ] {
            let out = dir + "/out-\(blockRows).h5"
            try filterTrace(
                input: input, output: out, spec: spec, dataset: "imu/accelerometer", rate: nil, command: "navbench filter test",
                compression: compression, blockRows: blockRows)
            let r = try HDF5Reader(path: out)
            let y = try r.readDoubles("/imu/accelerometer").values
            for c in 0..<3 {
                let col = stride(from: c, to: y.count, by: 3).map { y[$0] }
                #expect(col.map(\.bitPattern) == columns[c].map(\.bitPattern), "\(text), blocks of \(blockRows), column \(c)")
            }
            #expect(try r.readDoubles("/imu/timestamps").values == t)
            #expect(try r.readDoubles("/imu/gyroscope").values == source.readDoubles("/imu/gyroscope").values)
            #expect(try r.readDoubles("/compass/heading").values == source.readDoubles("/compass/heading").values)
            #expect(r.attribute("processing")?.stringValue == "navbench filter test")
            #expect(r.attribute("session_id")?.stringValue == "stream-test")
            #expect(try r.info("/imu/accelerometer").isChunked == (compression != .none), "layout for \(compression)")
            #expect(validateTrace(at: out).isValid)
        }
    }

    /// A heading (units deg) is filtered on (sin, cos), block by block as whole.
    @Test func headingIsFilteredOnTheCircle() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.makeTrace(dir + "/in.h5", rows: 3_000)
        let spec = try FilterSpec(parsing: "ema:tau=0.5")
        try filterTrace(
            input: dir + "/in.h5", output: dir + "/out.h5", spec: spec, dataset: "compass/heading", rate: nil, command: "c", blockRows: 333)
        let src = try HDF5Reader(path: dir + "/in.h5")
        let h = try src.readDoubles("/compass/heading").values, t = try src.readDoubles("/compass/timestamps").values
        let expected = try FilterSpec(parsing: "ema:tau=0.5,angle").apply(h, timestamps: t, sampleRate: 100)
        #expect(try HDF5Reader(path: dir + "/out.h5").readDoubles("/compass/heading").values.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    /// Missing or non-float datasets and a bad input fail with the whole-array path's lines.
    @Test func badRequestsFailWithOneLine() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.makeTrace(dir + "/in.h5", rows: 100)
        let spec = try FilterSpec(parsing: "mean")
        #expect(throws: TraceError.self) {
            try filterTrace(input: dir + "/in.h5", output: dir + "/o.h5", spec: spec, dataset: "imu/nope", rate: nil, command: "c")
        }
        do {
            try filterTrace(input: dir + "/in.h5", output: dir + "/o.h5", spec: spec, dataset: "vio/position", rate: nil, command: "c")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("no such dataset; numeric datasets here: imu/accelerometer, imu/gyroscope, compass/heading"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.h5"))
    }

    /// Validation without loading finds exactly what loading finds, on every bad-input fixture
    /// and the bundled datasets.
    @Test func validationInBlocksEqualsLoading() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let bad = here.appendingPathComponent("../NavIOTests/Fixtures/bad").standardizedFileURL.path
        let datasets = here.appendingPathComponent("../../Datasets").standardizedFileURL.path
        var files = try FileManager.default.contentsOfDirectory(atPath: bad).sorted().map { bad + "/" + $0 }
        files += try FileManager.default.contentsOfDirectory(atPath: datasets).filter { $0.hasSuffix(".h5") }.sorted().prefix(4).map {
            datasets + "/" + $0
        }
        #expect(files.count >= 14)
        for f in files {
            let whole = validateTrace(at: f), blocks = validateTrace(at: f, loadValues: false)
            #expect(whole.problems.map(\.description) == blocks.problems.map(\.description), "\(f)")
        }
    }
}
