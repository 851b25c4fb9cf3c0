import Foundation
import Testing

@testable import NavReport

/// `navbench view`'s page (issue 51, item 2): texts from data cannot end the inline script or
/// become markup, and decimation for display keeps every bucket's extremes.
@Suite struct SessionViewPageTests {
    static func view(text: String) -> SessionView {
        SessionView(
            title: "route \(text)", keypoints: [(0, 0), (10, 0), (10, 5)],
            truePath: (0...100).map { (t: Double($0) * 0.1, x: Double($0) * 0.1, y: 0) },
            estimatedPath: (0...100).map { (t: Double($0) * 0.1, x: Double($0) * 0.1, y: 0.2) },
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
