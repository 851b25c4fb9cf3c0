import Foundation
import NavPipeline
import Testing

/// Issue 12's check on the default experiment: at most a quarter of the configurations share an
/// identical result vector (every metric of the run, NaN equal to NaN) with another
/// configuration on the same session — on the building venue alone and over every session of
/// the default experiment (the corridors venue R1–R3 and the building venue B1–B4).
@Suite struct ConfigurationCollapseTests {
    @Test func atMostAQuarterOfTheDefaultConfigurationsCollapse() throws {
        try expectAtMostAQuarterCollapse(inputs: [datasets + "/venue/*.h5"], navigations: 12)
    }

    /// Every input of Experiments/default.yaml as it stands (R1–R3 and B1–B4: 21 navigations).
    @Test func atMostAQuarterCollapseOverEveryDefaultSession() throws {
        let root = URL(fileURLWithPath: datasets).deletingLastPathComponent().path
        let spec = try ExperimentSpec.load(root + "/Experiments/default.yaml")
        try expectAtMostAQuarterCollapse(inputs: spec.inputs.map { $0.hasPrefix("/") ? $0 : root + "/" + $0 }, navigations: 21)
    }

    private func expectAtMostAQuarterCollapse(inputs: [String], navigations: Int) throws {
        let root = URL(fileURLWithPath: datasets).deletingLastPathComponent().path
        var spec = try ExperimentSpec.load(root + "/Experiments/default.yaml")
        spec.inputs = inputs
        spec.closedLoop = nil
        let plan = planExperiment(spec)
        #expect(plan.failures.isEmpty, "\(plan.failures)")
        #expect(plan.jobs.count == navigations * spec.sweep.configurations.count)
        final class Box: @unchecked Sendable { var vectors: [String?]; init(_ n: Int) { vectors = Array(repeating: nil, count: n) } }
        let box = Box(plan.jobs.count), lock = NSLock(), jobs = plan.jobs
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for i in stride(from: worker, to: jobs.count, by: 2) {
                let r = try? runJob(jobs[i], plan: plan)
                let v = r.map { $0.metrics.map { "\($0.name)=\($0.value.isNaN ? "nan" : String($0.value.bitPattern))" }.joined(separator: ";") }
                lock.lock(); box.vectors[i] = v; lock.unlock()
            }
        }
        #expect(box.vectors.allSatisfy { $0 != nil })
        var bySession: [String: [String: Int]] = [:]
        for (job, v) in zip(plan.jobs, box.vectors) { bySession[job.navigation, default: [:]][v ?? "", default: 0] += 1 }
        let shared = bySession.values.flatMap(\.values).filter { $0 > 1 }.reduce(0, +)
        let fraction = Double(shared) / Double(plan.jobs.count)
        print("configurations sharing a result vector on the same session (\(inputs.count) input patterns): \(shared) of \(plan.jobs.count)")
        #expect(fraction <= 0.25, "\(shared) of \(plan.jobs.count) configurations (\(100 * fraction) %) share a result vector with another on the same session")
    }
}
