import Foundation
import Testing

/// `--allow-external-links` anywhere on the line reaches the reader as a value
/// (`commandLineReadPolicy`), and `NAVBENCH_MEMORY_BUDGET` is read by the CLI only.
@Suite(.serialized) struct ReadPolicyCLITests {
    static let linked = "\(fixtures)/links/linked.h5"

    @Test func externalLinksOnlyWithTheFlagWhereverItStands() throws {
        let refused = try navbench(["validate", Self.linked], cwd: repoRoot)
        #expect(refused.status == 1)
        #expect(
            refused.out.contains("/vio/timestamps: external link to target.h5:/timestamps refused (pass --allow-external-links to follow it)"),
            "\(refused.out)")
        for args in [
            ["--allow-external-links", "validate", Self.linked], ["validate", "--allow-external-links", Self.linked],
            ["validate", Self.linked, "--allow-external-links"],
        ] {
            let r = try navbench(args, cwd: repoRoot)
            #expect(r.status == 0, "\(args): \(r.out) \(r.err)")
            #expect(
                r.out == "\(Self.linked): /vio/timestamps: warning: external link followed (--allow-external-links)\n1 valid, 0 invalid\n",
                "\(args): \(r.out)")
        }
    }

    /// Runs navbench with `variable` set in its environment.
    func navbenchWith(_ arguments: [String], environment variable: String) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let exe = try navbenchExecutable()
        p.arguments = [variable, exe] + arguments
        p.currentDirectoryURL = URL(fileURLWithPath: repoRoot)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, o, e)
    }

    @Test func theMemoryBudgetComesFromTheEnvironmentThroughTheCLI() throws {
        let r = try navbenchWith(["validate", "\(fixtures)/h5py_session.h5"], environment: "NAVBENCH_MEMORY_BUDGET=16")
        #expect(r.status == 1)
        #expect(r.out.contains("more than the memory budget of 16 bytes"), "\(r.out)")
    }

    @Test func aMalformedBudgetIsRefusedInOneLine() throws {
        for bad in ["4G", "0", "-5", ""] {
            let r = try navbenchWith(["validate", "\(fixtures)/h5py_session.h5"], environment: "NAVBENCH_MEMORY_BUDGET=\(bad)")
            #expect(r.status == 64, "\(bad)")
            #expect(r.out == "")
            #expect(r.err == "navbench: error: NAVBENCH_MEMORY_BUDGET='\(bad)': expected a whole number of bytes > 0 (e.g. 4294967296)\n", "\(r.err)")
        }
    }

    /// `--max-configurations` reaches every command that reads a spec: merge refuses a grid above
    /// the limit it is given, as run does.
    @Test func mergeAndCompareTakeTheSpecLimit() throws {
        let dir = NSTemporaryDirectory() + "nb-limits-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = dir + "/s.yaml"
        try "name: limits\ninputs: Datasets/R3-stairs_*.h5\noutput: \(dir)/out\nsweep:\n  rdp_tolerance: [0.3, 0.6]\n".write(
            toFile: spec, atomically: true, encoding: .utf8)
        let refusal = "\(spec): sweep: 2 configurations, more than the limit of 1 (--max-configurations raises it)"
        for command in [["merge", spec], ["compare", "Reports/baseline", "Reports/baseline", "--spec", spec]] {
            let r = try navbench(command + ["--max-configurations", "1"], cwd: repoRoot)
            #expect(r.status != 0 && r.err.contains(refusal), "\(command): \(r.err)")
        }
    }
}
