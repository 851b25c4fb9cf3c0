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

    /// Re-runs the chosen jobs with their paths on `workers` threads (results in job order;
    /// a run that fails now is left out).
    func results(_ plan: ExperimentPlan, workers: Int = ProcessInfo.processInfo.activeProcessorCount) -> [JobResult] {
        let chosen = indices
        let box = Mutex([JobResult?](repeating: nil, count: chosen.count))
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, chosen.count))) { _ in
            while true {
                let i: Int? = next.withLock { n in n < chosen.count ? { n += 1; return n - 1 }() : nil }
                guard let i else { return }
                let r = try? runJob(plan.jobs[chosen[i]], plan: plan)
                box.withLock { $0[i] = r }
            }
        }
        return box.withLock { $0.compactMap { $0 } }
    }
}
