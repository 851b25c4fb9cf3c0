import Foundation

/// The WCAG 2.1 contrast ratio of two `#rrggbb` colours, (L1 + 0.05) / (L2 + 0.05) with L the
/// relative luminance (sRGB linearised); 1 for a malformed colour.
public func wcagContrast(_ a: String, _ b: String) -> Double {
    func luminance(_ hex: String) -> Double? {
        let h = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard h.count == 6, let v = UInt32(h, radix: 16) else { return nil }
        let channels = [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff].map { c -> Double in
            let s = Double(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }
    guard let la = luminance(a), let lb = luminance(b) else { return 1 }
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

/// The casing of a line or marker drawn in `color` on white: a dark grey drawn beneath it, wider,
/// when `color` has less than WCAG 2.1's 3:1 non-text contrast with white (success criterion
/// 1.4.11), so that the mark's edges have it; nil when the colour has it itself. Of the Okabe–Ito
/// colours, orange (2.25:1), sky blue (2.31:1) and yellow (1.32:1) get one; their hues stay, so the
/// palette stays distinguishable with colour-vision deficiencies (darkening them would not: two
/// become nearly equal under protanopia).
public func lineCasing(_ color: String) -> String? { wcagContrast(color, "#ffffff") < 3 ? "#404040" : nil }
