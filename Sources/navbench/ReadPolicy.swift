import Foundation
import NavIO

/// How this process reads HDF5, decided once from the command line and the environment and
/// passed to every library call that reads a file (libraries read neither): external links are
/// followed with `--allow-external-links` anywhere on the line (`Navbench.main` removes it before
/// parsing, so every command accepts it), and `NAVBENCH_MEMORY_BUDGET` (bytes, > 0) bounds what
/// one dataset may need in memory (default: half the physical memory).
let commandLineReadPolicy = HDF5ReadPolicy(
    allowExternalLinks: CommandLine.arguments.dropFirst().contains("--allow-external-links"),
    memoryBudgetBytes: ProcessInfo.processInfo.environment["NAVBENCH_MEMORY_BUDGET"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil })
