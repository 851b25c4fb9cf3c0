import NavCore
import Testing

@Suite struct AngleTests {
    static let wrapCases: [(input: Double, expected: Double)] = [
        (3 * Double.pi, Double.pi), (-Double.pi, Double.pi), (Double.pi, Double.pi),
        (0.5, 0.5), (-0.5, -0.5), (2 * Double.pi + 0.25, 0.25), (-7 * Double.pi / 2, Double.pi / 2),
    ]

    @Test func wrapToPi() {
        for c in Self.wrapCases {
            #expect(abs(Angle.wrapToPi(c.input) - c.expected) < 1e-12, "\(c.input)")
        }
    }

    @Test func compassDegreesWrap() {
        #expect(Angle(degrees: -10).compassDegrees == 350)
        #expect(abs(Angle(degrees: 725).compassDegrees - 5) < 1e-9)
        #expect(Angle(degrees: 360).compassDegrees == 0)
    }

    @Test func differenceTakesTheShortWay() {
        let d = Angle(degrees: 10).difference(from: Angle(degrees: 350))
        #expect(abs(d.degrees - 20) < 1e-9)
        #expect(abs(Angle(degrees: 350).difference(from: Angle(degrees: 10)).degrees + 20) < 1e-9)
    }
}
