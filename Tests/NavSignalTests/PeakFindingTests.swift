import Foundation
import NavCore
import NavSignal
import NavTestSupport
import Testing

/// `findPeaks` equals `scipy.signal.find_peaks` (height, distance, plateaus, ends) on the
/// fixtures of scripts/make_pdr_fixtures.py, and the common Python step-counting pipeline
/// (magnitude, Butterworth band-pass with sosfiltfilt, find_peaks) on a real WeAllWalk walk.
@Suite struct PeakFindingTests {
    struct PeakCases: Decodable {
        struct Case: Decodable { var name: String; var x: [Double]; var height: Double?; var distance: Int; var expected: [Int] }
        var cases: [Case]
    }

    static func load<T: Decodable>(_ name: String, as: T.Type) throws -> T {
        let data = try Data(contentsOf: URL(fileURLWithPath: bundledFixture(.module, "pdr/" + name)))
        let dec = JSONDecoder()
        dec.keyDecodingStrategy = .convertFromSnakeCase
        return try dec.decode(T.self, from: data)
    }

    @Test func equalsScipyFindPeaks() throws {
        let cases = try Self.load("find_peaks.json", as: PeakCases.self).cases
        #expect(cases.count >= 30)
        for c in cases {
            #expect(findPeaks(c.x, height: c.height, distance: c.distance) == c.expected, "\(c.name)")
        }
    }

    /// Closed-form cases: a plateau's peak is its left-biased middle; the ends are never peaks;
    /// the distance rule keeps the higher of two close peaks.
    @Test func plateausEndsAndDistance() {
        #expect(findPeaks([0, 1, 0, 2, 2, 0, 3, 3, 3, 1, 4, 4, 4, 4, 0, 5]) == [1, 3, 7, 11])
        #expect(findPeaks([0, 1, 0, 2, 2, 0, 3, 3, 3, 1, 4, 4, 4, 4, 0, 5], distance: 3) == [3, 7, 11])
        #expect(findPeaks([5, 1, 2, 1, 2, 2, 3, 1, 4, 4]) == [2, 6])
        #expect(findPeaks([0, 1, 0, 2, 0], height: 1.5) == [3])
        #expect(findPeaks([0, 3, 0, 1, 0, 2, 0], distance: 4) == [1, 5])
        #expect(findPeaks([1, 2]) == [])
        let heights = [0.0, 0, 0, 2, 0, 0, 0]
        #expect(findPeaks([0, 1, 0, 1, 0, 1, 0], minimumHeights: heights) == [1, 5])
    }

    struct Pipeline: Decodable {
        var t: [Double]
        var accG: [[Double]]
        var order: Int
        var lowHz: Double
        var highHz: Double
        var height: Double
        var distanceSamples: Int
        var g: Double
        var expectedIndices: [Int]
        var filtered: [Double]
    }

    /// The same detections as pandas + scipy (butter + sosfiltfilt + find_peaks) on 60 s of a
    /// cane user's walk; the filtered signal within 1e-12 m/s² (its BLAS-dependent last bits).
    @Test func pipelineEqualsPythonOnARealWalk() throws {
        let p = try Self.load("pipeline.json", as: Pipeline.self)
        let magnitude = p.accG.map { ($0[0] * $0[0] + $0[1] * $0[1] + $0[2] * $0[2]).squareRoot() * p.g }
        let mean = magnitude.reduce(0, +) / Double(magnitude.count)
        let spec = try FilterSpec(parsing: "butter:order=\(p.order),low=\(p.lowHz),high=\(p.highHz),type=band,zero-phase")
        let filtered = try spec.apply(magnitude.map { $0 - mean }, timestamps: p.t, sampleRate: 25)
        #expect(filtered.count == p.filtered.count)
        let worst = zip(filtered, p.filtered).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-12, "largest difference \(worst)")
        #expect(findPeaks(filtered, height: p.height, distance: p.distanceSamples) == p.expectedIndices)
    }
}
