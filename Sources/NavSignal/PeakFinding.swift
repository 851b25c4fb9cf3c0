/// Peaks of a sampled signal as `scipy.signal.find_peaks(x, height=…, distance=…)` finds them.
///
/// 1. Local maxima: a sample greater than its left neighbour and followed, after any run of
///    equal samples (a plateau), by a smaller one; a plateau's peak is its left-biased middle
///    sample `(left + right) / 2`. The first and last samples are never peaks.
/// 2. `height`: keep peaks with `x[p] ≥ height`.
/// 3. `distance` (samples, ≥ 1): from the highest peak down (scipy's priority order), remove
///    every lower-priority peak closer than `distance` samples to a kept one.
///
/// Reference: SciPy's `find_peaks`, `_local_maxima_1d` and `_select_by_peak_distance`
/// (scipy/signal/_peak_finding.py, _peak_finding_utils.pyx); checked against scipy on fixtures
/// (PeakFindingTests). Where two peaks of equal height compete for one place, scipy's order is
/// its sort's (not stable): navbench keeps the later one, as scipy does for the cases tested.
///
/// - Complexity: O(n) for the maxima and height; O(p log p + p · distance) for the distance rule
///   (p peaks).
public func findPeaks(_ x: [Double], height: Double? = nil, distance: Int = 1) -> [Int] {
    var peaks: [Int] = []
    let n = x.count
    guard n >= 3 else { return [] }
    var i = 1
    let iMax = n - 1
    while i < iMax {
        if x[i - 1] < x[i] {
            var ahead = i + 1
            while ahead < iMax && x[ahead] == x[i] { ahead += 1 }
            if x[ahead] < x[i] {
                peaks.append((i + ahead - 1) / 2)
                i = ahead
            }
        }
        i += 1
    }
    if let height { peaks.removeAll { !(x[$0] >= height) } }
    return selectByDistance(peaks, x, distance: distance)
}

/// scipy's `_select_by_peak_distance` on given peaks: highest first (for equal heights the later
/// peak first, scipy's argsort order reversed), each kept peak removing the lower ones within
/// `distance` samples.
func selectByDistance(_ peaks: [Int], _ x: [Double], distance: Int) -> [Int] {
    guard distance > 1, peaks.count > 1 else { return peaks }
    let order = peaks.indices.sorted { a, b in x[peaks[a]] != x[peaks[b]] ? x[peaks[a]] > x[peaks[b]] : a > b }
    var keep = [Bool](repeating: true, count: peaks.count)
    for j in order where keep[j] {
        var k = j - 1
        while k >= 0 && peaks[j] - peaks[k] < distance { keep[k] = false; k -= 1 }
        k = j + 1
        while k < peaks.count && peaks[k] - peaks[j] < distance { keep[k] = false; k += 1 }
    }
    return peaks.indices.filter { keep[$0] }.map { peaks[$0] }
}

/// `findPeaks` with a height threshold per sample (scipy's array `height`).
///
/// - Complexity: as `findPeaks`.
public func findPeaks(_ x: [Double], minimumHeights: [Double], distance: Int = 1) -> [Int] {
    precondition(minimumHeights.count == x.count, "one height per sample")
    let peaks = findPeaks(x, height: nil, distance: 1).filter { x[$0] >= minimumHeights[$0] }
    return selectByDistance(peaks, x, distance: distance)
}
