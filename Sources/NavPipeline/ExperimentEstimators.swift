import Foundation
import NavCore
import NavIO

// The `estimators:` dimension of experiment specs (issue 14; docs/experiments.md, "Estimators"):
// names → where each navigation session's estimate comes from. The name is a value of the
// `estimator` sweep dimension (SweepDimension.estimator), compared per route like any
// configuration; `arkit` (the session's own VIO) is always one of them.

extension SweepDimension {
    /// nil: arkit (the session's own VIO); else a name of the spec's `estimators:`.
    public static let estimator = typed(
        key: "estimator", label: "est", flag: "estimator",
        help: "Estimator replacing the navigation's VIO: arkit (the session's own) or a name of the spec's estimators: (docs/extending.md).",
        expected: "arkit or a name of estimators: (letters, digits, - and _)", default: String?.none, describesValue: true,
        parse: { s -> String?? in isEstimatorName(s) ? .some(s == ExperimentSpec.builtInEstimator ? nil : s) : nil },
        format: { $0 ?? ExperimentSpec.builtInEstimator }, set: { o, v in o.estimator = v })
}

/// Letters, digits, `-` and `_`, at most 64 characters.
func isEstimatorName(_ s: String) -> Bool {
    !s.isEmpty && s.count <= 64 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
}

extension ExperimentSpec {
    /// The session's own VIO.
    public static let builtInEstimator = "arkit"

    /// Reads `estimators:` (a mapping NAME: PATTERN, PATTERN a file pattern relative to the
    /// current directory, as every path of a spec, with `{session}`/`{route}`, `arkit`, or
    /// `exec:PROGRAM ARG…`) and
    /// `plugin_timeout:` into `spec`; the estimator dimension sweeps `arkit` then the names,
    /// sorted, unless `sweep.estimator` chose among them.
    static func parseEstimators(_ top: [String: Any], into spec: inout ExperimentSpec, file: String, limits: SpecLimits) throws(SpecError) {
        if let t = top["plugin_timeout"] {
            guard let s = (t as? Double) ?? (t as? Int).map(Double.init), s.isFinite, s > 0, s <= ExecPlugin.maximumTimeout else {
                throw SpecError(file: file, key: "plugin_timeout", problem: "'\(t)' is not a number of seconds in (0, 86400]")
            }
            spec.pluginTimeout = s
        }
        if let node = top["estimators"] {
            guard let m = node as? [String: Any], !m.isEmpty else {
                throw SpecError(
                    file: file, key: "estimators",
                    problem: "expected a mapping NAME: FILE_PATTERN (with {session}/{route}), arkit or exec:PROGRAM ARG…")
            }
            for name in m.keys.sorted() {
                let key = "estimators.\(escapedForMessage(name))"
                guard isEstimatorName(name) else { throw SpecError(file: file, key: key, problem: "a name is letters, digits, - and _") }
                guard let pattern = m[name] as? String, !pattern.isEmpty else {
                    throw SpecError(file: file, key: key, problem: "expected a file pattern, arkit or exec:PROGRAM ARG…")
                }
                if name == builtInEstimator, pattern != builtInEstimator {
                    throw SpecError(file: file, key: key, problem: "arkit is the session's own VIO; give your estimator another name")
                }
                if pattern.hasPrefix("exec:") {
                    do { _ = try ExecPlugin(parsing: pattern) } catch { throw SpecError(file: file, key: key, problem: error.problem) }
                } else if pattern != builtInEstimator {
                    if let problem = estimatePatternProblem(pattern) { throw SpecError(file: file, key: key, problem: problem) }
                    if let problem = formerlyResolvedElsewhere(pattern, specFile: file) { throw SpecError(file: file, key: key, problem: problem) }
                }
                spec.estimators[name] = pattern
            }
        }
        if let chosen = spec.sweep.levels[SweepDimension.estimator.key]?.map(\.text) {
            for v in chosen where v != builtInEstimator && spec.estimators[v] == nil {
                throw SpecError(file: file, key: "sweep.estimator", problem: "'\(escapedForMessage(v))' is not arkit or a name of estimators:")
            }
        } else if !spec.estimators.isEmpty {
            let names = [builtInEstimator] + spec.estimators.keys.sorted().filter { $0 != builtInEstimator }
            spec.sweep.levels[SweepDimension.estimator.key] = names.compactMap { SweepDimension.estimator.level(parsing: $0) }  // names checked above
            try spec.sweep.checkLimits(file: file, limits: limits)
        }
    }
}

/// Why a relative estimate pattern may not mean what its author meant, or nil: before
/// 2026-11-28 estimate patterns were relative to the spec's folder (every other path of a spec to
/// the current directory); a pattern whose folder exists beside the spec, when that is not the
/// current directory, would now name other files, so it is refused naming both.
func formerlyResolvedElsewhere(_ pattern: String, specFile: String) -> String? {
    let specFolder = parentFolder(of: specFile)
    func real(_ p: String) -> String { URL(fileURLWithPath: p.isEmpty ? "." : p).resolvingSymlinksInPath().standardizedFileURL.path }
    guard !specFolder.isEmpty, real(specFolder) != real(".") else { return nil }
    // The pattern's folder before its first placeholder ("" : the folder itself).
    let fixed = String(pattern.prefix { $0 != "{" })
    let folder = fixed.contains("/") ? String(fixed[..<fixed.lastIndex(of: "/")!]) : ""
    let old = folder.isEmpty ? specFolder : specFolder + "/" + folder
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: old, isDirectory: &isFolder), isFolder.boolValue, real(old) != real(folder) else { return nil }
    return "'\(escapedForMessage(pattern))' is relative to the current directory (\(escapedForMessage(folder.isEmpty ? "." : folder))), "
        + "as every path of a spec; before 2026-11-28 it was relative to the spec's folder (\(escapedForMessage(old))), which exists: "
        + "write the path from the current directory (docs/experiments.md, \"Paths\")"
}

/// Why a file pattern cannot be used, or nil: absolute, a `..` component, a placeholder other
/// than `{session}`/`{route}`, or a stray brace.
func estimatePatternProblem(_ pattern: String) -> String? {
    if pattern.hasPrefix("/") {
        return "'\(escapedForMessage(pattern))' is absolute; a pattern is relative to the current directory and stays inside it"
    }
    if pattern.split(separator: "/").contains("..") {
        return "'\(escapedForMessage(pattern))' has a '..' component; a pattern stays inside the current directory"
    }
    let stripped = pattern.replacingOccurrences(of: "{session}", with: "").replacingOccurrences(of: "{route}", with: "")
    if stripped.contains("{") || stripped.contains("}") {
        return "'\(escapedForMessage(pattern))': the placeholders are {session} and {route}"
    }
    return nil
}

/// The estimate file of one navigation session: `{session}` and `{route}` replaced by
/// `safeFileComponent` of the session's ids (never raw text from the file), relative to
/// `folder`. The result must stay inside `folder` (symbolic links resolved).
///
/// - Throws: `JobError` (one line naming the session, the estimator and the path) when the
///   path leaves the folder or no such file exists.
public func estimateFile(pattern: String, estimator: String, session: SessionMetadata, folder: String) throws -> String {
    if let problem = estimatePatternProblem(pattern) { throw JobError("estimator \(estimator): \(problem)") }
    let rel = pattern.replacingOccurrences(of: "{session}", with: safeFileComponent(session.sessionID))
        .replacingOccurrences(of: "{route}", with: safeFileComponent(session.routeID))
    let path = folder == "." ? rel : (folder as NSString).appendingPathComponent(rel)
    let sid = escapedForMessage(session.sessionID)
    guard FileManager.default.fileExists(atPath: path) else {
        throw JobError("\(sid): estimator \(estimator): \(escapedForMessage(path)): no such file (pattern \(escapedForMessage(pattern)))")
    }
    let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
    let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    guard real.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
        throw JobError(
            "\(sid): estimator \(estimator): \(escapedForMessage(path)): resolves outside the folder \(escapedForMessage(folder)); refused")
    }
    return path
}

/// What a job's identity adds to its results-store key (plugin and estimate checksums), the
/// estimate file it reads, and the files to list in the manifest.
struct JobInputs {
    var key = ""
    var estimate: String?
    var files: [String: String] = [:]
}

/// The extra inputs of one (navigation, configuration): an `exec:` position filter's plugin
/// file and the estimator's file or plugin (checksums). Empty for built-ins and `arkit`, so
/// their keys are unchanged.
///
/// - Throws: `JobError` / `FilterSpecError` (one line) for a missing estimate or plugin file.
func jobInputs(_ spec: ExperimentSpec, _ c: Configuration, navigation: SessionMetadata) throws -> JobInputs {
    var out = JobInputs()
    func plugin(_ text: String) throws {
        guard let p = try ExecPlugin(parsing: text) else { return }
        let sum = try p.pluginSHA256()
        out.key += "|plugin \(text) \(sum)"
        if let f = p.pluginFile { out.files[f] = sum }
    }
    if let f = c.options.positionFilter { try plugin(f) }
    if let name = c.options.estimator {
        guard let pattern = spec.estimators[name] else { throw JobError("estimator \(name): not in estimators:") }
        if pattern.hasPrefix("exec:") {
            try plugin(pattern)
        } else if pattern != ExperimentSpec.builtInEstimator {
            let path = try estimateFile(pattern: pattern, estimator: name, session: navigation, folder: spec.folder)
            let sum = try sha256Hex(ofFile: path)
            out.key += "|estimate \(sum)"
            out.estimate = path
            out.files[path] = sum
        }
    }
    return out
}

/// The VIO stream that replaces the navigation's for `job` (nil: its own VIO): the estimate
/// file, or the `exec:` estimator's answer to the session's VIO; both checked against the
/// frame contract (`checkFrameContract`).
///
/// - Throws: one line (`PluginError`, `GuidanceJobError`, `TraceError`).
func jobEstimate(_ job: ExperimentJob, plan: ExperimentPlan) throws -> VIOStream? {
    guard let name = job.configuration.options.estimator, let pattern = plan.spec.estimators[name] else { return nil }
    let navigation = try plan.session(job.navigation)
    if let plugin = try ExecPlugin(parsing: pattern, timeout: plan.spec.pluginTimeout) {
        guard let vio = navigation.vio else {
            throw GuidanceJobError("\(escapedForMessage(job.navigation)): estimator \(name): the session has no /vio to give the plugin")
        }
        let estimate = try plugin.estimate(from: vio)
        try checkFrameContract(estimate, navigation: navigation, name: "estimator \(name) (\(pattern))")
        return estimate
    }
    guard let path = job.estimate else { return nil }
    return try loadEstimate(EstimateSource(path: path), for: navigation, readPolicy: plan.readPolicy)
}
