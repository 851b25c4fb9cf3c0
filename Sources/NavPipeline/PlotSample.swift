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
                  (rank, job.index) < (c[worst].rank, c[worst].index) {
            c[worst] = (rank, job.index)
        } else { return }
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

    /// The chosen jobs' results with their paths, in job order: those in `reusing` (computed by
    /// this process, `SampledRuns`) as they are, the others re-run on `workers` threads (a run
    /// that fails now is left out). Jobs are deterministic, so both give the same result.
    func results(_ plan: ExperimentPlan, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                 reusing: [Int: JobResult] = [:], progress: ProgressHandler? = nil) -> [JobResult] {
        let chosen = indices
        let box = Mutex(chosen.map { reusing[$0] })
        let missing = chosen.indices.filter { reusing[chosen[$0]] == nil }
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
/// report does not run them a second time. At most `maximumRuns` are kept (memory bound: about
/// 55 KB a run with its thinned paths, 28 MB for the default experiment's 504); beyond that the
/// report re-runs its sample as before.
final class SampledRuns: Sendable {
    static let maximumRuns = 2_048
    let wanted: Set<Int>
    private let kept = Mutex<[Int: JobResult]>([:])

    init(_ plan: ExperimentPlan) {
        let chosen = PlotSample.ofWholePlan(plan).indices
        wanted = chosen.count <= Self.maximumRuns ? Set(chosen) : []
    }

    func keep(_ index: Int, _ result: JobResult) { kept.withLock { $0[index] = result } }
    /// The kept results, leaving none here (the report frees them after drawing).
    func take() -> [Int: JobResult] { kept.withLock { k in defer { k = [:] }; return k } }
}
