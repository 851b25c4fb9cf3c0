import Foundation
import NavCore
import NavIO
import NavSynth

/// Honest units of analysis: which input a session came from.
///
/// A run is keyed by (dataset, route, session, seed, configuration). When the inputs of one
/// experiment hold the same route in more than one folder (say ten `navbench synth --seed N`
/// venues, each with its `R1-corridor_recording.h5` and `R1-corridor_nav1.h5`), the folder is
/// the dataset: each navigation is paired with the recording of its own folder, and its session
/// label is `<folder>/<session id>`, so ten venues × three navigations are thirty sessions, never
/// three. With every route in one folder (the bundled Datasets/) the dataset is empty and labels
/// are the session ids, as before. Two navigation files of one dataset with the same session id
/// are refused with one line (the first in path order is kept).
struct SessionGrouping {
    /// Per (dataset, route): the recording file and the navigation files, in path order.
    struct Route {
        var dataset: String, route: String
        var recording: String?
        var navigations: [String] = []
    }
    var routes: [Route] = []
    var failures: [String] = []
    /// Session label of a navigation file (dataset-qualified when datasets are in use).
    var labels: [String: String] = [:]

    /// Complexity: O(F log F) for F files.
    init(metadata: [String: SessionMetadata]) {
        let files = metadata.keys.sorted()
        let routed = files.filter { !(metadata[$0]!.routeID.isEmpty) }
        let folders = Set(routed.map { ($0 as NSString).deletingLastPathComponent })
        // Datasets only when some route appears in more than one folder.
        var foldersByRoute: [String: Set<String>] = [:]
        for f in routed { foldersByRoute[metadata[f]!.routeID, default: []].insert((f as NSString).deletingLastPathComponent) }
        let useDatasets = folders.count > 1 && foldersByRoute.values.contains { $0.count > 1 }
        var index: [String: Int] = [:]
        var seenSession: [String: String] = [:]
        for f in routed {
            let m = metadata[f]!
            let dataset = useDatasets ? (f as NSString).deletingLastPathComponent : ""
            let k = dataset + "\u{1}" + m.routeID
            if index[k] == nil { index[k] = routes.count; routes.append(Route(dataset: dataset, route: m.routeID)) }
            let i = index[k]!
            let where_ = dataset.isEmpty ? "" : " in \(dataset)"
            if m.kind == .recording {
                if let other = routes[i].recording {
                    failures.append("\(f): route \(m.routeID)\(where_) already has the recording \(other); ignored")
                } else {
                    routes[i].recording = f
                }
            } else if m.kind == .navigation {
                let sk = k + "\u{1}" + m.sessionID
                if let other = seenSession[sk] {
                    failures.append(
                        "\(f): session \(m.sessionID) of route \(m.routeID)\(where_) repeats the session id of \(other); ignored (session ids must be unique per dataset)"
                    )
                    continue
                }
                seenSession[sk] = f
                routes[i].navigations.append(f)
                labels[f] = dataset.isEmpty ? m.sessionID : dataset + "/" + m.sessionID
            }
        }
        routes.sort { ($0.route, $0.dataset) < ($1.route, $1.dataset) }
    }
}

extension JobResult {
    /// A cached result with the session label of this plan (the cache key holds the inputs'
    /// checksums, not the folders, so one file may be cached under another label).
    func labelled(_ job: ExperimentJob) -> JobResult {
        guard let s = job.session, s != session else { return self }
        var r = self
        r.session = s
        return r
    }
}

/// Most synthetic venues one spec may generate (`data_seeds:`): each holds 3 routes × 4 sessions
/// in memory (≈ 5 MB).
let maximumDataSeeds = 100

extension ExperimentSpec {
    /// Parses `data_seeds: [1, 2, …]` (distinct integers ≥ 0, at most `maximumDataSeeds`).
    static func parseDataSeeds(_ node: Any?, file: String) throws(SpecError) -> [UInt64] {
        guard let node else { return [] }
        guard let list = node as? [Any], !list.isEmpty else {
            throw SpecError(file: file, key: "data_seeds", problem: "expected a list of seeds (integers ≥ 0), e.g. [1, 2, 3]")
        }
        guard list.count <= maximumDataSeeds else {
            throw SpecError(file: file, key: "data_seeds", problem: "\(list.count) seeds; at most \(maximumDataSeeds)")
        }
        var seeds: [UInt64] = []
        for v in list {
            guard let n = v as? Int, n >= 0 else { throw SpecError(file: file, key: "data_seeds", problem: "'\(v)' is not an integer ≥ 0") }
            guard !seeds.contains(UInt64(n)) else { throw SpecError(file: file, key: "data_seeds", problem: "seed \(n) repeated") }
            seeds.append(UInt64(n))
        }
        return seeds
    }
}

/// The synthetic venues of `data_seeds:`: `navbench synth --seed N` in memory, each venue its own
/// dataset `synth-seed<N>` (so its navigations pair with its own recordings and its sessions stay
/// apart, `SessionGrouping`). The checksum that keys the job cache names the generator, its
/// version and the seed (a venue is a function of those).
///
/// Complexity: O(seeds × venue size).
func addSyntheticVenues(_ spec: ExperimentSpec, entries: inout [String: SessionCatalog.Entry], checksums: inout [String: String]) {
    for seed in spec.dataSeeds {
        for s in SynthVenue.corridors.sessions(seed: seed, navigations: 3) {
            let name = "synth-seed\(seed)/\(s.fileName)"
            entries[name] = SessionCatalog.Entry(metadata: s.session.metadata, streams: SessionStreams(of: s.session), source: .memory(s.session))
            checksums[name] = sha256Hex(of: Data("navbench synth \(NavbenchVersion.current) corridors-own-lines seed \(seed) \(s.fileName)".utf8))
        }
    }
}
