import Foundation
import NavCore
import NavTestSupport
import Testing

@testable import NavSignal

/// `ChunkedFilter` (block-by-block filtering of long recordings) against the whole-array
/// `FilterSpec.apply`: bit for bit, for every built-in filter, with block boundaries at awkward
/// places (1-sample blocks, blocks shorter than the padding or the window, blocks straddling
/// the window refresh); and against scipy's numbers (the independent reference).
@Suite struct ChunkedFilterTests {
    /// Every kind and flag combination `FilterSpec` accepts.
    static let specs = [
        "mean", "mean:window=25", "mean:window=7,centred", "mean:window=1", "mean:window=5,angle",
        "circmean", "circmean:window=9",
        "ema:tau=0.5", "ema:cutoff=2", "ema:tau=0.3,angle",
        "butter:order=4,cutoff=5", "butter:order=4,cutoff=5,zero-phase",
        "butter:order=4,cutoff=5,ba", "butter:order=4,cutoff=5,zero-phase,ba",
        "butter:order=2,cutoff=1,type=high", "butter:order=2,low=0.5,high=3,type=band,zero-phase",
        "butter:order=6,cutoff=8", "butter:order=6,cutoff=8,zero-phase", "butter:order=2,cutoff=5,zero-phase,angle",
        "kalman:q=0.01,r=4", "kalman:q=0.01,r=4,angle",
        "kalman-cv:q=0.5,r=0.0016", "kalman-heading:q=1,r=25",
    ]

    /// A seeded noisy signal on irregular stamps (jitter), and heading-like angles.
    static func signal(_ n: Int, angles: Bool) -> (x: [Double], t: [Double]) {
        var g = SeededRandom(seed: 20261123, label: "chunked")
        var t = [Double](), x = [Double]()
        var time = 0.0
        for k in 0..<n {
            time += 0.01 + 0.002 * (g.uniform() - 0.5)
            t.append(time)
            let v = sin(2 * .pi * 0.7 * time) + 0.3 * sin(2 * .pi * 13 * time) + 0.1 * (g.uniform() - 0.5)
            x.append(angles ? (350 + 40 * v + Double(k) * 0.01).truncatingRemainder(dividingBy: 360) : v)
        }
        return (x, t)
    }

    /// Runs `spec` through `ChunkedFilter` with blocks of the given sizes (cycled).
    static func chunked(_ spec: FilterSpec, _ x: [Double], _ t: [Double], blocks: [Int]) throws -> [Double] {
        let f = try ChunkedFilter(spec: spec, sampleRate: 100, count: x.count)
        var out = [Double](), starts: [Range<Int>] = []
        var start = 0, b = 0
        while start < x.count {
            let end = min(x.count, start + blocks[b % blocks.count]); b += 1
            let ahead = Array(x[end..<min(x.count, end + f.lookahead)])
            if let y = try f.forward(Array(x[start..<end]), timestamps: Array(t[start..<end]), ahead: ahead) {
                #expect(y.count == end - start)
                out += y
            }
            starts.append(start..<end)
            start = end
        }
        guard f.isTwoPass else { return out }
        var parts: [[Double]] = []
        for r in starts.reversed() { parts.append(try f.backward(rows: r)) }
        return parts.reversed().flatMap { $0 }
    }

    static let partitions: [[Int]] = [[1], [2, 3], [7], [13, 1, 40], [64], [65, 63], [1000], [4096], [100_000]]

    @Test(arguments: specs) func blocksEqualTheWholeArrayBitForBit(_ text: String) throws {
        let spec = try FilterSpec(parsing: text)
        let angles = text.hasPrefix("circmean") || text.hasPrefix("kalman-heading") || text.contains("angle")
        let (x, t) = Self.signal(2_500, angles: angles)
        let whole = try spec.apply(x, timestamps: t, sampleRate: 100)
        for blocks in Self.partitions {
            let y = try Self.chunked(spec, x, t, blocks: blocks)
            #expect(y.count == whole.count, "\(text) blocks \(blocks)")
            let differing = zip(y, whole).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
            #expect(
                differing == nil,
                "\(text) blocks \(blocks): first difference at sample \(differing?.offset ?? -1): \(differing.map { "\($0.element.0) vs \($0.element.1)" } ?? "")"
            )
        }
    }

    /// The causal mean's refresh every `window` samples and the centred mean's lookahead at the
    /// very end, with a block boundary on every sample around them.
    @Test func boundariesAroundTheWindowRefreshAndTheEnd() throws {
        let (x, t) = Self.signal(103, angles: false)
        for text in ["mean:window=25", "mean:window=25,centred", "butter:order=4,cutoff=5,zero-phase"] {
            let spec = try FilterSpec(parsing: text)
            let whole = try spec.apply(x, timestamps: t, sampleRate: 100)
            for first in 1..<x.count {
                let y = try Self.chunked(spec, x, t, blocks: [first, x.count])
                #expect(y.map(\.bitPattern) == whole.map(\.bitPattern), "\(text) split at \(first)")
            }
        }
    }

    /// Independent reference: scipy's sosfiltfilt, lfilter-based butter and filterpy's Kalman on the
    /// committed seeded signal, through blocks of 1000 (scripts/make_signal_fixtures.py).
    @Test func blocksMatchScipy() throws {
        let x = ref("/inputs/seeded"), t = ref("/inputs/seeded_t")
        let y = try Self.chunked(try FilterSpec(parsing: "butter:order=4,cutoff=5,zero-phase"), x, t, blocks: [1000, 17])
        expectMatches(y, ref("/filter/seeded_low4/sosfiltfilt"), "sosfiltfilt in blocks")
    }

    /// Errors are the whole-array filter's: too short for zero-phase padding, bad windows.
    @Test func errorsAreTheWholeArrayOnes() throws {
        let (x, t) = Self.signal(10, angles: false)
        for text in ["butter:order=4,cutoff=5,zero-phase", "mean:window=4,centred", "mean:window=0", "ema:tau=1,cutoff=2"] {
            let spec = try FilterSpec(parsing: text)
            var whole: FilterSpecError?, chunked: FilterSpecError?
            do { _ = try spec.apply(x, timestamps: t, sampleRate: 100) } catch { whole = error }
            do { _ = try ChunkedFilter(spec: spec, sampleRate: 100, count: x.count) } catch { chunked = error }
            #expect(whole != nil && whole == chunked, "\(text): \(String(describing: whole)) vs \(String(describing: chunked))")
        }
    }

    /// The streaming median equals SamplingSummary's on jittered, repeated and odd/even counts.
    @Test func streamingMedianEqualsTheSortedOne() {
        for n in [0, 1, 2, 3, 10, 1001, 5000] {
            let (_, t) = Self.signal(n, angles: false)
            var stamps = t
            if n > 10 { stamps[5] = stamps[4] }  // a repeated stamp: a zero interval, not counted
            let expected = SamplingSummary(timestamps: stamps).medianInterval
            var gaps = [Double]()
            for i in stamps.indices.dropFirst() { gaps.append(stamps[i] - stamps[i - 1]) }
            let m = medianOfPositiveValues { visit in
                var i = 0
                while i < gaps.count { let e = min(gaps.count, i + 37); gaps[i..<e].withUnsafeBufferPointer { visit($0) }; i = e }
            }
            #expect(m.bitPattern == expected.bitPattern, "n=\(n): \(m) vs \(expected)")
        }
    }
}
