import Foundation

/// What `navbench view` shows of one navigation session (values, no I/O): the route, where the
/// walker truly was and where the phone thought it was, what the guidance said and when, and time
/// series on the same clock.
public struct SessionView: Sendable {
    /// A time series (decimated for display by `decimatedForDisplay`).
    public struct Series: Sendable {
        public var name: String, unit: String
        public var times: [Double], values: [Double]
        public init(name: String, unit: String, times: [Double], values: [Double]) {
            self.name = name; self.unit = unit; self.times = times; self.values = values
        }
    }
    /// Something that happened at a time: a spoken instruction, an arrival, a haptic pulse, an
    /// annotated step or turn.
    public struct Event: Sendable {
        public var time: Double, kind: String, text: String
        /// Spoken (or announced) events are what the slider's "said" line reads.
        public var spoken: Bool
        /// A row of one of the session's annotation streams (`kind` is the stream's name), not
        /// something the guidance did: listed per stream, compactly (a 3-hour walk has ~20,000 steps).
        public var annotation: Bool
        public init(time: Double, kind: String, text: String, spoken: Bool, annotation: Bool = false) {
            self.time = time; self.kind = kind; self.text = text; self.spoken = spoken; self.annotation = annotation
        }
    }
    public var title: String
    /// Keypoints of the route, (east, north) in metres.
    public var keypoints: [(x: Double, y: Double)]
    /// (time, east, north) of the walker's true position and of the phone's estimate.
    public var truePath: [(t: Double, x: Double, y: Double)]
    public var estimatedPath: [(t: Double, x: Double, y: Double)]
    public var events: [Event]
    public var series: [Series]

    public init(
        title: String, keypoints: [(x: Double, y: Double)], truePath: [(t: Double, x: Double, y: Double)],
        estimatedPath: [(t: Double, x: Double, y: Double)], events: [Event], series: [Series]
    ) {
        self.title = title; self.keypoints = keypoints; self.truePath = truePath; self.estimatedPath = estimatedPath
        self.events = events; self.series = series
    }
}

/// At most `buckets` × 2 samples of a series for display: per bucket of equal time, its minimum
/// and its maximum in time order, so a peak (a step's acceleration, an RSSI jump) is never lost
/// to decimation. Series with fewer samples are returned as they are.
///
/// - Complexity: O(n).
public func decimatedForDisplay(times: [Double], values: [Double], buckets: Int = 1500) -> (times: [Double], values: [Double]) {
    let n = min(times.count, values.count)
    guard n > 2 * buckets, let t0 = times.first, let t1 = times.last, t1 > t0 else { return (Array(times.prefix(n)), Array(values.prefix(n))) }
    var outT: [Double] = [], outV: [Double] = []
    var i = 0
    for b in 0..<buckets {
        let end = b == buckets - 1 ? t1 : t0 + (t1 - t0) * Double(b + 1) / Double(buckets)
        var lo = -1, hi = -1
        while i < n && (times[i] < end || b == buckets - 1) {
            if values[i].isFinite {
                if lo < 0 || values[i] < values[lo] { lo = i }
                if hi < 0 || values[i] > values[hi] { hi = i }
            }
            i += 1
        }
        guard lo >= 0 else { continue }
        for k in lo == hi ? [lo] : [min(lo, hi), max(lo, hi)] {
            outT.append(times[k])
            outV.append(values[k])
        }
    }
    return (outT, outV)
}

/// `view.html` of `SessionView`: one self-contained page (no request; a small inline script for
/// the slider). A map (route keypoints, the true path solid, the estimate dashed; a round marker
/// for where the walker is, a square for where the phone thinks it is), a time slider operated by
/// keyboard (arrows, Page Up/Down, Home/End; it reads out the time and the last thing said), a
/// live line with what the guidance last said, each series with a cursor at the slider's time, and
/// every event kept: each guidance event (spoken or haptic) as a table row with a button that moves
/// the slider there (one listener for the table), each annotation stream as a strip of ticks
/// (ticks closer than half a pixel drawn once) and, collapsed, a table of every one of its rows
/// (time and label; no button: a 3-hour walk has ~20,000 steps). Names from data are
/// escaped in the markup (`xmlEscaped`) and in the inline JSON (`<`, `>`, `&`, U+2028, U+2029 as
/// `\u` escapes), so no text can end the script.
public func sessionViewPage(_ v: SessionView) -> String {
    let frame = ViewFrame(v)
    let f = ViewFrame.f, t0 = frame.t0, t1 = frame.t1
    let map = viewMap(v, frame)
    let panels = viewSeriesPanels(v, frame)
    var rows = ""
    let guidance = v.events.filter { !$0.annotation }
    for e in guidance.sorted(by: { ($0.time, $0.kind) < ($1.time, $1.kind) }) {
        rows += "<tr><th scope=\"row\">\(f(e.time)) s</th><td>\(xmlEscaped(e.kind))</td><td>\(xmlEscaped(e.text))</td>"
        rows += "<td><button type=\"button\" data-t=\"\(f(e.time))\">Go to \(f(e.time)) s</button></td></tr>\n"
    }
    let (streams, annotations) = viewAnnotationStreams(v, frame)
    let json = viewPayloadJSON(frame)

    return htmlPageOpening(
        title: "\(v.title) — navbench view", maxWidth: "72rem",
        style: """
            input[type=range] { width: 100%; } :focus { outline: 3px solid #b35900; outline-offset: 2px; }
            #said { font-size: 1.2rem; border-left: 4px solid #7a4d00; padding-left: .5rem; min-height: 2rem; }
            table { border-collapse: collapse; font-size: .9rem; } th, td { border: 1px solid #999; padding: .2rem .4rem; text-align: left; }
            svg { max-width: 100%; height: auto; } figure { margin: .5rem 0; }
            """)
            + """
            <main>
            <h1>\(xmlEscaped(v.title))</h1>
            <p>Move the slider (arrow keys, Page Up/Down, Home/End) to replay the session: the markers move on the map,
            the red cursor on every series, and the line below says what the guidance last said.</p>
            <label for="t">Time</label> <output id="now" for="t">\(f(t0)) s</output>
            <input type="range" id="t" min="\(f(t0))" max="\(f(t1))" step="0.1" value="\(f(t0))">
            <p>Last said: <span id="said" aria-live="polite">nothing yet</span></p>
            <h2>Map</h2>
            <figure>\(map)<figcaption>Route, true path and estimate; the markers follow the slider.</figcaption></figure>
            <h2>Time series</h2>
            \(panels)
            <h2>Events</h2>
            <table id="events"><caption>Every guidance event of the session (\(guidance.count)); a button moves the slider to it</caption>
            <thead><tr><th scope="col">time</th><th scope="col">kind</th><th scope="col">what</th><th scope="col">slider</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            \(streams.isEmpty ? "" : "<h2>Annotation streams</h2>\n<p>Every event of each annotation stream: a tick on its strip, and its rows in the table below it.</p>\n" + annotations)</main>
            <script type="application/json" id="view-data">\(json)</script>
            <script>
            (function () {
              const d = JSON.parse(document.getElementById('view-data').textContent);
              const s = document.getElementById('t'), now = document.getElementById('now'), said = document.getElementById('said');
              function at(a, t) { let lo = 0, hi = a.length - 1; if (hi < 0) return null; if (t <= a[0][0]) return a[0];
                while (lo < hi) { const m = (lo + hi + 1) >> 1; if (a[m][0] <= t) lo = m; else hi = m - 1; } return a[lo]; }
              function update() {
                const t = Number(s.value);
                const p = at(d.truePath, t), e = at(d.estimatedPath, t);
                if (p) { const c = document.getElementById('pose'); c.setAttribute('cx', p[1]); c.setAttribute('cy', p[2]); }
                if (e) { const r = document.getElementById('est'); r.setAttribute('x', e[1] - 6); r.setAttribute('y', e[2] - 6); }
                const x = d.left + (t - d.t0) / (d.t1 - d.t0) * d.width;
                document.querySelectorAll('.cursor').forEach(function (c) { c.setAttribute('x1', x); c.setAttribute('x2', x); });
                let last = null;
                for (const w of d.spoken) { if (Number(w[0]) <= t) last = w; else break; }
                const text = last ? last[0] + ' s: ' + last[1] : 'nothing yet';
                now.textContent = t.toFixed(1) + ' s';
                s.setAttribute('aria-valuetext', t.toFixed(1) + ' seconds; last said ' + text);
                if (said.textContent !== text) said.textContent = text;
              }
              s.addEventListener('input', update);
              document.getElementById('events').addEventListener('click', function (ev) {
                const b = ev.target.closest('button[data-t]');
                if (b) { s.value = b.dataset.t; update(); s.focus(); }
              });
              update();
            })();
            </script>
            </body>
            </html>

            """
}

/// Where things are drawn on a view page: the map's scale (metres to pixels, every path and
/// keypoint inside a 30 px margin), the time span and the series' time axis; the paths thinned
/// for display and the spoken events in time order.
private struct ViewFrame {
    static let mapW = 640.0, mapH = 480.0, pad = 30.0
    static let seriesW = 640.0, seriesH = 110.0, left = 60.0, plotW = seriesW - left - 10
    let minX: Double, minY: Double, scale: Double
    let t0: Double, t1: Double
    let shownTrue: [(t: Double, x: Double, y: Double)], shownEstimate: [(t: Double, x: Double, y: Double)]
    let spoken: [SessionView.Event]

    init(_ v: SessionView) {
        let xs = v.keypoints.map(\.x) + v.truePath.map(\.x) + v.estimatedPath.map(\.x)
        let ys = v.keypoints.map(\.y) + v.truePath.map(\.y) + v.estimatedPath.map(\.y)
        let finiteX = xs.filter(\.isFinite), finiteY = ys.filter(\.isFinite)
        let minX = finiteX.min() ?? 0, maxX = finiteX.max() ?? 1, minY = finiteY.min() ?? 0, maxY = finiteY.max() ?? 1
        self.minX = minX
        self.minY = minY
        scale = min((Self.mapW - 2 * Self.pad) / max(maxX - minX, 1e-9), (Self.mapH - 2 * Self.pad) / max(maxY - minY, 1e-9))
        shownTrue = thinned(v.truePath)
        shownEstimate = thinned(v.estimatedPath)
        let times = v.truePath.map(\.t) + v.estimatedPath.map(\.t) + v.series.flatMap { [$0.times.first, $0.times.last].compactMap { $0 } }
        t0 = times.filter(\.isFinite).min() ?? 0
        t1 = max(times.filter(\.isFinite).max() ?? 1, t0 + 1e-3)
        spoken = v.events.filter(\.spoken).sorted { $0.time < $1.time }
    }
    func px(_ x: Double) -> Double { Self.pad + (x - minX) * scale }
    func py(_ y: Double) -> Double { Self.mapH - Self.pad - (y - minY) * scale }
    /// A time's x on the series' axis.
    func tx(_ t: Double) -> Double { Self.left + (t - t0) / (t1 - t0) * Self.plotW }
    /// One decimal; "0" for what is not finite.
    static func f(_ d: Double) -> String { d.isFinite ? String(format: "%.1f", d) : "0" }
    func polyline(_ pts: [(x: Double, y: Double)], _ style: String) -> String {
        let p = pts.filter { $0.x.isFinite && $0.y.isFinite }.map { "\(Self.f(px($0.x))),\(Self.f(py($0.y)))" }.joined(separator: " ")
        return p.isEmpty ? "" : "<polyline points=\"\(p)\" fill=\"none\" \(style)/>\n"
    }
}

/// The map: keypoints numbered, the true path solid, the estimate dashed, the two markers the
/// slider moves, a legend line and a text alternative.
private func viewMap(_ v: SessionView, _ frame: ViewFrame) -> String {
    let f = ViewFrame.f, mapW = ViewFrame.mapW, mapH = ViewFrame.mapH
    var map = "<svg id=\"map\" role=\"img\" aria-labelledby=\"map-title\" width=\"\(Int(mapW))\" height=\"\(Int(mapH))\" "
    map += "viewBox=\"0 0 \(Int(mapW)) \(Int(mapH))\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"12\">\n"
    map += "<title id=\"map-title\">Map of \(xmlEscaped(v.title)): \(v.keypoints.count) keypoints; "
    map += "the true path solid blue, the phone's estimate dashed orange; the round marker is the walker, the square the estimate</title>\n"
    map += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    map += frame.polyline(v.keypoints, "stroke=\"#222\" stroke-width=\"2\"")
    for (k, p) in v.keypoints.enumerated() where p.x.isFinite && p.y.isFinite {
        map += "<circle cx=\"\(f(frame.px(p.x)))\" cy=\"\(f(frame.py(p.y)))\" r=\"4\" fill=\"#222\"/>"
        map += "<text x=\"\(f(frame.px(p.x) + 6))\" y=\"\(f(frame.py(p.y) - 6))\">\(k)</text>\n"
    }
    map += frame.polyline(frame.shownTrue.map { ($0.x, $0.y) }, "stroke=\"#1f5fbf\" stroke-width=\"2\"")
    map += frame.polyline(frame.shownEstimate.map { ($0.x, $0.y) }, "stroke=\"#b35900\" stroke-width=\"2\" stroke-dasharray=\"6 4\"")
    map += "<circle id=\"pose\" r=\"7\" fill=\"#1f5fbf\" stroke=\"white\" stroke-width=\"2\" cx=\"-20\" cy=\"-20\"/>\n"
    map += "<rect id=\"est\" width=\"12\" height=\"12\" fill=\"#b35900\" stroke=\"white\" stroke-width=\"2\" x=\"-20\" y=\"-20\"/>\n"
    map += "<text x=\"\(Int(ViewFrame.pad))\" y=\"18\">— true path   - - estimate   ● walker   ■ estimate   keypoints numbered</text>\n</svg>\n"
    return map
}

/// Each series as a panel: its line (decimated for display), spoken instructions as ticks along
/// the bottom, the cursor the slider moves.
private func viewSeriesPanels(_ v: SessionView, _ frame: ViewFrame) -> String {
    let f = ViewFrame.f, seriesW = ViewFrame.seriesW, seriesH = ViewFrame.seriesH, left = ViewFrame.left
    var panels = ""
    for (i, s) in v.series.enumerated() {
        let d = decimatedForDisplay(times: s.times, values: s.values)
        let finite = d.values.filter(\.isFinite)
        let lo = finite.min() ?? 0, hi = max(finite.max() ?? 1, lo + 1e-9)
        func sy(_ y: Double) -> Double { 10 + (hi - y) / (hi - lo) * (seriesH - 30) }
        let points = zip(d.times, d.values).filter { $0.1.isFinite }.map { "\(f(frame.tx($0.0))),\(f(sy($0.1)))" }.joined(separator: " ")
        let name = "\(s.name) (\(s.unit))"
        panels += "<figure><svg role=\"img\" aria-labelledby=\"series-\(i)\" width=\"\(Int(seriesW))\" height=\"\(Int(seriesH))\" "
        panels +=
            "viewBox=\"0 0 \(Int(seriesW)) \(Int(seriesH))\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\">\n"
        panels += "<title id=\"series-\(i)\">\(xmlEscaped(name)) over time: \(s.times.count) samples from \(f(lo)) to \(f(hi))</title>\n"
        panels += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        panels += "<text x=\"4\" y=\"16\">\(xmlEscaped(f(hi)))</text><text x=\"4\" y=\"\(Int(seriesH - 20))\">\(xmlEscaped(f(lo)))</text>\n"
        if !points.isEmpty { panels += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>\n" }
        let ticks = tickPath(frame.spoken.map { frame.tx($0.time) }, top: seriesH - 20, length: 8)
        if !ticks.isEmpty { panels += "<path d=\"\(ticks)\" stroke=\"#7a4d00\"/>" }
        panels +=
            "\n<line class=\"cursor\" x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"4\" y2=\"\(Int(seriesH - 12))\" stroke=\"#c00\" stroke-width=\"2\"/>\n"
        panels += "</svg><figcaption>\(xmlEscaped(name)); ticks at the bottom: spoken instructions</figcaption></figure>\n"
    }
    return panels
}

/// Annotation streams in order of first appearance: a strip of ticks each and a collapsed table
/// of every row; the streams' names and the markup.
private func viewAnnotationStreams(_ v: SessionView, _ frame: ViewFrame) -> (streams: [String], markup: String) {
    let f = ViewFrame.f, seriesW = ViewFrame.seriesW, left = ViewFrame.left
    var streams: [String] = [], byStream: [String: [SessionView.Event]] = [:]
    for e in v.events where e.annotation {
        if byStream[e.kind] == nil { streams.append(e.kind) }
        byStream[e.kind, default: []].append(e)
    }
    var annotations = ""
    for (k, name) in streams.enumerated() {
        let rows = byStream[name]!.sorted { $0.time < $1.time }
        let ticks = tickPath(rows.map { frame.tx($0.time) }, top: 16, length: 14)
        annotations += "<figure><svg role=\"img\" aria-labelledby=\"annotation-\(k)\" width=\"\(Int(seriesW))\" height=\"36\" "
        annotations += "viewBox=\"0 0 \(Int(seriesW)) 36\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\">\n"
        annotations +=
            "<title id=\"annotation-\(k)\">\(xmlEscaped(name)): \(rows.count) events from \(f(rows.first!.time)) s to \(f(rows.last!.time)) s, a tick each</title>\n"
        annotations += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/><text x=\"4\" y=\"12\">\(xmlEscaped(name))</text>\n"
        if !ticks.isEmpty { annotations += "<path d=\"\(ticks)\" stroke=\"#333\"/>\n" }
        annotations +=
            "<line class=\"cursor\" x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"2\" y2=\"34\" stroke=\"#c00\" stroke-width=\"2\"/>\n</svg></figure>\n"
        annotations += "<details><summary>\(xmlEscaped(name)): all \(rows.count) events</summary>\n"
        annotations += "<table><caption>\(xmlEscaped(name)): every event (\(rows.count))</caption>\n"
        annotations += "<thead><tr><th scope=\"col\">time (s)</th><th scope=\"col\">label</th></tr></thead>\n<tbody>\n"
        for e in rows { annotations += "<tr><td>\(f(e.time))</td><td>\(xmlEscaped(e.text))</td></tr>\n" }
        annotations += "</tbody></table></details>\n"
    }
    return (streams, annotations)
}

/// The slider's data as inline JSON safe inside a script element: the time span and axis, both
/// paths in pixels, the spoken events.
private func viewPayloadJSON(_ frame: ViewFrame) -> String {
    struct Payload: Encodable {
        var t0: Double, t1: Double, left: Double, width: Double
        var truePath: [[Double]], estimatedPath: [[Double]], spoken: [[String]]
    }
    let data = Payload(
        t0: frame.t0, t1: frame.t1, left: ViewFrame.left, width: ViewFrame.plotW,
        truePath: frame.shownTrue.map { [$0.t, (frame.px($0.x) * 10).rounded() / 10, (frame.py($0.y) * 10).rounded() / 10] },
        estimatedPath: frame.shownEstimate.map { [$0.t, (frame.px($0.x) * 10).rounded() / 10, (frame.py($0.y) * 10).rounded() / 10] },
        spoken: frame.spoken.map { [ViewFrame.f($0.time), $0.text] })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return scriptSafeJSON(String(decoding: (try? encoder.encode(data)) ?? Data("{}".utf8), as: UTF8.self))
}

/// Vertical ticks at the x positions `xs` (pixels) from `top`, `length` long, as one SVG path
/// (`M x top v length` each); ticks that round to the same half pixel are drawn once, so a strip of
/// 20,000 events over 600 px costs at most 1,200 ticks while every event stays in its table.
///
/// - Complexity: O(n).
func tickPath(_ xs: [Double], top: Double, length: Double) -> String {
    var seen = Set<Int>(), d = ""
    for x in xs where x.isFinite {
        let half = Int((x * 2).rounded())
        guard seen.insert(half).inserted else { continue }
        d += "M\(String(format: "%.1f", Double(half) / 2)) \(String(format: "%.0f", top))v\(String(format: "%.0f", length))"
    }
    return d
}

/// At most `limit` samples of a path, evenly spaced in index (the first and last kept): the map's
/// lines and the slider's marker positions.
func thinned(_ path: [(t: Double, x: Double, y: Double)], limit: Int = 4000) -> [(t: Double, x: Double, y: Double)] {
    guard path.count > limit else { return path }
    let step = Double(path.count - 1) / Double(limit - 1)
    return (0..<limit).map { path[Int((Double($0) * step).rounded())] }
}

/// JSON text that can sit inside `<script>`: `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes
/// (JSON.parse reads them back; no text can close the script or open a comment).
func scriptSafeJSON(_ json: String) -> String {
    var out = ""
    out.reserveCapacity(json.utf8.count)
    for u in json.unicodeScalars {
        switch u {
        case "<": out += "\\u003c"
        case ">": out += "\\u003e"
        case "&": out += "\\u0026"
        case "\u{2028}": out += "\\u2028"
        case "\u{2029}": out += "\\u2029"
        default: out.unicodeScalars.append(u)
        }
    }
    return out
}
