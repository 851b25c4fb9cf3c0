import Foundation
import Testing

/// `navbench filter --spec exec:…` and `run` with a failing plugin: exact output, one error line.
@Suite(.serialized) struct PluginCLITests {
    func scratch() throws -> String {
        let d = NSTemporaryDirectory() + "nb-plugin-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test func filterRunsAPluginOnACSVColumn() throws {
        let dir = try scratch(); defer { try? FileManager.default.removeItem(atPath: dir) }
        try "t,rssi\n0,-70.5\n0.5,-71.25\n1,-69\n".write(toFile: dir + "/in.csv", atomically: true, encoding: .utf8)
        let r = try navbench(
            [
                "filter", dir + "/in.csv", "--column", "rssi", "--time-column", "t",
                "--spec", "exec:awk -f Tests/Plugins/double.awk", "--out", dir + "/out.csv",
            ], cwd: repoRoot)
        #expect(r.status == 0 && r.err == "", "\(r.err)")
        #expect(r.out == dir + "/out.csv\n")
        #expect(
            try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "t,rssi,rssi_filtered\n0,-70.5,-141\n0.5,-71.25,-142.5\n1,-69,-138\n")
    }

    @Test func failingPluginIsOneLineAndNoOutput() throws {
        let dir = try scratch(); defer { try? FileManager.default.removeItem(atPath: dir) }
        try "t,rssi\n0,-70.5\n0.5,-71.25\n".write(toFile: dir + "/in.csv", atomically: true, encoding: .utf8)
        let r = try navbench(
            [
                "filter", dir + "/in.csv", "--column", "rssi", "--time-column", "t",
                "--spec", "exec:sh Tests/Plugins/exit3.sh", "--out", dir + "/out.csv",
            ], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(r.out == "")
        #expect(r.err == "navbench: error: plugin 'exec:sh Tests/Plugins/exit3.sh': failed (exit status 3; stderr: exit3.sh: window must be odd)\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
        let shell = try navbench(["filter", dir + "/in.csv", "--column", "rssi", "--spec", "exec:awk  -f x", "--out", dir + "/o.csv"], cwd: repoRoot)
        #expect(shell.status == 64)
        #expect(shell.err.contains("an empty argument (two spaces in a row, or a trailing space)"))
    }
}
