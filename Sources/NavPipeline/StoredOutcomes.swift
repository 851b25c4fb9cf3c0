import Foundation
import NavCore

// What a planned kind reads back from the store: its units' accepted outcomes and the failure
// lines of those without one.

/// The stored outcomes of one kind's units, in unit order (nil: failed or missing).
public typealias KindResults = [(unit: WorkUnit, outcome: UnitOutcome?)]

/// `storedOutcomes(of:store:)` of the units `units` of kind `kind`.
func storedOutcomes(
    kind: String, units: [WorkUnit], accepts: (UnitOutcome, WorkUnit) -> Bool, store: ResultsStore
) throws -> (results: KindResults, failures: [String]) {
    var failures: [String] = []
    let results: KindResults = try store.read { reader in
        try units.map { u in
            if let r = try reader.result(key: u.key), r.kind == kind {
                let outcome = UnitOutcome(metrics: r.metrics, note: r.note, artifacts: r.artifacts)
                if accepts(outcome, u) { return (u, outcome) }
            }
            failures.append(try missingResultLine(u, reader: reader))
            return (u, nil)
        }
    }
    return (results, distinctLines(failures))
}

/// The failure line of `unit`, which has no accepted result: its stored failure, or "no result"
/// when its shard did not run or was stopped.
func missingResultLine(_ unit: WorkUnit, reader: StoreReader) throws -> String {
    try reader.failure(key: unit.key) ?? "\(unit.title): no result (its shard did not run, or the run was stopped)"
}

/// `lines` with each line's repetitions left out, in first-appearance order (the cells of one
/// closed-loop scenario that cannot be built fail with one line).
func distinctLines(_ lines: [String]) -> [String] {
    var seen = Set<String>()
    return lines.filter { seen.insert($0).inserted }
}
