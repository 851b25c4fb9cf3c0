import Foundation
import NavSignal

/// A section of the spec that a kind owns (`ExperimentKind.specSections`): its key, its line of
/// documentation, how it is read (a `Decodable` type, or a typed reader of the YAML value), how
/// overrides name it, and how `--print-config` writes it. `ExperimentSpec` accepts the key only
/// when read with the kind in its list; the kind reads the value back with
/// `ExperimentSpec.kindSection(_:as:)`.
public struct KindSpecSection: Sendable {
    public var key: String
    /// What the section configures, one line (docs, `--help`, the refusal of a bad section).
    public var summary: String
    /// Keys inside the section an override may name alone (`runs=3` → `closed_loop.runs=3`).
    public var overrideKeys: [String]
    /// Whether an override of the section (the path below its key: empty for the section itself)
    /// reads `a,b` as a list.
    let takesList: @Sendable (_ path: [String]) -> Bool
    let read: @Sendable (_ value: Any, _ context: SpecSectionContext) throws(SpecError) -> SpecSectionValue

    /// The section `key` decoded as `Section` from its YAML value (read as JSON) and, when given,
    /// checked by `check` (which throws an error whose description is the problem); written back
    /// as its canonical JSON (sorted keys), which is YAML flow syntax.
    public init<Section: Decodable & Sendable>(
        key: String, summary: String, as: Section.Type, check: (@Sendable (Section) throws -> Void)? = nil
    ) {
        self.init(
            key: key, summary: summary,
            read: { (value: Any, context: SpecSectionContext) throws(SpecError) -> (Section, String) in
                guard JSONSerialization.isValidJSONObject([value]),
                    let json = try? JSONSerialization.data(
                        withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
                else { throw SpecError(file: context.file, key: key, problem: "expected plain YAML values (\(summary))") }
                do {
                    let section = try JSONDecoder().decode(Section.self, from: json)
                    try check?(section)
                    return (section, String(decoding: json, as: UTF8.self))
                } catch let e as DecodingError {
                    throw SpecError(file: context.file, key: key, problem: "\(decodingProblem(e)); \(summary)")
                } catch { throw SpecError(file: context.file, key: key, problem: "\(error); \(summary)") }
            }, yaml: { _, json in "\(key): \(json)\n" })
    }

    /// The section `key` read from its YAML value by `read` (whose errors name the key and what
    /// was expected) and written back by `yaml` as complete lines (`key: …\n`) that read as the
    /// same value.
    public init<Section: Sendable>(
        key: String, summary: String, overrideKeys: [String] = [], takesList: @escaping @Sendable ([String]) -> Bool = { _ in false },
        read: @escaping @Sendable (Any, SpecSectionContext) throws(SpecError) -> Section, yaml: @escaping @Sendable (Section) -> String
    ) {
        self.init(
            key: key, summary: summary, overrideKeys: overrideKeys, takesList: takesList,
            read: { (value: Any, context: SpecSectionContext) throws(SpecError) -> (Section, Void) in (try read(value, context), ()) },
            yaml: { section, _ in yaml(section) })
    }

    private init<Section: Sendable, Extra>(
        key: String, summary: String, overrideKeys: [String] = [], takesList: @escaping @Sendable ([String]) -> Bool = { _ in false },
        read: @escaping @Sendable (Any, SpecSectionContext) throws(SpecError) -> (Section, Extra),
        yaml: @escaping @Sendable (Section, Extra) -> String
    ) {
        self.key = key; self.summary = summary; self.overrideKeys = overrideKeys; self.takesList = takesList
        self.read = { (value: Any, context: SpecSectionContext) throws(SpecError) -> SpecSectionValue in
            let (section, extra) = try read(value, context)
            return SpecSectionValue(key: key, value: section, yaml: yaml(section, extra))
        }
    }

    /// A section that is a non-empty list of filter specs, each checked by `check` (which throws an
    /// error whose `problem` says what is wrong); `none` is always accepted. An override
    /// `key=a,b` gives two filters.
    static func filterList(key: String, summary: String, check: @escaping @Sendable (String) throws(FilterSpecError) -> Void) -> KindSpecSection {
        KindSpecSection(
            key: key, summary: summary, takesList: { $0.isEmpty },
            read: { (value: Any, context: SpecSectionContext) throws(SpecError) -> [String] in
                guard let l = value as? [String], !l.isEmpty else {
                    throw SpecError(file: context.file, key: key, problem: "expected a list of filter specs")
                }
                for f in l where f != "none" {
                    do throws(FilterSpecError) { try check(f) } catch {
                        throw SpecError(file: context.file, key: key, problem: "'\(f)': \(error.problem)")
                    }
                }
                return l
            }, yaml: { "\(key): [" + $0.map(jsonQuoted).joined(separator: ", ") + "]\n" })
    }
}

/// What a section's reader may consult besides its own value: the spec file (errors name it), the
/// sweep (read before the kinds' sections) and the limits the spec is read with.
public struct SpecSectionContext: Sendable {
    public var file: String
    public var sweep: Sweep
    public var limits: SpecLimits
}

/// A kind's spec section as read: the typed value its kind reads back, and the lines
/// `--print-config` writes for it (which read as the same value: two sections are equal when
/// these lines are).
public struct SpecSectionValue: Sendable, Equatable {
    public var key: String
    let value: any Sendable
    let yaml: String

    public static func == (a: SpecSectionValue, b: SpecSectionValue) -> Bool { a.key == b.key && a.yaml == b.yaml }
}

/// `s` as a JSON string literal (slashes unescaped), which YAML reads as the same string.
func jsonQuoted(_ s: String) -> String {
    let enc = JSONEncoder()
    enc.outputFormatting = [.withoutEscapingSlashes]
    let data = (try? enc.encode(s)) ?? Data("\"\"".utf8)
    return String(decoding: data, as: UTF8.self)
}

/// A decoding error as one line: where (the coding path) and what was expected.
private func decodingProblem(_ e: DecodingError) -> String {
    func path(_ c: [CodingKey]) -> String {
        c.isEmpty ? "" : " at " + c.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch e {
    case .typeMismatch(let t, let c): return "expected \(t)\(path(c.codingPath))"
    case .valueNotFound(let t, let c): return "expected \(t)\(path(c.codingPath))"
    case .keyNotFound(let k, let c): return "missing key \(k.stringValue)\(path(c.codingPath))"
    case .dataCorrupted(let c): return "\(c.debugDescription)\(path(c.codingPath))"
    @unknown default: return "\(e)"
    }
}
