// One parallel loop for every kind of work (guidance runs, closed-loop cells, plot runs): items
// handed out in order to a fixed number of worker threads, progress after each item, stop on demand.

import Dispatch
import Synchronization

/// Progress of one phase of work (`forEachConcurrently`): items finished of the phase's total.
public struct WorkProgress: Sendable, Equatable {
    /// What the items are, for a progress display ("guidance runs", "closed-loop cells").
    public var phase: String
    public var done: Int
    public var total: Int

    public init(phase: String, done: Int, total: Int) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}

/// Receives progress from worker threads: once per finished item, `done` increasing by one per
/// call within a phase (calls are serialised).
public typealias ProgressHandler = @Sendable (WorkProgress) -> Void

/// A request to stop handing out work (a preempted cluster task's SIGTERM or SIGUSR1): set from
/// any thread, once; every loop given it (`forEachConcurrently`) starts no further item, and the
/// items running finish and are committed.
public final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    /// Asks the loops to stop (idempotent; safe from a signal handler's dispatch source).
    public func request() { flag.store(true, ordering: .relaxed) }
    public var isRequested: Bool { flag.load(ordering: .relaxed) }
}

/// Whether a worker goes on to another item after the one it finished.
public enum WorkStep: Sendable {
    case next
    /// Hand out no further item (a store that cannot be written): items running finish.
    case stop
}

/// Runs `body(i)` for every `i` in `0..<count` on `min(workers, count)` threads (at least one),
/// handing the indices out in increasing order, so the first items start first whatever the
/// number of workers. After each item `progress` receives the finished count under `phase`.
/// When a body returns `.stop`, or `stop` is requested, no further index is handed out.
///
/// Results are the caller's: a body writes its item's result under a lock or into its own slot,
/// so the outcome does not depend on the scheduling.
///
/// - Returns: the number of items whose body ran (`count` unless a body returned `.stop`).
/// - Complexity: O(count) hand-outs under one lock; memory O(1) beyond the workers' stacks.
@discardableResult
public func forEachConcurrently(
    _ count: Int, workers: Int, phase: String = "", progress: ProgressHandler? = nil, stop: StopRequest? = nil,
    _ body: @Sendable (Int) -> WorkStep
) -> Int {
    guard count > 0 else { return 0 }
    let state = Mutex((next: 0, done: 0, stopped: false))
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
        while true {
            let i: Int? = state.withLock { s in
                guard !s.stopped, s.next < count, stop?.isRequested != true else { return nil }
                s.next += 1
                return s.next - 1
            }
            guard let i else { return }
            let step = body(i)
            state.withLock { s in
                s.done += 1
                if step == .stop { s.stopped = true }
                progress?(WorkProgress(phase: phase, done: s.done, total: count))
            }
        }
    }
    return state.withLock { $0.done }
}

/// `body(i)` for every `i` in `0..<count` on `min(workers, count)` threads
/// (`forEachConcurrently`, progress under `phase`), the results in index order: the same array
/// whatever the workers. When a body throws, no further index is handed out, and the error of
/// the lowest index that threw is rethrown (indices are handed out in order, so every lower index
/// ran): the error a loop over the indices in turn would have stopped at. A caller with another
/// rule (every item's failure kept) returns a `Result` from a body that does not throw.
///
/// - Complexity: O(count) hand-outs; memory O(count) results.
public func mapConcurrently<T: Sendable, E: Error>(
    _ count: Int, workers: Int, phase: String = "", progress: ProgressHandler? = nil, _ body: @Sendable (Int) throws(E) -> T
) throws(E) -> [T] {
    let results = Mutex([T?](repeating: nil, count: max(0, count)))
    let failure = Mutex<(index: Int, error: E)?>(nil)
    forEachConcurrently(count, workers: workers, phase: phase, progress: progress) { i in
        do throws(E) {
            let r = try body(i)
            results.withLock { $0[i] = r }
            return .next
        } catch {
            failure.withLock { if $0 == nil || i < $0!.index { $0 = (i, error) } }
            return .stop
        }
    }
    if let f = failure.withLock({ $0 }) { throw f.error }
    return results.withLock { $0.map { $0! } }
}
