import ArgumentParser
import Foundation
import NavIO

/// `navbench-bench parse FILE…`: parse throughput of numeric text (TUM, KITTI, CSV rows), the
/// parser of this build (`parseNumericTable`: Clinger, Eisel–Lemire, strtod) against the frozen
/// baseline (`legacyParseNumericTable`: Clinger, strtod) on the same bytes in the same process,
/// in alternating rounds (old first in even rounds, new first in odd ones), after one warm-up
/// of each. The files are read into memory before timing: only the parse is timed. Prints
/// one JSON line: bytes, per-round seconds, median and range of MB/s (10⁶ bytes per second)
/// of each (wall time, and this thread's CPU time), and a checksum of the parsed values' bit
/// patterns (equal for both, or the run fails).
struct BenchParse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse throughput (MB/s) of numeric text files: this build's parser vs the strtod baseline, alternating rounds.")

    @Argument(help: "Text files of numbers (rows of 1 to 64 fields; # comments).") var files: [String]
    @Option(help: "Timed rounds of each parser (after one warm-up each).") var rounds: Int = 11

    func validate() throws {
        try checkRepeats(rounds)
        guard !files.isEmpty else { throw ValidationError("expected at least one FILE") }
    }

    func run() throws {
        let texts = try files.map { path throws(TraceError) in (path, try readFileBytes(path)) }
        let bytes = texts.reduce(0) { $0 + $1.1.count }
        /// Parses every file, returns the checksum of the values (FNV-1a over bit patterns) and their count.
        func parseAll(_ legacy: Bool) throws -> (checksum: UInt64, count: Int) {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325, count = 0
            for (path, text) in texts {
                let values =
                    legacy
                    ? try legacyParseNumericTable(text, path: path, columns: 1...64, fieldNames: [], formatName: "numeric text").values
                    : try parseNumericTable(text, path: path, columns: 1...64, fieldNames: [], formatName: "numeric text").values
                for v in values { h = (h ^ v.bitPattern) &* 0x100_0000_01b3 }
                count += values.count
            }
            return (h, count)
        }
        /// Wall time and this thread's CPU time (the second is what a busy machine steals less of).
        func timed(_ legacy: Bool) throws -> (seconds: Double, cpu: Double, checksum: UInt64, count: Int) {
            let cpu0 = threadCPUSeconds(), start = DispatchTime.now().uptimeNanoseconds
            let r = try parseAll(legacy)
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return (wall, threadCPUSeconds() - cpu0, r.checksum, r.count)
        }
        let warmOld = try timed(true), warmNew = try timed(false)
        guard warmOld.checksum == warmNew.checksum && warmOld.count == warmNew.count else {
            throw ValidationError(
                "the parsers disagree: \(warmOld.count) values (checksum \(warmOld.checksum)) vs \(warmNew.count) (\(warmNew.checksum))")
        }
        var old: [Double] = [], new: [Double] = [], oldCPU: [Double] = [], newCPU: [Double] = []
        for round in 0..<rounds {
            for legacy in round % 2 == 0 ? [true, false] : [false, true] {
                let t = try timed(legacy)
                if legacy { old.append(t.seconds); oldCPU.append(t.cpu) } else { new.append(t.seconds); newCPU.append(t.cpu) }
            }
        }
        func summary(_ s: [Double]) -> [String: Any] {
            let sorted = s.sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let mb = Double(bytes) / 1e6
            return [
                "runs_s": s, "median_s": median, "median_mb_s": mb / median,
                "min_mb_s": mb / sorted.last!, "max_mb_s": mb / sorted.first!,
            ]
        }
        print(
            try jsonLine([
                "id": "parse_numeric_text", "files": files, "bytes": bytes, "values": warmNew.count, "rounds": rounds,
                "checksum_fnv1a": String(warmNew.checksum, radix: 16), "old_clinger_strtod": summary(old),
                "new_clinger_eisel_lemire": summary(new), "old_cpu": summary(oldCPU), "new_cpu": summary(newCPU),
                "what": "parse only (bytes in memory), 1-64 fields per row; old = NavIO's parser as of 5f0ed44",
            ]))
    }
}

/// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in seconds.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
