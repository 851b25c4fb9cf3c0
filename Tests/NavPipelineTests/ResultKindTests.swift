import Foundation
import NavCore
import NavIO
import NavReport
import Synchronization
import Testing

@testable import NavPipeline

/// The example kind, counting the units it computes (to show a merge computes none).
struct CountingIMUDurationKind: ExperimentKind {
    let base = IMUDurationKind()
    let computed = RunCounter()
    var name: String { base.name }
    var gatedCSV: String? { base.gatedCSV }
    func plan(_ plan: ExperimentPlan) -> PlannedKind {
        var planned = base.plan(plan)
        let base = self.base, computed = self.computed
        planned.runner = { _ in
            { unit in
                computed.count.withLock { $0 += 1 }
                return try base.run(unit, plan: plan)
            }
        }
        return planned
    }
}

final class RunCounter: Sendable {
    let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
}

/// Every result kind beside replay runs and closed-loop cells is planned, run, stored, sharded
/// and merged by one engine (`executeResultKinds`, `resultKindSections`).
@Suite(.serialized) struct ResultKindTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// One route's four sessions (compass, BLE and IMU streams), two estimators and two filters
    /// of the aids, one configuration of the replay.
    func spec(_ out: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            """
            name: kinds
            inputs:
              - \(datasets)/R1-corridor_*.h5
            output: \(out)
            calibration: [mean, "kalman-heading:q=0.5,r=25"]
            proximity: [none, "mean:window=5"]
            """, file: "kinds.yaml")
    }

    static let files = ["summary.md", "calibration.csv", "proximity.csv", "imu-duration.csv", "metrics.csv"]

    func read(_ folder: String, _ name: String) throws -> String {
        try String(contentsOfFile: (folder as NSString).appendingPathComponent(name), encoding: .utf8)
    }

    /// Unsharded, 3 shards merged and a rerun: the same bytes for every section; each unit is
    /// computed once (by the shards), none by the merge or the rerun.
    @Test func shardsMergeAndRerunGiveTheSameBytesAndComputeNothingTwice() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = CountingIMUDurationKind()
        var s = try spec(dir + "/whole")
        let a = try runExperiment(s, workers: 2, command: "test", kinds: ExperimentKinds.standard + [whole])
        #expect(a.failures.isEmpty, "\(a.failures)")
        let units = 4 * (2 + 2 + 1)  // 4 inputs × (2 estimators + 2 filters + the example)
        #expect(
            a.counts.excluding(guidanceResultKind).done == units && a.counts.excluding(guidanceResultKind).computed == units
                && a.counts.excluding(guidanceResultKind).failures.isEmpty)
        #expect(a.counts.byKind["imu_duration"] == KindCounts(done: 4, computed: 4, failures: []))
        #expect(whole.computed.value == 4)

        let again = try runExperiment(s, workers: 2, command: "test", kinds: ExperimentKinds.standard + [whole])
        #expect(
            again.counts.excluding(guidanceResultKind).done == units && again.counts.excluding(guidanceResultKind).computed == 0
                && again.counts.excluding(guidanceResultKind).failures.isEmpty)
        #expect(whole.computed.value == 4)

        s.output = dir + "/sharded"
        let sharded = CountingIMUDurationKind()
        var computed = 0
        for k in 1...3 {
            let o = try runExperiment(s, workers: 1, shard: k, shards: 3, command: "test", kinds: ExperimentKinds.standard + [sharded])
            #expect(o.report == nil)
            computed += o.counts.excluding(guidanceResultKind).computed
        }
        #expect(computed == units)
        #expect(sharded.computed.value == 4)
        let merged = try mergeExperiment(s, command: "test", kinds: ExperimentKinds.standard + [sharded])
        #expect(merged.failures.isEmpty, "\(merged.failures)")
        #expect(sharded.computed.value == 4)
        for f in Self.files {
            #expect(try read(dir + "/sharded", f) == read(dir + "/whole", f), "\(f): 3 shards merged vs unsharded")
        }
        #expect(try read(dir + "/whole", "summary.md").contains("## IMU duration"))
        let durations = try MetricsTable.read(dir + "/whole/imu-duration.csv")
        #expect(durations.rows.count == 4 && durations.rows.allSatisfy { $0.value > 1 && $0.unit == "s" })
    }

    /// Every spec key beyond the spec's own is a kind's section: read with a list lacking the
    /// kind, its key is unknown; with it, the kind reads the value back, and `--print-config`
    /// writes it so that it reads as the same spec.
    @Test func everyKindKeyIsOwnedByItsKind() throws {
        let text = """
            name: owned
            inputs: [a.h5]
            calibration: [mean]
            proximity: [none]
            proximity_options: {fit: readings}
            gyro_filters: [none]
            ape: [{reference: r.tum, estimate: e.tum, align: yaw}]
            closed_loop: {walker: [ideal, cane], runs: 3}
            pdr: default

            """
        let s = try ExperimentSpec.parse(text, file: "s.yaml")
        #expect(s.kindSections.map(\.key) == ["calibration", "proximity", "proximity_options", "gyro_filters", "ape", "closed_loop", "pdr"])
        #expect(s.calibration == ["mean"] && s.proximity == ["none"] && s.proximityOptions.fitData == .readings && s.gyroFilters == ["none"])
        #expect(s.ape == [["r.tum", "e.tum", "yaw"]] && s.closedLoop?.runs == 3 && s.closedLoop?.walkers == ["ideal", "cane"])
        #expect(try ExperimentSpec.parse(s.resolvedYAML, file: "printed.yaml").kindSections == s.kindSections, "\(s.resolvedYAML)")
        for kind in ExperimentKinds.standard {
            let others = ExperimentKinds.standard.filter { $0.name != kind.name }
            for key in kind.specSections.map(\.key) {
                do {
                    _ = try ExperimentSpec.parse(text, file: "s.yaml", kinds: others)
                    Issue.record("\(key) read without \(kind.name)")
                } catch {
                    #expect(error.key == kind.specSections[0].key && error.problem.hasPrefix("unknown key; valid: "), "\(error)")
                }
            }
        }
        // A closed loop larger than the limit is refused when the spec is read.
        #expect(throws: SpecError.self) {
            _ = try ExperimentSpec.parse(text, file: "s.yaml", limits: SpecLimits(maxConfigurations: 1))
        }
    }

    /// A configured kind is one type and one list entry (`LongIMUKind`, in this test target): its
    /// spec section is read only with it in the list, refused in one line when it is not what the
    /// kind expects, and read back when it plans; nothing of NavPipeline names it.
    @Test func aConfiguredKindOwnsItsSpecSection() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let kinds = ExperimentKinds.standard + [LongIMUKind()]
        func yaml(_ section: String) -> String {
            "name: long\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)/out\n" + section
        }
        let standardKeys: [String] = ExperimentSpec.topKeys + ExperimentKinds.standard.flatMap(\.specSections).map(\.key)
        #expect(throws: SpecError(file: "s.yaml", key: "long_imu", problem: "unknown key; valid: " + standardKeys.joined(separator: ", "))) {
            _ = try ExperimentSpec.parse(yaml("long_imu: {at_least: 2}\n"), file: "s.yaml")
        }
        #expect(throws: SpecError(file: "s.yaml", key: "long_imu", problem: "at_least is -1 s, expected 0 or more; expected {at_least: SECONDS}")) {
            _ = try ExperimentSpec.parse(yaml("long_imu: {at_least: -1}\n"), file: "s.yaml", kinds: kinds)
        }
        #expect(throws: SpecError(file: "s.yaml", key: "long_imu", problem: "missing key at_least; expected {at_least: SECONDS}")) {
            _ = try ExperimentSpec.parse(yaml("long_imu: {atleast: 2}\n"), file: "s.yaml", kinds: kinds)
        }
        let s = try ExperimentSpec.parse(yaml("long_imu: {at_least: 30}\n"), file: "s.yaml", kinds: kinds)
        let run = try runExperiment(s, workers: 2, command: "test", kinds: kinds)
        #expect(run.failures.isEmpty, "\(run.failures)")
        #expect(run.counts[kind: "long_imu"].computed == 4)
        // The listed sessions are those whose IMU lasts at least 30 s, read here from the traces.
        var expected: [String] = []
        for file in expandGlobs(s.inputs).sorted() {
            let t = try #require(try readTrace(at: file).imu?.timestamps)
            if let a = t.first, let b = t.last, b - a >= 30 { expected.append("- \(fileName(of: file)): \(formatNumber(b - a)) s") }
        }
        let summary = try read(dir + "/out", "summary.md")
        let listed = summary.split(separator: "\n").map(String.init).filter { $0.hasPrefix("- ") && $0.hasSuffix(" s") }
        #expect(summary.contains("## IMU streams of at least 30 s") && listed == expected && !expected.isEmpty, "\(listed) vs \(expected)")
        // Without the section the kind is not asked: no units, no section.
        let none = try runExperiment(try ExperimentSpec.parse(yaml(""), file: "s.yaml", kinds: kinds), workers: 2, command: "test", kinds: kinds)
        let after = try read(dir + "/out", "summary.md")
        #expect(none.counts.byKind["long_imu"] == nil && !after.contains("## IMU streams"))
    }

    /// The stored value is what the report shows (a merge reads, never recomputes): a value
    /// planted in a shard with a valid checksum appears in the merged `calibration.csv`; an edited
    /// row (checksum mismatch) is computed again on the next run.
    @Test func theReportReadsTheStoreAndAnEditedRowIsComputedAgain() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        for k in 1...2 { _ = try runExperiment(s, workers: 1, shard: k, shards: 2, command: "test") }
        let plan = planExperiment(s)
        let kind = HeadingCalibrationKind()
        let units = kind.units(of: plan)
        let unit = try #require(units.first { $0.session == "R1-corridor_nav1" && $0.configuration == "mean" })
        let shard = unit.index < units.count / 2 ? 1 : 2
        let store = try ResultsStore(path: experimentStorePath(s, shard: shard, shards: 2))
        let stored = try #require(try store.read { try $0.result(key: unit.key) })
        var metrics = stored.metrics
        let i = try #require(metrics.firstIndex { $0.name == "offset_error" })
        metrics[i].value = 123.456
        let writer = store.writer(batchSize: 1)
        try writer.add(storedResult(unit, of: kind.plan(plan), outcome: UnitOutcome(metrics: metrics, note: stored.note), plan: plan, seconds: 0))
        try writer.flush()
        _ = try mergeExperiment(s, command: "test")
        let planted = try MetricsTable.read(dir + "/out/calibration.csv").rows.filter { $0.value == 123.456 }
        #expect(planted.count == 1 && planted.first?.session == "R1-corridor_nav1" && planted.first?.metric == "offset_error")

        // Edited by hand in the merged store: not trusted, computed again (the true value back).
        let merged = try ResultsStore(path: experimentStorePath(s))
        try merged.pool.write { db in
            try db.execute(sql: "UPDATE metrics SET value = 7 WHERE result_key = ? AND name = 'offset_error'", arguments: [unit.key])
        }
        #expect(try merged.read { try $0.result(key: unit.key) } == nil)
        let rerun = try runExperiment(s, workers: 1, command: "test")
        #expect(rerun.counts.excluding(guidanceResultKind).computed == 1)
        let back = try MetricsTable.read(dir + "/out/calibration.csv").rows.filter { $0.session == "R1-corridor_nav1" && $0.metric == "offset_error" }
        #expect(back.contains { $0.configuration == "mean" && $0.value != 7 && $0.value != 123.456 })
    }

    /// A unit whose shard did not run is one failure line naming it; a unit that throws is its
    /// error line, stored, and shown again by `merge`; the other units are reported.
    @Test func missingAndFailedUnitsAreListedOnce() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        var s = try spec(dir + "/out")
        // An estimator the spec's check would refuse, set past it: the unit fails when it runs.
        let i = try #require(s.kindSections.firstIndex { $0.key == "calibration" })
        s.kindSections[i] = SpecSectionValue(
            key: "calibration", value: ["mean", "no-such-estimator"], yaml: "calibration: [mean, no-such-estimator]\n")
        _ = try runExperiment(s, workers: 1, shard: 1, shards: 2, command: "test")
        do {
            _ = try mergeExperiment(s, command: "test")
            Issue.record("a merge with a shard not run was accepted")
        } catch let e as IncompleteMergeError {
            let units = unitBlocks(ExperimentKinds.standard.map { $0.plan(planExperiment(s)) }).map(\.count).reduce(0, +)
            #expect(e.shards == [2] && e.of == 2 && e.units == units && e.missing > 0)
            #expect(
                e.description
                    == "\(dir)/out: \(e.missing) of \(units) units have no result (in shard 2 of 2); run them (navbench status lists them), or merge with --allow-missing for a partial report"
            )
        }
        let merged = try mergeExperiment(s, command: "test", allowMissing: true)
        let calibration = merged.failures.filter { $0.contains("[calibration ") }
        let units = HeadingCalibrationKind().units(of: planExperiment(s))
        let second = units[(units.count / 2)...]
        for u in second {
            let line = try #require(calibration.first { $0.hasPrefix(u.title + ": ") })
            #expect(line == u.title + ": no result (its shard did not run, or the run was stopped)")
        }
        let failedInFirst = units[..<(units.count / 2)].filter { $0.configuration == "no-such-estimator" }
        #expect(!failedInFirst.isEmpty)
        for u in failedInFirst {
            let lines = calibration.filter { $0.hasPrefix(u.title + ": ") }
            #expect(lines.count == 1 && !lines[0].contains("no result") && !lines[0].contains("\n"), "\(lines)")
        }
        #expect(try read(dir + "/out", "summary.md").contains("## Heading calibration"))
    }

    /// The store rows of a kind carry its labels and parameters as `name=value` lines, so a
    /// researcher's SQL finds them.
    @Test func storedRowsAreQueryable() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        _ = try runExperiment(s, workers: 2, command: "test")
        let store = try ResultsStore(path: experimentStorePath(s))
        let rows = try store.pool.read { db in
            try db.rows(
                sql: """
                    SELECT r.session, r.parameters, m.value FROM results r JOIN metrics m ON m.result_key = r.key AND m.name = 'class_accuracy'
                    WHERE r.kind = 'proximity' ORDER BY r.unit_index
                    """)
        }
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0[1].string?.hasPrefix("filter=") == true && $0[2].double.map { (0...1).contains($0) } == true })
    }

    /// Every ```swift block of docs/result-kinds.md is code of ResultKindExample.swift, which
    /// imports only the library's public API.
    @Test func docBlocksAreTheExampleFilesCode() throws {
        let doc = try String(contentsOfFile: Self.root + "/docs/result-kinds.md", encoding: .utf8)
        let example = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ResultKindExample.swift").path,
            encoding: .utf8)
        let blocks = doc.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 3)
        for b in blocks { #expect(example.contains(b), "a docs/result-kinds.md example is not in ResultKindExample.swift:\n\(b)") }
    }

    /// The page's registration code: run and merge with the example kind beside the standard ones.
    @Test func theRegistrationOfThePageRuns() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let (run, merged) = try runWithIMUDuration(try spec(dir + "/out"))
        #expect(run.failures.isEmpty && merged.failures.isEmpty, "\(run.failures + merged.failures)")
        #expect(run.counts.excluding(guidanceResultKind).computed == 4 * (2 + 2 + 1) && merged.counts.excluding(guidanceResultKind).computed == 0)
        #expect(try read(dir + "/out", "summary.md").contains("\n## IMU duration\n"))
    }
}

/// The Findings line where the replay and the closed loop disagree: only when the closed-loop
/// effect is significant and a replay effect of the same level is significant the other way.
@Suite struct DisagreementTests {
    func replay(_ metric: String, _ d: Double, _ lo: Double, _ hi: Double) -> ExperimentStatistics.MainEffect {
        ExperimentStatistics.MainEffect(
            dimension: "rdp_tolerance", level: "1", reference: "0.3", metric: metric, n: 21, meanDifference: d, ciLow: lo, ciHigh: hi)
    }
    func walkers(_ d: Double, _ lo: Double, _ hi: Double) -> ClosedLoopEffect {
        ClosedLoopEffect(dimension: "rdp_tolerance", level: "1", reference: "0.3", n: 12, meanDifference: d, ciLow: lo, ciHigh: hi)
    }

    @Test func disagreementNeedsBothSignificantAndOpposite() {
        let units = ["bearing_error_mean_abs": "deg"]
        let better = replay("bearing_error_mean_abs", -3.97, -5, -2)  // lower is better: the replay finds tol=1 better
        let lines = replayClosedLoopDisagreements([better], [walkers(-0.3, -0.4, -0.2)], units: units)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("**Replay and closed loop disagree** on rdp_tolerance 1 vs 0.3: the replay finds it better") == true)
        #expect(lines.first?.contains("succeed less often (-0.3 [-0.4, -0.2], n = 12 walkers)") == true)
        // Agreeing, not significant, or a rounding-size bound: no line.
        #expect(replayClosedLoopDisagreements([better], [walkers(0.3, 0.2, 0.4)], units: units).isEmpty)
        #expect(replayClosedLoopDisagreements([better], [walkers(-0.3, -0.5, 0.1)], units: units).isEmpty)
        #expect(replayClosedLoopDisagreements([better], [walkers(-0.02, -0.04, -8.7e-19)], units: units).isEmpty)
        #expect(replayClosedLoopDisagreements([replay("bearing_error_mean_abs", -1, -2, 0.5)], [walkers(-0.3, -0.4, -0.2)], units: units).isEmpty)
    }
}
