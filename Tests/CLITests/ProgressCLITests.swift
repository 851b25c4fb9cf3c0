import Foundation
import Testing

/// Progress for every phase (issue 28, item 6): off a terminal (here stderr is a pipe) one line
/// per phase as it ends, in the notes' style; nothing with --quiet.
@Suite struct ProgressCLITests {
    @Test func oneLinePerPhaseOffATerminalAndNothingWhenQuiet() throws {
        let dir = NSTemporaryDirectory() + "navbench-progress-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = dir + "/spec.yaml"
        try """
        name: progress
        inputs:
          - \(repoRoot)/Datasets/R1-corridor_recording.h5
          - \(repoRoot)/Datasets/R1-corridor_nav1.h5
        output: \(dir)/out
        sweep:
          rdp_tolerance: [0.3, 1.0]
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let r = try navbench(["run", spec])
        #expect(r.status == 0, "\(r)")
        let lines = r.err.split(separator: "\n").map(String.init)
        let pattern = /navbench: note: ([a-z -]+): (\d+) done in \d+ s/
        #expect(lines.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(r.err)")
        let phases = Dictionary(lines.compactMap { $0.wholeMatch(of: pattern).map { (String($0.1), Int($0.2)!) } }, uniquingKeysWith: { a, _ in a })
        #expect(phases["guidance runs"] == 2)
        #expect(phases["statistics tables"] == 2)  // the route, then the pooled table
        let quiet = try navbench(["run", spec, "--quiet"])
        #expect(quiet.status == 0 && quiet.err.isEmpty, "\(quiet)")
    }
}
