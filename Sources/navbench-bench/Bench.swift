import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavProcessPolicy

/// `navbench-bench`: the benchmarks, an executable of their own (not in the `navbench` product).
/// Each prints one JSON object per line (JSONSerialization, sorted keys), read by scripts/bench-*.sh.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navbench-bench",
        abstract: "Time navbench on the peer-bench workloads (figures to set beside the Python peers').",
        subcommands: [
            ReadIMU.self, BenchSignal.self, BenchAPE.self, BenchRPE.self, BenchRDP.self, BenchExperiment.self, BenchSimulate.self,
            BenchParse.self,
        ])

    /// As `navbench` runs: large buffers stay mapped (NavCore), unless NAVBENCH_MALLOC_DEFAULTS=1,
    /// except for the sweep (`experiment`, as `navbench run`: glibc's own thresholds).
    static func main() {
        do {
            var command = try parseAsRoot()
            if !(command is BenchExperiment) && ProcessInfo.processInfo.environment["NAVBENCH_MALLOC_DEFAULTS"] != "1" {
                keepLargeBuffersMapped()
            }
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
