import Foundation
import NavCore
import NavIO
import NavSignal
import Testing

@testable import NavPipeline

/// `exec:` plugins and the `estimators:` dimension (issue 14, checks 2): exact doubling, one line
/// per failing/hanging/malformed plugin while the sweep completes, store reruns only after the
/// plugin file changes, estimate files per session with listed failures. The test plugins
/// (Tests/Plugins) are awk and sh: `swift test` needs no Python.
@Suite(.serialized) struct PluginTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let plugins = root + "/Tests/Plugins"

    static func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-plugin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    func plugin(_ spec: String, timeout: Double = 300) throws -> ExecPlugin { try ExecPlugin(parsing: spec, timeout: timeout)! }

    @Test func doublingPluginGivesExactlyTwiceTheInput() throws {
        var rng = SeededRandom(seed: 14, label: "double")
        let x = (0..<2000).map { i -> Double in
            let m = rng.gaussian() * pow(10, Double(i % 30 - 15))
            return i == 0 ? 0 : i == 1 ? -0.0 : i == 2 ? 1e-300 : m
        }
        let t = x.indices.map { 1_700_000_000 + Double($0) * 0.01 }
        let f = try plugin("exec:awk -f \(Self.plugins)/double.awk")
        let y = try f.apply(x, timestamps: t, sampleRate: 100)
        #expect(y.map(\.bitPattern) == x.map { (2 * $0).bitPattern })
        let v = x.indices.map { Vector3(x[$0], -x[$0], 3 * x[$0]) }
        #expect(try f.apply(vectors: v, timestamps: t, sampleRate: 100) == v.map { $0 * 2 })
    }

    @Test func failingPluginsAreOneLineEach() throws {
        let x = (0..<50_000).map { Double($0) }, t = x  // more than a pipe's 64 KiB: exit3.sh never reads it
        func failure(_ spec: String, timeout: Double = 300) -> String {
            do { _ = try plugin(spec, timeout: timeout).apply(x, timestamps: t, sampleRate: 1); return "no error" } catch { return "\(error)" }
        }
        let exit3 = failure("exec:sh \(Self.plugins)/exit3.sh")
        #expect(exit3 == "plugin 'exec:sh \(Self.plugins)/exit3.sh': failed (exit status 3; stderr: exit3.sh: window must be odd)")
        let garbage = failure("exec:sh \(Self.plugins)/garbage.sh")
        #expect(
            garbage
                == "plugin 'exec:sh \(Self.plugins)/garbage.sh': malformed output: header 'hello, world', expected 't,value' (exit status 0; stderr empty)"
        )
        let started = Date()
        let hang = failure("exec:sh \(Self.plugins)/hang.sh", timeout: 5)
        #expect(hang == "plugin 'exec:sh \(Self.plugins)/hang.sh': no answer within the timeout of 5 s, killed (no exit status; stderr empty)")
        #expect(Date().timeIntervalSince(started) < 55)  // killed, not waited for (hang.sh sleeps 60 s)
        let missing = failure("exec:/nonexistent/plugin --x")
        #expect(missing.hasPrefix("plugin 'exec:/nonexistent/plugin --x': could not run: "))
        for line in [exit3, garbage, hang, missing] { #expect(!line.contains("\n")) }
        #expect(throws: FilterSpecError.self) { try ExecPlugin(parsing: "exec:awk  -f x") }
        #expect(throws: FilterSpecError.self) { try ExecPlugin(parsing: "exec:") }
    }

    /// CRLF output is read (issue 29: "\r\n" is one Character in Swift, so the whole answer was
    /// one malformed line), and a plugin's stderr beyond 1 MiB is not a failure: its last line
    /// is still reported when the call fails.
    @Test func crlfOutputAndAChattyStderrAreFine() throws {
        let x = (0..<500).map { Double($0) * 0.25 - 7 }, t = x.indices.map { Double($0) * 0.01 }
        #expect(try plugin("exec:sh \(Self.plugins)/crlf.sh").apply(x, timestamps: t, sampleRate: 100) == x)
        #expect(try plugin("exec:sh \(Self.plugins)/chatty.sh").apply(x, timestamps: t, sampleRate: 100) == x)
        do {
            _ = try plugin("exec:sh \(Self.plugins)/chatty.sh fail").apply(x, timestamps: t, sampleRate: 100)
            Issue.record("a failing plugin passed")
        } catch {
            #expect("\(error)" == "plugin 'exec:sh \(Self.plugins)/chatty.sh fail': failed (exit status 4; stderr: chatty.sh: last words)")
        }
    }

    /// A program that cannot start is refused before any job runs, in one line; a missing
    /// `.venv/` interpreter names the command that creates the venv (issue 26).
    @Test func aMissingProgramIsRefusedAndTheVenvNamesItsFix() throws {
        func refusal(_ spec: String) -> String {
            do { try ExecPlugin(parsing: spec)!.checkProgramRuns(); return "runs" } catch { return "\(error)" }
        }
        #expect(refusal("exec:sh x.sh") == "runs")
        #expect(refusal("exec:/bin/sh x.sh") == "runs")
        // A bare name is looked up on PATH as posix_spawnp does; the plugin file is then the script argument.
        let sh = try #require(try ExecPlugin(parsing: "exec:sh \(Self.plugins)/exit3.sh"))
        #expect(sh.programPath?.hasSuffix("/sh") == true && sh.pluginFile == "\(Self.plugins)/exit3.sh")
        #expect(try ExecPlugin(parsing: "exec:/bin/sh")!.pluginFile == "/bin/sh")
        let venv = refusal("exec:.venv/no-such-python examples/plugins/median.py --window 5")
        #expect(venv.contains(".venv/no-such-python: no such executable program"))
        #expect(venv.contains("`make deps-python`"))
        let notExecutable = refusal("exec:\(Self.plugins)/exit3.sh")
        #expect(notExecutable.contains("no such executable program") && !notExecutable.contains("make deps-python"))
        #expect(refusal("exec:no-such-program-on-path-26").contains("no such executable program"))
        #expect(throws: FilterSpecError.self) { try ExecPlugin(parsing: "exec:.venv/no-such-python x")!.pluginSHA256() }
    }

    /// A guidance sweep over position filters: none, the doubling plugin and the three failing
    /// ones; the failing ones each give one listed line, the other two configurations complete.
    @Test func sweepGoesOnPastFailingPlugins() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = Self.plugins
        let specs = ["none", "exec:awk -f \(p)/double.awk", "exec:sh \(p)/exit3.sh", "exec:sh \(p)/garbage.sh", "exec:sh \(p)/hang.sh"]
        let yaml = """
            name: plugins
            inputs: [\(Self.root)/Datasets/R2-turns_recording.h5, \(Self.root)/Datasets/R2-turns_nav1.h5]
            output: \(dir)/out
            plugin_timeout: 6
            sweep:
              position_filter: [\(specs.map { "\"\($0)\"" }.joined(separator: ", "))]
            """
        let spec = try ExperimentSpec.parse(yaml, file: dir + "/spec.yaml")
        #expect(spec.pluginTimeout == 6)
        let plan = planExperiment(spec)
        #expect(plan.failures.isEmpty, "\(plan.failures)")
        #expect(plan.jobs.count == 5)
        // The plugin files are inputs of the manifest and the store, with their checksums.
        #expect(plan.checksums[p + "/double.awk"] == (try sha256Hex(ofFile: p + "/double.awk")))
        let (done, failures, computed) = try executeReplay(plan, storePath: dir + "/results.sqlite", workers: 2)
        #expect(computed == 2 && done == 2)
        #expect(failures.count == 3, "\(failures)")
        for (f, name) in zip(
            failures, ["exit3.sh': failed (exit status 3", "garbage.sh': malformed output", "hang.sh': no answer within the timeout of 6 s"])
        {
            #expect(f.contains(name) && !f.contains("\n"), "\(f)")
        }
    }

    /// The results store reruns a plugin configuration after the plugin file changes, not otherwise.
    @Test func storeRerunsOnlyWhenThePluginFileChanges() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.plugins + "/double.awk", toPath: dir + "/double.awk")
        let yaml = """
            name: rerun
            inputs: [\(Self.root)/Datasets/R2-turns_recording.h5, \(Self.root)/Datasets/R2-turns_nav1.h5]
            output: \(dir)/out
            sweep:
              position_filter: [none, "exec:awk -f \(dir)/double.awk"]
            """
        let spec = try ExperimentSpec.parse(yaml, file: dir + "/spec.yaml")
        func run() throws -> Int { try executeReplay(planExperiment(spec), storePath: dir + "/results.sqlite", workers: 1).computed }
        #expect(try run() == 2)
        #expect(try run() == 0)
        let h = try #require(FileHandle(forWritingAtPath: dir + "/double.awk"))
        h.seekToEndOfFile()
        h.write(Data("# changed\n".utf8))
        try h.close()
        #expect(try run() == 1)  // only the plugin configuration
        #expect(try run() == 0)
    }

    /// `estimators:` file patterns per session: a session without its file is a listed failure;
    /// the session's own VIO as a TUM file and `exec:cat` (an identity estimator) both give
    /// ARKit's metrics exactly.
    @Test func estimatorsDimension() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/est", withIntermediateDirectories: true)
        let nav1 = try readTrace(at: Self.root + "/Datasets/R2-turns_nav1.h5")
        try writeTUM(try Trajectory(timestamps: nav1.vio!.timestamps, poses: nav1.vio!.poses), to: dir + "/est/R2-turns_nav1.tum")
        let yaml = """
            name: estimators
            inputs: [\(Self.root)/Datasets/R2-turns_recording.h5, \(Self.root)/Datasets/R2-turns_nav1.h5, \(Self.root)/Datasets/R2-turns_nav2.h5]
            output: \(dir)/out
            estimators:
              mine: est/{session}.tum
              echo: "exec:cat"
            """
        // Beside a spec in another folder than the current directory, est/ would once have been
        // read there: refused, naming both.
        #expect(
            throws: SpecError(
                file: dir + "/spec.yaml", key: "estimators.mine",
                problem:
                    "'est/{session}.tum' is relative to the current directory (est), as every path of a spec; before 2026-11-28 it was relative to the spec's folder (\(dir)/est), which exists: write the path from the current directory (docs/experiments.md, \"Paths\")"
            )
        ) { _ = try ExperimentSpec.parse(yaml, file: dir + "/spec.yaml") }
        // Read as from the current directory, by a library caller that sets the folder.
        var spec = try ExperimentSpec.parse(yaml, file: "spec.yaml")
        #expect(spec.sweep.values(of: .estimator) == ["arkit", "echo", "mine"])
        #expect(spec.folder == ".")
        spec.folder = dir
        let plan = planExperiment(spec)
        #expect(plan.jobs.count == 5)
        #expect(plan.failures == ["R2-turns_nav2: estimator mine: \(dir)/est/R2-turns_nav2.tum: no such file (pattern est/{session}.tum)"])
        let (_, failures, _) = try executeReplay(plan, storePath: dir + "/results.sqlite", workers: 2)
        #expect(failures.isEmpty, "\(failures)")
        let stored = try storedReplayMetrics(plan, store: ResultsStore(path: dir + "/results.sqlite"))
        func metrics(_ session: String, _ label: String) -> [Double] {
            let job = plan.jobs.first {
                ($0.session ?? (($0.navigation as NSString).lastPathComponent as NSString).deletingPathExtension) == session
                    && $0.configuration.label == label
            }!
            return stored[job.index]!.map(\.value)
        }
        let arkit = metrics("R2-turns_nav1", "est=arkit")
        for other in ["est=mine", "est=echo"] {
            #expect(zip(arkit, metrics("R2-turns_nav1", other)).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "\(other)")
        }
        // Round trip through the resolved spec keeps the estimators.
        let again = try ExperimentSpec.parse(spec.resolvedYAML, file: "spec.yaml")
        #expect(
            again.estimators == spec.estimators && again.sweep == spec.sweep
                && again.sweep.values(of: .estimator) == spec.sweep.values(of: .estimator))
    }

    @Test func estimatePatternsStayInsideTheirFolder() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func problem(_ pattern: String) -> String {
            do {
                _ = try ExperimentSpec.parse("name: x\ninputs: a.h5\nestimators: {mine: \"\(pattern)\"}\n", file: dir + "/spec.yaml");
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(
            problem("../{session}.tum")
                == "\(dir)/spec.yaml: estimators.mine: '../{session}.tum' has a '..' component; a pattern stays inside the current directory")
        #expect(problem("/tmp/{session}.tum").hasSuffix("is absolute; a pattern is relative to the current directory and stays inside it"))
        #expect(problem("{sessionid}.tum").hasSuffix("the placeholders are {session} and {route}"))
        #expect(problem("exec:").contains("expected exec:PROGRAM ARG…"))
        // A session id with a slash and dots is substituted through safeFileComponent, never raw.
        let meta = SessionMetadata(kind: .navigation, sessionID: "../../etc/passwd", routeID: "r", venue: "v", device: "d")
        do { _ = try estimateFile(pattern: "{session}.tum", estimator: "mine", session: meta, folder: dir); Issue.record("accepted") } catch {
            let sub = safeFileComponent("../../etc/passwd")
            #expect(!sub.contains("/") && "\(error)".contains("\(dir)/\(sub).tum: no such file"), "\(error)")
        }
        // A symbolic link inside the folder that leads outside is refused.
        let outside = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        _ = FileManager.default.createFile(atPath: outside + "/r.tum", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: dir + "/r.tum", withDestinationPath: outside + "/r.tum")
        do { _ = try estimateFile(pattern: "{route}.tum", estimator: "mine", session: meta, folder: dir); Issue.record("accepted") } catch {
            #expect("\(error)".hasSuffix("resolves outside the folder \(dir); refused"), "\(error)")
        }
    }
}
