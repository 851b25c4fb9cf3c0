import Foundation
import NavGuidance
import Testing

@Suite struct ClockFaceTests {
    /// Independent closed form: the nearest hour, 30° per hour, 0 → 12.
    func expectedHour(_ degrees: Double) -> Int {
        let h = ((Int((degrees / 30 + 0.5).rounded(.down)) % 12) + 12) % 12
        return h == 0 ? 12 : h
    }

    /// Every sector boundary (15°, 45°, …), approached from both sides.
    @Test func hourAtEverySectorBoundary() {
        for k in -6...5 {
            let boundary = Double(k) * 30 + 15
            for eps in [-1e-6, 1e-6] {
                let deg = boundary + eps
                guard deg >= -180, deg <= 180 else { continue }
                #expect(ClockFace.hour(angle: deg * .pi / 180) == expectedHour(deg), "\(deg)°")
            }
        }
        #expect(ClockFace.hour(angle: 0) == 12)
        #expect(ClockFace.hour(angle: .pi) == 6)
        #expect(ClockFace.hour(angle: -.pi) == 6)
        #expect(ClockFace.hour(angle: .pi / 2) == 3)
        #expect(ClockFace.hour(angle: -.pi / 2) == 9)
    }

    /// Total on any double: a huge angle (corrupt positions once made 1e308 rad and crashed
    /// the replay converting it to Int) gives the hour of its reduction, a NaN 12.
    @Test func hourIsTotal() {
        #expect(ClockFace.hour(angle: .nan) == 12 && ClockFace.hour(angle: .infinity) == 12)
        for k in [1e9, 1e15, 1e300] {
            let a = k * 2 * .pi + .pi / 2  // still ≈ 3 o'clock after reduction when representable
            let reduced = remainder(a, 2 * .pi) * 180 / .pi
            #expect(ClockFace.hour(angle: a) == expectedHour(reduced), "\(a)")
        }
    }

    @Test func wordingForEveryHour() {
        let expected = [
            1: "Slight right towards 1 o'clock", 2: "Slight right towards 2 o'clock", 3: "Turn right",
            4: "Turn towards 4 o'clock", 5: "Turn around towards 5 o'clock", 6: "Turn around towards 6 o'clock",
            7: "Turn around towards 7 o'clock", 8: "Turn towards 8 o'clock", 9: "Turn left",
            10: "Slight left towards 10 o'clock", 11: "Slight left towards 11 o'clock", 12: "Continue straight",
        ]
        for (h, w) in expected { #expect(ClockFace.words(hour: h) == w) }
    }

    @Test func sixSectors() {
        let cases: [(Double, Int)] = [
            (0, 1), (29, 1), (31, 2), (59, 2), (61, 3), (119, 3), (121, 4), (180, 4),
            (-29, 1), (-31, 6), (-61, 5), (-121, 4), (-180, 4),
        ]
        for (deg, s) in cases { #expect(ClockFace.sector(angle: deg * .pi / 180) == s, "\(deg)°") }
        #expect(ClockFace.words(sector: 2) == "Slight right")
        #expect(ClockFace.words(sector: 4) == "Turn around")
    }

    /// feet = metres·100/2.54/12, rounded to tenths, then whole; metres with one decimal below 10.
    @Test func distancePhrases() {
        #expect(ClockFace.distancePhrase(metres: 4.572, units: .feet) == " and walk 15 feet")  // 15.0 ft
        #expect(ClockFace.distancePhrase(metres: 3.0, units: .feet) == " and walk 9 feet")  // 9.84 → 9.8 → 9
        #expect(ClockFace.distancePhrase(metres: 7.46, units: .metres) == " and walk 7.5 meters")
        #expect(ClockFace.distancePhrase(metres: 12.34, units: .metres) == " and walk 12 meters")
    }
}
