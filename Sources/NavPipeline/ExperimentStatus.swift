import Foundation
import NavIO

/// Where a (sharded) experiment stands (`navbench status SPEC`; issue 32, item 3): per shard, how
/// many of its units — replay runs, closed-loop cells and every asked result kind's units, split
/// by the one shard rule (`shardRange`) — have a verified result in its store, how many failed
/// (with their one-line errors), how many are missing; and whether the merge ran.
public struct ExperimentStatus: Sendable, Equatable {
    public struct Shard: Sendable, Equatable {
        public var shard: Int, shards: Int
        /// The store file (inside the output folder) and whether it exists.
        public var store: String
        public var storeExists: Bool
        public var units: Int, done: Int, failed: Int
        public var missing: Int { units - done - failed }
        /// The failure lines of its failed units, in unit order.
        public var failures: [String]
    }
    public var output: String
    public var shards: [Shard]
    /// Units of the whole experiment.
    public var units: Int
    /// Sharded: `merge` ran — `summary.md` and the merged store hold every unit that has a
    /// result in a shard. Unsharded: the run's report exists.
    public var merged: Bool

    public var missing: Int { shards.map(\.missing).reduce(0, +) }
    public var failed: Int { shards.map(\.failed).reduce(0, +) }

    /// 0: every unit has a result and (sharded) the merge ran; 3: units are missing or the merge
    /// has not run (run the shards listed, then `navbench merge`); 1: some units failed.
    public var exitCode: Int32 { missing > 0 || !merged ? 3 : failed > 0 ? 1 : 0 }

    /// The report printed by `navbench status`: one line per shard, the failures, the merge, a verdict.
    public var text: String {
        var out = ""
        for s in shards {
            let name = fileName(of: s.store)
            out +=
                "shard \(s.shard) of \(s.shards) (\(escapedForMessage(name))): "
                + (s.storeExists ? "" : "no store yet; ")
                + "\(s.done) of \(s.units) units done, \(s.failed) failed, \(s.missing) missing\n"
        }
        let failures = shards.flatMap(\.failures)
        if !failures.isEmpty { out += "failures:\n" + failures.map { "  " + escapedForMessage($0, limit: 300) + "\n" }.joined() }
        let incomplete = shards.filter { $0.missing > 0 }.map { String($0.shard) }
        out += shards.count > 1 ? "merge: " + (merged ? "done" : "not run") + "\n" : "report: " + (merged ? "written" : "not written yet") + "\n"
        if !incomplete.isEmpty {
            out +=
                "incomplete: \(missing) of \(units) units missing, in shard\(incomplete.count > 1 ? "s" : "") \(incomplete.joined(separator: ", "))\n"
        } else if !merged {
            out += shards.count > 1 ? "complete: every unit has a result; run navbench merge\n" : "complete: every unit has a result; no report yet\n"
        } else {
            out += failed > 0 ? "complete with \(failed) failed unit\(failed == 1 ? "" : "s")\n" : "complete\n"
        }
        return out
    }
}

/// The status of `spec`'s run in its output folder, sharded in `shards` (nil: the count the
/// folder's shard stores name, else 1). Reads the stores read-only and writes nothing.
///
/// - Throws: `ResultsStoreError` for a store that cannot be read; `SpecError` when the folder's
///   shard stores name different shard counts and none is given.
/// - Complexity: O(units) store lookups.
public func experimentStatus(
    _ spec: ExperimentSpec, shards given: Int? = nil, readPolicy: HDF5ReadPolicy = .standard,
    kinds: [any ExperimentKind] = ExperimentKinds.standard
) throws -> ExperimentStatus {
    let counts = shardCounts(spec)
    guard given != nil || counts.count <= 1 else {
        throw SpecError(
            file: spec.output, key: "",
            problem: "holds shard stores of \(counts.sorted().map(String.init).joined(separator: ", ")) shards; pass --shards N")
    }
    let n = given ?? counts.first ?? 1
    let plan = planExperiment(spec, readPolicy: readPolicy)
    let blocks = unitBlocks(kinds.map { $0.plan(plan) })
    let units = blocks.map(\.count).reduce(0, +)
    /// Present and failed keys of `keys` in the store at `path` (nil: no store).
    func lookup(_ path: String, _ keys: [(key: String, title: String)]) throws -> (done: Int, failures: [String])? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let db = try SQLiteConnection(path: path, readOnly: true)
            return try db.inTransaction(immediate: false) {
                let reader = StoreReader(db: db)
                var done = 0, failures: [String] = []
                for k in keys {
                    if try reader.result(key: k.key) != nil {
                        done += 1
                    } else if let f = try reader.failure(key: k.key) {
                        failures.append(f)
                    }
                }
                return (done, failures)
            }
        } catch {
            if isOnReadOnlyFileSystem(path) { throw ResultsStoreError.onReadOnlyFileSystem(path: path) }
            throw ResultsStoreError.unreadable(path: path, reason: "\(error)")
        }
    }
    var shards: [ExperimentStatus.Shard] = []
    var allKeys: [(key: String, title: String)] = []
    for k in 1...n {
        let mine = blocks.flatMap { b in Array(b[shardRange(count: b.count, shard: k, shards: n)]) }
        allKeys += mine
        let path = experimentStorePath(spec, shard: k, shards: n)
        let found = try lookup(path, mine)
        shards.append(
            ExperimentStatus.Shard(
                shard: k, shards: n, store: path, storeExists: found != nil, units: mine.count, done: found?.done ?? 0,
                failed: found?.failures.count ?? 0, failures: found?.failures ?? []))
    }
    let summary = (spec.output as NSString).appendingPathComponent("summary.md")
    var merged = FileManager.default.fileExists(atPath: summary)
    if n > 1 && merged {
        let done = shards.map(\.done).reduce(0, +)
        let inMerged = try lookup(experimentStorePath(spec), allKeys)?.done ?? 0
        merged = inMerged >= done
    }
    return ExperimentStatus(output: spec.output, shards: shards, units: units, merged: merged)
}

/// Every unit of work of the planned `kinds` (key and title), each asked kind's a block in the
/// order the engine splits it across shards.
func unitBlocks(_ kinds: [PlannedKind]) -> [[(key: String, title: String)]] {
    kinds.filter(\.isAsked).map { $0.units.map { ($0.key, $0.title) } }
}

/// The most shards a run is split into (`navbench run --shard K/N`, `status --shards`).
public let maxShards = 1_000_000

/// The shard counts the folder's shard stores name (`results.shard-K-of-N.sqlite`). A name is
/// read, never trusted: one whose K or N is not a number with 1 ≤ K ≤ N ≤ `maxShards` is no shard
/// store of a run and is left out (so a planted `…-of-999999999999.sqlite` sizes nothing).
func shardCounts(_ spec: ExperimentSpec) -> Set<Int> {
    var counts = Set<Int>()
    for path in shardStorePaths(spec) {
        let parts = fileName(of: path).dropFirst("results.shard-".count).dropLast(".sqlite".count).split(separator: "-")
        guard parts.count == 3, parts[1] == "of", let k = Int(parts[0]), let n = Int(parts[2]), 1 <= k, k <= n, n <= maxShards else { continue }
        counts.insert(n)
    }
    return counts
}

/// The shard (1…`shards`) whose block (`shardRange`) holds position `index` of `count` units.
///
/// Complexity: O(1) (a guess from the proportion, corrected by at most a step either way).
func shardHolding(_ index: Int, count: Int, shards: Int) -> Int {
    // index < count and shards ≤ maxShards: the product stays far below Int.max for any unit list held in memory.
    var k = min(max(count > 0 ? index * shards / count + 1 : 1, 1), shards)
    while k < shards && !(shardRange(count: count, shard: k, shards: shards).upperBound > index) { k += 1 }
    while k > 1 && shardRange(count: count, shard: k - 1, shards: shards).upperBound > index { k -= 1 }
    return k
}

/// A merge refused because units have no result yet (`mergeExperiment`, issue 32, item 4).
public struct IncompleteMergeError: Error, CustomStringConvertible, Sendable, Equatable {
    public var folder: String
    public var missing: Int, units: Int
    /// The shards (K of N) whose blocks hold them, ascending; empty when the folder has no shard stores.
    public var shards: [Int], of: Int
    public var description: String {
        "\(escapedForMessage(folder)): \(missing) of \(units) units have no result"
            + (shards.isEmpty ? "" : " (in shard\(shards.count > 1 ? "s" : "") \(shards.map(String.init).joined(separator: ", ")) of \(of))")
            + "; run them (navbench status lists them), or merge with --allow-missing for a partial report"
    }
}

/// Throws `IncompleteMergeError` when a unit of `plan` has neither a result nor a recorded failure
/// in `store` (the merged store).
///
/// - Complexity: O(units) store lookups.
func checkMergeComplete(_ plan: ExperimentPlan, store: ResultsStore, kinds: [PlannedKind]) throws {
    let blocks = unitBlocks(kinds)
    let n = shardCounts(plan.spec).max() ?? 1
    var missing = 0, shards = Set<Int>()
    try store.read { reader in
        for block in blocks {
            for (i, u) in block.enumerated() where try reader.result(key: u.key) == nil && reader.failure(key: u.key) == nil {
                missing += 1
                shards.insert(shardHolding(i, count: block.count, shards: n))
            }
        }
    }
    guard missing > 0 else { return }
    throw IncompleteMergeError(
        folder: plan.spec.output, missing: missing, units: blocks.map(\.count).reduce(0, +),
        shards: shardCounts(plan.spec).isEmpty ? [] : shards.sorted(), of: n)
}
