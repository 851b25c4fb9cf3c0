import Foundation
import Testing

/// Nothing already inside an output folder is trusted, and an input named through any option
/// form is never replaced (issue 29): each case below wrote outside the output or replaced an
/// input, and now gives one line and exit 73 with the outside and the input untouched.
@Suite struct PlantedEntriesCLITests {
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "navbench-planted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/elsewhere", withIntermediateDirectories: true)
        return dir
    }

    static func refused(_ r: (status: Int32, out: String, err: String), naming path: String, saying words: String) {
        #expect(r.status == 73, "\(r)")
        #expect(r.err.hasPrefix("navbench: error: \(path): ") && r.err.contains(words), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
    }

    /// results.sqlite → a foreign database (its tables were dropped and rows written there),
    /// .navbench.lock → elsewhere (the target was created), routes/ → elsewhere (it received
    /// the route CSVs).
    @Test(arguments: [("results.sqlite", "elsewhere/foreign.sqlite"), (".navbench.lock", "elsewhere/lock"), ("routes", "elsewhere")])
    func aPlantedLinkIsNeverFollowed(_ name: String, _ target: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("foreign".utf8).write(to: URL(fileURLWithPath: dir + "/elsewhere/foreign.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/out/" + name, withDestinationPath: dir + "/" + target)
        let r = try navbench(["run", "Experiments/default.yaml", "--out", dir + "/out", "--quiet"], cwd: repoRoot)
        Self.refused(r, naming: dir + "/out/" + name, saying: "symbolic link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/elsewhere") == ["foreign.sqlite"])
        #expect(try String(contentsOfFile: dir + "/elsewhere/foreign.sqlite", encoding: .utf8) == "foreign")
    }

    /// A FIFO where merge reads a shard store hung it.
    @Test func aFIFOShardStoreIsRefusedNotWaitedFor() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/out/results.shard-1-of-2.sqlite", 0o644) == 0)
        let r = try navbench(["merge", "Experiments/default.yaml", "--out", dir + "/out"], cwd: repoRoot)
        Self.refused(r, naming: dir + "/out/results.shard-1-of-2.sqlite", saying: "is a FIFO inside the report folder")
    }

    /// `import kitti … --times t.txt --out t.txt` and `import csv … --mapping=m.yaml --out m.yaml`
    /// replaced the times file and the mapping with HDF5.
    @Test func inputsNamedByAnyOptionFormAreNeverReplaced() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let kitti = dir + "/ok.kitti", times = dir + "/t.txt"
        try "1 0 0 0 0 1 0 0 0 0 1 0\n1 0 0 1 0 1 0 0 0 0 1 0\n".write(toFile: kitti, atomically: true, encoding: .utf8)
        try "0\n0.1\n".write(toFile: times, atomically: true, encoding: .utf8)
        Self.refused(
            try navbench(["import", "kitti", kitti, "--times", times, "--out", times]), naming: times, saying: "inputs are never modified")
        #expect(try String(contentsOfFile: times, encoding: .utf8) == "0\n0.1\n")
        let csv = "Tests/NavImportTests/Fixtures/import/csv/phone.csv"
        let mapping = dir + "/m.yaml"
        let text = try String(contentsOfFile: repoRoot + "/Tests/NavImportTests/Fixtures/import/csv/phone.mapping.yaml", encoding: .utf8)
        try text.write(toFile: mapping, atomically: true, encoding: .utf8)
        Self.refused(
            try navbench(["import", "csv", csv, "--mapping=" + mapping, "--out", mapping], cwd: repoRoot), naming: mapping,
            saying: "inputs are never modified")
        #expect(try String(contentsOfFile: mapping, encoding: .utf8) == text)
    }

    /// `output: "~/x"` wrote into `./~/x` while Foundation expanded `~` for the store's check,
    /// ending in an NSCocoaErrorDomain dump: refused in one line, nothing created.
    @Test func aTildeOutputIsRefusedNotHalfExpanded() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = repoRoot + "/Experiments/default.yaml"
        let r = try navbench(["run", spec, "output=~/navbench-tilde-test", "--quiet"], cwd: dir)
        Self.refused(r, naming: "~/navbench-tilde-test", saying: "'~' is not expanded in a report folder")
        #expect(!FileManager.default.fileExists(atPath: dir + "/~"))
    }
}
