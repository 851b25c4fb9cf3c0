import Foundation
import NavCore

/// The runs the report's path and error-CDF plots draw: per (route, configuration) cell at most
/// `perCell` runs, chosen by a seeded hash of the run key (so the same runs whatever the job
/// count, the shard split or the order runs finished), for the first `configurations`
/// configurations of the sweep. The run phase stores the paths of the sample of the whole plan
/// (`ofWholePlan`, `ReplayPlotPaths`); a run the report's sample holds without stored paths (one
/// chosen in place of a failed run, or stored by a navbench before them) is run again. A cell
/// with at most `perCell` runs is drawn whole.
///
/// Complexity: memory O(routes × configurations × perCell), whatever the number of runs.
struct PlotSample {
    static let perCell = 4
    static let configurations = 32
    /// Seed of the sample (part of the report's definition: changing it changes the plots).
    static let seed = "navbench plot sample 1"

    /// A sampled run as the store holds it: its session label and its paths' digest
    /// (`ReplayPlotPaths`), from its verified row.
    struct StoredPaths: Sendable {
        var session: String
        var digest: String
    }

    private var allowed: Set<String>
    private var cells: [String: [(rank: UInt64, index: Int, stored: StoredPaths?)]] = [:]

    init(_ plan: ExperimentPlan) {
        allowed = Set(plan.spec.sweep.configurations.prefix(Self.configurations).map(\.label))
        if plan.spec.sweep.configurations.isEmpty, let first = plan.jobs.first { allowed = [first.configuration.label] }
    }

    /// Offers a run present in the store, with its stored paths if it has them.
    mutating func offer(_ job: ExperimentJob, stored: StoredPaths? = nil) {
        guard allowed.contains(job.configuration.label) else { return }
        let cell = job.routeID + "\u{1}" + job.configuration.label
        let rank = Self.rank(job.key)
        var c = cells[cell] ?? []
        if c.count < Self.perCell {
            c.append((rank, job.index, stored))
        } else if let worst = c.indices.max(by: { (c[$0].rank, c[$0].index) < (c[$1].rank, c[$1].index) }),
            (rank, job.index) < (c[worst].rank, c[worst].index)
        {
            c[worst] = (rank, job.index, stored)
        } else {
            return
        }
        cells[cell] = c
    }

    /// The chosen job indices, in job order.
    var indices: [Int] { cells.values.flatMap { $0.map(\.index) }.sorted() }

    /// The chosen runs offered with stored paths, by job index.
    var storedPaths: [Int: StoredPaths] {
        var out: [Int: StoredPaths] = [:]
        for c in cells.values { for e in c { if let s = e.stored { out[e.index] = s } } }
        return out
    }

    /// FNV-1a (64 bit) of the seed and the key: a fixed, well-spread rank.
    static func rank(_ key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in (seed + "|" + key).utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// The sample if every job of the plan were in the store: the runs whose paths the run
    /// phase stores (every shard plans the same jobs, so the shards store the same sample).
    static func ofWholePlan(_ plan: ExperimentPlan) -> PlotSample {
        var sample = PlotSample(plan)
        for job in plan.jobs { sample.offer(job) }
        return sample
    }

    /// The results with their paths of the jobs `chosen` (job indices, in job order; the sample's
    /// `indices` or a part of them): those in `reusing` (read from the store) as they are, the
    /// others re-run on `workers` threads (a run that fails now is left out). Jobs
    /// are deterministic, so both give the same result.
    func results(
        _ plan: ExperimentPlan, chosen: [Int], workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        reusing: [Int: JobResult] = [:], progress: ProgressHandler? = nil
    ) -> [JobResult] {
        var all = chosen.map { reusing[$0] }
        let missing = chosen.indices.filter { reusing[chosen[$0]] == nil }
        guard !missing.isEmpty else { return all.compactMap { $0 } }
        let rerun = mapConcurrently(missing.count, workers: workers, phase: "plot runs", progress: progress) { k in
            try? runJob(plan.jobs[chosen[missing[k]]], plan: plan)
        }
        for (k, i) in missing.enumerated() { all[i] = rerun[k] }
        return all.compactMap { $0 }
    }
}
