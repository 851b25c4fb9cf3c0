/// The Eisel–Lemire algorithm (Lemire 2021, "Number Parsing at a Gigabyte per Second",
/// Software: Practice and Experience 51(8); rounding analysis completed by Mushtak & Lemire
/// 2023, "Fast number parsing without fallback"): the binary64 nearest to w · 10^q, ties to
/// even, from one or two 64 × 64 → 128-bit multiplications by a truncated power of five.
///
/// Contract:
/// - `w` is the exact decimal significand (all its digits: a 1–19 digit decimal always fits
///   in 64 bits; a significand truncated to 19 digits is not exact and must not be passed),
///   `q` the decimal exponent of its last digit, `negative` the sign.
/// - Returns the correctly rounded double, equal bit for bit to glibc's strtod on the same
///   decimal: ±0 when w = 0 or w · 10^q is below half the smallest subnormal (q < −342, or
///   rounding below), ±∞ when it rounds above `Double.greatestFiniteMagnitude` (q > 308, or
///   rounding above), subnormals rounded at their own precision.
/// - Returns nil (declines, the caller falls back to strtod) only when the refined 128-bit
///   product cannot tell the rounding apart: its low word is all ones outside the exponents
///   −27 … 55 where the product is exact (step 3). Mushtak & Lemire prove this never happens
///   for binary64; the guard is the 2021 paper's, kept so that a proof is not all that stands
///   between a reader and a wrong bit.
///
/// Steps (the names of the paper):
/// 1. Trivial ranges: w = 0, or q < −342 (w · 10^q < 2⁶⁴ · 10⁻³⁴³ < 2⁻¹⁰⁷⁵, half the smallest
///    subnormal) → ±0; q > 308 (w ≥ 1) → ±∞.
/// 2. Normalise: shift w left by its leading zeros `lz` so that bit 63 is set.
/// 3. Product: (hi, lo) = the top 128 bits of w × P(q), P(q) the 128-bit truncated 5^q of
///    `powersOfFive128`. First w × P_high only; when the 9 bits of `hi` below the 55 the
///    rounding needs are all ones, a carry from the dropped bits could reach them, so add
///    the high word of w × P_low (the second multiplication).
/// 4. Mantissa: keep 54 bits of `hi` (the 53 of binary64 and one rounding bit): shift right
///    by 9 + upperbit, upperbit = hi's bit 63. The binary exponent is
///    ⌊q · log₂10⌋ + 63 + upperbit − lz + 1023 (biased), ⌊q · log₂10⌋ = (217706 · q) >> 16,
///    exact for |q| ≤ 642 (checked with exact integers), which covers the table's −342 … 308.
/// 5. Subnormal (biased exponent ≤ 0): shift the mantissa right by 1 − exponent, round half
///    up (exact ties cannot occur there), the exponent becomes 0, or 1 when rounding carried
///    into the implicit bit.
/// 6. Round to nearest: add the rounding bit, shift it out. A tie (rounding bit 1 and every
///    bit below it zero: lo ≤ 1, the kept bits shifted back give hi) rounds to even instead;
///    exact ties exist only for −4 ≤ q ≤ 23 (5^−q must divide w, and 5^q ≤ 2⁵⁴).
/// 7. A mantissa that carried to 2⁵³ renormalises (exponent + 1); an exponent ≥ 0x7FF is ±∞.
///
/// - Complexity: O(1): two multiplications at most, one table load (2 words).
func eiselLemire(_ w: UInt64, _ q: Int, negative: Bool) -> Double? {
    let sign: UInt64 = negative ? 1 << 63 : 0
    // 1. Trivial ranges.
    if w == 0 || q < -342 { return Double(bitPattern: sign) }
    if q > 308 { return Double(bitPattern: sign | 0x7FF0_0000_0000_0000) }
    // 2. Normalise.
    let lz = w.leadingZeroBitCount
    let wn = w &<< UInt64(lz)
    // 3. Product with the truncated power of five.
    let index = 2 * (q + 342)
    var (hi, lo) = wn.multipliedFullWidth(by: powersOfFive128[index])
    let precisionMask: UInt64 = 0x1FF  // the 64 − 55 bits of hi below the rounding bit
    if hi & precisionMask == precisionMask {
        let second = wn.multipliedFullWidth(by: powersOfFive128[index + 1]).high
        let (sum, carry) = lo.addingReportingOverflow(second)
        lo = sum
        if carry { hi &+= 1 }
    }
    if lo == UInt64.max && (q < -27 || q > 55) { return nil }
    // 4. Mantissa (54 bits) and biased binary exponent.
    let upperbit = Int(hi >> 63)
    let shift = UInt64(upperbit + 9)
    var mantissa = hi &>> shift
    var power2 = ((217_706 * q) >> 16) + 63 + upperbit - lz + 1023
    // 5. Subnormal.
    if power2 <= 0 {
        if 1 - power2 >= 64 { return Double(bitPattern: sign) }
        mantissa &>>= UInt64(1 - power2)
        mantissa += mantissa & 1
        mantissa >>= 1
        power2 = mantissa < (1 << 52) ? 0 : 1
        return Double(bitPattern: sign | UInt64(power2) << 52 | (mantissa & ((1 << 52) - 1)))
    }
    // 6. Round to nearest, ties to even.
    if lo <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1 && mantissa &<< shift == hi {
        mantissa &= ~1
    }
    mantissa += mantissa & 1
    mantissa >>= 1
    // 7. Carry into a new binade; overflow.
    if mantissa >= (2 << 52) {
        mantissa = 1 << 52
        power2 += 1
    }
    if power2 >= 0x7FF { return Double(bitPattern: sign | 0x7FF0_0000_0000_0000) }
    return Double(bitPattern: sign | UInt64(power2) << 52 | (mantissa & ((1 << 52) - 1)))
}
