import Testing

@testable import navbench

/// Every command names itself: without `commandName`, ArgumentParser derives the name with
/// `String(describing:)`, a protocol-conformance scan of every loaded image per command, paid by
/// every process at start (a third of `navbench --version`'s instructions, callgrind).
@Suite struct CommandNameTests {
    @Test func everyCommandHasAnExplicitName() {
        var unnamed: [String] = [], seen = 0
        var stack = [(type: "Navbench", configuration: Navbench.configuration)]
        while let (type, c) = stack.popLast() {
            seen += 1
            if c.commandName == nil { unnamed.append(type) }
            stack += c.subcommands.map { ("\($0)", $0.configuration) }
        }
        #expect(seen > 40)
        #expect(unnamed.isEmpty, "commands without commandName: \(unnamed)")
    }
}
