import ArgumentParser
import Foundation
import NavIO
import NavReport

// How every command reports a failure on standard error (docs/exit-codes.md).

/// Prints to standard error.
func printError(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}

/// The exit status of a failure a command reports itself: 73 when an output cannot be written
/// (docs/exit-codes.md), else 1.
func failureStatus(_ error: any Error) -> ExitCode {
    if let t = error as? TraceError, t.kind == .writeFailed { return ExitCode(73) }
    if case let .input(t)? = error as? EvaluationError, t.kind == .writeFailed { return ExitCode(73) }
    return ExitCode(1)
}

/// `navbench: error: ` and the error as one line: line breaks joined, control bytes escaped,
/// long values cut (the style of `main`, for errors a command reports and then goes on or
/// exits itself).
func printErrorLine(_ error: any Error) {
    let line = String(describing: error).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }.joined(separator: " ")
    printError("navbench: error: " + escapedForMessage(line, limit: 1000))
}
