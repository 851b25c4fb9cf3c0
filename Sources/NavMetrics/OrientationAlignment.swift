import NavCore
import NavGeometry
import RealModule

/// The constant world rotation W applied on the left of an estimated orientation stream.
public enum WorldAlignment: String, Sendable, CaseIterable, Codable {
    /// W = I: both streams share a world frame.
    case none
    /// W a rotation about the up axis: two gravity-aware worlds (CoreMotion, ARKit, a motion
    /// capture frame levelled to gravity) that differ only in yaw.
    case yaw
    /// W any rotation.
    case full
}

/// The constant body rotation B applied on the right of an estimated orientation stream.
public enum BodyRotation: Sendable, Equatable {
    /// B = I: both streams orient the same body axes.
    case none
    /// B known (a unit quaternion; normalised on use).
    case given(Quaternion)
    /// B estimated jointly with W.
    case estimate

    /// `none`, `given` or `estimate`.
    public var mode: String {
        switch self {
        case .none: return "none"
        case .given: return "given"
        case .estimate: return "estimate"
        }
    }
}

/// What `alignOrientations` estimates and when it stops.
public struct OrientationAlignmentOptions: Sendable, Equatable {
    public var world: WorldAlignment
    /// The gravity axis of `.yaw`, in the reference's world frame.
    public var upAxis: UpAxis
    public var body: BodyRotation
    /// Smallest excitation, radians, for which B is estimated with a yaw or full W
    /// (`OrientationAlignment.excitation`); below it B is not observable and estimating it is
    /// an error. 1° by default.
    public var minimumExcitation: Double
    /// Largest number of alternating steps of a joint W, B estimate.
    public var maximumIterations: Int
    /// The steps stop when neither W nor B turns by more than this, radians.
    public var tolerance: Double

    public init(
        world: WorldAlignment = .none, upAxis: UpAxis = .y, body: BodyRotation = .none, minimumExcitation: Double = .pi / 180,
        maximumIterations: Int = 100_000, tolerance: Double = 1e-13
    ) {
        self.world = world; self.upAxis = upAxis; self.body = body; self.minimumExcitation = minimumExcitation
        self.maximumIterations = maximumIterations; self.tolerance = tolerance
    }
}

/// The estimated (or given) rotations of R_ref ≈ W · R_est · B.
public struct OrientationAlignment: Sendable, Equatable {
    /// W, estimate world → reference world (unit, w ≥ 0).
    public var world: Quaternion
    /// B, reference body → estimate body (unit, w ≥ 0).
    public var body: Quaternion
    /// Alternating steps taken (0 when W and B have closed forms).
    public var iterations: Int
    /// How well the estimate's orientations determine B beside W, radians (nil unless B is
    /// estimated with a yaw or full W): arccos σ₁(R̄) for a full W and arccos ‖R̄ᵀa‖ for a yaw
    /// W about a, with R̄ = (1/n) Σ R_est,i. It is 0 exactly when every R_est,iᵀ·R_est,j turns
    /// about one body axis (full W) or every R_est,i keeps the up axis at one body direction
    /// (yaw W): then W·R(u, ψ) and R(u, ψ)ᵀ·B fit as well for every ψ. For small spreads it is
    /// about the rms angle by which the orientations leave that axis.
    public var excitation: Double?

    public init(world: Quaternion, body: Quaternion, iterations: Int = 0, excitation: Double? = nil) {
        self.world = world; self.body = body; self.iterations = iterations; self.excitation = excitation
    }
}

/// Why two orientation streams cannot be aligned.
public enum OrientationAlignmentError: Error, Equatable, Sendable, CustomStringConvertible {
    case countMismatch(reference: Int, estimate: Int)
    case tooFewPairs(count: Int, needed: Int)
    /// A quaternion that is not finite or not of unit norm (0-based index).
    case notUnit(stream: String, index: Int, norm: Double)
    case bodyUnobservable(excitation: Double, minimum: Double, world: WorldAlignment)
    case degenerate(String)
    case notConverged(iterations: Int, change: Double)
    case invalidOption(String)
    case statistics(MetricError)

    public var description: String {
        func deg(_ r: Double) -> String { formatNumber((r * 180 / .pi * 1000).rounded() / 1000) }
        switch self {
        case let .countMismatch(r, e): return "reference and estimate must have the same number of orientations, found \(r) and \(e)"
        case let .tooFewPairs(c, n): return "\(c) matched orientation pairs; expected at least \(n)"
        case let .notUnit(s, i, n):
            return
                "\(s) orientation \(i): quaternion norm \(formatNumber(n)); expected a finite unit quaternion (|‖q‖ − 1| ≤ \(OrientationAlignmentOptions.unitTolerance))"
        case let .bodyUnobservable(x, m, w):
            return
                "body rotation not observable with --align \(w.rawValue): the estimate's orientations turn about one axis (excitation \(deg(x)) deg, below \(deg(m)) deg); give B (--body-rotation w,x,y,z) or record turns about other axes"
        case let .degenerate(s): return s
        case let .notConverged(i, c):
            return "the joint world and body rotation estimate did not converge in \(i) steps (last change \(formatNumber(c)) rad)"
        case let .invalidOption(s): return s
        case let .statistics(e): return e.description
        }
    }
}

extension OrientationAlignmentOptions {
    /// |‖q‖ − 1| a quaternion may deviate by (trace format v1's tolerance); it is then normalised.
    public static let unitTolerance = 1e-6
}

/// The world rotation W and, optionally, the body rotation B of R_ref,i ≈ W · R_est,i · B
/// between two streams of orientations paired by index (rotations active, body → world).
///
/// Least squares in the chordal metric: W and B minimise Σ‖R_ref,i − W·R_est,i·B‖²_F
/// (= Σ 8 sin²(θ_i/2), θ_i the error angle; the geodesic Σθ_i² has the same minimiser on exact
/// data and differs at second order in the noise).
/// - B fixed (`.none`, `.given`): a full W maximises tr(Wᵀ·H), H = Σ R_ref,i (R_est,i B)ᵀ: the
///   chordal L2 mean, U·diag(1, 1, det UVᵀ)·Vᵀ of the SVD H = U·Σ·Vᵀ (`SVD3`; Umeyama 1991's
///   sign rule); a yaw W about the up axis a is R_a(θ) with θ = atan2(H_vu − H_uv, H_uu + H_vv)
///   ((u, v, a) right-handed; tr(R_a(θ)ᵀH) = cos θ (H_uu + H_vv) + sin θ (H_vu − H_uv) + H_aa).
/// - W = I, B estimated: B = the SVD projection of K = Σ R_est,iᵀ R_ref,i.
/// - W and B estimated: alternating exact steps (block coordinate ascent; the cost never rises):
///   B ← proj K(W), then W ← the W step with that B, from the hand-eye start of Park & Martin
///   1994 (B₀ = proj Σ αₖβₖᵀ, αₖ, βₖ the rotation vectors of R_est,kᵀR_est,k+h and
///   R_ref,kᵀR_ref,k+h, h = ⌊n/2⌋, pairs turning by more than 162° left out), until neither W nor
///   B turns by more than `tolerance` (1e-13 rad) in a step, at most `maximumIterations`.
///   Both steps read the data only through T = Σ R_ref,i ⊗ R_est,i (81 sums), so a step costs
///   O(1). The rate is about σ₁² of the coupling (1 − 2·(1 − cos excitation)): slow only near
///   the unobservable case, which is refused first (`minimumExcitation`).
///
/// Numerical contract: on exact data (R_ref = W·R_est·B) W and B are recovered to ~1e-13 rad;
/// on noisy data the estimates equal scipy's (`Rotation.align_vectors` alternated to 1e-15 rad)
/// to ~1e-12 (`OrientationAlignmentTests`, scripts/make_attitude_fixtures.py).
///
/// - Throws: `OrientationAlignmentError`: counts differ, fewer than 3 pairs, a quaternion not
///   finite or off unit norm by more than 1e-6 (naming the stream and index), B not observable,
///   a degenerate sum (no unique W or B), no convergence.
/// - Complexity: O(n) to form T, then O(1) per step (at most `maximumIterations`).
public func alignOrientations(
    reference: [Quaternion], estimate: [Quaternion], options: OrientationAlignmentOptions = OrientationAlignmentOptions()
) throws(OrientationAlignmentError) -> OrientationAlignment {
    let (ref, est) = try checkedOrientations(reference: reference, estimate: estimate)
    let r = ref.map { Matrix3($0) }, m = est.map { Matrix3($0) }
    let t = KroneckerSum(r, m)
    let up = options.upAxis
    func worldStep(_ b: Matrix3) throws(OrientationAlignmentError) -> Matrix3 {
        switch options.world {
        case .none: return .identity
        case .yaw: return try yawMaximising(t.h(body: b), about: up)
        case .full: return try rotationMaximising(t.h(body: b), what: "world rotation")
        }
    }
    switch options.body {
    case .none:
        return OrientationAlignment(world: try worldStep(.identity).quaternion, body: .identity)
    case let .given(q):
        guard q.isFinite, q.norm > 0 else { throw .invalidOption("the body rotation \(q) is not a rotation") }
        let b = q.normalized
        return OrientationAlignment(world: try worldStep(Matrix3(b)).quaternion, body: b)
    case .estimate:
        break
    }
    if options.world == .none {
        return OrientationAlignment(world: .identity, body: try rotationMaximising(t.k(world: .identity), what: "body rotation").quaternion)
    }
    let excitation = bodyExcitation(m, world: options.world, up: up)
    guard excitation >= options.minimumExcitation else {
        throw .bodyUnobservable(excitation: excitation, minimum: options.minimumExcitation, world: options.world)
    }
    var b = parkMartinStart(reference: r, estimate: m)
    var w = try worldStep(b)
    var change = Double.infinity
    for step in 1...max(1, options.maximumIterations) {
        let nb = try rotationMaximising(t.k(world: w), what: "body rotation")
        let nw = try worldStep(nb)
        change = max(rotationChange(from: w, to: nw), rotationChange(from: b, to: nb))
        w = nw; b = nb
        if change <= options.tolerance {
            return OrientationAlignment(world: w.quaternion, body: b.quaternion, iterations: step, excitation: excitation)
        }
    }
    throw .notConverged(iterations: options.maximumIterations, change: change)
}

/// The quaternions as unit quaternions, or the first that is not finite or off unit norm.
private func checkedOrientations(reference: [Quaternion], estimate: [Quaternion]) throws(OrientationAlignmentError) -> ([Quaternion], [Quaternion]) {
    guard reference.count == estimate.count else { throw .countMismatch(reference: reference.count, estimate: estimate.count) }
    guard reference.count >= 3 else { throw .tooFewPairs(count: reference.count, needed: 3) }
    func units(_ q: [Quaternion], _ name: String) throws(OrientationAlignmentError) -> [Quaternion] {
        var out: [Quaternion] = []
        out.reserveCapacity(q.count)
        for (i, x) in q.enumerated() {
            guard let u = x.unit(tolerance: OrientationAlignmentOptions.unitTolerance) else {
                throw .notUnit(stream: name, index: i, norm: x.norm)
            }
            out.append(u)
        }
        return out
    }
    return (try units(reference, "reference"), try units(estimate, "estimate"))
}

/// T = Σ R_ref,i ⊗ R_est,i, as t[((a·3 + c)·3 + b)·3 + d] = Σ R_ref,i[a, c]·R_est,i[b, d]: the
/// only way the chordal cost sees the data.
private struct KroneckerSum {
    var t = [Double](repeating: 0, count: 81)

    init(_ r: [Matrix3], _ m: [Matrix3]) {
        for (ri, mi) in zip(r, m) {
            for a in 0..<3 {
                for c in 0..<3 {
                    let x = ri[a, c]
                    let base = (a * 3 + c) * 9
                    for b in 0..<3 {
                        for d in 0..<3 { t[base + b * 3 + d] += x * mi[b, d] }
                    }
                }
            }
        }
    }

    @inline(__always) func at(_ a: Int, _ c: Int, _ b: Int, _ d: Int) -> Double { t[((a * 3 + c) * 3 + b) * 3 + d] }

    /// H = Σ R_ref,i (R_est,i B)ᵀ: H[a, b] = Σ_c,d B[d, c]·T[a, c, b, d].
    func h(body bm: Matrix3) -> Matrix3 {
        var out = Matrix3.zero
        for a in 0..<3 {
            for b in 0..<3 {
                var s = 0.0
                for c in 0..<3 {
                    for d in 0..<3 { s += bm[d, c] * at(a, c, b, d) }
                }
                out[a, b] = s
            }
        }
        return out
    }

    /// K = Σ (W R_est,i)ᵀ R_ref,i: K[a, b] = Σ_c,d W[d, c]·T[d, b, c, a].
    func k(world w: Matrix3) -> Matrix3 {
        var out = Matrix3.zero
        for a in 0..<3 {
            for b in 0..<3 {
                var s = 0.0
                for c in 0..<3 {
                    for d in 0..<3 { s += w[d, c] * at(d, b, c, a) }
                }
                out[a, b] = s
            }
        }
        return out
    }
}

/// The rotation X maximising tr(Xᵀ·A): U·diag(1, 1, det U·det V)·Vᵀ of A's SVD. An error when
/// A's two largest singular values do not stand above rounding (no unique maximiser).
private func rotationMaximising(_ a: Matrix3, what: String) throws(OrientationAlignmentError) -> Matrix3 {
    let svd = SVD3(a)
    let s = svd.singularValues
    guard s.x.isFinite, s.y > 1e-12 * s.x else {
        throw .degenerate("the \(what) is not unique: the orientation sums are degenerate (singular values \(s.x), \(s.y), \(s.z))")
    }
    let sign: Double = svd.u.determinant * svd.v.determinant < 0 ? -1 : 1
    return svd.u * Matrix3.diagonal(Vector3(1, 1, sign)) * svd.v.transpose
}

/// The rotation about `axis` maximising tr(R_a(θ)ᵀ·H): θ = atan2(H_vu − H_uv, H_uu + H_vv).
private func yawMaximising(_ h: Matrix3, about axis: UpAxis) throws(OrientationAlignmentError) -> Matrix3 {
    let (u, v): (Int, Int)
    switch axis {
    case .x: (u, v) = (1, 2)
    case .y: (u, v) = (2, 0)
    case .z: (u, v) = (0, 1)
    }
    let cosine = h[u, u] + h[v, v], sine = h[v, u] - h[u, v]
    let scale = h.frobeniusNorm
    guard (cosine * cosine + sine * sine).squareRoot() > 1e-12 * scale else {
        throw .degenerate("the yaw about \(axis.rawValue) is not unique: the orientations' sum has no part about that axis")
    }
    return rotation(about: axis, angle: Double.atan2(y: sine, x: cosine))
}

/// `OrientationAlignment.excitation` of the estimate's orientations.
private func bodyExcitation(_ m: [Matrix3], world: WorldAlignment, up: UpAxis) -> Double {
    var mean = Matrix3.zero
    for x in m { mean += x }
    mean = (1 / Double(m.count)) * mean
    let s: Double
    switch world {
    case .none: return .pi / 2
    case .full: s = SVD3(mean).singularValues.x
    case .yaw: s = (mean.transpose * up.vector).norm
    }
    return Double.acos(min(1, s))
}

/// Park & Martin's start of B: the rotation taking the rotation vectors βₖ of the reference's
/// relative rotations onto the estimate's αₖ (αₖ = B·βₖ on exact data); identity when they do
/// not determine one.
private func parkMartinStart(reference r: [Matrix3], estimate m: [Matrix3]) -> Matrix3 {
    let n = r.count, h = max(1, n / 2)
    var x = Matrix3.zero
    for k in 0..<(n - h) {
        let alpha = rotationVector(m[k].transpose * m[k + h]), beta = rotationVector(r[k].transpose * r[k + h])
        // Near π the rotation vector's sign is unstable: such pairs say nothing reliable.
        guard alpha.norm < 0.9 * .pi, beta.norm < 0.9 * .pi else { continue }
        x += Matrix3.outer(alpha, beta)
    }
    return (try? rotationMaximising(x, what: "start")) ?? .identity
}

/// log R as a rotation vector (axis · angle, angle in [0, π]).
private func rotationVector(_ m: Matrix3) -> Vector3 {
    let q = m.quaternion
    let v = Vector3(q.x, q.y, q.z), s = v.norm
    guard s > 0 else { return .zero }
    return (2 * Double.atan2(y: s, x: q.w) / s) * v
}

/// The angle of the rotation turning `a` into `b` (of b·aᵀ), radians.
private func rotationChange(from a: Matrix3, to b: Matrix3) -> Double {
    rotationAngle((b * a.transpose).quaternion)
}
