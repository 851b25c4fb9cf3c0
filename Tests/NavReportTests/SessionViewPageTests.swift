import Foundation
import Testing

@testable import NavReport

/// `navbench view`'s page (issue 51, item 2): texts from data cannot end the inline script or
/// become markup, and decimation for display keeps every bucket's extremes.
@Suite struct SessionViewPageTests {
    static func view(text: String) -> SessionView {
        let truePath: [(t: Double, x: Double, y: Double)] = (0...100).map { (i: Int) -> (t: Double, x: Double, y: Double) in
            (t: Double(i) * 0.1, x: Double(i) * 0.1, y: 0)
        }
        let estimatedPath: [(t: Double, x: Double, y: Double)] = truePath.map { (t: $0.t, x: $0.x, y: 0.2) }
        return SessionView(
            title: "route \(text)", keypoints: [(0, 0), (10, 0), (10, 5)],
            truePath: truePath,
            estimatedPath: estimatedPath,
            events: [
                .init(time: 1, kind: "instruction", text: text, spoken: true),
                .init(time: 2, kind: "pulse", text: "haptic pulse", spoken: false),
            ],
            series: [.init(name: "rssi \(text)", unit: "dBm", times: [0, 5, 10], values: [-70, -60, -65])])
    }

    @Test func textsFromDataStayText() {
        for text in ["</script><script>alert(1)</script>", "<!--", "a\u{2028}b", "\" onclick=\"x", "&lt;"] {
            let page = sessionViewPage(Self.view(text: text))
            // Exactly the page's own two scripts open and close.
            #expect(page.components(separatedBy: "<script").count == 3, "\(text)")
            #expect(page.components(separatedBy: "</script>").count == 3, "\(text)")
            #expect(!page.contains("<!--") && !page.contains("onclick=\""), "\(text)")
            #expect(!page.unicodeScalars.contains("\u{2028}"), "\(text)")
            // The inline JSON reads back to the same text.
            let json = page.components(separatedBy: "<script type=\"application/json\" id=\"view-data\">")[1]
                .components(separatedBy: "</script>")[0]
            let decoded = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let spoken = decoded?["spoken"] as? [[String]]
            #expect(spoken?.first?.last == text, "\(text)")
        }
    }

    /// A long session keeps every event: each guidance event a row with a button, each annotation
    /// event a row of its stream's table (no button), the strip's ticks deduplicated per half pixel.
    @Test func everyAnnotationEventIsListed() {
        var v = Self.view(text: "go <left>")
        let steps = 20_000
        for i in 0..<steps { v.events.append(.init(time: Double(i) * 0.0005, kind: "steps", text: "step \(i + 1)", spoken: false, annotation: true)) }
        v.events.append(.init(time: 3, kind: "turns", text: "turn <90>", spoken: false, annotation: true))
        let page = sessionViewPage(v)
        #expect(page.components(separatedBy: "<button type=\"button\" data-t=").count - 1 == 2)  // the two guidance events
        #expect(page.contains("Every guidance event of the session (2)"))
        for i in [1, 2, 9_999, steps] { #expect(page.contains("<td>step \(i)</td>"), "step \(i)") }
        #expect(page.components(separatedBy: "</td><td>step ").count - 1 == steps)
        #expect(page.contains("<summary>steps: all 20000 events</summary>") && page.contains("<td>turn &lt;90&gt;</td>"))
        #expect(page.contains("<title id=\"annotation-0\">steps: 20000 events from 0.0 s to 10.0 s, a tick each</title>"))
        // 20,000 events over 10 s on a 570 px axis: at most 2 ticks per pixel.
        let strip = page.components(separatedBy: "<title id=\"annotation-0\">")[1].components(separatedBy: "</svg>")[0]
        let ticks = strip.components(separatedBy: "v14").count - 1
        #expect(ticks > 500 && ticks <= 2 * 571, "\(ticks) ticks")
        #expect(tickPath([1.0, 1.1, 1.3, 2.0, .nan], top: 5, length: 8) == "M1.0 5v8M1.5 5v8M2.0 5v8")
    }

    @Test func decimationKeepsEachBucketsExtremes() {
        // 10,000 samples of a sine with one spike: 100 buckets keep ≤ 200 samples, the spike among them.
        let t = (0..<10_000).map { Double($0) * 0.01 }
        var v = t.map { sin($0) }
        v[5_432] = 40
        let d = decimatedForDisplay(times: t, values: v, buckets: 100)
        #expect(d.times.count <= 200 && d.times.count >= 100)
        #expect(d.values.contains(40))
        #expect(d.times == d.times.sorted())
        // Every kept sample is a real one, and each bucket's min and max (closed form over the bucket) are kept.
        for b in 0..<100 {
            let inBucket = (b * 100..<(b + 1) * 100).map { v[$0] }
            #expect(d.values.contains(inBucket.max()!) && d.values.contains(inBucket.min()!), "bucket \(b)")
        }
        // Short series are left as they are.
        #expect(decimatedForDisplay(times: [0, 1], values: [3, 4]).values == [3, 4])
    }
}
