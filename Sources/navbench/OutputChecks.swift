import Foundation
import NavIO

/// Paths on the command line that name existing files or folders, except the values of output
/// options: the inputs an output must never replace. A value counts whether it follows its
/// option (`--mapping m.yaml`) or is attached (`--mapping=m.yaml`); `--times` is an output of
/// `export` only (of `import kitti` and `rpe`, the times file read).
func commandLineInputs(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> [String] {
    let subcommand = arguments.first { !$0.hasPrefix("-") }
    var outputOptions: Set<String> = ["--out", "--mapping-out", "--save-results", "--plot", "--markdown", "--junit"]
    if subcommand == "export" { outputOptions.insert("--times") }
    var inputs: [String] = []
    var skipNext = false
    for a in arguments {
        if skipNext { skipNext = false; continue }
        if outputOptions.contains(a) { skipNext = true; continue }
        if a.hasPrefix("-"), let eq = a.firstIndex(of: "=") {
            let value = String(a[a.index(after: eq)...])
            if !outputOptions.contains(String(a[..<eq])) && FileManager.default.fileExists(atPath: value) { inputs.append(value) }
            continue
        }
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
