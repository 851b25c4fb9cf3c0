import NavCore
import Synchronization
import Testing

/// The one parallel loop of every experiment phase: each item once, in hand-out order, progress
/// counted per finished item, no new item after a stop.
@Suite struct ParallelWorkTests {
    @Test(arguments: [1, 2, 7])
    func everyItemRunsOnce(workers: Int) {
        let seen = Mutex([Int](repeating: 0, count: 100))
        let ran = forEachConcurrently(100, workers: workers) { i in
            seen.withLock { $0[i] += 1 }
            return .next
        }
        #expect(ran == 100)
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: 100))
    }

    @Test func oneWorkerTakesItemsInOrder() {
        let order = Mutex([Int]())
        forEachConcurrently(20, workers: 1) { i in
            order.withLock { $0.append(i) }
            return .next
        }
        #expect(order.withLock { $0 } == Array(0..<20))
    }

    @Test func progressCountsEachFinishedItemUnderItsPhase() {
        let updates = Mutex([WorkProgress]())
        forEachConcurrently(9, workers: 3, phase: "closed-loop cells", progress: { p in updates.withLock { $0.append(p) } }) { _ in .next }
        let u = updates.withLock { $0 }
        #expect(u.map(\.done) == Array(1...9))
        #expect(u.allSatisfy { $0.total == 9 && $0.phase == "closed-loop cells" })
    }

    @Test func stopHandsOutNoFurtherItem() {
        let started = Mutex(0)
        let ran = forEachConcurrently(1_000, workers: 1) { i in
            started.withLock { $0 += 1 }
            return i == 4 ? .stop : .next
        }
        #expect(ran == 5)
        #expect(started.withLock { $0 } == 5)
    }

    @Test func noItemsNoCalls() {
        let calls = Mutex(0)
        #expect(
            forEachConcurrently(0, workers: 4) { _ in
                calls.withLock { $0 += 1 }; return .next
            } == 0)
        #expect(calls.withLock { $0 } == 0)
    }

    /// `mapConcurrently`: results in index order whatever the workers; of the indices that
    /// throw, the lowest one's error (what a loop in turn stops at); nothing for no items.
    @Test(arguments: [1, 2, 7])
    func mapKeepsOrderAndTheFirstError(workers: Int) throws {
        struct Failed: Error, Equatable { var index: Int }
        let squares = try mapConcurrently(100, workers: workers) { i throws(Failed) in i * i }
        let expected: [Int] = (0..<100).map { (i: Int) -> Int in i * i }
        #expect(squares == expected)
        #expect(try mapConcurrently(0, workers: workers) { i throws(Failed) in i }.isEmpty)
        for _ in 0..<20 {
            #expect(throws: Failed(index: 17)) {
                _ = try mapConcurrently(100, workers: workers) { i throws(Failed) in
                    if i == 17 || i == 40 || i == 90 { throw Failed(index: i) }
                    return i
                }
            }
        }
    }
}
