import Foundation
import NavSim
import Testing

@testable import NavPipeline

/// Walker profile files (`@FILE`, issue 30 item 2: "usable wherever a walker is named"): the file's
/// values set on its base, each with its stated source in the provenance table; overrides after
/// the file; the file's checksum in the closed-loop keys; hostile files refused in one line.
@Suite struct WalkerProfileFileTests {
    func write(_ text: String) throws -> (dir: String, path: String) {
        let dir = tempFolder("walker-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/lab.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    @Test func aFileSetsItsValuesWithTheirSources() throws {
        let (dir, path) = try write(
            """
            navbench_walker: 1
            base: cane:bear=20
            parameters:
              speed: 0.72
              reaction_time: {value: 1.7, source: "fitted: 12 sessions, lab X"}
              mechanistic_turns: 1
            """)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try walkerProfile(parsing: "@" + path)
        let cane = try NavigatorProfile(parsing: "cane:bear=20")
        #expect(p.speed == 0.72 && p.speechReactionSeconds == 1.7 && p.mechanisticTurns && p.bearDegrees == 20)
        #expect(p.stepDirectionStdDegrees == cane.stepDirectionStdDegrees && p.sourceSHA256.count == 64)
        let sources = Dictionary(uniqueKeysWithValues: p.parameters.map { ($0.key, $0.source.text) })
        #expect(sources["speed"] == "from lab.yaml")
        #expect(sources["reaction_time"] == "from lab.yaml: fitted: 12 sessions, lab X")
        #expect(sources["step_direction_std"]?.hasPrefix("assumed") == true)
        // Overrides after the file win, and are no longer the file's.
        let o = try walkerProfile(parsing: "@\(path):speed=0.9")
        #expect(o.speed == 0.9 && o.speechReactionSeconds == 1.7 && o.parameterSources["speed"] == nil)
        // A closed-loop cell keyed by the walker changes with the file.
        let spec = try ExperimentSpec.parse(
            "name: w\ninputs: [\(datasets)/venue/B2-lobby_recording.h5]\noutput: \(dir)/out\nclosed_loop:\n  walker: ['@\(path)']\n  runs: 2\n",
            file: "w.yaml")
        let before = planClosedLoopCells(planExperiment(spec)).cells.map(\.key)
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "0.72", with: "0.73").write(
            toFile: path, atomically: true, encoding: .utf8)
        let spec2 = try ExperimentSpec.parse(
            "name: w\ninputs: [\(datasets)/venue/B2-lobby_recording.h5]\noutput: \(dir)/out\nclosed_loop:\n  walker: ['@\(path)']\n  runs: 2\n",
            file: "w.yaml")
        let after = planClosedLoopCells(planExperiment(spec2)).cells.map(\.key)
        #expect(before.count == 1 && after.count == 1 && before != after)
    }

    @Test func badFilesAreOneLineNamingTheKey() throws {
        let cases: [(String, String)] = [
            ("navbench_walker: 2\nbase: cane\nparameters: {}\n", "lab.yaml: navbench_walker: expected 1"),
            ("navbench_walker: 1\nbase: robot\nparameters: {}\n", "lab.yaml: base: walker 'robot': unknown profile 'robot'"),
            (
                "navbench_walker: 1\nbase: cane\nparameters: {speed: 1e308}\n",
                "lab.yaml: parameters.speed: speed must be from 0.1 to 5, got 1e+308"
            ),
            (
                "navbench_walker: 1\nbase: cane\nparameters: {shoe: 3}\n",
                "lab.yaml: parameters.shoe: unknown key 'shoe' (expected exact_angles, mechanistic_turns, speed,"
            ),
            (
                "navbench_walker: 1\nbase: cane\nparameters: {speed: {value: 1, unit: m}}\n",
                "lab.yaml: parameters.speed.unit: unknown key; valid: value, source"
            ),
            ("navbench_walker: 1\nbase: '@other.yaml'\nparameters: {}\n", "lab.yaml: base: expected a walker text"),
            ("[1, 2]\n", "lab.yaml: expected a mapping"),
        ]
        for (text, message) in cases {
            let (dir, path) = try write(text)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            do {
                _ = try walkerProfile(parsing: "@" + path)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix(path + ": " + message.dropFirst("lab.yaml: ".count)), "\(error.description)")
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(throws: NavigatorProfileError.self) { try walkerProfile(parsing: "@/nonexistent/lab.yaml") }
        #expect(throws: NavigatorProfileError.self) { try walkerProfile(parsing: "@/dev/zero") }
    }
}
