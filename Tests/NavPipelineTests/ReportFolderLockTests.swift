import Foundation
import NavIO
import NavPipeline
import Testing

/// The report-folder lock: the shards of one sharded run write the folder at once (a Slurm job
/// array), while the same shard twice, or a whole run or merge during a shard, is refused.
@Suite struct ReportFolderLockTests {
    private func folder() -> String {
        let path = NSTemporaryDirectory() + "navbench-lock-\(UUID().uuidString)"
        return path
    }

    @Test func shardsShareTheFolder() throws {
        let f = folder()
        defer { try? FileManager.default.removeItem(atPath: f) }
        let one = try ReportFolderLock(f, shard: 1)
        let two = try ReportFolderLock(f, shard: 2)
        withExtendedLifetime((one, two)) {}
    }

    @Test func theSameShardTwiceIsRefused() throws {
        let f = folder()
        defer { try? FileManager.default.removeItem(atPath: f) }
        let one = try ReportFolderLock(f, shard: 1)
        #expect(throws: TraceError.self) { _ = try ReportFolderLock(f, shard: 1) }
        withExtendedLifetime(one) {}
    }

    @Test func aWholeRunWaitsForShardsAndShardsForIt() throws {
        let f = folder()
        defer { try? FileManager.default.removeItem(atPath: f) }
        do {
            let shard = try ReportFolderLock(f, shard: 3)
            #expect(throws: TraceError.self) { _ = try ReportFolderLock(f) }
            withExtendedLifetime(shard) {}
        }
        // Released with the value: now a whole run locks it, and a shard is refused.
        let whole = try ReportFolderLock(f)
        #expect(throws: TraceError.self) { _ = try ReportFolderLock(f, shard: 1) }
        withExtendedLifetime(whole) {}
    }
}
