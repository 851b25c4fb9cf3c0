import ArgumentParser
import Foundation
import NavIO

/// `navbench-bench parse FILE…`: parse throughput of numeric text (TUM, KITTI, CSV rows) with
/// this build's parser (`parseNumericTable`: Clinger, Eisel–Lemire, strtod) on bytes already in
/// memory, over `rounds` timed rounds after one warm-up. Prints one JSON line: bytes, values,
/// per-round seconds, median and range of MB/s (10⁶ bytes per second) of wall time and of this
/// thread's CPU time, and a checksum of the parsed values' bit patterns (FNV-1a), which a peer
/// parsing the same files correctly rounded must reproduce (scripts/bench.py: pandas).
struct BenchParse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse", abstract: "Parse throughput (MB/s) of numeric text files, with a checksum of the values parsed.")

    @Argument(help: "Text files of numbers (rows of 1 to 64 fields; # comments).") var files: [String]
    @Option(help: "Timed rounds (after one warm-up).") var rounds: Int = 11

    func validate() throws {
        try checkRepeats(rounds)
        guard !files.isEmpty else { throw ValidationError("expected at least one FILE") }
    }

    func run() throws {
        let texts = try files.map { path throws(TraceError) in (path, try readFileBytes(path)) }
        let bytes = texts.reduce(0) { $0 + $1.1.count }
        /// Parses every file: the values of each.
        func parseAll() throws -> [[Double]] {
            try texts.map { path, text in
                try parseNumericTable(text, path: path, columns: 1...64, fieldNames: [], formatName: "numeric text").values
            }
        }
        /// Wall time and this thread's CPU time of the parse (the second is what a busy machine
        /// steals less of), then, untimed, the checksum of the values (FNV-1a over bit patterns,
        /// row by row) and their count.
        func timed() throws -> (seconds: Double, cpu: Double, checksum: UInt64, count: Int) {
            let cpu0 = threadCPUSeconds(), start = DispatchTime.now().uptimeNanoseconds
            let parsed = try parseAll()
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let cpu = threadCPUSeconds() - cpu0
            var h: UInt64 = 0xcbf2_9ce4_8422_2325, count = 0
            for values in parsed {
                for v in values { h = (h ^ v.bitPattern) &* 0x100_0000_01b3 }
                count += values.count
            }
            return (wall, cpu, h, count)
        }
        let warm = try timed()
        var wall: [Double] = [], cpu: [Double] = []
        for _ in 0..<rounds {
            let t = try timed()
            wall.append(t.seconds)
            cpu.append(t.cpu)
        }
        func summary(_ s: [Double]) -> [String: Any] {
            let sorted = s.sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let mb = Double(bytes) / 1e6
            return ["runs_s": s, "median_s": median, "median_mb_s": mb / median, "min_mb_s": mb / sorted.last!, "max_mb_s": mb / sorted.first!]
        }
        print(
            try jsonLine([
                "id": "parse_numeric_text", "files": files, "bytes": bytes, "values": warm.count, "rounds": rounds,
                "checksum_fnv1a": String(warm.checksum, radix: 16), "wall": summary(wall), "cpu": summary(cpu),
                "what": "parse only (bytes in memory), 1-64 fields per row",
            ]))
    }
}

/// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in seconds.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
