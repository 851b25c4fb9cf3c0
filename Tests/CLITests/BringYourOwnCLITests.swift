import Foundation
import Testing

/// `guide --vio` and `navbench trace` from the command line (issue 14): exact one-line errors,
/// outputs that validate, inputs untouched.
@Suite(.serialized) struct BringYourOwnCLITests {
    static func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-byo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test func guideWithTheOwnVIOAsTUMPrintsTheSameMetrics() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = "Datasets/R2-turns_recording.h5", nav = "Datasets/R2-turns_nav1.h5"
        let export = try navbench(["export", "tum", nav, "--stream", "vio", "--out", dir + "/own.tum"], cwd: repoRoot)
        #expect(export.status == 0, "\(export.err)")
        let plain = try navbench(["guide", rec, nav], cwd: repoRoot)
        let replaced = try navbench(["guide", rec, nav, "--vio", dir + "/own.tum"], cwd: repoRoot)
        #expect(plain.status == 0 && replaced.status == 0, "\(replaced.err)")
        #expect(plain.out == replaced.out)
        let far = try navbench(["guide", rec, nav, "--vio", dir + "/own.tum", "--t-offset", "100000"], cwd: repoRoot)
        #expect(far.status == 1)
        #expect(far.err.hasPrefix("navbench: error: \(dir)/own.tum: no time overlap: the estimate spans "))
        #expect(far.err.split(separator: "\n").count == 1)
    }

    @Test func traceDropAddMergeTrim() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = "Datasets/R2-turns_nav1.h5"
        let before = try Data(contentsOf: URL(fileURLWithPath: repoRoot + "/" + nav))
        #expect(try navbench(["trace", "drop-stream", nav, "--stream", "vio", "--out", dir + "/a.h5"], cwd: repoRoot).status == 0)
        let add = try navbench(["trace", "add-stream", dir + "/a.h5", "--from", nav, "--stream", "vio", "--out", dir + "/b.h5"], cwd: repoRoot)
        #expect(add.status == 0, "\(add.err)")
        #expect(try navbench(["validate", dir + "/b.h5"], cwd: repoRoot).status == 0)
        let again = try navbench(["trace", "add-stream", dir + "/b.h5", "--from", nav, "--stream", "vio", "--out", dir + "/c.h5"], cwd: repoRoot)
        #expect(again.status == 1)
        #expect(again.err == "navbench: error: \(dir)/b.h5: already has /vio (--replace to overwrite it)\n")
        let same = try navbench(["trace", "trim", dir + "/b.h5", "--start", "0", "--end", "1e9", "--out", dir + "/b.h5"], cwd: repoRoot)
        #expect(same.status == 73)
        #expect(same.err == "navbench: error: \(dir)/b.h5: the output is an input; inputs are never modified (name another --out)\n")
        let inspect = try navbench(["inspect", "--json", dir + "/b.h5"], cwd: repoRoot)
        #expect(inspect.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: repoRoot + "/" + nav)) == before)
        #expect(!FileManager.default.fileExists(atPath: dir + "/c.h5"))
    }
}
