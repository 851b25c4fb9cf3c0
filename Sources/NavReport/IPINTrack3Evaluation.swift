import NavCore
import NavIO
import NavMetrics

/// An IPIN 2023 Track 3 evaluation of files: the score and whether the estimate file gave
/// latitude before longitude (swapped back, as the organisers do).
public struct IPINTrack3Evaluation: Sendable, Equatable {
    public var score: IPINTrack3Score
    public var swappedCoordinates: Bool
    public var venueAltitude: Double
}

/// Reads the organisers' ground-truth CSV (time, longitude, latitude, floor, point number per
/// row) and a competitor's `.est` file (comma-separated, read from its third line as their
/// `dlmread(file, ',', 2, 0)` does; time in the first column, longitude, latitude and floor in the
/// fifth to seventh, swapped back when the sixth column's median is below 10, their rule), and
/// scores the trial (`ipinTrack3Score`; docs/metrics.md, "IPIN Track 3").
///
/// - Throws: `TraceError` for a file that cannot be read or is not numbers; `IPINScoreError` for
///   no reference points or a reference point without an estimate.
/// - Complexity: O(file sizes + n log m).
public func ipinTrack3Evaluation(
    groundTruth: String, estimates: String, venueAltitude: Double = ipin2023VenueAltitude, floorPenalty: Double = 15
) throws -> IPINTrack3Evaluation {
    let gt = try readCommaSeparatedNumbers(groundTruth, columns: 5, what: "an IPIN ground-truth file (time, longitude, latitude, floor, point)")
    var est = try readCommaSeparatedNumbers(
        estimates, skippingLines: 2, columns: 7, what: "an IPIN estimate file (time first, longitude, latitude and floor in columns 5–7)")
    let swapped = quantile(est.map { $0[5] }, 0.5, method: .hazen) < 10
    if swapped { for i in est.indices { est[i].swapAt(4, 5) } }
    let reference = gt.map { IPINReferencePoint(time: $0[0], longitude: $0[1], latitude: $0[2], floor: $0[3], number: $0[4]) }
    let estimated = est.map { IPINEstimate(time: $0[0], longitude: $0[4], latitude: $0[5], floor: $0[6]) }
    // A scoring error names the file it comes from: the reference points are the ground truth's
    // rows, the estimates the estimate file's (from its third line).
    let score: IPINTrack3Score
    do { score = try ipinTrack3Score(reference: reference, estimates: estimated, venueAltitude: venueAltitude, floorPenalty: floorPenalty) } catch {
        switch error {
        case .noReferencePoints: throw TraceError(.empty, file: groundTruth, "no reference points, expected an IPIN ground-truth file")
        case .noEstimate(let i, _):
            throw TraceError(.badValue, file: estimates, object: "reference point \(i) of \(fileName(of: groundTruth))", error.description)
        case .badReferencePoint(let i, let problem): throw TraceError(.badValue, file: groundTruth, object: "reference point \(i)", problem)
        case .badEstimate(let i, let problem):
            throw TraceError(.badValue, file: estimates, object: "estimate \(i) (row \(i) after the two header lines)", problem)
        case .badVenueAltitude: throw error
        }
    }
    return IPINTrack3Evaluation(score: score, swappedCoordinates: swapped, venueAltitude: venueAltitude)
}
