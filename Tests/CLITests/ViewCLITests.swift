import Foundation
import Testing

/// `navbench view` (issue 51, item 2): one page per session, every event a table row with a
/// button; the page never replaces an input.
@Suite struct ViewCLITests {
    @Test func aSessionPageListsEveryEvent() throws {
        let dir = NSTemporaryDirectory() + "navbench-view-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = repoRoot + "/Datasets/R2-turns_recording.h5", nav = repoRoot + "/Datasets/R2-turns_nav1.h5"
        let r = try navbench(["view", rec, nav, "--out", dir + "/v.html"])
        #expect(r.status == 0 && r.err.isEmpty, "\(r)")
        let page = try String(contentsOfFile: dir + "/v.html", encoding: .utf8)
        let rows = page.components(separatedBy: "<button type=\"button\" data-t=").count - 1
        // Every guidance event of `guide --json` (pulses included) is a row.
        let guide = try navbench(["guide", rec, nav, "--pulses", "--json"])
        let events = (try JSONSerialization.jsonObject(with: Data(guide.out.utf8)) as? [String: Any])?["events"] as? [Any]
        #expect(rows == events?.count, "\(rows) rows")
        #expect(
            r.out
                == "\(dir)/v.html: \(rows) events, \(page.components(separatedBy: "\"truePath\":[[")[1].components(separatedBy: "],[").count) positions, 3 series\n",
            "\(r.out)")
        #expect(page.contains("<input type=\"range\" id=\"t\""))
        // The page never replaces an input.
        let before = try Data(contentsOf: URL(fileURLWithPath: nav))
        let refused = try navbench(["view", rec, nav, "--out", nav])
        #expect(refused.status == 73 && refused.err.hasSuffix("inputs are never modified, choose another output\n"), "\(refused)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: nav)) == before)
    }
}
