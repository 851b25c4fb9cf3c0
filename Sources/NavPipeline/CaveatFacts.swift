import NavReport

/// How many replayed runs completed their route (`completed` = 1), overall and per
/// configuration, and over how many navigation sessions: what the replay's section offers the
/// Findings' caveat line.
struct ReplayCompletion: Sendable {
    var runs = 0, completed = 0, sessions = 0
    /// The lowest and highest completed fraction of a configuration.
    var range: (low: Double, high: Double) = (.nan, .nan)

    init(_ rows: MetricRows) {
        var byConfiguration: [String: (runs: Int, completed: Int)] = [:]
        var sessions = Set<String>()
        for r in rows where r.metric == "completed" && r.value.isFinite {
            runs += 1
            if r.value == 1 { completed += 1 }
            byConfiguration[r.configuration, default: (0, 0)].runs += 1
            if r.value == 1 { byConfiguration[r.configuration, default: (0, 0)].completed += 1 }
            sessions.insert(r.route + "\u{1}" + r.session)
        }
        self.sessions = sessions.count
        let fractions = byConfiguration.values.map { Double($0.completed) / Double($0.runs) }
        if let lo = fractions.min(), let hi = fractions.max() { range = (lo, hi) }
    }
}

/// What the closed loop's section offers the Findings' caveat line: its walkers are simulated,
/// so the line links there when the replay offers no completion.
struct SimulatedWalkers: Sendable {}
