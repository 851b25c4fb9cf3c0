import Foundation
import NavIO

/// How this process reads HDF5, decided once from the command line and the environment and
/// passed to every library call that reads a file (libraries read neither): external links are
/// followed with `--allow-external-links` anywhere on the line (`Navbench.main` removes it before
/// parsing, so every command accepts it), and `NAVBENCH_MEMORY_BUDGET` (bytes, > 0) bounds what
/// one dataset may need in memory (default: half the physical memory). `Navbench.main` refuses a
/// malformed budget (`memoryBudgetProblem`) before any command runs.
let commandLineReadPolicy = HDF5ReadPolicy(
    allowExternalLinks: CommandLine.arguments.dropFirst().contains("--allow-external-links"),
    memoryBudgetBytes: ProcessInfo.processInfo.environment["NAVBENCH_MEMORY_BUDGET"].flatMap { Int($0) })

/// One line when `NAVBENCH_MEMORY_BUDGET` is set but is not a whole number of bytes > 0 (so a
/// typo such as `4G` is refused rather than silently replaced by the default); nil otherwise.
func memoryBudgetProblem(_ environment: [String: String]) -> String? {
    guard let text = environment["NAVBENCH_MEMORY_BUDGET"] else { return nil }
    if let v = Int(text), v > 0 { return nil }
    return "NAVBENCH_MEMORY_BUDGET='\(escapedForMessage(text, limit: 40))': expected a whole number of bytes > 0 (e.g. 4294967296)"
}
