import NavCore
import Testing

@Suite struct TimeSeriesTests {
    @Test func rejectsBadAxes() {
        #expect(throws: TimestampError.countMismatch(timestamps: 2, values: 1)) {
            try TimeSeries(timestamps: [0, 1], values: [1.0])
        }
        #expect(throws: TimestampError.notFinite(index: 1)) {
            try TimeSeries(timestamps: [0, .nan, 2], values: [1.0, 2, 3])
        }
        #expect(throws: TimestampError.notIncreasing(index: 2, previous: 1, current: 1, strict: true)) {
            try TimeSeries(timestamps: [0, 1, 1], values: [1.0, 2, 3])
        }
        #expect(throws: Never.self) {
            try TimeSeries(timestamps: [0, 1, 1], values: [1.0, 2, 3], order: .nonDecreasing)
        }
    }

    @Test func samplingSummaryClosedForm() {
        // 0, 0.1, …, 0.9 then a 2 s gap then 2.9, 3.0.
        let t = (0..<10).map { Double($0) / 10 } + [2.9, 3.0]
        let s = SamplingSummary(timestamps: t)
        #expect(s.count == 12)
        #expect(abs(s.largestGap - 2.0) < 1e-12)
        #expect(abs(s.meanRate - 11 / 3.0) < 1e-12)
        #expect(abs(s.medianInterval - 0.1) < 1e-12)
    }

    @Test func trajectoryPathLength() throws {
        let poses = [Vector3(0, 0, 0), Vector3(3, 4, 0), Vector3(3, 4, 12)].map { Pose(translation: $0) }
        let tr = try Trajectory(timestamps: [0, 1, 2], poses: poses)
        #expect(tr.pathLength == 17)
    }
}
