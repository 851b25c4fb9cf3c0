import Foundation
import NavIO
import NavSignal
import Synchronization

/// The filters a spec string can name (`navbench filter --spec`, `sweep.position_filter`,
/// `gyro_filters:`): the built-ins of `FilterSpec` (docs/filters.md), `exec:PROGRAM ARG…`
/// plugins (`ExecPlugin`), and types of your own registered under a name:
///
/// ```swift
/// FilterRegistry.register("clamp") { parameters in try Clamp(limit: Double(parameters["limit"] ?? "") ?? 1) }
/// let f = try FilterRegistry.filter("clamp:limit=2")
/// ```
///
/// A registered spec is `NAME[:key=value,…]`; the factory gets the pairs and validates them
/// (throw a `FilterSpecError` for one clear line). Built-in names and `exec` cannot be taken.
public enum FilterRegistry {
    /// Makes a filter from the `key=value` pairs of its spec.
    public typealias Factory = @Sendable (_ parameters: [String: String]) throws -> any SignalFilter

    private static let factories = Mutex<[String: Factory]>([:])

    /// Registers `name` (letters, digits, `-`, `_`); a later registration of the same name replaces it.
    ///
    /// - Throws: `FilterSpecError` for a built-in name, `exec`, or a name with other characters.
    public static func register(_ name: String, factory: @escaping Factory) throws(FilterSpecError) {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw FilterSpecError(spec: name, problem: "a registered filter name is letters, digits, - and _")
        }
        guard FilterSpec.Kind(rawValue: name) == nil, name != "exec", name != "none" else {
            throw FilterSpecError(spec: name, problem: "'\(name)' is a built-in filter name; choose another")
        }
        factories.withLock { $0[name] = factory }
    }

    /// Removes a registration (tests).
    public static func unregister(_ name: String) { _ = factories.withLock { $0.removeValue(forKey: name) } }

    /// The registered names, sorted.
    public static var registeredNames: [String] { factories.withLock { $0.keys.sorted() } }

    /// The filter `spec` names. `pluginTimeout` is the per-call timeout of an `exec:` plugin.
    ///
    /// - Throws: `FilterSpecError` (one line) for an unknown name or bad parameters.
    public static func filter(_ spec: String, pluginTimeout: Double = ExecPlugin.defaultTimeout) throws -> any SignalFilter {
        if let plugin = try ExecPlugin(parsing: spec, timeout: pluginTimeout) { return plugin }
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        if let name = parts.first, let make = factories.withLock({ $0[name] }) {
            var parameters: [String: String] = [:]
            for item in (parts.count == 2 ? parts[1] : "").split(separator: ",") {
                let kv = item.split(separator: "=", maxSplits: 1).map(String.init)
                parameters[kv[0]] = kv.count == 2 ? kv[1] : ""
            }
            do { return try make(parameters) } catch let e as FilterSpecError { throw e } catch {
                throw FilterSpecError(spec: spec, problem: "\(error)")
            }
        }
        do { return try FilterSpec(parsing: spec) } catch {
            let extra = registeredNames.isEmpty ? "" : "; registered: \(registeredNames.joined(separator: ", "))"
            throw FilterSpecError(spec: error.spec, problem: error.problem + extra + "; or exec:PROGRAM ARG… (docs/extending.md)")
        }
    }

    /// Whether `spec` names a filter (a plugin's program is not run, only parsed).
    public static func validate(_ spec: String) throws(FilterSpecError) {
        if try ExecPlugin(parsing: spec) != nil { return }
        do { _ = try filter(spec) } catch let e as FilterSpecError { throw e } catch { throw FilterSpecError(spec: spec, problem: "\(error)") }
    }

    /// The SHA-256 of an `exec:` spec's plugin file, nil for any other spec.
    public static func pluginSHA256(_ spec: String) throws(FilterSpecError) -> String? {
        try ExecPlugin(parsing: spec)?.pluginSHA256()
    }
}
