import Foundation
import Testing

/// Runs the built `navbench` executable and captures its output and status.
func navbench(_ arguments: [String], cwd: String? = nil, program: String = "navbench") throws -> (status: Int32, out: String, err: String) {
    try run(navbenchExecutable(program: program), arguments, cwd: cwd)
}

/// The path of the built `program` (this test bundle's build, else .build/debug or release).
func navbenchExecutable(program: String = "navbench") throws -> String {
    let bin = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    // The test runner's own folder first (on Linux the bundle is that folder; a stale build of the
    // other configuration must not answer for this one).
    let runner = Bundle.main.executableURL?.deletingLastPathComponent()
    let candidates =
        [runner, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()].compactMap { $0?.appendingPathComponent(program).path }
        + ["debug", "release"].map { bin.appendingPathComponent(".build/\($0)/\(program)").path }
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) })
}

/// Runs `executable` with `arguments` and captures its output and status.
func run(_ executable: String, _ arguments: [String], cwd: String? = nil) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let fixtures = "Tests/NavIOTests/Fixtures"

@Suite(.serialized) struct CLITests {
    @Test func validateGoodAndBadInOneCall() throws {
        let r = try navbench(
            [
                "validate", "\(fixtures)/h5py_session.h5", "\(fixtures)/bad/wrong_units.h5",
                "\(fixtures)/bad/text.h5", "\(fixtures)/bad/truncated.h5",
            ], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(r.err == "")  // HDF5's own error stack is silenced
        #expect(
            r.out == """
                \(fixtures)/h5py_session.h5: ok
                \(fixtures)/bad/wrong_units.h5: /vio/position: expected units "m", found "cm"
                \(fixtures)/bad/text.h5: not an HDF5 file (no HDF5 signature), expected trace format v1
                \(fixtures)/bad/truncated.h5: HDF5 signature found but the file cannot be opened (truncated or corrupt)
                1 valid, 3 invalid

                """)
    }

    @Test func validateAllGoodExitsZero() throws {
        let r = try navbench(["validate", "\(fixtures)/h5py_session.h5"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.out == "\(fixtures)/h5py_session.h5: ok\n1 valid, 0 invalid\n")
    }

    @Test func inspectJSONParses() throws {
        let r = try navbench(["inspect", "--json", "\(fixtures)/h5py_session.h5"], cwd: repoRoot)
        #expect(r.status == 0)
        let arr = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [[String: Any]]
        let streams = arr[0]["streams"] as! [[String: Any]]
        #expect(streams.map { $0["name"] as! String } == ["imu", "compass", "ble", "vio", "anchors", "location", "groundtruth"])
    }

    @Test func inspectBadFileOneLineNonZero() throws {
        let r = try navbench(["inspect", "\(fixtures)/bad/random.h5", "\(fixtures)/h5py_session.h5"], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(r.err == "navbench: error: \(fixtures)/bad/random.h5: not an HDF5 file (no HDF5 signature), expected trace format v1\n")
        #expect(r.out.hasPrefix("\(fixtures)/h5py_session.h5\n"))
    }

    @Test func synthIsByteIdenticalAndValid() throws {
        let a = NSTemporaryDirectory() + "nb-synth-a-\(UUID().uuidString)", b = NSTemporaryDirectory() + "nb-synth-b-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: a); try? FileManager.default.removeItem(atPath: b) }
        #expect(try navbench(["synth", "--seed", "5", "--navigations", "3", "--out", a]).status == 0)
        #expect(try navbench(["synth", "--seed", "5", "--navigations", "3", "--out", b]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        #expect(names.count == 13)  // 12 sessions + manifest.json
        for n in names {
            #expect(FileManager.default.contentsEqual(atPath: a + "/" + n, andPath: b + "/" + n), "\(n)")
        }
        let v = try navbench(["validate", "--quiet"] + names.filter { $0.hasSuffix(".h5") }.map { a + "/" + $0 })
        #expect(v.status == 0)
        #expect(v.out == "12 valid, 0 invalid\n")
    }

    /// A guide error names the file the user gave, not the session id inside it.
    @Test func guideErrorsNameTheFile() throws {
        let dir = NSTemporaryDirectory() + "navbench-guide-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let drop = try navbench(
            ["trace", "drop-stream", "Datasets/R2-turns_nav1.h5", "--stream", "groundtruth", "--out", dir + "/nogt.h5"], cwd: repoRoot)
        #expect(drop.status == 0, "\(drop.err)")
        // The processing stamp names files, never the machine's folders (the --out path included).
        let stamp = try navbench(["inspect", "--json", dir + "/nogt.h5"], cwd: repoRoot)
        #expect(
            stamp.out.contains("navbench trace drop-stream R2-turns_nav1.h5 --stream groundtruth --out nogt.h5") && !stamp.out.contains(dir),
            "\(stamp.out.prefix(600))")
        let r = try navbench(["guide", "Datasets/R2-turns_recording.h5", dir + "/nogt.h5"], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(r.err == "navbench: error: \(dir)/nogt.h5: a navigation session needs vio and groundtruth streams\n", "\(r.err)")
    }

    @Test func userErrorsAreOneLine() throws {
        let r = try navbench(["synth", "--seed", "1", "--navigations", "0", "--out", "/tmp/x"])
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("navbench: error: --navigations must be from 1 to 100, got 0"))
    }
}

/// A new empty folder under the temporary directory, named after `label` (the test) and a UUID;
/// the caller removes it.
func scratchFolder(_ prefix: String, _ label: String = #function) throws -> String {
    let dir = NSTemporaryDirectory() + "nb-\(prefix)-\(label.filter(\.isLetter))-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
