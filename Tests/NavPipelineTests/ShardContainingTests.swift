import Testing

@testable import NavPipeline

/// `shardHolding(_:count:shards:)` names the shard whose `shardRange` block holds an index
/// (checked against the blocks themselves, including more shards than units).
@Suite struct ShardContainingTests {
    @Test func everyIndexIsInTheShardNamed() {
        for (count, shards) in [(1, 1), (14, 3), (10, 10), (7, 20), (1000, 7), (5, 1_000_000)] {
            for i in 0..<count {
                let k = shardHolding(i, count: count, shards: shards)
                #expect(shardRange(count: count, shard: k, shards: shards).contains(i), "\(i) of \(count) in \(shards) shards: \(k)")
            }
        }
    }
}
