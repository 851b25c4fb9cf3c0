/// Why a filter cannot be designed or applied. One line each, naming the parameter.
public enum SignalError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidParameter(name: String, value: String, expected: String)
    case tooShort(samples: Int, needed: Int, reason: String)
    case countMismatch(what: String, expected: Int, found: Int)

    public var description: String {
        switch self {
        case let .invalidParameter(name, value, expected):
            return "\(name)=\(value): expected \(expected)"
        case let .tooShort(samples, needed, reason):
            return "\(samples) samples is too short: \(reason) needs more than \(needed)"
        case let .countMismatch(what, expected, found):
            return "\(what): expected \(expected) values, found \(found)"
        }
    }
}
