/// A bad spec: one line naming the file and the key.
public struct SpecError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String, key: String, problem: String
    public init(file: String, key: String, problem: String) { self.file = file; self.key = key; self.problem = problem }
    /// `FILE: KEY: problem`, or `FILE: problem` for the file as a whole (key empty).
    public var description: String { key.isEmpty ? "\(file): \(problem)" : "\(file): \(key): \(problem)" }
}

/// Why a kind's spec section is refused (`KindSpecSection`'s check): its description is the problem.
public struct SpecSectionProblem: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ problem: String) { description = problem }
}
