import Foundation
import Testing

/// The evo user's daily options (issue 15): duplicate stamps, offsets, yaw about any up axis,
/// saved results, plots, res, drift and score, as exact output where it is short.
@Suite(.serialized) struct EvoUserCLITests {
    static let dup = "Tests/NavMetricsTests/Fixtures/duplicates"

    @Test func duplicateStampsWarnOnceWithTheCount() throws {
        let r = try navbench(["ape", "\(Self.dup)/tum_groundtruth.tum.gz", "\(Self.dup)/tum_estimate.tum", "--align", "se3"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(
            r.err == """
                navbench: warning: \(Self.dup)/tum_groundtruth.tum.gz: 12 duplicate timestamps (a pose with its predecessor's stamp); kept and associated as evo does
                navbench: warning: \(Self.dup)/tum_estimate.tum: 3 duplicate timestamps (a pose with its predecessor's stamp); kept and associated as evo does

                """)
        #expect(r.out.hasPrefix("APE w.r.t. translation part (m)\n(with SE(3) Umeyama alignment)\n\n"))
        #expect(r.out.hasSuffix("     pairs\t702\n"))
    }

    @Test func estimateOffsetReportsOffsetAndPeak() throws {
        let r = try navbench(
            ["rpe", "\(Self.dup)/euroc_groundtruth.csv", "\(Self.dup)/euroc_estimate.tum", "--estimate-t-offset", "--json"], cwd: repoRoot)
        #expect(r.status == 0)
        let o = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        let e = o["t_offset_estimate"] as! [String: Any]
        #expect(abs(e["offset"] as! Double) < 0.02)
        #expect(e["peak_correlation"] as! Double > 0.3)
        #expect(o["t_offset"] as! Double == e["offset"] as! Double)
    }

    /// The fixture's estimate has no shift, so a no-op estimator would pass the test above: here
    /// the estimate's stamps are moved by +0.25 s and the offset found must undo it (to well
    /// within its 0.05 s sample period), giving the APE of the unshifted pair.
    @Test func estimateOffsetUndoesAKnownShift() throws {
        let dir = NSTemporaryDirectory() + "navbench-shift-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try String(contentsOfFile: repoRoot + "/\(Self.dup)/euroc_estimate.tum", encoding: .utf8)
        let shifted =
            original.split(separator: "\n").map { line -> String in
                guard !line.hasPrefix("#"), let first = line.split(separator: " ").first, let t = Double(first) else { return String(line) }
                return String(format: "%.9f", t + 0.25) + line.dropFirst(first.count)
            }.joined(separator: "\n") + "\n"
        try shifted.write(toFile: dir + "/shifted.tum", atomically: true, encoding: .utf8)
        func ape(_ estimate: String) throws -> [String: Any] {
            let r = try navbench(
                ["ape", "\(Self.dup)/euroc_groundtruth.csv", estimate, "--estimate-t-offset", "--align", "se3", "--json"], cwd: repoRoot)
            #expect(r.status == 0, "\(r.err)")
            return try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        }
        let moved = try ape(dir + "/shifted.tum"), still = try ape("\(Self.dup)/euroc_estimate.tum")
        let offset = moved["t_offset"] as! Double
        #expect(abs(offset - (still["t_offset"] as! Double) + 0.25) < 1e-6, "offset \(offset)")
        #expect(abs(offset + 0.25) < 0.01, "offset \(offset)")
        #expect(moved["pairs"] as! Int == still["pairs"] as! Int)
        #expect(abs((moved["rmse"] as! Double) - (still["rmse"] as! Double)) < 1e-9)
    }

    @Test func offsetFlagsConflict() throws {
        let r = try navbench(["ape", "a.tum", "b.tum", "--estimate-t-offset", "--t-offset", "0.1"], cwd: repoRoot)
        #expect(r.status == 64)
        #expect(r.err.contains("--estimate-t-offset finds the offset itself; drop --t-offset"))
    }
}

@Suite(.serialized) struct ResCLITests {
    @Test func resOnTwoSavedResultsEqualsTheirJSON() throws {
        let dup = EvoUserCLITests.dup
        let tmp = NSTemporaryDirectory() + "navbench-res-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let a = try navbench(
            ["ape", "\(dup)/tum_groundtruth.tum", "\(dup)/tum_estimate.tum", "--align", "sim3", "--json", "--save-results", tmp + "/a"], cwd: repoRoot
        )
        let b = try navbench(
            [
                "rpe", "\(dup)/euroc_groundtruth.csv", "\(dup)/euroc_estimate.tum", "--align", "yaw", "--up-axis", "z", "--json",
                "--save-results", tmp + "/b", "--plot", tmp + "/b.svg",
            ], cwd: repoRoot)
        #expect(a.status == 0 && b.status == 0)
        let r = try navbench(["res", tmp + "/a", tmp + "/b", "--json"], cwd: repoRoot)
        #expect(r.status == 0)
        let arr = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [NSDictionary]
        let ja = try JSONSerialization.jsonObject(with: Data(a.out.utf8)) as! NSDictionary
        let jb = try JSONSerialization.jsonObject(with: Data(b.out.utf8)) as! NSDictionary
        #expect(arr == [ja, jb])
        let csv = try navbench(["res", tmp + "/a", tmp + "/b", "--format", "csv"], cwd: repoRoot)
        let rows = csv.out.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows[0] == ["name", "metric", "relation", "unit", "pairs", "rmse", "mean", "median", "std", "min", "max", "sse"])
        struct Stats: Decodable { var rmse, mean, median, std, min, max, sse: Double; var pairs: Int }
        for (row, out) in [(rows[1], a.out), (rows[2], b.out)] {
            let s = try JSONDecoder().decode(Stats.self, from: Data(out.utf8))
            #expect(row[4] == String(s.pairs))
            #expect(row[5...].map { Double($0)! } == [s.rmse, s.mean, s.median, s.std, s.min, s.max, s.sse])
        }
        #expect(FileManager.default.fileExists(atPath: tmp + "/b.svg"))
        let bad = try navbench(["res", tmp + "/a", tmp + "/missing"], cwd: repoRoot)
        #expect(bad.status == 1)
        #expect(bad.err.contains("\(tmp)/missing/stats.json: no stats.json"))
        #expect(bad.out.contains("tum_estimate.tum"))  // the good one is still tabulated
    }
}

@Suite(.serialized) struct DriftScoreCLITests {
    @Test func driftAndScoreJSON() throws {
        let dup = EvoUserCLITests.dup
        let d = try navbench(
            ["drift", "\(dup)/tum_groundtruth.tum", "\(dup)/tum_estimate.tum", "--align", "se3", "--length", "5", "--json"], cwd: repoRoot)
        #expect(d.status == 0)
        let dj = try JSONSerialization.jsonObject(with: Data(d.out.utf8)) as! [String: Any]
        #expect(dj["metric"] as? String == "drift")
        #expect((dj["segment_drift"] as! [[String: Any]]).count == 1)
        let s = try navbench(["score", "\(dup)/euroc_groundtruth.csv", "\(dup)/euroc_estimate.tum", "--align", "yaw", "--json"], cwd: repoRoot)
        #expect(s.status == 0)
        let sj = try JSONSerialization.jsonObject(with: Data(s.out.utf8)) as! [String: Any]
        #expect(sj["up_axis"] as? String == "z")
        #expect((sj["ce95_m"] as! Double) >= (sj["ce50_m"] as! Double))
        let bad = try navbench(["drift", "\(dup)/tum_groundtruth.tum", "\(dup)/tum_estimate.tum", "--length=-1"], cwd: repoRoot)
        #expect(bad.status == 64 && bad.err.contains("--length must be a positive number of metres, got -1.0"))
    }
}

@Suite(.serialized) struct DuplicateImportCLITests {
    @Test func importKeepsTheLastPoseOfARepeatWithANote() throws {
        let out = NSTemporaryDirectory() + "navbench-dupimport-\(getpid()).h5"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try navbench(["import", "tum", "\(EvoUserCLITests.dup)/tum_groundtruth.tum.gz", "--out", out], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.err == "navbench: note: \(EvoUserCLITests.dup)/tum_groundtruth.tum.gz: 12 repeated timestamps; kept the last pose of each repeat\n")
        #expect(r.out == "\(out): recording; groundtruth 2388\n")
    }
}
