import NavCore
import NavMetrics
import Testing

/// TLIO end-point drift: ‖p_end − p_gt,end‖ / ground-truth path length.
@Suite struct EndPointDriftTests {
    @Test func driftIsEndErrorOverPathLength() throws {
        let q = (0...100).map { Vector3(Double($0), 0, 0) }  // 100 m
        var p = q
        p[100] = Vector3(100, 0, 3)
        let d = try endPointDrift(reference: q, estimate: p)
        #expect(d.endPointError == 3)
        #expect(d.pathLength == 100)
        #expect(d.drift == 0.03)
        #expect(throws: MetricError.noErrors) { try endPointDrift(reference: [], estimate: []) }
    }
}
