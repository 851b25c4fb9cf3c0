import Foundation

/// The time unit of a CSV column of date-time text (`time: {column: C, units: datetime}`).
let dateTimeUnits = "datetime"

/// Seconds since 1970-01-01T00:00:00 UTC of date-time text as loggers write it:
/// `YYYY-MM-DD`, then `T` or one space, `hh:mm:ss`, an optional fraction (`.` or `,` and any
/// number of digits), an optional zone `Z`, `±hh:mm` or `±hhmm` (none: UTC). Nil for anything
/// else, or a date or time that does not exist (month 13, 31 April, 29 February 2021, 24:00).
/// A leap second (`:60`) counts as the next second's start, as POSIX time has none.
///
/// The whole seconds are counted exactly (days from the civil date by Hinnant's algorithm) and
/// the fraction added once: at Unix times near 1.7·10⁹ s a double resolves 0.24 µs.
///
/// Complexity: O(length).
func secondsSinceEpoch(dateTime text: String) -> Double? {
    let b = Array(text.utf8)
    var i = 0
    func digits(_ n: Int) -> Int? {
        guard i + n <= b.count else { return nil }
        var v = 0
        for k in i..<(i + n) {
            guard (48...57).contains(b[k]) else { return nil }
            v = v * 10 + Int(b[k] - 48)
        }
        i += n
        return v
    }
    func expect(_ c: UInt8) -> Bool {
        guard i < b.count, b[i] == c else { return false }
        i += 1
        return true
    }
    guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2) else { return nil }
    guard i < b.count, b[i] == 84 || b[i] == 32 else { return nil }  // 'T' or ' '
    i += 1
    guard let hour = digits(2), expect(58), let minute = digits(2), expect(58), let second = digits(2) else { return nil }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...12).contains(month), (1...monthDays[month - 1]).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
    var fraction = 0.0
    if i < b.count, b[i] == 46 || b[i] == 44 {  // '.' or ','
        i += 1
        let start = i
        while i < b.count, (48...57).contains(b[i]) { i += 1 }
        guard i > start, i - start <= 30 else { return nil }
        guard let f = Double("0." + String(decoding: b[start..<i], as: UTF8.self)) else { return nil }
        fraction = f
    }
    var zone = 0
    if i < b.count {
        if b[i] == 90 {  // 'Z'
            i += 1
        } else if b[i] == 43 || b[i] == 45 {  // '+' or '-'
            let sign = b[i] == 43 ? 1 : -1
            i += 1
            guard let zh = digits(2) else { return nil }
            _ = expect(58)
            guard let zm = digits(2), zh < 24, zm < 60 else { return nil }
            zone = sign * (zh * 3600 + zm * 60)
        }
    }
    guard i == b.count else { return nil }
    // Days since 1970-01-01 of the proleptic Gregorian date (Hinnant, "chrono-compatible low-level date algorithms").
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    let whole = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - zone)
    return Double(whole) + fraction
}
