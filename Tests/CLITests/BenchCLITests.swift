import Foundation
import Testing

/// The benchmarks are an executable of their own (`navbench-bench`), not commands of the product,
/// and print JSON an encoder wrote (issue 27).
@Suite struct BenchCLITests {
    @Test func theProductHasNoBenchCommand() throws {
        let r = try navbench(["bench", "simulate"])
        #expect(r.status == 64)
        #expect(r.err.contains("unexpected arguments: 'bench', 'simulate'"))
    }

    @Test func simulatePrintsOneJSONObject() throws {
        let r = try navbench(["simulate", "--runs", "20", "--repeats", "1", "--walker", "cane"], program: "navbench-bench")
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["id"] as? String == "navbench_simulate")
        #expect(object["walker"] as? String == "cane")
        #expect(object["runs"] as? Int == 20)
        let success = try #require(object["success_rate"] as? Double)
        #expect((0...1).contains(success))
    }

    /// Numbers from flags are bounded before use: an infinite route length would never finish.
    @Test func unboundedFlagsAreRefusedInOneLine() throws {
        let r = try navbench(["simulate", "--length", "inf"], program: "navbench-bench")
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("Error: --length inf: expected 1…10000 m\n"))
        let e = try navbench(["experiment", "--routes", "10000000"], program: "navbench-bench")
        #expect(e.status == 64)
        #expect(e.err.hasPrefix("Error: need routes 1…100000"))
    }
}
