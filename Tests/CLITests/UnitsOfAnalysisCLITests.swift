import Foundation
import Testing

/// Honest units of analysis (issue 13): ten synthetic venues in one experiment stay ten venues;
/// a report compared with itself never regresses; reports are byte-identical with 1 and 2 jobs.
@Suite(.serialized) struct UnitsOfAnalysisCLITests {
    @Test func tenSeedsGiveNinetyUnitsAndSelfCompareExitsZero() throws {
        let dir = NSTemporaryDirectory() + "nb-seeds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for seed in 1...10 {
            let r = try navbench(["synth", "--seed", "\(seed)", "--navigations", "3", "--out", "\(dir)/seed\(seed)"])
            #expect(r.status == 0, "\(r.err)")
        }
        let spec = "\(dir)/spec.yaml"
        try "name: tenseeds\ninputs:\n  - \(dir)/seed*/*.h5\noutput: \(dir)/out1\n".write(toFile: spec, atomically: true, encoding: .utf8)
        let one = try navbench(["run", spec, "--quiet", "--jobs", "1"])
        #expect(one.status == 0, "\(one.err)")
        let two = try navbench(["run", spec, "--quiet", "--jobs", "2", "--out", "\(dir)/out2"])
        #expect(two.status == 0, "\(two.err)")
        // 3 routes × 3 navigations × 10 venues, each navigation paired with its own venue's recording.
        let metrics = try String(contentsOfFile: "\(dir)/out1/metrics.csv", encoding: .utf8)
        let units = Set(metrics.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") })
        #expect(units.count == 90, "\(units.count) distinct (route, session) units")
        #expect(units.contains("R1-corridor,\(dir)/seed10/R1-corridor_nav3"))
        let summary = try String(contentsOfFile: "\(dir)/out1/summary.md", encoding: .utf8)
        #expect(summary.contains("90 navigation runs"))
        #expect(!summary.contains("already has the recording"))
        // Byte-identical with 1 and 2 jobs (summary, metrics, statistics).
        for file in ["metrics.csv", "cells.csv", "comparisons.csv"] {
            let a = try String(contentsOfFile: "\(dir)/out1/\(file)", encoding: .utf8)
            let b = try String(contentsOfFile: "\(dir)/out2/\(file)", encoding: .utf8)
            #expect(a == b, "\(file) differs between --jobs 1 and 2")
        }
        let s2 = try String(contentsOfFile: "\(dir)/out2/summary.md", encoding: .utf8)
        #expect(
            summary == s2.replacingOccurrences(of: " --out \(dir)/out2", with: ""),
            "summary.md differs between --jobs 1 and 2 beyond the command line")
        // A report compared with itself exits 0, pandas-style NaN cells included.
        let same = try navbench(["compare", "\(dir)/out1", "\(dir)/out2/metrics.csv"])
        #expect(same.status == 0)
        #expect(same.out.contains("**0 regressed**"))
    }

    @Test func repeatedSessionIdsInOneDatasetAreRefusedWithOneLine() throws {
        let dir = NSTemporaryDirectory() + "nb-dup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["synth", "--seed", "1", "--navigations", "1", "--out", "\(dir)/a"])
        #expect(r.status == 0)
        try FileManager.default.copyItem(atPath: "\(dir)/a/R1-corridor_nav1.h5", toPath: "\(dir)/a/R1-corridor_nav1-copy.h5")
        let spec = "\(dir)/spec.yaml"
        try "name: dup\ninputs:\n  - \(dir)/a/*.h5\noutput: \(dir)/out\n".write(toFile: spec, atomically: true, encoding: .utf8)
        let run = try navbench(["run", spec, "--quiet"])
        let summary = try String(contentsOfFile: "\(dir)/out/summary.md", encoding: .utf8)
        #expect(run.status == 1)
        // Path order keeps R1-corridor_nav1-copy.h5 ('-' sorts before '.') and refuses the other.
        #expect(
            summary.contains(
                "R1-corridor_nav1.h5: session R1-corridor_nav1 of route R1-corridor repeats the session id of \(dir)/a/R1-corridor_nav1-copy.h5"))
        #expect(run.err.hasPrefix("navbench: error: ") && run.err.split(separator: "\n").count == 1)
    }

    /// "10 seeds, mean ± 95 % CI" is one spec: `data_seeds:` generates the venues in memory.
    @Test func dataSeedsGenerateVenuesInsideTheExperiment() throws {
        let dir = NSTemporaryDirectory() + "nb-dataseeds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = "\(dir)/spec.yaml"
        try "name: tenvenues\ndata_seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\noutput: \(dir)/out\n".write(
            toFile: spec, atomically: true, encoding: .utf8)
        let run = try navbench(["run", spec, "--quiet"])
        #expect(run.status == 0, "\(run.err)")
        let metrics = try String(contentsOfFile: "\(dir)/out/metrics.csv", encoding: .utf8)
        let units = Set(metrics.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") })
        #expect(units.count == 90 && units.contains("R2-turns,synth-seed7/R2-turns_nav2"))
        let cells = try String(contentsOfFile: "\(dir)/out/cells.csv", encoding: .utf8)
        #expect(cells.contains("\nall,default,end_point_drift,fraction,90,0,"))
        let same = try navbench(["compare", "\(dir)/out", "\(dir)/out"])
        #expect(same.status == 0)
        let bad = "\(dir)/bad.yaml"
        try "name: bad\ndata_seeds: [1, 1]\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try navbench(["run", bad])
        #expect(refused.status == 1 && refused.err == "navbench: error: \(bad): data_seeds: seed 1 repeated\n")
    }

    @Test func unknownBaselineIsOneLine() throws {
        let path = NSTemporaryDirectory() + "nb-base-\(UUID().uuidString).yaml"
        try "name: x\ninputs: Datasets/*.h5\nsweep:\n  arrival: [faithful, symmetric]\nstatistics:\n  baseline: \"arrival=sideways\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try navbench(["run", path, "--print-config"], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(
            r.err
                == "navbench: error: \(path): statistics.baseline: 'arrival=sideways' is not a configuration of the sweep; valid: 'arrival=faithful', 'arrival=symmetric'\n"
        )
    }
}
