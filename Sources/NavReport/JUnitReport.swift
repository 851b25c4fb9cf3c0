import Foundation
import NavIO

/// XML (and HTML) text escaped for element content and attribute values (& < > " ', the line and
/// paragraph separators U+2028/U+2029 as character references, and control characters other than
/// tab, line feed and carriage return, which XML 1.0 cannot carry, replaced by U+FFFD).
public func xmlEscaped(_ s: String) -> String {
    // Printable ASCII without & < > " ' (and tab, line feed, carriage return) is its own escape:
    // most labels, ids and numbers are returned as they are, without a scalar-by-scalar copy.
    if s.utf8.allSatisfy(isOwnXMLEscape) { return s }
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for u in s.unicodeScalars {
        switch u {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\t", "\n", "\r": out.unicodeScalars.append(u)
        case "\u{2028}", "\u{2029}": out += "&#x\(String(u.value, radix: 16, uppercase: true));"
        default: out.unicodeScalars.append(u.value < 0x20 || (0xFFFE...0xFFFF).contains(u.value) ? "\u{FFFD}" : u)
        }
    }
    return out
}

/// A byte of printable ASCII other than & < > " ', or a tab, line feed or carriage return.
@inline(__always)
private func isOwnXMLEscape(_ b: UInt8) -> Bool {
    switch b {
    case 0x26, 0x3C, 0x3E, 0x22, 0x27: false
    case 0x20..<0x7F, 0x09, 0x0A, 0x0D: true
    default: false
    }
}

/// JUnit XML of the gate, in the shape GitHub/GitLab/Jenkins test reporters read
/// (`testsuites > testsuite > testcase > failure`, counts in the `tests`, `failures`, `errors`
/// and `skipped` attributes): one testcase per gated (route, metric), classname `navbench.compare.<route>`,
/// a `failure` element for each regression with baseline, current, difference, CI and the runs
/// beyond tolerance (`gateRunsText`), and a `system-out` `verdict: LABEL` line for the labels
/// worse, mixed and better (JUnit has no "better" status; failures stay regressions). Deterministic
/// (no timestamps, `time="0"`). With `closedLoop`, one testcase per closed-loop cell × gated
/// metric follows (classname `navbench.compare.closed-loop.<route>`, name `<cell> · <metric>`),
/// failing where it regressed; `failures` is `gateRegressionCount`.
public func gateJUnitXML(_ r: GateResult, closedLoop: ClosedLoopGate? = nil, suiteName: String) -> String {
    let tests = r.gated.count + (closedLoop?.checks.count ?? 0), failures = gateRegressionCount(r, closedLoop: closedLoop)
    var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    x += "<testsuites name=\"navbench compare\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
    x += "  <testsuite name=\"\(xmlEscaped(suiteName))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
    for g in r.gated {
        let classname = g.kind.isEmpty ? "navbench.compare.\(g.route)" : "navbench.compare.\(g.kind).\(g.route)"
        x += "    <testcase classname=\"\(xmlEscaped(classname))\" name=\"\(xmlEscaped(g.metric))\" time=\"0\""
        // Runs named as in messages (control bytes escaped, long names cut), then XML-escaped.
        let runs = gateRunsText(g) { escapedForMessage($0, limit: 300) }
        guard g.regressed else {
            guard g.label == .better else { x += "/>\n"; continue }
            let out = "verdict: better\n\(g.reason)\n" + (runs.isEmpty ? "" : runs + "\n")
            x += ">\n      <system-out>\(xmlEscaped(out))</system-out>\n    </testcase>\n"
            continue
        }
        x += ">\n"
        let unit = g.unit.isEmpty ? "" : " \(g.unit)"
        let how = g.label == .mixed ? "mixed (runs worse, the mean better)" : "worse"
        let message =
            "\(g.kind.isEmpty ? "" : g.kind + " ")\(g.metric) on \(g.route) \(how): baseline \(gateNumber(g.baselineMean)), current \(gateNumber(g.currentMean)), "
            + "difference \(gateNumber(g.meanDifference))\(unit), 95% CI [\(gateNumber(g.ciLow)), \(gateNumber(g.ciHigh))], n=\(g.n)"
        let body = message + "\n" + g.reason + "\n" + (runs.isEmpty ? "" : runs + "\n")
        x += "      <failure type=\"regression\" message=\"\(xmlEscaped(message))\">\(xmlEscaped(body))</failure>\n"
        x += "      <system-out>verdict: \(g.label.rawValue)</system-out>\n"
        x += "    </testcase>\n"
    }
    for c in closedLoop?.checks ?? [] {
        x +=
            "    <testcase classname=\"navbench.compare.closed-loop.\(xmlEscaped(c.route))\" name=\"\(xmlEscaped(c.configuration + " · " + c.metric))\" time=\"0\""
        guard c.regressed else { x += "/>\n"; continue }
        let g = c
        let message =
            "closed loop \(c.metric) of \(c.route) [\(c.configuration)] worse: baseline \(gateNumber(g.baseline)), "
            + "current \(g.current.map(gateNumber) ?? "missing"), one-sided p \(gateNumber(g.pValue)), Holm-adjusted \(gateNumber(g.adjustedP))"
        x += ">\n      <failure type=\"regression\" message=\"\(xmlEscaped(message))\">\(xmlEscaped(message))\n</failure>\n    </testcase>\n"
    }
    x += "  </testsuite>\n</testsuites>\n"
    return x
}
