import NavCore
import NavGuidance
import NavStatistics

// Fitting the walker model (`NavigatorProfile`, docs/navigator.md) to logged walks: each
// parameter estimated from the true path and what the walker heard, with a 95 % CI and n.

/// One logged walk as the fit reads it: the walker's true poses (venue frame, a navigation
/// session's ground truth) and the spoken directions and haptics they got (Clew's guidance
/// replayed on the session's VIO), with the route's true keypoints.
public struct LoggedWalk: Sendable {
    public var times: [Double]
    public var poses: [Pose]
    public var events: [GuidanceEvent]
    public var trueRoute: GuidanceRoute
    public init(times: [Double], poses: [Pose], events: [GuidanceEvent], trueRoute: GuidanceRoute) {
        self.times = times; self.poses = poses; self.events = events; self.trueRoute = trueRoute
    }
}

/// One fitted walker parameter: its override key (`NavigatorProfile` keys), estimate and 95 %
/// confidence interval, over `n` independent units (`counts`: walks, turns, spoken directions,
/// steps), and how it was estimated.
public struct WalkerParameterEstimate: Sendable, Equatable, Codable {
    public var key: String
    public var unit: String
    public var value: Double
    public var low: Double
    public var high: Double
    public var n: Int
    public var counts: String
    public var method: String

    public init(key: String, unit: String, value: Double, low: Double, high: Double, n: Int, counts: String, method: String) {
        self.key = key; self.unit = unit; self.value = value; self.low = low; self.high = high; self.n = n; self.counts = counts
        self.method = method
    }

    /// Whether `x` lies in the interval (bounds widened by 1e-9 relative: an estimate that is
    /// exact in the model, such as a simulated walker's speed, has an interval of width 0 up to
    /// rounding).
    public func covers(_ x: Double) -> Bool {
        let slack = 1e-9 * max(1, abs(x))
        return low - slack <= x && x <= high + slack
    }
}

/// The parameters fitted from a set of logged walks (`fitWalker`), and what could not be fitted.
public struct WalkerFit: Sendable, Equatable {
    public var walks: Int
    public var estimates: [WalkerParameterEstimate]
    /// Why a parameter is missing or what was left out (one line each).
    public var notes: [String]

    public init(walks: Int, estimates: [WalkerParameterEstimate], notes: [String]) {
        self.walks = walks; self.estimates = estimates; self.notes = notes
    }

    public func estimate(_ key: String) -> WalkerParameterEstimate? { estimates.first { $0.key == key } }
}

/// Walks shorter than this many samples, or without motion, are left out of the fit.
let minimumWalkSamples = 10
/// The longest reaction to a spoken direction the fit reads, s: a direction without a turn onset
/// this long after it turned while the walker stood (or not at all).
let maximumReactionSeconds = 5.0
/// Commanded turns at least this large are left out of the over-rotation fit: turned with an
/// over-rotation, they may pass 180° and be executed the short way round.
let maximumFittedTurnDegrees = 150.0
/// Heading changes between two samples larger than this while walking are no step, deg.
let maximumStepChangeDegrees = 15.0

/// Fits the walker model to `walks`, reading the commanded turn of each spoken direction as
/// `base` (its `exactAngles`, `bearDegrees`) and the guidance wording (`sixSectorWording`) give it.
///
/// A sample is *moving* when its horizontal speed since the previous sample exceeds half the
/// median speed of the samples above 5 cm/s; a *stationary phase* is a run of samples that are
/// not, after the walk started moving. Estimates (docs/navigator.md, "Fitting a walker"):
/// - `speed`: per walk the median speed of moving samples; mean over walks, Student t CI (n walks).
/// - `reaction_time`: spoken directions (instructions and corrections) and turn onsets are
///   matched first in, first out — a stationary phase whose last moving sample is t_a is the turn
///   of the oldest direction heard at or before t_a that has waited at most 5 s — and a direction
///   is read only when it was heard while walking with no other waiting, no other is heard before
///   its turn ends, and its turn rotates one way at the walker's usual rotation speed throughout
///   (within 15 % of the median turn's: a search sweep for the on-track pulse, `seek_rate`, is
///   no turn) and ends walking; r = t_a − t_e − Δ/2 (Δ the sample interval: an onset is seen at
///   the next sample, on average Δ/2 late); mean, Student t CI (n directions).
///   `reaction_time_std`: √(s² − Δ²/12), chi-squared CI.
/// - `over_rotation_slight`/`_ample` (and `_std`): the executed turn of each direction read
///   above less its commanded turn, for commanded turns over 22.5° (slight up to 60°, ample
///   above, below 150°); mean with Student t CI, SD with chi-squared CI (n turns).
/// - `turn_rate`: per turn the median rotation speed of its samples but the last; mean, t CI.
/// - `step_direction_std`, `step_bias`, `step_bias_std`, `step_length`: while walking, the
///   heading changes only at steps (the model's veering, Kallie et al. 2007); each heading change
///   between moving samples is one step's direction error δ (+ = right). Pooled within-walk SD of
///   δ (ν = steps − walks, chi-squared CI); per-walk mean of δ, mean over walks (t CI) and their SD
///   less the within-walk part; the distance walked from the first step to the last per step
///   (t CI over walks, widened by one sample's distance over the steps: where a step falls within
///   a sample is not seen). Only
///   when heading changes are discrete (at most half the moving samples change heading):
///   continuous heading noise (a real phone) leaves veering unfitted (a note says so).
/// - `initial_orientation_std`: first heading against the bearing to the first keypoint at least
///   0.5 m away; root mean square, chi-squared CI with ν = walks.
///
/// - Complexity: O(samples + events · (log samples + waiting directions)) per walk.
public func fitWalker(_ walks: [LoggedWalk], base: NavigatorProfile, sixSectorWording: Bool = false) -> WalkerFit {
    var notes: [String] = []
    var speeds: [Double] = [], reactions: [Double] = [], slight: [Double] = [], ample: [Double] = [], rates: [Double] = []
    var stepErrors: [[Double]] = [], stepLengths: [Double] = [], stepResolutions: [Double] = [], initialErrors: [Double] = []
    var intervals: [Double] = []
    var excluded = 0, continuousHeading = 0, used = 0
    for (w, walk) in walks.enumerated() {
        guard let a = WalkAnalysis(walk, base: base, sixSectorWording: sixSectorWording) else {
            notes.append("walk \(w + 1): fewer than \(minimumWalkSamples) samples or no motion; left out")
            continue
        }
        used += 1
        intervals.append(a.sampleInterval)
        speeds.append(a.speed)
        reactions += a.reactions
        slight += a.slight
        ample += a.ample
        rates += a.turnRates
        excluded += a.excludedDirections
        if a.stepsAreDiscrete {
            if a.stepErrors.count >= 2 { stepErrors.append(a.stepErrors) }
            if let l = a.stepLength { stepLengths.append(l.value); stepResolutions.append(l.resolution) }
        } else {
            continuousHeading += 1
        }
        if let e = a.initialError { initialErrors.append(e) }
    }
    var out: [WalkerParameterEstimate] = []
    func mean(_ key: String, _ unit: String, _ xs: [Double], _ counts: String, _ method: String) {
        guard xs.count >= 2 else { return notes.append("\(key): \(xs.count) \(counts), too few for an interval") }
        let t = StudentTInterval(xs)
        out.append(
            WalkerParameterEstimate(key: key, unit: unit, value: t.mean, low: t.low, high: t.high, n: xs.count, counts: counts, method: method))
    }
    func sd(_ key: String, _ unit: String, _ s: Double, dof: Double, n: Int, counts: String, less: Double = 0, method: String) {
        guard dof >= 1, s.isFinite else { return notes.append("\(key): too few \(counts) to fit it from") }
        let ci = ChiSquared.standardDeviationInterval(s, degreesOfFreedom: dof)
        func corrected(_ x: Double) -> Double { (max(0, x * x - less)).squareRoot() }
        out.append(
            WalkerParameterEstimate(
                key: key, unit: unit, value: corrected(s), low: corrected(ci.low), high: corrected(ci.high), n: n, counts: counts,
                method: method))
    }
    let dt = intervals.isEmpty ? 0 : median(intervals)
    mean("speed", "m/s", speeds, "walks", "median speed of moving samples per walk; mean over walks")
    mean(
        "step_length", "m", stepLengths, "walks",
        "distance walked from the first heading change (step) to the last per step, per walk; mean over walks, interval widened by the step positions' sampling resolution"
    )
    if let i = out.firstIndex(where: { $0.key == "step_length" }), !stepResolutions.isEmpty {
        let resolution = stepResolutions.reduce(0, +) / Double(stepResolutions.count)
        out[i].low -= resolution
        out[i].high += resolution
    }
    mean("reaction_time", "s", reactions, "spoken directions", "direction to turn onset, less half a sample interval")
    if reactions.count >= 2 {
        sd(
            "reaction_time_std", "s", Statistics.standardDeviation(reactions), dof: Double(reactions.count - 1), n: reactions.count,
            counts: "spoken directions", less: dt * dt / 12, method: "SD of the reaction times less the onset's rounding to samples")
    }
    mean("over_rotation_slight", "deg", slight, "slight turns", "executed − commanded turn, commanded 22.5–60°")
    if slight.count >= 2 {
        sd(
            "over_rotation_slight_std", "deg", Statistics.standardDeviation(slight), dof: Double(slight.count - 1), n: slight.count,
            counts: "slight turns", method: "SD of executed − commanded, commanded 22.5–60°")
    }
    mean("over_rotation_ample", "deg", ample, "ample turns", "executed − commanded turn, commanded 60–150°")
    if ample.count >= 2 {
        sd(
            "over_rotation_ample_std", "deg", Statistics.standardDeviation(ample), dof: Double(ample.count - 1), n: ample.count,
            counts: "ample turns", method: "SD of executed − commanded, commanded 60–150°")
    }
    mean("turn_rate", "deg/s", rates, "turns", "median rotation speed of a turn in place")
    // Veering: pooled within-walk variance of the step errors, and the walks' mean errors.
    let steps = stepErrors.map(\.count).reduce(0, +)
    if !stepErrors.isEmpty {
        var within = 0.0
        for e in stepErrors {
            let m = e.reduce(0, +) / Double(e.count)
            within += e.reduce(0) { $0 + ($1 - m) * ($1 - m) }
        }
        let dof = steps - stepErrors.count
        let pooled = dof > 0 ? (within / Double(dof)).squareRoot() : .nan
        sd(
            "step_direction_std", "deg", pooled, dof: Double(dof), n: steps, counts: "steps",
            method: "pooled within-walk SD of the heading change at each step")
        let biases = stepErrors.map { $0.reduce(0, +) / Double($0.count) }
        mean("step_bias", "deg", biases, "walks", "mean heading change per step (+ = right) per walk; mean over walks")
        if biases.count >= 2 {
            // Var(walk mean) = τ² + σ²/steps of the walk: the walker-to-walker part τ.
            let sampling = stepErrors.map { pooled * pooled / Double($0.count) }.reduce(0, +) / Double(stepErrors.count)
            sd(
                "step_bias_std", "deg", Statistics.standardDeviation(biases), dof: Double(biases.count - 1), n: biases.count, counts: "walks",
                less: sampling, method: "SD of the walks' mean step errors less their sampling part")
        }
    }
    if continuousHeading > 0 {
        notes.append(
            "\(continuousHeading) of \(used) walks change heading at most moving samples (no discrete steps): veering and step length not fitted from them"
        )
    }
    if !initialErrors.isEmpty {
        let rms = (initialErrors.reduce(0) { $0 + $1 * $1 } / Double(initialErrors.count)).squareRoot()
        sd(
            "initial_orientation_std", "deg", rms, dof: Double(initialErrors.count), n: initialErrors.count, counts: "walks",
            method: "RMS of the first heading against the bearing to the first keypoint")
    }
    if excluded > 0 {
        notes.append(
            "\(excluded) spoken directions left out of the reaction and turn fits (heard while not walking, another direction before the turn ended, no turn within \(Int(maximumReactionSeconds)) s, or a turn that reversed)"
        )
    }
    // Units as the walker's parameter table states them (one definition: `WalkerProvenance`).
    for i in out.indices { out[i].unit = NavigatorProfile.unit(of: out[i].key) ?? out[i].unit }
    return WalkerFit(walks: used, estimates: out, notes: notes)
}

private func median(_ xs: [Double]) -> Double {
    var s = xs
    return Statistics.quantilesBySelection(&s, [0.5])[0]
}

/// The heading of a pose in the ARKit convention of the walker (`ClosedLoopWalker.yaw`): the
/// phone's forward axis (−z) projected on the horizontal plane points along (−sin ψ, −cos ψ).
func walkerHeading(_ p: Pose) -> Double {
    let f = p.rotation.act(on: Vector3(0, 0, -1))
    return Double.atan2(y: -f.x, x: -f.z)
}

/// What one walk shows (`fitWalker`).
struct WalkAnalysis {
    var sampleInterval: Double
    var speed: Double
    var reactions: [Double] = []
    var slight: [Double] = []
    var ample: [Double] = []
    var turnRates: [Double] = []
    var excludedDirections = 0
    var stepErrors: [Double] = []
    /// Distance per step and the resolution of that value (one sample's distance over the steps).
    var stepLength: (value: Double, resolution: Double)?
    var stepsAreDiscrete = true
    var initialError: Double?

    init?(_ walk: LoggedWalk, base: NavigatorProfile, sixSectorWording: Bool) {
        let n = min(walk.times.count, walk.poses.count)
        guard n >= minimumWalkSamples else { return nil }
        let deg = Double.pi / 180
        let t = walk.times, p = walk.poses.map(\.translation), heading = walk.poses.map(walkerHeading)
        var speeds = [Double](repeating: 0, count: n), gaps: [Double] = []
        for k in 1..<n {
            let dt = t[k] - t[k - 1]
            guard dt > 0 else { continue }
            gaps.append(dt)
            speeds[k] = Double.hypot(p[k].x - p[k - 1].x, p[k].z - p[k - 1].z) / dt
        }
        let fast = speeds.filter { $0 > 0.05 }
        guard !fast.isEmpty, !gaps.isEmpty else { return nil }
        let threshold = 0.5 * median(fast)
        let moving = speeds.map { $0 > threshold }
        sampleInterval = median(gaps)
        speed = median(speeds.indices.filter { moving[$0] }.map { speeds[$0] })
        // Stationary phases after the first motion: [first, last] sample indices.
        var phases: [(first: Int, last: Int)] = []
        if let start = moving.firstIndex(of: true) {
            var k = start
            while k < n {
                if moving[k] { k += 1; continue }
                var e = k
                while e + 1 < n && !moving[e + 1] { e += 1 }
                phases.append((k, e))
                k = e + 1
            }
        }
        func wrap(_ a: Double) -> Double { Angle.wrapToPi(a) }
        func sampleIndex(atOrBefore time: Double) -> Int? {
            var lo = 0, hi = n
            while lo < hi { let mid = (lo + hi) / 2; if t[mid] <= time + 1e-9 { lo = mid + 1 } else { hi = mid } }
            return lo == 0 ? nil : lo - 1
        }
        let spoken = walk.events.filter { $0.kind == .instruction || $0.kind == .correction }
        // Turns in place: stationary phases that rotate one way, at the walker's usual rotation
        // speed throughout (within 15 % of the median phase's: a search sweep for the on-track
        // pulse, `seek_rate`, even one a turn interrupted, is none), and end walking again.
        var candidates: [(phase: (first: Int, last: Int), rates: [Double])] = []
        for phase in phases where phase.last + 1 < n {
            var sign = 0.0, reverses = false
            for k in phase.first...phase.last {
                let d = wrap(heading[k] - heading[k - 1])
                if abs(d) < 1e-12 { continue }
                if sign != 0 && (d > 0) != (sign > 0) { reverses = true; break }
                sign = d > 0 ? 1 : -1
            }
            if reverses { continue }
            var rates: [Double] = []
            for k in phase.first..<phase.last where t[k] > t[k - 1] { rates.append(abs(wrap(heading[k] - heading[k - 1])) / (t[k] - t[k - 1]) / deg) }
            candidates.append((phase, rates))
        }
        let medians = candidates.filter { $0.rates.count >= 3 }.map { median($0.rates) }
        let typical = medians.isEmpty ? nil : median(medians)
        let turnPhases = candidates.filter { c in typical.map { m in !c.rates.contains { abs($0 - m) > 0.15 * m } } ?? true }
        // Directions and turns matched first in, first out: a turn whose last moving sample is
        // t_a is that of the oldest direction heard at or before t_a still waiting for one (for at
        // most 5 s). A direction is read only when it was heard while walking with none waiting
        // (so the next turn is its own) and no other is heard before its turn ends.
        var waiting: [(index: Int, alone: Bool)] = []
        var next = 0, read = 0
        for (phase, rates) in turnPhases {
            let onset = t[phase.first - 1]
            while next < spoken.count && spoken[next].time < onset + 1e-9 {
                waiting.removeAll { spoken[next].time - spoken[$0.index].time > maximumReactionSeconds }
                let ke = sampleIndex(atOrBefore: spoken[next].time)
                waiting.append((next, waiting.isEmpty && ke.map { moving[$0] } == true))
                next += 1
            }
            waiting.removeAll { onset - spoken[$0.index].time > maximumReactionSeconds }
            guard !waiting.isEmpty else { continue }
            let w = waiting.removeFirst()
            let e = spoken[w.index]
            guard w.alone, waiting.isEmpty, w.index + 1 == spoken.count || spoken[w.index + 1].time > t[phase.last] + 1e-9 else { continue }
            read += 1
            reactions.append(onset - e.time - sampleInterval / 2)
            // Executed turn, + = right (a right turn lowers ψ).
            let executed = -wrap(heading[phase.last] - heading[phase.first - 1])
            let c = base.commandedTurn(e, sixSectorWording: sixSectorWording), m = abs(c)
            if m > 22.5 * deg && m < maximumFittedTurnDegrees * deg {
                let over = ((c > 0 ? executed : -executed) - m) / deg
                if m <= 60 * deg { slight.append(over) } else { ample.append(over) }
            }
            if rates.count >= 3 { turnRates.append(median(rates)) }
        }
        excludedDirections = spoken.count - read
        // Steps: heading changes between moving samples; the distance walked at each.
        var changes = 0, movingSamples = 0, walked = 0.0, stepAt: [Double] = []
        for k in 1..<n where moving[k] {
            movingSamples += 1
            let d = wrap(heading[k] - heading[k - 1])
            walked += Double.hypot(p[k].x - p[k - 1].x, p[k].z - p[k - 1].z)
            guard abs(d) > 1e-9 else { continue }
            changes += 1
            guard abs(d) < maximumStepChangeDegrees * deg else { continue }
            stepErrors.append(-d / deg)
            stepAt.append(walked)
        }
        // Step length: distance walked from the first step to the last over the steps between; a
        // step is placed to within one sample's distance, so the value is known to ± that over
        // the steps counted (the sampling resolution, added to the interval).
        if stepAt.count >= 3, let first = stepAt.first, let last = stepAt.last, movingSamples > 0 {
            let perSample = walked / Double(movingSamples)
            stepLength = ((last - first) / Double(stepAt.count - 1), perSample / Double(stepAt.count - 1))
        }
        stepsAreDiscrete = movingSamples > 0 && changes * 2 <= movingSamples
        // Initial orientation against the bearing to the first keypoint 0.5 m away.
        let s0 = p[0]
        if let ahead = walk.trueRoute.keypoints.first(where: { Double.hypot($0.position.x - s0.x, $0.position.z - s0.z) > 0.5 })?.position {
            initialError = wrap(heading[0] - Double.atan2(y: -(ahead.x - s0.x), x: -(ahead.z - s0.z))) / deg
        }
    }
}
