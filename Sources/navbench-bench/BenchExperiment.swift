import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavPipeline
import NavReport
import NavSynth

struct BenchExperiment: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "experiment",
        abstract: "Time a synthetic sweep: ROUTES random routes (one recording, one navigation each) × CONFIGS configurations.")

    @Option(help: "Number of routes.") var routes = 100
    @Option(help: "Configurations: 5 RDP tolerances × 2 registrations × CONFIGS/10 seeds (multiple of 10).") var configs = 50
    @Option(help: "Parallel jobs.") var jobs = 1
    @Option(help: "Seed of the routes and sessions.") var seed: UInt64 = 2026

    func validate() throws {
        guard (1...100_000).contains(routes), (10...10_000).contains(configs), configs % 10 == 0, (1...256).contains(jobs) else {
            throw ValidationError("need routes 1…100000, configs a multiple of 10 in 10…10000, jobs 1…256")
        }
    }

    func run() throws {
        var rng = SeededRandom(seed: seed, label: "bench routes")
        let randomRoutes = (0..<routes).map { r -> SynthRoute in
            var p = Vector3(Double(r) * 50, 0, 0), heading = rng.uniform(-.pi, .pi)
            var points = [p]
            for _ in 0..<Int(rng.uniform(2, 5)) {
                let length = rng.uniform(8, 20)
                p += Vector3(-sin(heading) * length, 0, -cos(heading) * length)
                points.append(p)
                heading += rng.bernoulli(0.5) ? .pi / 2 : -.pi / 2
            }
            return SynthRoute(id: String(format: "B%03d", r), waypoints: points)
        }
        var params = SynthParameters()
        params.navigationSessionsPerRoute = 1
        var t = Date()
        // Each route's sessions are made on demand and released like files (`SessionCatalog`):
        // memory is flat in routes. Planning makes each route once for its metadata.
        var entries: [String: SessionCatalog.Entry] = [:], sums: [String: String] = [:]
        for route in randomRoutes {
            let parameters = params, seed = seed
            for s in synthesizeVenue(seed: seed, parameters: parameters, routes: [route]) {
                let name = s.fileName
                let make: @Sendable () throws -> Session = {
                    guard let made = synthesizeVenue(seed: seed, parameters: parameters, routes: [route]).first(where: { $0.fileName == name }) else {
                        throw CatalogError(name: name)
                    }
                    return made.session
                }
                entries[name] = SessionCatalog.Entry(metadata: s.session.metadata, streams: SessionStreams(of: s.session), source: .generated(make))
                sums[name] = sha256Hex(of: Data(name.utf8))
            }
        }
        let generation = Date().timeIntervalSince(t)
        let seeds = (1...(configs / 10)).map(String.init).joined(separator: ", ")
        let spec = try ExperimentSpec.parse(
            """
            name: bench
            inputs: none
            output: \(NSTemporaryDirectory())navbench-bench-\(UUID().uuidString)
            sweep:
              rdp_tolerance: [0.2, 0.3, 0.5, 0.8, 1.2]
              registration: [gravity-aligned, full]
              anchor_sightings: [1]
              seeds: [\(seeds)]
            """, file: "bench")
        var plan = planJobs(spec, inputs: SessionCatalog(entries: entries), checksums: sums, failures: [])
        plan.tracesMemory = ProcessInfo.processInfo.environment["NAVBENCH_TRACE_MEMORY"] == "1"
        t = Date()
        let failures = try executeKinds(plan, kinds: ExperimentKinds.standard, storePath: spec.output + "/results.sqlite", workers: jobs).failures
        let store = try ResultsStore(path: spec.output + "/results.sqlite")
        let run = Date().timeIntervalSince(t)
        t = Date()
        _ = try writeExperimentReport(plan, store: store, failures: [], command: "bench", facts: [:])  // the replay section lists failed runs
        let report = Date().timeIntervalSince(t)
        // The report's statistics alone (cells, paired comparisons, main effects), timed again.
        let table = try metricsTable(plan, store: store)
        t = Date()
        // Cells and route tables streamed as the report streams them (cells.csv, comparisons.csv).
        var cellCount = 0, routeComparisons = 0
        let statistics = ExperimentStatistics(
            table: table, keyMetrics: spec.keyMetrics, options: spec.statistics, cellSink: { _ in cellCount += 1 },
            routeSink: { routeComparisons += $0.comparisons.count })
        let statisticsTime = Date().timeIntervalSince(t)
        try? FileManager.default.removeItem(atPath: spec.output)
        print(
            try jsonLine([
                "routes": routes, "configs": configs, "jobs": plan.jobs.count, "workers": jobs, "failures": failures.count,
                "generate_s": generation, "run_s": run, "report_s": report, "statistics_s": statisticsTime, "cells": cellCount,
                "comparisons": statistics.comparisons.count + routeComparisons,
                "statistics_share_of_wall": statisticsTime / (generation + run + report),
            ]))
    }
}
