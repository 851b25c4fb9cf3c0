import Foundation
import NavCore
import NavGuidance
import NavSim
import NavSynth
import Testing

/// "More navigator noise or more VIO error never raises the success rate": ordered levels of
/// one noise source, the same walkers at every level (seed and run index name the random
/// streams, so run r draws the same standard normals at every level: common random numbers,
/// only their scale changes), enough walkers that a real trend is not hidden by chance; the
/// success rate must not increase from one level to the next.
@Suite struct MonotoneSuccessTests {
    static let runs = 400
    /// An L-shaped route with a slight and an ample turn (27 m) in open space.
    static let route = openRoute("monotone", [(0, 0), (0, -10), (6, -16), (6, -22), (-2, -24)])

    /// The cane user without its systematic over-rotation (means 17.4° and 13.4°, kept as spreads):
    /// with a bias in the model, a small error of the right sign cancels part of it on a fixed
    /// route, and the cane user with the bias succeeds more often with 1° of registration yaw
    /// error (0.9625) or twice its veering (0.97) than with none (0.945; 400 walkers) — the
    /// model's bias, not noise helping. Noise added to an unbiased walker is what must not help.
    static let unbiased = "cane:over_rotation_slight=0,over_rotation_ample=0"

    static func rates(_ settings: [ClosedLoopSettings]) -> [Double] {
        settings.map { simulateWalks(route, settings: $0, seed: 17, runs: runs).aggregate.success_rate }
    }

    /// Navigator noise: the cane user's veering (initial orientation, per-walker bias, per-step
    /// error) and turn-error spreads, all scaled by k.
    @Test func moreNavigatorNoiseNeverRaisesSuccess() throws {
        let cane = NavigatorProfile.named("cane")!
        let levels = [0.0, 1, 2, 4]
        let settings = try levels.map { k in
            ClosedLoopSettings(walker: try NavigatorProfile(parsing: Self.unbiased + ",initial_orientation_std=\(k * cane.initialOrientationStdDegrees),"
                + "step_bias_std=\(k * cane.stepBiasStdDegrees),step_direction_std=\(k * cane.stepDirectionStdDegrees),"
                + "over_rotation_slight_std=\(k * cane.overRotationSlightStdDegrees),over_rotation_ample_std=\(k * cane.overRotationAmpleStdDegrees)"))
        }
        let r = Self.rates(settings)
        print("navigator noise × \(levels): success \(r)")
        for i in 1..<r.count { #expect(r[i] <= r[i - 1], "noise ×\(levels[i]): success \(r[i]) > \(r[i - 1]) at ×\(levels[i - 1]); all \(r)") }
        #expect(r.last! < r.first!, "\(r)")
    }

    /// VIO error: the phone's yaw random walk and position random walk scaled by k.
    @Test func moreVIOErrorNeverRaisesSuccess() throws {
        let levels = [0.0, 1, 2, 4, 8]
        let settings = try levels.map { k in
            ClosedLoopSettings(walker: try NavigatorProfile(parsing: Self.unbiased),
                               vioError: try VIOErrorSpec(parsing: "yaw_drift=\(0.5 * k),position_noise=\(0.05 * k)"))
        }
        let r = Self.rates(settings)
        print("VIO error × \(levels): success \(r)")
        for i in 1..<r.count { #expect(r[i] <= r[i - 1], "VIO ×\(levels[i]): success \(r[i]) > \(r[i - 1]) at ×\(levels[i - 1]); all \(r)") }
        #expect(r.last! < r.first!, "\(r)")
    }

    /// Registration yaw error about the anchor, growing in size (the unbiased cane user). A
    /// registration error has a sign, and one sign can cancel a systematic end offset of the
    /// model: Clew's last box is open behind and on one side, and the walker stops a reaction
    /// time after "arrived", so walkers end consistently to one side of the destination; +1°
    /// moves the seen destination toward that side and raised success from 0.905 to 0.93 (400
    /// walkers). The size of the error is what must not help: each level is the mean success
    /// rate at +δ and −δ.
    @Test func moreRegistrationErrorNeverRaisesSuccess() throws {
        let levels = [0.0, 1, 2, 4, 8]
        let walker = try NavigatorProfile(parsing: Self.unbiased)
        let r = try levels.map { d in
            let signs = d == 0 ? [0.0] : [d, -d]
            let rates = Self.rates(try signs.map { ClosedLoopSettings(walker: walker, vioError: try VIOErrorSpec(parsing: "yaw_offset=\($0)")) })
            return rates.reduce(0, +) / Double(rates.count)
        }
        print("registration yaw ±\(levels)°: success \(r)")
        // From ±1° on the rate never rises. Between no error and ±1° or ±2° it did (0.905 → 0.9325,
        // 0.9125 with 400 walkers, documented in docs/guidance.md): the common random numbers do
        // not keep runs paired in the closed loop — any change of the seen pose moves when the
        // arrival and haptic checks fire, and from the first different event on a run draws its
        // numbers for other steps and turns — so small levels compare almost independent samples,
        // whose difference has a standard error of ≈ 0.02 here. Those two are held to 3 of them.
        for i in 2..<r.count { #expect(r[i] <= r[i - 1], "yaw ±\(levels[i])°: success \(r[i]) > \(r[i - 1]) at ±\(levels[i - 1])°; all \(r)") }
        let se = (2 * r[0] * (1 - r[0]) / Double(Self.runs)).squareRoot()
        for i in 1...2 { #expect(r[i] - r[0] <= 3 * se, "yaw ±\(levels[i])°: success \(r[i]) beyond 3 standard errors above \(r[0]); all \(r)") }
        #expect(r.last! < r.first!, "\(r)")
    }
}
