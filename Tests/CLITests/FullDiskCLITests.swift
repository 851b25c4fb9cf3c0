import Foundation
import Testing

/// A full disk while writing (issue 29: `trace trim`, `import`, `filter --stream` segfaulted in
/// libhdf5's close and left `.tmp-PID` files). Simulated with a file-size limit (`ulimit -f`:
/// writes past it fail with EFBIG, as on a full disk; no mount needed): one line naming the
/// output, exit 73 (docs/exit-codes.md), and nothing left in the output folder.
@Suite struct FullDiskCLITests {
    static let nav = "Datasets/R1-corridor_nav1.h5"
    static let tum = "Tests/NavImportTests/Fixtures/import/real/tum-fr1-xyz/freiburg1_xyz-groundtruth.txt"

    @Test(arguments: [
        ["trace", "trim", nav, "--start", "0", "--end", "1000", "--out", "OUT/t.h5"],
        ["filter", nav, "--stream", "imu/accelerometer", "--spec", "mean:window=5", "--out", "OUT/f.h5"],
        ["import", "tum", tum, "--out", "OUT/i.h5"],
        ["export", "csv", nav, "--stream", "imu", "--out", "OUT/imu.csv"],
    ])
    func aFullDiskIsOneLineAnd73AndNoLeftovers(_ arguments: [String]) throws {
        try Self.check(arguments, names: try #require(arguments.last), leaves: [])
    }

    /// `run` (exit 1 and "SQLite error 13 … COMMIT TRANSACTION", no file named): the store is
    /// named; what it committed stays, to be resumed.
    @Test func aFullDiskDuringARunNamesTheStore() throws {
        try Self.check(
            ["run", "Experiments/default.yaml", "--out", "OUT/r", "--quiet"], names: "OUT/r/results.sqlite",
            leaves: [".navbench.lock", "results.sqlite"], in: "r")
    }

    static func check(_ arguments: [String], names named: String, leaves: [String], in sub: String = "") throws {
        let dir = NSTemporaryDirectory() + "navbench-full-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let args = arguments.map { $0.replacingOccurrences(of: "OUT/", with: dir + "/") }
        let exe = try navbenchExecutable()
        // 60 KiB: the inputs are read whole, the outputs are larger.
        let r = try run("/bin/bash", ["-c", "ulimit -f 60; exec \"$0\" \"$@\"", exe] + args, cwd: repoRoot)
        #expect(r.status == 73, "\(r)")
        let output = named.replacingOccurrences(of: "OUT/", with: dir + "/")
        #expect(r.err.hasPrefix("navbench: error: \(output): "), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/" + sub).sorted() == leaves)
    }
}
