import Foundation
import NavIO
import NavPipeline
import NavReport
import Testing

func tempFolder(_ label: String = #function) -> String {
    let d = NSTemporaryDirectory() + "nb-exp-\(label.filter { $0.isLetter })-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
    return d
}

@Suite struct ExperimentSpecTests {
    @Test func unknownKeysAndBadValuesNameTheKey() {
        #expect(
            throws: SpecError(
                file: "s.yaml", key: "sweep.rdp_tolerence",
                problem:
                    "unknown sweep dimension; valid: rdp_tolerance, rdp_distance, registration, anchor_sightings, position_filter, wording, arrival, haptic, seeds, estimator"
            )
        ) {
            try ExperimentSpec.parse("name: x\ninputs: a/*.h5\nsweep:\n  rdp_tolerence: [0.3]\n", file: "s.yaml")
        }
        #expect(throws: SpecError(file: "s.yaml", key: "sweep.registration", problem: "'sideways' is not one of gravity-aligned, full")) {
            try ExperimentSpec.parse("name: x\ninputs: a/*.h5\nsweep:\n  registration: [full, sideways]\n", file: "s.yaml")
        }
        #expect(
            throws: SpecError(
                file: "s.yaml", key: "sweep.position_filter", problem: "'buter:order=2' is not one of none or a filter spec (docs/filters.md)")
        ) {
            try ExperimentSpec.parse("name: x\ninputs: a/*.h5\nsweep:\n  position_filter: [buter:order=2]\n", file: "s.yaml")
        }
        #expect(throws: SpecError(file: "s.yaml", key: "inputs", problem: "expected a glob or a list of globs of trace files")) {
            try ExperimentSpec.parse("name: x\n", file: "s.yaml")
        }
    }

    @Test func gridAndLabels() throws {
        let s = try ExperimentSpec.parse("name: x\ninputs: a\nsweep:\n  rdp_tolerance: [0.3, 1]\n  anchor_sightings: [all, 2]\n", file: "s")
        #expect(s.sweep.configurations.map(\.label) == ["tol=0.3 anchors=all", "tol=0.3 anchors=2", "tol=1 anchors=all", "tol=1 anchors=2"])
        #expect(s.output == "Reports/x")
    }
}

@Suite(.serialized) struct ExperimentRunTests {
    func spec(_ out: String, extraInput: String? = nil) throws -> ExperimentSpec {
        var inputs = "  - \(datasets)/R1-corridor_*.h5\n"
        if let extraInput { inputs += "  - \(extraInput)\n" }
        return try ExperimentSpec.parse(
            "name: t\ninputs:\n\(inputs)output: \(out)\nsweep:\n  rdp_tolerance: [0.3, 1.0]\n  registration: [gravity-aligned, full]\n",
            file: "t.yaml")
    }

    func run(_ s: ExperimentSpec, workers: Int = 2, shard: Int = 1, shards: Int = 1) throws -> ExperimentPlan {
        let plan = planExperiment(s)
        let (_, failures, _) = try executeReplay(
            plan, storePath: experimentStorePath(s, shard: shard, shards: shards), workers: workers, shard: shard, shards: shards)
        if shards == 1 {
            _ = try writeExperimentReport(plan, store: ResultsStore(path: experimentStorePath(s)), failures: failures, command: "test", facts: [:])
        }
        return plan
    }

    @Test func rerunIsByteIdenticalAndCached() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        let plan = try run(s, workers: 2)
        #expect(plan.jobs.count == 3 * 4)
        let first = try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8)
        let summary = try String(contentsOfFile: dir + "/out/summary.md", encoding: .utf8)
        let again = planExperiment(s)
        let (_, _, computed) = try executeReplay(again, storePath: experimentStorePath(s), workers: 1)
        #expect(computed == 0)  // all in the store
        let store = try ResultsStore(path: experimentStorePath(s))
        #expect(try store.presentKeys() == Set(plan.jobs.map(\.key)))
        #expect(try store.integrityCheck() == "ok")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir + "/out/results.sqlite" + suffix) }
        _ = try run(s, workers: 1)
        #expect(try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8) == first)
        #expect(try String(contentsOfFile: dir + "/out/summary.md", encoding: .utf8) == summary)
        // Per-route detail in its own file, linked from the summary (issue 28, item 3).
        #expect(summary.contains("- [R1-corridor](routes/R1-corridor.md)") && !summary.contains("## Route R1-corridor"))
        #expect(try String(contentsOfFile: dir + "/out/routes/R1-corridor.md", encoding: .utf8).contains("## Route R1-corridor"))
        #expect(try MetricsTable.read(dir + "/out/metrics.csv").rows.count == first.split(separator: "\n").count - 1)
    }

    @Test func shardsMergeToTheUnshardedReport() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = try spec(dir + "/whole")
        _ = try run(whole)
        var s = whole
        s.output = dir + "/sharded"  // as `--out`: the spec text (hashed into the report) is the same
        for k in 1...3 { _ = try run(s, shard: k, shards: 3) }
        let plan = planExperiment(s)
        let store = try mergeShardStores(plan)
        #expect(try storedReplayMetrics(plan, store: store).count == plan.jobs.count)
        _ = try writeExperimentReport(plan, store: store, failures: [], command: "test", facts: [:])
        let wholeCSV = try String(contentsOfFile: dir + "/whole/metrics.csv", encoding: .utf8)
        #expect(try String(contentsOfFile: dir + "/sharded/metrics.csv", encoding: .utf8) == wholeCSV)
        let a = try String(contentsOfFile: dir + "/whole/summary.md", encoding: .utf8)
        let b = try String(contentsOfFile: dir + "/sharded/summary.md", encoding: .utf8)
        #expect(a == b)
    }

    @Test func mergeRefusesAShardOfAnotherSpec() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        _ = try run(s, shard: 1, shards: 2)
        var other = try ExperimentSpec.parse(
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)/out\nsweep:\n  rdp_tolerance: [0.5]\n", file: "t.yaml")
        other.output = dir + "/out"
        _ = try run(other, shard: 2, shards: 2)
        let shardPath = experimentStorePath(other, shard: 2, shards: 2)
        #expect(throws: ResultsStoreError.self) { _ = try mergeShardStores(planExperiment(s)) }
        do { _ = try mergeShardStores(planExperiment(s)) } catch {
            let line = "\(error)"
            #expect(line.hasPrefix("\(shardPath): shard store of another experiment (spec sha256 "))
            #expect(!line.contains("\n"))
        }
    }

    @Test func aRunInTheStoreHasItsMetricsAsRows() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        let plan = planExperiment(s)
        let (_, _, computed) = try executeReplay(plan, storePath: experimentStorePath(s), workers: 2)
        #expect(computed == plan.jobs.count)
        let store = try ResultsStore(path: experimentStorePath(s))
        // Every metric of every run is a row, equal to the run computed again (NaN stored as NULL).
        let rows = try store.metricRows()
        var expected = 0
        for job in plan.jobs {
            let metrics = try runJob(job, plan: plan).metrics
            expected += metrics.count
            for m in metrics {
                let v = rows[job.key + "|" + m.name]
                #expect(v != nil)
                if m.value.isFinite { #expect(v! == m.value) } else { #expect(v! == nil) }
            }
        }
        #expect(rows.count == expected)
        #expect(try storedReplayMetrics(plan, store: store).count == plan.jobs.count)
    }

    @Test func aBadInputIsListedAndTheRestCompletes() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        try "not hdf5".write(toFile: dir + "/broken.h5", atomically: true, encoding: .utf8)
        let s = try spec(dir + "/out", extraInput: dir + "/broken.h5")
        let plan = try run(s)
        #expect(plan.failures == ["\(dir)/broken.h5: not an HDF5 file (no HDF5 signature), expected trace format v1"])
        #expect(plan.jobs.count == 12)
        let summary = try String(contentsOfFile: dir + "/out/summary.md", encoding: .utf8)
        #expect(summary.contains("- `\(dir)/broken.h5: not an HDF5 file"))
    }

    @Test func compareFlagsWorseDriftOnly() throws {
        let row = { (v: Double, m: String) in MetricRow(route: "r", session: "s", configuration: "c", parameters: [], metric: m, value: v, unit: "m")
        }
        let base = MetricsTable(parameterColumns: [], rows: [row(0.05, "end_point_drift"), row(0.9, "clock_agreement"), row(3, "instructions")])
        let better = MetricsTable(parameterColumns: [], rows: [row(0.04, "end_point_drift"), row(0.95, "clock_agreement"), row(5, "instructions")])
        let worse = MetricsTable(parameterColumns: [], rows: [row(0.06, "end_point_drift"), row(0.9, "clock_agreement"), row(3, "instructions")])
        #expect(compareMetrics(baseline: base, current: base).changes.isEmpty)
        #expect(compareMetrics(baseline: base, current: better).regressions.isEmpty)
        #expect(compareMetrics(baseline: base, current: worse).regressions.map(\.metric) == ["end_point_drift"])
        let missing = MetricsTable(parameterColumns: [], rows: [row(0.05, "end_point_drift")])
        #expect(compareMetrics(baseline: base, current: missing).regressions.map(\.metric) == ["clock_agreement", "instructions"])
        #expect(
            compareMetrics(baseline: base, current: worse, tolerances: ["end_point_drift": CompareTolerance(absolute: 0.02, relative: 0)]).regressions
                .isEmpty)
    }
}
