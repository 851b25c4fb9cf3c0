import Foundation
import Testing

@Suite(.serialized) struct ExperimentCLITests {
    @Test func compareExitCodes() throws {
        let dir = NSTemporaryDirectory() + "nb-cmp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let baseline = try String(contentsOfFile: repoRoot + "/Reports/baseline/metrics.csv", encoding: .utf8)
        let same = try navbench(["compare", "Reports/baseline", "Reports/baseline/metrics.csv"], cwd: repoRoot)
        #expect(same.status == 0)
        #expect(same.out.contains("**0 regressed**, 0 moved without regressing"))
        // One drift value of one run worse by 1 cm: the route has 3 independent units (sessions; its 24
        // configurations are nested in them, not replicates), too few for a CI, so the per-row rule decides: a regression, said so.
        var lines = baseline.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let i = lines.firstIndex { $0.contains(",end_point_drift,") }!
        var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[fields.count - 2] = String(Double(fields[fields.count - 2])! + 0.01)
        lines[i] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(toFile: dir + "/metrics.csv", atomically: true, encoding: .utf8)
        let one = try navbench(["compare", "Reports/baseline", dir + "/metrics.csv"], cwd: repoRoot)
        #expect(one.status == 1)
        #expect(one.out.contains("| **worse** | \(fields[0]) | end_point_drift | 3 |") && one.out.contains("not paired (3 units < 5)"))
        // Every drift value of that route 10 % + 1 cm worse: a systematic regression (exit 1, named).
        for j in lines.indices where lines[j].hasPrefix(fields[0] + ",") && lines[j].contains(",end_point_drift,") {
            var f = lines[j].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[f.count - 2] = String(Double(f[f.count - 2])! * 1.1 + 0.01)
            lines[j] = f.joined(separator: ",")
        }
        try lines.joined(separator: "\n").write(toFile: dir + "/metrics.csv", atomically: true, encoding: .utf8)
        let worse = try navbench(["compare", "Reports/baseline", dir + "/metrics.csv", "--junit", dir + "/junit.xml"], cwd: repoRoot)
        #expect(worse.status == 1)
        #expect(worse.out.contains("**1 regressed**"))
        #expect(worse.out.contains("| **worse** | \(fields[0]) | end_point_drift |"))
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"1\"") && junit.contains("<failure type=\"regression\""))
        let unreadable = try navbench(["compare", "Reports/baseline", dir + "/nothing.csv"], cwd: repoRoot)
        #expect(unreadable.status == 2)
        #expect(unreadable.err == "navbench: error: \(dir)/nothing.csv: no such file\n")
    }

    @Test func badSpecIsOneLine() throws {
        let path = NSTemporaryDirectory() + "nb-spec-\(UUID().uuidString).yaml"
        try "name: x\ninputs: Datasets/*.h5\nsweep:\n  haptics: [strict]\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try navbench(["run", path], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(
            r.err
                == "navbench: error: \(path): sweep.haptics: unknown sweep dimension; valid: rdp_tolerance, rdp_distance, registration, anchor_sightings, position_filter, wording, arrival, haptic, seeds, estimator\n"
        )
    }
}

@Suite struct SpecFileCLITests {
    @Test func missingSpecIsOneLine() throws {
        let r = try navbench(["run", "/nonexistent/spec.yaml"])
        #expect(r.status == 1)
        #expect(r.err == "navbench: error: /nonexistent/spec.yaml: no such file, expected a YAML experiment spec\n")
    }
}

@Suite struct RunOverrideCLITests {
    @Test func printConfigShowsTheResolvedSweep() throws {
        let r = try navbench(["run", "Experiments/default.yaml", "rdp_tolerance=0.6,1", "wording=six-sector", "--print-config"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.out.contains("output: \"Reports/default\"\n"))
        #expect(r.out.contains("sweep:\n  rdp_tolerance: [0.6, 1]\n  rdp_distance: [\"line\"]\n  registration: [\"gravity-aligned\", \"full\"]\n"))
        #expect(r.out.contains("  wording: [\"six-sector\"]\n"))
    }

    @Test func badOverrideIsOneLine() throws {
        let r = try navbench(["run", "Experiments/default.yaml", "arrival=sideways", "--print-config"], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(r.err == "navbench: error: Experiments/default.yaml: sweep.arrival: 'sideways' is not one of faithful, symmetric\n")
    }
}
