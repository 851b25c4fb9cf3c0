/// A timed sequence of poses of one body in one frame.
public struct Trajectory: Sendable {
    public let poses: TimeSeries<Pose>

    public init(_ poses: TimeSeries<Pose>) { self.poses = poses }

    public init(timestamps: [Double], poses: [Pose]) throws(TimestampError) {
        self.poses = try TimeSeries(timestamps: timestamps, values: poses)
    }

    public var timestamps: [Double] { poses.timestamps }
    public var positions: [Vector3] { poses.values.map(\.translation) }
    public var count: Int { poses.count }

    /// Sum of distances between consecutive positions, in metres.
    ///
    /// - Complexity: O(n).
    public var pathLength: Double {
        var total = 0.0
        let p = poses.values
        for i in p.indices.dropFirst() { total += (p[i].translation - p[i - 1].translation).norm }
        return total
    }
}
