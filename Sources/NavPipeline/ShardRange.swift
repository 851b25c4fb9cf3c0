// The one shard rule: every kind of unit (replay runs, result-kind units) is split across
// `navbench run --shard K/N` by it.

/// The positions of shard `shard` (1-based) of `shards` in a kind's unit order of `count` units:
/// a contiguous block (of replay jobs in route, session, configuration order, so a shard needs
/// the inputs of few sessions). Block sizes differ by at
/// most one; the blocks of 1…shards cover 0..<count once. Needs count ≥ 0 and 1 ≤ shard ≤
/// shards; the products are taken at full width, so no count and shard overflow.
public func shardRange(count: Int, shard: Int, shards: Int) -> Range<Int> {
    func cut(_ k: Int) -> Int { shards.dividingFullWidth(count.multipliedFullWidth(by: k)).quotient }
    return cut(shard - 1)..<cut(shard)
}
