import Foundation

/// Clew's spoken directions: clock-face hours, the six-sector wording used with haptics,
/// distances and stairs. Wording is Clew's English `Localizable.strings`.
public enum ClockFace {
    /// Hour 1…12 for an angle (radians, positive = target to the right, 0 = straight ahead):
    /// h = Int(angle·6/π + 12.5) mod 12, with 0 shown as 12 (30° sectors centred on the hours).
    /// `Int` truncates toward zero, as Clew's `Int(Float)`. An angle beyond ±10⁹ rad is reduced
    /// to (−π, π] first (the same hour, without overflowing `Int`); a non-finite angle gives 12.
    public static func hour(angle: Double) -> Int {
        guard angle.isFinite else { return 12 }
        let a = abs(angle) < 1e9 ? angle : remainder(angle, 2 * .pi)
        let h = Int(a * 6 / .pi + 12.5) % 12
        return h == 0 ? 12 : h
    }

    /// Six sectors for haptic mode: 1 straight (|a| ≤ 30°), 2 slight right (30–60°), 3 right
    /// (60–120°), 4 around (≥ 120°), 5 left, 6 slight left; 0 for a non-finite angle.
    /// Boundaries belong to the first matching sector in that order (Clew's `getHapticDirection`).
    public static func sector(angle a: Double) -> Int {
        let p = Double.pi
        if -p / 6 <= a && a <= p / 6 { return 1 }
        if p / 6 <= a && a <= p / 3 { return 2 }
        if p / 3 <= a && a <= 2 * p / 3 { return 3 }
        if 2 * p / 3 <= a && a <= p { return 4 }
        if -p <= a && a <= -2 * p / 3 { return 4 }
        if -2 * p / 3 <= a && a <= -p / 3 { return 5 }
        if -p / 3 <= a && a <= -p / 6 { return 6 }
        return 0
    }

    /// The sentence for an hour (1…12).
    public static func words(hour: Int) -> String {
        switch hour {
        case 12: return "Continue straight"
        case 1, 2: return "Slight right towards \(hour) o'clock"
        case 3: return "Turn right"
        case 4, 8: return "Turn towards \(hour) o'clock"
        case 5, 6, 7: return "Turn around towards \(hour) o'clock"
        case 9: return "Turn left"
        case 10, 11: return "Slight left towards \(hour) o'clock"
        default: return "ERROR"
        }
    }

    /// The sentence for a six-sector direction.
    public static func words(sector: Int) -> String {
        ["ERROR", "Continue straight", "Slight right", "Turn right", "Turn around", "Turn left", "Slight left"][max(0, min(6, sector))]
    }

    /// Distance units of the spoken distance.
    public enum Units: String, Sendable, Hashable, Codable { case feet, metres }

    /// " and walk N feet" (whole feet, feet = metres·100/2.54/12 rounded to tenths then truncated)
    /// or " and walk 7.5 meters" (one decimal below 10 m, whole metres from 10 m), as Clew says it.
    public static func distancePhrase(metres: Double, units: Units) -> String {
        let factor = units == .feet ? 100 / 2.54 / 12 : 1
        let shown = (10 * metres * factor).rounded() / 10
        let unit = units == .feet ? " feet" : " meters"
        if units == .feet || shown >= 10 { return " and walk \(Int(shown))" + unit }
        return " and walk \(String(format: "%.1f", shown))" + unit
    }
}
