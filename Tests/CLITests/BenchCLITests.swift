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
}
