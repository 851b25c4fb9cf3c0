import Foundation
import NavIO
import Testing

/// What a killed run left is removed by the next one (issue 50, item 9): `.NAME.tmp-PID` files of
/// processes that are gone, in the report folder and below; a live process's temporary, a file
/// not named so, and a link are kept.
@Suite struct StaleTemporariesTests {
    @Test func temporariesOfDeadProcessesAreRemoved() throws {
        let dir = NSTemporaryDirectory() + "navbench-stale-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/plots", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        let mine = ProcessInfo.processInfo.processIdentifier
        for name in [".cells.csv.tmp-\(dead)", "plots/.a.svg.tmp-\(dead)", ".x.tmp-\(mine)", ".y.tmp-1", "notes.tmp-\(dead)", "summary.md"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        try FileManager.default.createSymbolicLink(atPath: dir + "/.l.tmp-\(dead)", withDestinationPath: dir + "/summary.md")
        let removed = removeStaleTemporaries(in: dir)
        #expect(Set(removed) == [dir + "/.cells.csv.tmp-\(dead)", dir + "/plots/.a.svg.tmp-\(dead)"])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir))
        #expect(left == [".x.tmp-\(mine)", ".y.tmp-1", "notes.tmp-\(dead)", "summary.md", ".l.tmp-\(dead)", "plots"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/plots").isEmpty)
    }
}
