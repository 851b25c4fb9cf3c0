import ArgumentParser
import Foundation
import NavPipeline

/// `--shard K/N` (or, `offset: true`, `--shard-from-array OFFSET/N`): K and N, or the offset and N.
func parseShard(_ s: String, offset: Bool = false) throws -> (Int, Int) {
    let p = s.split(separator: "/").compactMap { Int($0) }
    if offset {
        guard p.count == 2, p[1] >= 1, p[1] <= maxShards, p[0] >= 0, p[0] < p[1] else {
            throw ValidationError("--shard-from-array \(s): expected OFFSET/N with 0 ≤ OFFSET < N ≤ \(maxShards)")
        }
    } else {
        guard p.count == 2, p[1] >= 1, p[1] <= maxShards, p[0] >= 1, p[0] <= p[1] else {
            throw ValidationError("--shard \(s): expected K/N with 1 ≤ K ≤ N ≤ \(maxShards)")
        }
    }
    return (p[0], p[1])
}

/// `--shard-from-array O/N` in a Slurm array task: shard O + $SLURM_ARRAY_TASK_ID of N.
func shardOfArrayTask(_ text: String) throws -> (Int, Int) {
    let (offset, n) = try parseShard(text, offset: true)
    guard let raw = ProcessInfo.processInfo.environment["SLURM_ARRAY_TASK_ID"], let id = Int(raw), id >= 0 else {
        throw ValidationError("--shard-from-array needs SLURM_ARRAY_TASK_ID (set in a Slurm array task)")
    }
    let (k, overflow) = offset.addingReportingOverflow(id)
    guard !overflow, (1...n).contains(k) else {
        throw ValidationError("--shard-from-array \(text): task \(id) gives shard \(offset) + \(id), outside 1…\(n)")
    }
    return (k, n)
}
