import Foundation
import Testing

/// Outputs never replace an input, a device, a FIFO or the filesystem root, whatever command
/// writes them (review of the second wave: each of these was written over with exit 0).
/// Every refusal is one line and exit status 73 (docs/exit-codes.md); inputs stay byte-identical.
@Suite(.serialized) struct OutputSafetyCLITests {
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "navbench-outsafety-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repoRoot + "/Datasets/R2-turns_nav1.h5", toPath: dir + "/nav.h5")
        #expect(mkfifo(dir + "/fifo", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/null-link", withDestinationPath: "/dev/null")
        return dir
    }

    func md5(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func devicesAndFIFOsAreNeverReplaced() throws {
        let d = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: d) }
        for (args, target) in [
            (["trace", "drop-stream", "nav.h5", "--stream", "vio", "--out", "fifo"], "fifo"),
            (["trace", "drop-stream", "nav.h5", "--stream", "vio", "--out", "null-link"], "null-link"),
            (["import", "tum", repoRoot + "/Tests/NavMetricsTests/Fixtures/duplicates/tum_estimate.tum", "--out", "null-link"], "null-link"),
        ] {
            let r = try navbench(args, cwd: d)
            #expect(r.status == 73, "\(args): \(r.err)")
            #expect(
                r.err.hasPrefix("navbench: error: \(target): ") && r.err.contains("an output replaces only a regular file")
                    && r.err.filter { $0 == "\n" }.count == 1, "\(r.err)")
        }
        var st = stat()
        #expect(stat(d + "/fifo", &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(d + "/null-link", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
    }

    @Test func traceOutputsThatCannotBe() throws {
        let d = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let before = try md5(d + "/nav.h5")
        let stdout = try navbench(["trace", "drop-stream", "nav.h5", "--stream", "vio", "--out", "-"], cwd: d)
        #expect(
            stdout.status == 73 && stdout.err == "navbench: error: -: an HDF5 trace cannot go to standard output or an empty path; name a .h5 file\n")
        #expect(!FileManager.default.fileExists(atPath: d + "/-"))
        let same = try navbench(["trace", "drop-stream", "nav.h5", "--stream", "vio", "--out", "nav.h5"], cwd: d)
        #expect(same.status == 73 && same.err == "navbench: error: nav.h5: the output is an input; inputs are never modified (name another --out)\n")
        let trim = try navbench(["trace", "trim", "nav.h5", "--start", "5", "--end", "1", "--out", "t.h5"], cwd: d)
        #expect(trim.status == 64 && trim.err == "navbench: error: --start 5.0 --end 1.0: expected finite seconds with start ≤ end\n")
        #expect(try md5(d + "/nav.h5") == before)
    }

    @Test func savedResultsNeverReplaceTheirInputs() throws {
        let d = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: d) }
        #expect(try navbench(["ape", "nav.h5", "nav.h5", "--align", "se3", "--save-results", "res"], cwd: d).status == 0)
        let aligned = try md5(d + "/res/aligned.h5"), stats = try md5(d + "/res/stats.json")
        let again = try navbench(["ape", "nav.h5", "res/aligned.h5", "--est-stream", "vio", "--save-results", "res"], cwd: d)
        #expect(
            again.status == 73
                && again.err == "navbench: error: res: --save-results: is the folder of the input res/aligned.h5; choose a separate output folder\n")
        let res = try navbench(["res", "res", "--out", "res/stats.json"], cwd: d)
        #expect(
            res.status == 73
                && res.err
                    == "navbench: error: res/stats.json: --out: is the input res/stats.json; inputs are never modified, choose another output\n"
        )
        let root = try navbench(["ape", "nav.h5", "nav.h5", "--save-results", "/"], cwd: d)
        #expect(root.status == 73 && root.err == "navbench: error: /: --save-results: the filesystem root is never an output; name a folder\n")
        #expect(try md5(d + "/res/aligned.h5") == aligned && md5(d + "/res/stats.json") == stats)
        // A rerun into its own results folder is not an input clash.
        #expect(try navbench(["ape", "nav.h5", "nav.h5", "--align", "se3", "--save-results", "res"], cwd: d).status == 0)
    }
}
