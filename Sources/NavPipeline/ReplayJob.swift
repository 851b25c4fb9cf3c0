import Foundation
import NavCore
import NavGuidance
import NavIO

/// Runs one job (no store). `paths: false` leaves the paths and errors empty (the sweep keeps
/// metrics only; a plot re-runs its sample with paths).
public func runJob(_ job: ExperimentJob, plan: ExperimentPlan, paths: Bool = true) throws -> JobResult {
    let run = try runGuidance(
        recording: try plan.session(job.recording), navigation: try plan.session(job.navigation),
        options: job.configuration.options, estimate: try jobEstimate(job, plan: plan), pluginTimeout: plan.spec.pluginTimeout)
    func thin(_ p: [Vector3]) -> [[Double]] {
        let step = max(1, p.count / 300)
        return stride(from: 0, to: p.count, by: step).map { [p[$0].x, -p[$0].z] }
    }
    guard paths else {
        return JobResult(
            route: job.routeID, session: job.session ?? run.navigationID, configuration: job.configuration.label,
            parameters: job.configuration.parameters, metrics: run.metrics, truePath: [], estimatedPath: [], route2D: [],
            positionErrors: [])
    }
    return JobResult(
        route: job.routeID, session: job.session ?? run.navigationID, configuration: job.configuration.label,
        parameters: job.configuration.parameters, metrics: run.metrics, truePath: thin(run.truePath),
        estimatedPath: thin(run.estimatedPath), route2D: run.trueRoute.keypoints.map { [$0.position.x, -$0.position.z] },
        positionErrors: zip(run.estimatedPath, run.truePath).map { ($0 - $1).norm })
}
