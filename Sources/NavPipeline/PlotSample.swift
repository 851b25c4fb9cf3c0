import Foundation
import NavCore
import Synchronization

/// The runs the report's path and error-CDF plots draw: per (route, configuration) cell at most
/// `perCell` runs, chosen by a seeded hash of the run key (so the same runs whatever the job
/// count, the shard split or the order runs finished), for the first `configurations`
/// configurations of the sweep; re-run at report time with their paths (the store keeps metrics,
/// never paths). A cell with at most `perCell` runs is drawn whole, as before the sample.
///
/// Complexity: memory O(routes × configurations × perCell), whatever the number of runs.
struct PlotSample {
    static let perCell = 4
    static let configurations = 32
    /// Seed of the sample (part of the report's definition: changing it changes the plots).
    static let seed = "navbench plot sample 1"

    private var allowed: Set<String>
    private var cells: [String: [(rank: UInt64, index: Int)]] = [:]

    init(_ plan: ExperimentPlan) {
        allowed = Set(plan.spec.sweep.configurations.prefix(Self.configurations).map(\.label))
        if plan.spec.sweep.configurations.isEmpty, let first = plan.jobs.first { allowed = [first.configuration.label] }
    }

    /// Offers a run present in the store.
    mutating func offer(_ job: ExperimentJob) {
        guard allowed.contains(job.configuration.label) else { return }
        let cell = job.routeID + "\u{1}" + job.configuration.label
        let rank = Self.rank(job.key)
        var c = cells[cell] ?? []
        if c.count < Self.perCell {
            c.append((rank, job.index))
        } else if let worst = c.indices.max(by: { (c[$0].rank, c[$0].index) < (c[$1].rank, c[$1].index) }),
            (rank, job.index) < (c[worst].rank, c[worst].index)
        {
            c[worst] = (rank, job.index)
        } else {
            return
        }
        cells[cell] = c
    }

    /// The chosen job indices, in job order.
    var indices: [Int] { cells.values.flatMap { $0.map(\.index) }.sorted() }

    /// FNV-1a (64 bit) of the seed and the key: a fixed, well-spread rank.
    static func rank(_ key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in (seed + "|" + key).utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// The sample if every job of the plan were in the store: the runs whose paths a cold,
    /// unsharded run keeps as it computes them (`SampledRuns`; sharded runs write no report).
    static func ofWholePlan(_ plan: ExperimentPlan) -> PlotSample {
        var sample = PlotSample(plan)
        for job in plan.jobs { sample.offer(job) }
        return sample
    }

    /// The results with their paths of the jobs `chosen` (job indices, in job order; the sample's
    /// `indices` or a part of them): those in `reusing` (computed by this process, `SampledRuns`)
    /// as they are, the others re-run on `workers` threads (a run that fails now is left out). Jobs
    /// are deterministic, so both give the same result.
    func results(
        _ plan: ExperimentPlan, chosen: [Int], workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        reusing: [Int: JobResult] = [:], progress: ProgressHandler? = nil
    ) -> [JobResult] {
        let box = Mutex(chosen.map { reusing[$0] })
        let missing = chosen.indices.filter { reusing[chosen[$0]] == nil }
        guard !missing.isEmpty else { return box.withLock { $0.compactMap { $0 } } }
        forEachConcurrently(missing.count, workers: workers, phase: "plot runs", progress: progress) { k in
            let i = missing[k]
            let r = try? runJob(plan.jobs[chosen[i]], plan: plan)
            box.withLock { $0[i] = r }
            return .next
        }
        return box.withLock { $0.compactMap { $0 } }
    }
}

/// Results with paths of the plot sample's runs, kept while the run phase computes them so the
/// report does not run them a second time. At most `maximumBytes` of them are kept, by the size
/// `keep` estimates (the default experiment keeps all 504 of its sample: `NAVBENCH_TRACE_MEMORY=1`
/// prints how many were kept; with 16 MiB it kept 238); the report re-runs those not kept. Which runs are kept depends on the order they finish, the
/// report does not: a re-run gives the same result.
///
/// Complexity: memory O(min(sample, maximumBytes)), flat in the number of routes.
final class SampledRuns: Sendable {
    static let maximumBytes = 40 << 20
    let wanted: Set<Int>
    private let kept = Mutex<(runs: [Int: JobResult], bytes: Int)>(([:], 0))

    init(_ plan: ExperimentPlan) {
        wanted = Set(PlotSample.ofWholePlan(plan).indices)
    }

    /// Keeps `result` if it fits in `maximumBytes`.
    func keep(_ index: Int, _ result: JobResult) {
        let size =
            8 * (result.positionErrors.count + 2 * (result.truePath.count + result.estimatedPath.count + result.route2D.count))
            + 64 * (result.truePath.count + result.estimatedPath.count + result.route2D.count) + 1_024
        kept.withLock { k in
            guard k.bytes + size <= Self.maximumBytes else { return }
            k.runs[index] = result
            k.bytes += size
        }
    }
    /// The kept results, leaving none here (the report frees them route by route as it draws).
    func take() -> [Int: JobResult] {
        kept.withLock { k in
            defer { k = ([:], 0) }; return k.runs
        }
    }
}
