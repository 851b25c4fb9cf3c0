import Foundation
import NavCore
import NavIO
import Testing

/// `navbench trace` edits (issue 14): round trips keep every other dataset identical, inputs
/// are never modified, refusals are one line.
@Suite struct TraceEditingTests {
    static let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Datasets").path

    static func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-edit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// The file's bytes (inputs must be byte-identical after an edit).
    static func digest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func load(_ path: String) throws -> LoadedTrace {
        let r = validateTrace(at: path)
        #expect(r.errors.isEmpty, "\(r.errors)")
        return r.trace!
    }

    /// Every dataset of every stream except `skip`: same shape, same values bit for bit, same units.
    static func expectSameStreams(_ a: LoadedTrace, _ b: LoadedTrace, except skip: Set<String> = []) {
        let names = Set(a.streams.map(\.name)).subtracting(skip)
        #expect(names == Set(b.streams.map(\.name)).subtracting(skip))
        for n in names {
            let x = a.stream(n)!, y = b.stream(n)!
            #expect(Set(x.data.keys) == Set(y.data.keys), "\(n)")
            for (k, v) in x.data {
                let w = y.data[k]!
                #expect(v.shape == w.shape, "\(n)/\(k)")
                #expect(v.doubles.map(\.bitPattern) == w.doubles.map(\.bitPattern), "\(n)/\(k)")
                #expect(v.strings == w.strings, "\(n)/\(k)")
            }
            #expect(x.units == y.units, "\(n)")
        }
    }

    @Test func dropThenAddBackRoundTrips() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = Self.datasets + "/R2-turns_nav1.h5"
        let before = try Self.digest(nav)
        try editTrace(inputs: [nav], output: dir + "/novio.h5", command: "drop") { try droppingStream("vio", from: $0[0]) }
        let dropped = try Self.load(dir + "/novio.h5")
        #expect(dropped.stream("vio") == nil)
        Self.expectSameStreams(try Self.load(nav), dropped, except: ["vio"])
        try editTrace(inputs: [dir + "/novio.h5", nav], output: dir + "/back.h5", command: "add") {
            try addingStream("vio", from: $0[1], to: $0[0])
        }
        let back = try Self.load(dir + "/back.h5")
        Self.expectSameStreams(try Self.load(nav), back)
        #expect(back.attributes["processing"]?.stringValue?.hasSuffix("drop\nadd") == true)
        #expect(try Self.digest(nav) == before)
        // Root attributes other than processing survive.
        let original = try Self.load(nav)
        for (k, v) in original.attributes where k != "processing" {
            #expect(String(describing: back.attributes[k]!) == String(describing: v), "\(k)")
        }
    }

    @Test func addWithOffsetShiftsOnlyTimestamps() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = Self.datasets + "/R2-turns_nav1.h5", rec = Self.datasets + "/R2-turns_recording.h5"
        let recBefore = try Self.digest(rec), navBefore = try Self.digest(nav)
        try editTrace(inputs: [nav, rec], output: dir + "/out.h5", command: "add") {
            try addingStream("vio", from: $0[1], to: $0[0], timeOffset: 1.5, replace: true)
        }
        let out = try Self.load(dir + "/out.h5"), source = try Self.load(rec)
        Self.expectSameStreams(try Self.load(nav), out, except: ["vio"])
        let v = out.stream("vio")!, s = source.stream("vio")!
        #expect(v.timestamps == s.timestamps.map { $0 + 1.5 })
        #expect(v.data["position"]!.doubles.map(\.bitPattern) == s.data["position"]!.doubles.map(\.bitPattern))
        #expect(try Self.digest(rec) == recBefore && Self.digest(nav) == navBefore)
    }

    @Test func mergeAndTrim() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = Self.datasets + "/R2-turns_nav1.h5"
        try editTrace(inputs: [nav], output: dir + "/a.h5", command: "a") { try droppingStream("imu", from: $0[0]) }
        let full = try Self.load(nav)
        var onlyIMU = full
        onlyIMU.streams.removeAll { $0.name != "imu" }
        try editTrace(inputs: [dir + "/a.h5", nav], output: dir + "/m.h5", command: "merge") { t in
            var b = t[1]; b.streams.removeAll { $0.name != "imu" }
            return try mergingTraces(t[0], b)
        }
        Self.expectSameStreams(full, try Self.load(dir + "/m.h5"))
        // A stream in both is refused.
        #expect(throws: TraceEditError.self) { try mergingTraces(full, full) }
        // Trim: every stream within the window, rows sliced consistently.
        let t0 = full.stream("vio")!.timestamps.first!
        try editTrace(inputs: [nav], output: dir + "/t.h5", command: "trim") { try trimmingTrace($0[0], start: t0, end: t0 + 10) }
        let trimmed = try Self.load(dir + "/t.h5")
        for s in trimmed.streams {
            #expect(s.timestamps.allSatisfy { $0 >= t0 && $0 <= t0 + 10 }, "\(s.name)")
            let o = full.stream(s.name)!
            let kept = o.timestamps.filter { $0 >= t0 && $0 <= t0 + 10 }
            #expect(s.timestamps == kept, "\(s.name)")
        }
        let i = full.stream("vio")!.timestamps.firstIndex { $0 >= t0 }!
        #expect(
            Array(trimmed.stream("vio")!.data["position"]!.doubles.prefix(3))
                == Array(full.stream("vio")!.data["position"]!.doubles[(3 * i)..<(3 * i + 3)]))
    }

    @Test func refusalsAreOneLineAndLeaveNoOutput() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = Self.datasets + "/R2-turns_nav1.h5"
        let full = try Self.load(nav)
        #expect(throws: TraceEditError("\(nav): already has /vio (--replace to overwrite it)")) {
            try addingStream("vio", from: full, to: full)
        }
        #expect(throws: TraceEditError.self) { try droppingStream("location", from: try droppingStream("location", from: full)) }
        #expect(throws: TraceEditError.self) { try trimmingTrace(full, start: 1e9, end: 1e9 + 1) }
        #expect(throws: TraceError(.writeFailed, file: nav, "the output is an input; inputs are never modified (name another --out)")) {
            try editTrace(inputs: [nav], output: nav, command: "x") { $0[0] }
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/never.h5"))
        #expect(throws: TraceEditError.self) {
            try editTrace(inputs: [nav], output: dir + "/never.h5", command: "x") { try trimmingTrace($0[0], start: 1e9, end: 1e9 + 1) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// A rewrite keeps `/location/floor`'s `missing_value` attribute (lost before: RawTraceWriter
    /// wrote the integers without it, so a reader could take −2147483648 for a real floor).
    @Test func rewriteKeepsTheFloorMissingValue() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = Self.datasets + "/R2-turns_nav1.h5"
        let original = try HDF5Reader(path: nav).attribute("missing_value", of: "/location/floor")
        #expect(original == .integer(Int64(LocationStream.noFloor)))
        try editTrace(inputs: [nav], output: dir + "/novio.h5", command: "drop") { try droppingStream("vio", from: $0[0]) }
        #expect(try HDF5Reader(path: dir + "/novio.h5").attribute("missing_value", of: "/location/floor") == original)
    }
}
