import NavCore

/// A keypoint (waypoint) of a route, in the route's frame.
public struct Keypoint: Sendable, Equatable {
    public var position: Vector3
    /// Horizontal unit vector from this keypoint to the previous one (Clew's keypoint
    /// orientation); +x for the first keypoint, which has no predecessor.
    public var orientation: Vector3

    public init(position: Vector3, orientation: Vector3) { self.position = position; self.orientation = orientation }
}

/// Keypoints in walking order with Clew's orientations.
public struct GuidanceRoute: Sendable, Equatable {
    public var keypoints: [Keypoint]

    /// Builds keypoints from positions: orientation = normalise((prev − this) with y = 0).
    public init(positions: [Vector3]) {
        keypoints = positions.indices.map { i in
            guard i > 0 else { return Keypoint(position: positions[i], orientation: Vector3(1, 0, 0)) }
            var d = positions[i - 1] - positions[i]
            d.y = 0
            let n = d.norm
            return Keypoint(position: positions[i], orientation: n > 0 ? d / n : Vector3(1, 0, 0))
        }
    }

    /// Length of the keypoint polyline (3-D), metres.
    public var length: Double {
        zip(keypoints.dropFirst(), keypoints).reduce(0) { $0 + ($1.0.position - $1.1.position).norm }
    }

    /// Shortest 3-D distance from `p` to the keypoint polyline.
    ///
    /// - Complexity: O(keypoints).
    public func distanceToRoute(_ p: Vector3) -> Double {
        guard keypoints.count > 1 else { return keypoints.first.map { ($0.position - p).norm } ?? .nan }
        // The smallest squared distance, then one square root: the same bits as the smallest of
        // the distances (a correctly rounded square root is monotone).
        var best = Double.infinity
        for i in 1..<keypoints.count {
            let a = keypoints[i - 1].position, b = keypoints[i].position
            let ab = b - a
            let len2 = ab.dot(ab)
            let t = len2 > 0 ? min(1, max(0, (p - a).dot(ab) / len2)) : 0
            let d = a + t * ab - p
            best = min(best, d.dot(d))
        }
        return best.squareRoot()
    }
}
