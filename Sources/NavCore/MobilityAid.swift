/// A walker's mobility aid, as a session attribute stores it (`mobility_aid`).
public enum MobilityAid: String, Sendable, CaseIterable, Codable {
    case longCane = "long cane", guideDog = "guide dog", none

    /// The community results are reported for (WeAllWalk's protocol): cane, guide-dog, sighted.
    public var community: String {
        switch self {
        case .longCane: return "cane"
        case .guideDog: return "guide-dog"
        case .none: return "sighted"
        }
    }
}
