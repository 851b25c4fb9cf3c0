import Foundation
import Testing

/// `--allow-external-links` anywhere on the line reaches the reader as a value
/// (`commandLineReadPolicy`), and `NAVBENCH_MEMORY_BUDGET` is read by the CLI only.
@Suite(.serialized) struct ReadPolicyCLITests {
    static let linked = "\(fixtures)/links/linked.h5"

    @Test func externalLinksOnlyWithTheFlagWhereverItStands() throws {
        let refused = try navbench(["validate", Self.linked], cwd: repoRoot)
        #expect(refused.status == 1)
        #expect(refused.out.contains("/vio/timestamps: external link to target.h5:/timestamps refused (pass --allow-external-links to follow it)"), "\(refused.out)")
        for args in [["--allow-external-links", "validate", Self.linked], ["validate", "--allow-external-links", Self.linked],
                     ["validate", Self.linked, "--allow-external-links"]] {
            let r = try navbench(args, cwd: repoRoot)
            #expect(r.status == 0, "\(args): \(r.out) \(r.err)")
            #expect(r.out == "\(Self.linked): /vio/timestamps: warning: external link followed (--allow-external-links)\n1 valid, 0 invalid\n",
                    "\(args): \(r.out)")
        }
    }

    @Test func theMemoryBudgetComesFromTheEnvironmentThroughTheCLI() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let exe = [repoRoot + "/.build/debug/navbench", repoRoot + "/.build/release/navbench"].first { FileManager.default.isExecutableFile(atPath: $0) }!
        p.arguments = ["NAVBENCH_MEMORY_BUDGET=16", exe, "validate", "\(fixtures)/h5py_session.h5"]
        p.currentDirectoryURL = URL(fileURLWithPath: repoRoot)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1)
        #expect(text.contains("more than the memory budget of 16 bytes"), "\(text)")
    }
}
