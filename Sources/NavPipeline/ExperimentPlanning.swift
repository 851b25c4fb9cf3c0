import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport

/// Checks the inputs and lists the jobs: every navigation session of a route × every
/// configuration, paired with the route's recording, in a fixed order.
///
/// Every input is read in full once here, to check it and learn its streams, and released: the
/// jobs load their sessions again, route by route (`SessionCatalog`), so memory is flat in the
/// number of inputs. A file that cannot be read is listed in `failures` and has no jobs.
///
/// For shard `shard` of `shards` (> 1) every input is read for its root attributes and its
/// checksum only (the job list and keys are the same as unsharded), then only the sessions of
/// the shard's jobs (`shardRange`) are checked in full, and the recordings when the spec has a
/// `closed_loop` section. The other entries carry metadata and no stream list.
///
/// - Complexity: time O(size of the inputs); memory O(inputs) for their metadata plus one session.
public func planExperiment(_ spec: ExperimentSpec, shard: Int = 1, shards: Int = 1, readPolicy: HDF5ReadPolicy = .standard) -> ExperimentPlan {
    let files = expandGlobs(spec.inputs)
    var entries: [String: SessionCatalog.Entry] = [:], checksums: [String: String] = [:], failures: [String] = []
    if files.isEmpty && spec.dataSeeds.isEmpty { failures.append("inputs \(spec.inputs.joined(separator: ", ")): no files match") }
    let sliced = shards > 1
    /// Reads `f` in full (checked, streams listed, released) or, `full: false`, its root attributes.
    func entry(_ f: String, full: Bool) throws -> (metadata: SessionMetadata, streams: SessionStreams?) {
        guard full else { return (try readTraceMetadata(at: f, policy: readPolicy), nil) }
        let s = try readTrace(at: f, policy: readPolicy)
        return (s.metadata, SessionStreams(of: s))
    }
    func fileEntry(_ f: String, _ e: (metadata: SessionMetadata, streams: SessionStreams?), sha256: String) -> SessionCatalog.Entry {
        SessionCatalog.Entry(metadata: e.metadata, streams: e.streams, source: .file(path: f, sha256: sha256, policy: readPolicy))
    }
    for f in files {
        do {
            let e = try entry(f, full: !sliced)
            // Refused once, here, what the results store would refuse on every run (its labels).
            for (name, value) in [("route_id", e.metadata.routeID), ("session_id", e.metadata.sessionID)] where value.count > StoreLimits.label {
                throw TraceError(
                    .badValue, file: f, object: "/ \(name)",
                    "\(value.count) characters; a results store holds route and session labels of at most \(StoreLimits.label)")
            }
            let sum = try sha256Hex(ofFile: f)
            entries[f] = fileEntry(f, e, sha256: sum)
            checksums[f] = sum
        } catch { failures.append(String(describing: error)) }
    }
    addSyntheticVenues(spec, entries: &entries, checksums: &checksums)
    var plan = planJobs(spec, inputs: SessionCatalog(entries: entries), checksums: checksums, failures: failures)
    plan.readPolicy = readPolicy
    guard sliced else { return plan }
    // Check in full what the shard needs; a file that fails its full read is listed and its jobs dropped.
    let range = shardRange(count: plan.jobs.count, shard: shard, shards: shards)
    plan.shardJobs = range
    let mine = plan.jobs[range]
    var needed = Set(mine.flatMap { [$0.recording, $0.navigation] })
    if spec.closedLoop != nil { needed.formUnion(files.filter { entries[$0]?.metadata.kind == .recording }) }
    var unreadable = Set<String>()
    let inputFiles = Set(files)  // synthetic venues are in memory already
    for f in needed.sorted() where inputFiles.contains(f) {
        guard let sum = checksums[f] else { continue }
        do { entries[f] = fileEntry(f, try entry(f, full: true), sha256: sum) } catch {
            plan.failures.append(String(describing: error))
            unreadable.insert(f)
            entries[f] = nil
        }
    }
    plan.inputs = SessionCatalog(entries: entries)
    if !unreadable.isEmpty { plan.jobs.removeAll { unreadable.contains($0.recording) || unreadable.contains($0.navigation) } }
    return plan
}

/// Pairs the inputs by route and lists the jobs (also for sessions made in memory or on demand,
/// as the sweep benchmark does; `checksums` then identify them in the cache).
public func planJobs(_ spec: ExperimentSpec, inputs: SessionCatalog, checksums inputChecksums: [String: String], failures: [String]) -> ExperimentPlan
{
    var checksums = inputChecksums  // + plugin and estimate files (ExperimentEstimators.swift)
    let grouping = SessionGrouping(metadata: inputs.entries.mapValues(\.metadata))
    var failures = failures + grouping.failures
    let configurations = spec.sweep.configurations
    let boxes = configurations.map(ConfigurationBox.init)
    // Each configuration's options as keyed, encoded once (not once per job: a sweep's jobs repeat them).
    let canonical = configurations.map(\.options.canonicalJSON)
    var jobs: [ExperimentJob] = []
    for group in grouping.routes where !group.navigations.isEmpty {
        let route = group.route
        guard let rec = group.recording else {
            failures.append(
                "route \(route)\(group.dataset.isEmpty ? "" : " in \(group.dataset)"): no recording session among the inputs; its \(group.navigations.count) navigation sessions were skipped"
            )
            continue
        }
        for nav in group.navigations {
            for ((c, box), json) in zip(zip(configurations, boxes), canonical) {
                let extra: JobInputs
                do { extra = try jobInputs(spec, c, navigation: inputs.entries[nav]!.metadata) } catch {
                    if !failures.contains("\(error)") { failures.append("\(error)") }  // a missing estimate or plugin: listed, the rest runs
                    continue
                }
                checksums.merge(extra.files) { a, _ in a }
                let key = workUnitKey(kind: guidanceResultKind, [checksums[rec]!, checksums[nav]!, json, extra.key])
                jobs.append(
                    ExperimentJob(
                        index: jobs.count, routeID: route, recording: rec, navigation: nav, shared: box, key: key,
                        session: grouping.labels[nav], estimate: extra.estimate))
            }
        }
    }
    return ExperimentPlan(
        spec: spec, inputs: inputs, checksums: checksums, jobs: jobs, failures: failures,
        specSHA256: sha256Hex(of: Data(spec.text.utf8)))
}
