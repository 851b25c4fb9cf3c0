import Foundation
import NavIO

/// Paths on the command line that name existing files or folders, except the values of output
/// options: the inputs an output must never replace.
func commandLineInputs() -> [String] {
    let outputOptions: Set<String> = ["--out", "--times", "--mapping-out", "--save-results", "--plot", "--markdown", "--junit"]
    var inputs: [String] = []
    var skipNext = false
    for a in CommandLine.arguments.dropFirst() {
        if skipNext { skipNext = false; continue }
        if outputOptions.contains(a) { skipNext = true; continue }
        if outputOptions.contains(where: { a.hasPrefix($0 + "=") }) { continue }
        if !a.hasPrefix("-") && FileManager.default.fileExists(atPath: a) { inputs.append(a) }
    }
    return inputs
}

/// `checkOutputPath` against every input named on the command line; a refused path is one
/// line and exit status 73 (docs/exit-codes.md).
func checkOutput(_ out: String?, flag: String = "--out", folder: Bool = false, extraInputs: [String] = []) throws {
    guard let out else { return }
    try checkOutputPath(out, flag: flag, inputs: commandLineInputs() + extraInputs, folder: folder)
}

/// The command as a file records it (`processing`): the arguments from `subcommand` on, every
/// path (an existing file, or the value of `--out`) reduced to its file name, so the stamp is the
/// same wherever the command runs and never holds a folder of the machine.
func commandProvenance(from subcommand: String) -> String {
    let args = CommandLine.arguments
    guard let start = args.firstIndex(of: subcommand) else { return "navbench \(subcommand)" }
    var out = ["navbench"]
    var previous = ""
    for a in args[start...] {
        let isPath =
            previous == "--out" || (a.contains("/") && FileManager.default.fileExists(atPath: a))
            || (!a.hasPrefix("-") && a.contains(".") && FileManager.default.fileExists(atPath: a))
        out.append(isPath ? fileName(of: a) : a)
        previous = a
    }
    return out.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
}
