import Foundation
import NavCore
import NavIO
import NavMetrics
import NavSignal
import NavStatistics

/// The turn detectors a sweep compares: onset rate × smoothing × least angle (docs/pdr.md).
public enum TurnDetectorSweep {
    public static let onsetRates: [Double] = [15, 25, 40]
    public static let smoothings: [Double] = [0.8, 2.0]
    public static let minimumAngles: [Double] = [30, 60]

    public static func standard() -> [TurnDetector] {
        var out: [TurnDetector] = []
        for o in onsetRates {
            for s in smoothings {
                for a in minimumAngles { out.append(TurnDetector(onsetRate: o, releaseRate: min(8, o), smoothing: s, minimumAngle: a)) }
            }
        }
        return out
    }
}

/// Turn detectors scored on every walk.
public struct TurnEvaluation: Sendable {
    public var detectors: [TurnDetector]
    public var tolerance: Double
    /// scores[walk][detector], nil where detection failed.
    public var scores: [[TurnDetectionScore?]]
    public var failures: [String]

    public init(detectors: [TurnDetector], tolerance: Double, scores: [[TurnDetectionScore?]], failures: [String]) {
        self.detectors = detectors; self.tolerance = tolerance; self.scores = scores; self.failures = failures
    }

    /// A subject's walks of a community (every community when nil) pooled, nil when one failed or none.
    public func subjectScore(_ e: StepEvaluation, _ subject: String, community: String?, detector d: Int) -> TurnDetectionScore? {
        var total = TurnDetectionScore()
        var any = false
        for (w, walk) in e.walks.enumerated() where walk.subject == subject && (community == nil || walk.community == community) {
            guard let s = scores[w][d] else { return nil }
            total = total + s
            any = true
        }
        return any ? total : nil
    }
}

/// F1 of a turn score: the harmonic mean of precision and recall (0 when both are 0).
public func turnF1(_ s: TurnDetectionScore) -> Double {
    let p = s.precision, r = s.recall
    return p + r > 0 ? 2 * p * r / (p + r) : 0
}

/// Detects turns with every detector on every walk and matches them with the annotated turns
/// (`tolerance` seconds); walks in order whatever the number of workers.
public func evaluateTurnDetectors(_ walks: [AnnotatedWalk], detectors: [TurnDetector], tolerance: Double = 2, workers: Int = 2) -> TurnEvaluation {
    let (scores, failures) = scoreDetectors(walks, detectors, what: "turn detector", workers: workers) { d, walk in
        scoreTurns(annotated: walk.turns, detected: try d.detect(walk.imu).map { (TimeSpan($0.start, $0.end), $0.angle) }, tolerance: tolerance)
    }
    return TurnEvaluation(detectors: detectors, tolerance: tolerance, scores: scores, failures: failures)
}

/// Leave one subject out for turns: the detector with the largest mean per-subject F1 over the
/// other subjects of `community` (every subject when nil; ties to the first), and the held-out
/// subject's pooled score under it.
public func leaveOneSubjectOutTurns(_ t: TurnEvaluation, _ e: StepEvaluation, community: String?) -> [(
    subject: String, chosen: Int, score: TurnDetectionScore
)] {
    let subjects = e.subjects(in: community)
    var out: [(String, Int, TurnDetectionScore)] = []
    for s in subjects {
        let training = subjects.filter { $0 != s }
        guard !training.isEmpty else { continue }
        var best: (d: Int, f1: Double)?
        for d in t.detectors.indices {
            let f1 = training.compactMap { t.subjectScore(e, $0, community: community, detector: d).map(turnF1) }
            guard f1.count == training.count else { continue }
            let m = f1.reduce(0, +) / Double(f1.count)
            if best == nil || m > best!.f1 { best = (d, m) }
        }
        guard let best, let score = t.subjectScore(e, s, community: community, detector: best.d) else { continue }
        out.append((s, best.d, score))
    }
    return out
}

/// What `navbench pdr` writes: summary.md (Findings first), steps.csv (walk × detector),
/// subjects.csv (subject × detector), loso.csv (each held-out subject's choice and score),
/// turns.csv (walk). Names from data are escaped in Markdown and quoted in CSV.
public struct WalkDetectionReport: Sendable {
    public var summary: String
    public var stepsCSV: String
    public var subjectsCSV: String
    public var losoCSV: String
    public var turnsCSV: String
    /// The detector leave-one-subject-out chose most often over every subject (ties: the first
    /// in the sweep's order): the one `navbench steps` runs by default when it was chosen on the
    /// shared subset (docs/pdr.md).
    public var modalChoice: Int?
    /// The Findings lines (as in `summary`, the caveats first), for a report that gathers several sections' Findings.
    public var findings: [String] = []

    /// Writes the five files into `folder`, each atomically.
    public func write(to folder: String) throws(TraceError) {
        for (name, text) in [
            ("summary.md", summary), ("steps.csv", stepsCSV), ("subjects.csv", subjectsCSV), ("loso.csv", losoCSV), ("turns.csv", turnsCSV),
        ] {
            try writeTextAtomically(text, to: (folder as NSString).appendingPathComponent(name))
        }
    }
}

/// A rate as a percentage with one decimal ("0.0 %", never "-0.0 %"), "–" when not finite.
private func pct(_ x: Double) -> String {
    guard x.isFinite else { return "–" }
    let p = (1000 * x).rounded() / 10
    return String(format: "%.1f %%", p == 0 ? 0 : p)
}
private func num3(_ x: Double) -> String { x.isFinite ? String(format: "%.3f", x) : "–" }

/// Builds the report of a step evaluation (and a turn evaluation of the same walks).
///
/// Statistics: the unit is the subject (a subject's walks are pooled); a community's error is the
/// mean of its subjects' errors with a 95 % Student t interval over subjects; choices of a
/// detector are made leave-one-subject-out within the community; a detector is called better
/// than another only when the exact Wilcoxon signed-rank test over subjects gives p < 0.05.
public func walkDetectionReport(_ e: StepEvaluation, turns: TurnEvaluation?, title: String = "Step and turn detection on annotated walks")
    -> WalkDetectionReport
{
    var md = "# \(markdownInline(title))\n\n"
    let names = e.detectors.map(\.description)
    let heldOut = heldOutStepPart(e, names: names)
    var parts = [heldOut.part, detectorRankingPart(e, names: names)]
    if let cane = heldOut.errors["cane"], let sighted = heldOut.errors["sighted"], cane.count >= 2, sighted.count >= 2 {
        let c = caneVersusSighted(cane, sighted)
        parts.append(
            ReportPart(
                findings: [
                    "Cane users' held-out step-count error is \(c.ratio) the sighted walkers' (\(c.numbers)). Flores & Manduchi reported about 1.5× on the whole data set."
                ]))
    }
    parts.append(oneDetectorPart(e))
    var turnsCSV =
        "file,subject,community,detector,annotated,detected,matched,missed,false,sign_errors,mean_abs_error_45,mean_abs_error_90,mean_abs_error_180\n"
    if let turns {
        let t = turnPart(e, turns)
        parts.append(t.part)
        turnsCSV += t.csv
    }
    var findings = parts.flatMap(\.findings)
    let details = parts.map(\.details).joined()

    // The default: leave one subject out over every subject.
    let global = leaveOneSubjectOut(e, community: nil)
    var counts: [Int: Int] = [:]
    for f in global { counts[f.chosen, default: 0] += 1 }
    let modal = counts.sorted { ($0.value, -$0.key) > ($1.value, -$1.key) }.first?.key
    if let modal {
        findings.append(
            "Chosen most often when each subject is left out of every community's walks: \(markdownCode(names[modal])) (\(counts[modal]!) of \(global.count) folds)."
        )
    }

    let caveat =
        "Caveats: \(e.walks.count) walks of \(e.subjects(in: nil).count) subjects; the unit of analysis is the subject, so every CI and test has the few subjects it says (n). Walks are real (WeAllWalk where imported from it); no positions are known."
    findings.insert(caveat, at: 0)
    md += "## Findings\n\n"
    md += "> \(caveat)\n\n"
    md += findings.dropFirst().map { "- " + $0 }.joined(separator: "\n") + "\n\n"
    md += details
    md +=
        "\n## Protocol\n\nWeAllWalk's metrics (docs/pdr.md): straight segments only, annotated event intervals cut out; metric 1 splits each piece at the true heel strikes (an interval without a detection is an undercount, k ≥ 2 detections are k − 1 overcounts), metric 3 compares counts per segment; rates are divided by the true steps. \(e.detectors.count) detector configurations, \(e.walks.count) walks.\n"
    if !e.failures.isEmpty || !(turns?.failures.isEmpty ?? true) {
        let all = e.failures + (turns?.failures ?? [])
        md += "\n## Failures (\(all.count))\n\n" + all.prefix(50).map { "- " + markdownInline($0) }.joined(separator: "\n") + "\n"
    }

    return WalkDetectionReport(
        summary: md, stepsCSV: stepsCSV(e, names: names), subjectsCSV: subjectsCSV(e, names: names), losoCSV: heldOut.csv,
        turnsCSV: turnsCSV, modalChoice: modal, findings: findings)
}

/// A piece of the report: its Markdown below the Findings and its Findings lines.
private struct ReportPart {
    var details = ""
    var findings: [String] = []
}

/// Leave one subject out within each community: the table, a Findings line per community,
/// loso.csv's rows and each community's held-out metric-1 errors (one per subject).
private func heldOutStepPart(_ e: StepEvaluation, names: [String]) -> (part: ReportPart, csv: String, errors: [String: [Double]]) {
    var details = "", findings: [String] = []
    var loso = "community,held_out_subject,chosen_detector,true_steps,under1_rate,over1_rate,under3_rate,over3_rate\n"
    details += "## Leave one subject out, per community\n\n"
    details +=
        "Each subject's error under the detector chosen on the community's other subjects (smallest mean metric-1 error). n = subjects.\n\n"
    details +=
        "| community | n | metric 1 error (under + over) | 95 % CI | under₁ | over₁ | metric 3 error | under₃ | over₃ | chosen (per held-out subject) |\n"
    details += "|---|---|---|---|---|---|---|---|---|---|\n"
    var perCommunityError: [String: [Double]] = [:]
    for c in e.communities {
        let folds = leaveOneSubjectOut(e, community: c)
        for f in folds {
            loso +=
                "\(csvField(c)),\(csvField(f.subject)),\(csvField(names[f.chosen])),\(f.score.trueSteps),\(formatNumber(f.score.under1Rate)),\(formatNumber(f.score.over1Rate)),\(formatNumber(f.score.under3Rate)),\(formatNumber(f.score.over3Rate))\n"
        }
        guard !folds.isEmpty else {
            details += "| \(markdownInline(c)) | \(e.subjects(in: c).count) | – (one subject: nothing to choose on) | | | | | | | |\n"
            continue
        }
        let e1 = folds.map(\.score.metric1Error), e3 = folds.map(\.score.metric3Error)
        perCommunityError[c] = e1
        let ci = StudentTInterval(e1)
        let mean = { (k: KeyPath<StepCountScore, Double>) in folds.map { $0.score[keyPath: k] }.reduce(0, +) / Double(folds.count) }
        let chosen = folds.map { "\(markdownInline($0.subject)): \(markdownCode(names[$0.chosen]))" }.joined(separator: "; ")
        details +=
            "| \(markdownInline(c)) | \(folds.count) | \(pct(ci.mean)) | \(ci.low.isFinite ? "[\(pct(ci.low)), \(pct(ci.high))]" : "– (n = 1)") | \(pct(mean(\.under1Rate))) | \(pct(mean(\.over1Rate))) | \(pct(Statistics.mean(e3))) | \(pct(mean(\.under3Rate))) | \(pct(mean(\.over3Rate))) | \(chosen) |\n"
        findings.append(
            "On \(markdownInline(c)) walkers, the detector chosen without the subject it is scored on misses or adds \(pct(ci.mean)) of heel strikes (metric 1, undercount \(pct(mean(\.under1Rate))) + overcount \(pct(mean(\.over1Rate))); 95 % CI \(ci.low.isFinite ? "\(pct(ci.low))–\(pct(ci.high))" : "not defined"), n = \(folds.count) subjects); metric 3 (per-segment counts) \(pct(Statistics.mean(e3)))."
        )
    }
    return (ReportPart(details: details, findings: findings), loso, perCommunityError)
}

/// Every detector ranked per community by its mean per-subject error (not held out), the top
/// two compared, the best of each method.
private func detectorRankingPart(_ e: StepEvaluation, names: [String]) -> ReportPart {
    var details = "", findings: [String] = []
    details += "\n## Detectors compared, per community\n\n"
    details +=
        "Mean per-subject metric-1 error of every detector over all the community's subjects (not held out: for comparing methods, not for choosing).\n\n"
    for c in e.communities {
        let subjects = e.subjects(in: c)
        var ranking: [(d: Int, mean: Double)] = []
        for d in e.detectors.indices {
            let errors = subjects.compactMap { e.subjectScore($0, community: c, detector: d)?.metric1Error }
            if errors.count == subjects.count, !errors.isEmpty { ranking.append((d, Statistics.mean(errors))) }
        }
        ranking.sort { ($0.mean, $0.d) < ($1.mean, $1.d) }
        guard ranking.count >= 2 else { continue }
        details += "### \(markdownInline(c)) (n = \(subjects.count) subjects)\n\n| rank | detector | mean metric-1 error |\n|---|---|---|\n"
        for (i, r) in ranking.prefix(5).enumerated() { details += "| \(i + 1) | \(markdownCode(names[r.d])) | \(pct(r.mean)) |\n" }
        // Best of each method, and the top two overall.
        if let cmp = compareDetectors(e, community: c, ranking[0].d, ranking[1].d) {
            let p = cmp.pValue.map { String(format: "%.3g", $0) } ?? "– (all equal)"
            let verdict =
                cmp.isSignificant
                ? "better than"
                : "not significantly different from"
            details +=
                "\nTop two: \(markdownCode(names[cmp.first])) − \(markdownCode(names[cmp.second])): \(pct(cmp.meanDifference)) (95 % CI \(pct(cmp.low))–\(pct(cmp.high))), Wilcoxon signed-rank p = \(p), n = \(cmp.n) subjects.\n\n"
            findings.append(
                "On \(markdownInline(c)) walkers the lowest mean error in sample (all subjects, none held out) is \(markdownCode(names[cmp.first])) (\(pct(ranking[0].mean))), \(verdict) the runner-up \(markdownCode(names[cmp.second])) (difference \(pct(cmp.meanDifference)), p = \(p), n = \(cmp.n) subjects)."
            )
        }
        var methodsLine: [String] = []
        for m in StepDetector.Method.allCases {
            if let best = ranking.first(where: { e.detectors[$0.d].method == m }) {
                methodsLine.append("\(m.rawValue) \(pct(best.mean)) (\(markdownCode(names[best.d])))")
            }
        }
        details += "Best of each method: " + methodsLine.joined(separator: "; ") + ".\n\n"
    }
    return ReportPart(details: details, findings: findings)
}

/// Cane users' mean error as a multiple of the sighted walkers' and the numbers behind it (means,
/// n, Welch's t test).
private func caneVersusSighted(_ cane: [Double], _ sighted: [Double]) -> (ratio: String, numbers: String) {
    let mc = Statistics.mean(cane), ms = Statistics.mean(sighted)
    let test = WelchTTest(
        mean1: mc, sd1: Statistics.standardDeviation(cane), n1: cane.count, mean2: ms, sd2: Statistics.standardDeviation(sighted),
        n2: sighted.count)
    return (
        ms > 0 ? String(format: "%.2f×", mc / ms) : "–",
        "\(pct(mc)), n = \(cane.count) vs \(pct(ms)), n = \(sighted.count) subjects; Welch t test p = \(test.map { String(format: "%.3g", $0.pTwoSided) } ?? "–")"
    )
}

/// One detector for everyone, held out: each subject scored with the detector chosen on every
/// other subject of every community (the fold behind the default; a subject who walked with two
/// aids is scored on each aid's walks under the same choice).
private func oneDetectorPart(_ e: StepEvaluation) -> ReportPart {
    var details = "", findings: [String] = []

    let acrossFolds = leaveOneSubjectOut(e, community: nil)
    if !acrossFolds.isEmpty {
        let chosenFor = Dictionary(acrossFolds.map { ($0.subject, $0.chosen) }, uniquingKeysWith: { a, _ in a })
        var perCommunity: [String: [Double]] = [:]
        details +=
            "## One detector for everyone, each subject held out\n\nEach subject scored with the detector chosen on all other subjects, whatever their aid (the choice behind the default detector; metric-1 error per subject; n = subjects).\n\n"
        details += "| community | n | metric 1 error | 95 % CI | metric 3 error | cadence (steps/s) |\n|---|---|---|---|---|---|\n"
        for c in e.communities {
            let scores = e.subjects(in: c).compactMap { s in chosenFor[s].flatMap { e.subjectScore(s, community: c, detector: $0) } }
            guard !scores.isEmpty else { continue }
            let e1 = scores.map(\.metric1Error)
            perCommunity[c] = e1
            let ci = StudentTInterval(e1)
            details +=
                "| \(markdownInline(c)) | \(scores.count) | \(pct(ci.mean)) | \(ci.low.isFinite ? "[\(pct(ci.low)), \(pct(ci.high))]" : "–") | \(pct(Statistics.mean(scores.map(\.metric3Error)))) | \(num3(Statistics.mean(scores.map(\.cadence)))) |\n"
        }
        details += "\n"
        if let cane = perCommunity["cane"], let sighted = perCommunity["sighted"], cane.count >= 2, sighted.count >= 2 {
            let c = caneVersusSighted(cane, sighted)
            findings.append(
                "With one detector chosen across communities (each subject held out), cane users' step-count error is \(c.ratio) the sighted walkers' (\(c.numbers))."
            )
        }
    }
    return ReportPart(details: details, findings: findings)
}

/// Turns, leave one subject out per community: the table, a Findings line per community and
/// turns.csv's rows (walk × detector).
private func turnPart(_ e: StepEvaluation, _ turns: TurnEvaluation) -> (part: ReportPart, csv: String) {
    var details = "", findings: [String] = [], turnsCSV = ""

    let turnNames = turns.detectors.map(\.description)
    details +=
        "## Turns, leave one subject out\n\nA detection matches an annotated turn when its centre lies within the turn ± \(formatNumber(turns.tolerance)) s. Each subject is scored with the detector of the largest mean F1 (precision and recall) on the community's other subjects; counts pooled over the held-out subjects; n = subjects.\n\n"
    details +=
        "| community | n | annotated | precision | recall | sign errors | mean abs angle error 45° | 90° | 180° | chosen (per held-out subject) |\n|---|---|---|---|---|---|---|---|---|---|\n"
    for c in e.communities {
        let folds = leaveOneSubjectOutTurns(turns, e, community: c)
        guard !folds.isEmpty else { continue }
        let pooled = folds.reduce(TurnDetectionScore()) { $0 + $1.score }
        func err(_ a: Double) -> String { pooled.meanAbsoluteAngleError(nominal: a).map { String(format: "%.1f°", $0) } ?? "–" }
        let chosen = folds.map { "\(markdownInline($0.subject)): \(markdownCode(turnNames[$0.chosen]))" }.joined(separator: "; ")
        details +=
            "| \(markdownInline(c)) | \(folds.count) | \(pooled.annotated) | \(pct(pooled.precision)) | \(pct(pooled.recall)) | \(pooled.signErrors) | \(err(45)) | \(err(90)) | \(err(180)) | \(chosen) |\n"
        findings.append(
            "Turns on \(markdownInline(c)) walks, detector chosen without the subject scored: recall \(pct(pooled.recall)), precision \(pct(pooled.precision)) of \(pooled.annotated) annotated turns; 90° turns measured with a mean absolute error of \(err(90)) (n = \(folds.count) subjects)."
        )
    }
    let global = leaveOneSubjectOutTurns(turns, e, community: nil)
    var counts: [Int: Int] = [:]
    for f in global { counts[f.chosen, default: 0] += 1 }
    if let m = counts.sorted(by: { ($0.value, -$0.key) > ($1.value, -$1.key) }).first?.key {
        details +=
            "\nChosen most often leaving one subject out of every community's walks: \(markdownCode(turnNames[m])) (\(counts[m]!) of \(global.count) folds).\n\n"
    }
    for (w, walk) in e.walks.enumerated() {
        for d in turns.detectors.indices {
            guard let s = turns.scores[w][d] else { continue }
            func err(_ a: Double) -> String { s.meanAbsoluteAngleError(nominal: a).map(formatNumber) ?? "" }
            turnsCSV +=
                "\(csvField(walk.file)),\(csvField(walk.subject)),\(csvField(walk.community)),\(csvField(turnNames[d])),\(s.annotated),\(s.detected),\(s.matched),\(s.missed),\(s.falseDetections),\(s.signErrors),\(err(45)),\(err(90)),\(err(180))\n"
        }
    }
    return (ReportPart(details: details, findings: findings), turnsCSV)
}

/// steps.csv: a row per walk × detector scored.
private func stepsCSV(_ e: StepEvaluation, names: [String]) -> String {

    var steps = "file,subject,community,detector,true_steps,detected_steps,under1,over1,under3,over3,scored_seconds\n"
    for (w, walk) in e.walks.enumerated() {
        for d in e.detectors.indices {
            guard let s = e.scores[w][d] else { continue }
            steps +=
                "\(csvField(walk.file)),\(csvField(walk.subject)),\(csvField(walk.community)),\(csvField(names[d])),\(s.trueSteps),\(s.detectedSteps),\(s.under1),\(s.over1),\(s.under3),\(s.over3),\(formatNumber(s.scoredSeconds))\n"
        }
    }
    return steps
}

/// subjects.csv: a row per community × subject × detector scored.
private func subjectsCSV(_ e: StepEvaluation, names: [String]) -> String {
    var subjects = "community,subject,detector,true_steps,under1_rate,over1_rate,under3_rate,over3_rate,cadence,cadence_error\n"
    for c in e.communities {
        for s in e.subjects(in: c) {
            for d in e.detectors.indices {
                guard let x = e.subjectScore(s, community: c, detector: d) else { continue }
                subjects +=
                    "\(csvField(c)),\(csvField(s)),\(csvField(names[d])),\(x.trueSteps),\(formatNumber(x.under1Rate)),\(formatNumber(x.over1Rate)),\(formatNumber(x.under3Rate)),\(formatNumber(x.over3Rate)),\(formatNumber(x.cadence)),\(formatNumber(x.cadenceError))\n"
            }
        }
    }
    return subjects
}
