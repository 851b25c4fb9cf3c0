import Foundation
import NavIO
import NavImport
import NavSim
import Yams

/// A walker given as text wherever a walker is named (`--walker`, `closed_loop.walker`,
/// `closed_loop.uncertainty.walker`): a profile text (`cane:speed=0.8`, `NavigatorProfile(parsing:)`)
/// or `@PATH[:key=value,…]`, a walker profile file (docs/navigator.md, "Profile files") relative
/// to the working directory (as spec inputs are), so a lab can replace assumed values with its own
/// and say where each comes from:
///
/// ```yaml
/// navbench_walker: 1
/// base: cane                       # a walker text the file's values are set on
/// parameters:
///   speed: 0.72                    # or {value: 0.72, source: "measured: 14 walks, lab X 2026"}
///   reaction_time: {value: 1.7, source: "fitted: navbench walker fit, 12 sessions"}
/// ```
///
/// Every value is checked as a walker text's override is (`allowedRange`); the file is a regular
/// file of at most 1 MB, its YAML expansion bounded. The profile's `sourceSHA256` is the file's,
/// so results keyed by the walker are computed again when the file changes.
///
/// - Throws: `NavigatorProfileError`, one line naming the file and the key.
public func walkerProfile(parsing text: String) throws(NavigatorProfileError) -> NavigatorProfile {
    guard text.hasPrefix("@") else { return try NavigatorProfile(parsing: text) }
    let parts = text.dropFirst().split(separator: ":", maxSplits: 1).map(String.init)
    guard let path = parts.first, !path.isEmpty else {
        throw NavigatorProfileError("walker '\(escapedForMessage(text))': expected @PATH of a walker profile file")
    }
    var profile = try WalkerProfileFile.load(path)
    if parts.count == 2 {
        // Overrides after the file win over its values, and are no longer the file's.
        do { try profile.applyOverrides(parts[1]) } catch { throw NavigatorProfileError("walker '\(escapedForMessage(text))': \(error.description)") }
        for part in parts[1].split(separator: ",") {
            profile.parameterSources[String(part.split(separator: "=").first ?? "").trimmingCharacters(in: .whitespaces)] = nil
        }
    }
    profile.name = text
    return profile
}

/// Reading walker profile files (`walkerProfile(parsing:)`).
enum WalkerProfileFile {
    static let maxBytes = 1 << 20

    static func load(_ path: String) throws(NavigatorProfileError) -> NavigatorProfile {
        func fail(_ key: String, _ problem: String) -> NavigatorProfileError {
            NavigatorProfileError("\(escapedForMessage(path))" + (key.isEmpty ? "" : ": \(key)") + ": " + problem)
        }
        if let kind = nonRegularFileKind(path) { throw fail("", "is \(kind), expected a walker profile file (YAML)") }
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw fail("", "no such file, expected a walker profile file (YAML)")
        }
        let size = (attrs[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else { throw fail("", "\(size) bytes, more than the \(maxBytes)-byte limit of a walker profile file") }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw fail("", "cannot read it as UTF-8 text")
        }
        if let problem = yamlExpansionProblem(text) { throw fail("", problem) }
        let tree: Any?
        do { tree = try Yams.load(yaml: text) } catch {
            throw fail("", "not valid YAML (\(String(describing: error).split(separator: "\n").first ?? ""))")
        }
        let keys = ["navbench_walker", "base", "parameters"]
        guard let m = tree as? [String: Any] else { throw fail("", "expected a mapping with keys \(keys.joined(separator: ", "))") }
        for k in m.keys.sorted() where !keys.contains(k) { throw fail(escapedForMessage(k), "unknown key; valid: \(keys.joined(separator: ", "))") }
        guard (m["navbench_walker"] as? Int) == 1 else { throw fail("navbench_walker", "expected 1 (the profile file format version)") }
        guard let base = m["base"] as? String, !base.hasPrefix("@") else { throw fail("base", "expected a walker text, e.g. cane or cane:speed=0.8") }
        var profile: NavigatorProfile
        do { profile = try NavigatorProfile(parsing: base) } catch { throw fail("base", error.description) }
        guard let parameters = m["parameters"] as? [String: Any] else {
            throw fail("parameters", "expected a mapping of walker keys to a number or {value: NUMBER, source: TEXT}")
        }
        for key in parameters.keys.sorted() {
            let v = parameters[key]!
            var value: Double?, source = "from \(fileName(of: path))"
            if let d = (v as? Double) ?? (v as? Int).map(Double.init) {
                value = d
            } else if let entry = v as? [String: Any] {
                for k in entry.keys.sorted() where k != "value" && k != "source" {
                    throw fail("parameters.\(escapedForMessage(key)).\(escapedForMessage(k))", "unknown key; valid: value, source")
                }
                value = (entry["value"] as? Double) ?? (entry["value"] as? Int).map(Double.init)
                if let s = entry["source"] {
                    guard let t = s as? String, t.count <= 300 else {
                        throw fail("parameters.\(escapedForMessage(key)).source", "expected text of at most 300 characters")
                    }
                    source += ": " + escapedForMessage(t, limit: 300)
                }
            }
            guard let value, value.isFinite else {
                throw fail("parameters.\(escapedForMessage(key))", "expected a number or {value: NUMBER, source: TEXT}")
            }
            do { profile = try profile.setting(key, to: value) } catch { throw fail("parameters.\(escapedForMessage(key))", error.description) }
            profile.parameterSources[key] = source
        }
        profile.sourceSHA256 = sha256Hex(of: data)
        return profile
    }
}
