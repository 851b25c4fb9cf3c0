/// Why a signal job could not run: one line naming the input.
public struct JobError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}
