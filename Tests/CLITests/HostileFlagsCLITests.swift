import Foundation
import Testing

/// Numbers from flags are bounded before use, as their spec keys are (issue 29): each of these
/// crashed or aborted (signal 11, an 8 GB allocation, a trap converting to an integer) and now
/// gives one line and the documented exit status, 64 for a usage error (docs/exit-codes.md).
@Suite struct HostileFlagsCLITests {
    static func oneLine(_ r: (status: Int32, out: String, err: String), status: Int32, saying words: String) {
        #expect(r.status == status, "\(r)")
        #expect(r.err.hasPrefix("navbench: error: "), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(r.err.contains(words), "\(r.err)")
    }

    static func csv() throws -> String {
        let dir = NSTemporaryDirectory() + "navbench-flags-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let text = "x\n" + (0..<64).map { "\(Double($0 % 7) * 0.1)\n" }.joined()
        try text.write(toFile: dir + "/in.csv", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func resamplesBeyondTheSpecCapAreRefused() throws {
        let r = try navbench(["compare", "a", "b", "--resamples", "9223372036854775807"])
        Self.oneLine(r, status: 64, saying: "--resamples 9223372036854775807: expected 100…1000000")
    }

    /// `compare --tolerance` is validated as the spec's `compare:` is (issue 50, item 13): NaN, a
    /// negative or an infinite part, or a NUL inside a number, is one line, never a gate where
    /// every metric (or none) regresses.
    @Test(arguments: ["success_rate=nan,0", "success_rate=-1,0", "success_rate=0,inf", "success_rate=0\u{0}5,0", "success_rate=1"])
    func badCompareTolerancesAreRefused(_ tolerance: String) throws {
        let r = try navbench(["compare", "Reports/baseline", "Reports/baseline", "--tolerance", tolerance], cwd: repoRoot)
        Self.oneLine(r, status: 64, saying: "expected METRIC=ABS,REL with ABS and REL finite numbers ≥ 0")
    }

    @Test func aPluginTimeoutBeyondADayIsRefused() throws {
        let dir = try Self.csv()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["filter", "--spec", "exec:cat", "--plugin-timeout", "1e11", "--column", "x", dir + "/in.csv", "--out", dir + "/o.csv"])
        Self.oneLine(r, status: 64, saying: "expected seconds in (0, 86400]")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.csv"))
    }

    @Test func aRateWithAnInfinitePeriodIsRefused() throws {
        let dir = try Self.csv()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["adev", "--column", "x", "--rate=5e-324", dir + "/in.csv"])
        Self.oneLine(r, status: 64, saying: "--rate must be a positive number of Hz with a finite period, got 5e-324")
        // A tiny but usable rate still works (τ = 2ᵏ/rate).
        let ok = try navbench(["adev", "--column", "x", "--rate=1e-100", dir + "/in.csv"])
        #expect(ok.status == 0, "\(ok)")
    }

    @Test func jobsShardsAndLimitsAreBounded() throws {
        Self.oneLine(try navbench(["run", "x.yaml", "--jobs", "99999999999"]), status: 64, saying: "--jobs must be from 1 to 1024")
        Self.oneLine(
            try navbench(["run", "x.yaml", "--shard", "1/9223372036854775807"]), status: 64, saying: "expected K/N with 1 ≤ K ≤ N ≤ 1000000")
        Self.oneLine(
            try navbench(["run", "x.yaml", "--max-configurations", "9223372036854775807"]), status: 64,
            saying: "--max-configurations must be from 1 to 10000000")
    }
}
