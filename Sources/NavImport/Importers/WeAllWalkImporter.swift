import Foundation
import NavCore
import NavIO

#if canImport(FoundationXML)
import FoundationXML
#endif

extension MobilityAid {
    /// WeAllWalk's code: `WC` (white cane), `GD`, `NA`.
    public init?(weAllWalkCode: String) {
        switch weAllWalkCode {
        case "WC": self = .longCane
        case "GD": self = .guideDog
        case "NA": self = .none
        default: return nil
        }
    }
}

/// What a WeAllWalk phone file's name says: `iPhoneSensors_T{path}_ID{subject}_{1L|2R}_{WC|GD|NA}.csv`.
public struct WeAllWalkWalkName: Sendable, Equatable {
    public var path: Int
    public var subject: Int
    /// `1L` (left trouser pocket) or `2R` (right).
    public var phone: String
    public var aid: MobilityAid

    /// nil when `fileName` is not a WeAllWalk phone file's name.
    public init?(fileName: String) {
        let base = fileName.hasSuffix(".csv") ? String(fileName.dropLast(4)) : fileName
        let parts = base.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == "iPhoneSensors", parts[1].hasPrefix("T"), parts[2].hasPrefix("ID"),
            let p = Int(parts[1].dropFirst()), let s = Int(parts[2].dropFirst(2)), (0...9_999).contains(p), (0...9_999).contains(s),
            ["1L", "2R"].contains(parts[3]), let code = MobilityAid(weAllWalkCode: parts[4])
        else { return nil }
        path = p; subject = s; phone = parts[3]; aid = code
    }

    /// The walk's annotation file name (both phones share it): `T{path}_ID{subject}_{aid}.xml`.
    public var annotationFileName: String {
        let code = aid == .longCane ? "WC" : aid == .guideDog ? "GD" : "NA"
        return "T\(path)_ID\(subject)_\(code).xml"
    }
    public var pocket: String { phone == "1L" ? "left trouser pocket" : "right trouser pocket" }
}

/// Which angular rate goes into the trace's `imu/gyroscope`.
public enum WeAllWalkGyroscope: String, Sendable, CaseIterable {
    /// The raw gyroscope (columns 33–35, with its bias), as the issue of record asks.
    case raw
    /// CoreMotion's bias-corrected `rotationRate` (columns 17–19).
    case deviceMotion = "device-motion"
}

/// Who made the annotation streams a WeAllWalk walk file gives (`docs/pdr.md`).
let weAllWalkAnnotationSource =
    "hand-annotated (WeAllWalk: heel strikes from shoe-clipped IMUs, hand-checked; segments, turns, events by the authors)"

/// Columns of a WeAllWalk phone file (`../shared/real-data/SOURCES.md`). Columns 39 (turn flag)
/// and 40 (step flag) are the ground truth: they are never read.
enum WeAllWalkColumn {
    static let count = 41
    static let kept = 39
    static let time = 0, quaternion = 13, rotationRate = 17, rawAccelerometer = 30, rawGyroscope = 33, rawMagnetometer = 36
    /// The columns a trace is built from: time, the attitude quaternion, the rotation rate and
    /// the raw accelerometer, gyroscope and magnetometer (0, 13–19, 30–38).
    static let read = [time] + Array(quaternion..<(rotationRate + 3)) + Array(rawAccelerometer..<(rawMagnetometer + 3))
    /// The others, counted as fields but never read as numbers (`parseNumericTable`'s `unread`):
    /// CoreMotion's angles and matrix, userAcceleration, gravity, the calibrated field and its
    /// accuracy (1–12, 20–29), and the two flag columns.
    static let unread: UInt64 = read.reduce((1 << UInt64(count)) - 1) { $0 & ~(1 << UInt64($1)) }
}

/// Largest phone file or annotation file read (a 3-hour walk at 25 Hz is ≈ 90 MB of text).
let weAllWalkMaximumBytes = 512 << 20

/// Imports one WeAllWalk phone file (and its walk's annotations, when `annotations` is given)
/// as a trace.
///
/// - IMU: raw accelerometer (g, CoreMotion's sign: −1 g up at rest) → specific force in m/s²
///   (× −9.80665), the raw gyroscope or CoreMotion's rotation rate (`gyroscope`), the raw
///   magnetometer (µT) and the device-motion attitude (quaternion x y z w, reference frame z
///   up, yaw arbitrary), every vector turned from CoreMotion's device axes into ARKit's camera
///   axes and the attitude's world into x east, y up, z south, as `import coremotion-logger` does.
/// - The two flag columns (39: turn, 40: step) are the ground truth and are never read; nor are
///   the other columns the trace is not built from (1–12, 20–29: `WeAllWalkColumn.unread`),
///   whose fields are only counted.
/// - Timing: a time equal to the previous one followed by a doubled interval (the phone's
///   glitch) is put midway between its neighbours, with a note; any other non-increasing time is
///   an error. A last line cut short (a truncated file) is dropped with a note.
/// - Annotations (`annotations`, the walk's XML): heel strikes (`steps`, instants labelled with
///   the foot), straight segments (`straight_segments`, label "ID DIRECTION"), turns (`turns`,
///   value = TurnInDegrees, positive counter-clockwise = left), events (`events`, label = the
///   free-text description); anything after the phone file's last sample is cut, with a note.
/// - Session attributes: subject, mobility_aid, path, phone, pocket (from the file name, or
///   from the XML when the name is not WeAllWalk's).
///
/// - Throws: one line naming the file, the line or element and what was expected.
public func importWeAllWalk(
    phoneFile: String, annotations: String? = nil, gyroscope: WeAllWalkGyroscope = .raw,
    options: ImportOptions = ImportOptions()
) throws(TraceError) -> ImportResult {
    var notes: [String] = []
    var bytes = try readFileBytes(phoneFile)
    guard !bytes.isEmpty else { throw TraceError(.empty, file: phoneFile, "empty file (0 bytes), expected WeAllWalk's 41 comma-separated columns") }
    guard bytes.count <= weAllWalkMaximumBytes else {
        throw TraceError(
            .tooLarge, file: phoneFile, "\(bytes.count) bytes; a WeAllWalk phone file is at most \(weAllWalkMaximumBytes >> 20) MiB here")
    }
    // A file cut mid-line (a copy interrupted): its last, unterminated line is dropped when it is short.
    if bytes.last != 0x0A, let lastNewline = bytes.lastIndex(of: 0x0A) {
        let tail = bytes[(lastNewline + 1)...]
        let fields = tail.split(separator: 0x2C, omittingEmptySubsequences: false).count
        if fields < WeAllWalkColumn.count {
            let line = bytes[...lastNewline].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } + 1
            notes.append(
                "\(phoneFile): line \(line): cut short (\(fields) of \(WeAllWalkColumn.count) fields, no line end): dropped as a truncated last line")
            bytes.removeSubrange((lastNewline + 1)...)
        }
    }
    // The first line's field count, said in one short line (the parser's message would list 41 names).
    let firstLine = bytes.prefix { $0 != 0x0A }
    let firstFields = firstLine.split(separator: 0x2C, omittingEmptySubsequences: false).count
    guard firstFields == WeAllWalkColumn.count else {
        throw TraceError(
            .wrongShape, file: phoneFile, object: "line 1",
            "expected WeAllWalk's \(WeAllWalkColumn.count) comma-separated columns (time, attitude, …, the two flag columns), found \(firstFields) fields"
        )
    }
    let table = try parseNumericTable(
        bytes, path: phoneFile, columns: WeAllWalkColumn.count...WeAllWalkColumn.count, keep: WeAllWalkColumn.kept,
        unread: WeAllWalkColumn.unread,
        fieldNames: (0..<WeAllWalkColumn.count).map { "column \($0)" }, formatName: "WeAllWalk phone file")
    let k = WeAllWalkColumn.kept
    let n = table.rows
    guard n >= 2 else { throw TraceError(.empty, file: phoneFile, "\(n) sample(s); expected a walk of at least 2 samples") }

    // Time axis and the phone's glitch.
    var t = (0..<n).map { table.values[k * $0 + WeAllWalkColumn.time] }
    var mended = 0
    for i in 0..<n {
        guard t[i].isFinite else {
            throw TraceError(
                .badTimestamps, file: phoneFile, object: "line \(table.lineNumbers[i])",
                "column 0 (time): expected finite seconds, found \(num(t[i]))")
        }
        guard i > 0, !(t[i] > t[i - 1]) else { continue }
        if t[i] == t[i - 1], i + 1 < n, t[i + 1] > t[i], i < 2 || t[i - 1] > t[i - 2] {
            t[i] = t[i - 1] + (t[i + 1] - t[i - 1]) / 2
            mended += 1
            continue
        }
        throw TraceError(
            .badTimestamps, file: phoneFile, object: "line \(table.lineNumbers[i])",
            "column 0 (time): expected increasing times; \(num(t[i])) s is not after the previous line's \(num(t[i - 1])) s")
    }
    if mended > 0 {
        notes.append(
            "\(phoneFile): \(mended) repeated time(s) followed by a doubled interval (the phone's timing glitch) put midway between their neighbours")
    }

    let body = coreMotionBodyToARKitCamera, world = coreMotionWorldToARKit
    var acc: [Vector3] = [], gyr: [Vector3] = [], mag: [Vector3] = [], att: [Quaternion] = []
    acc.reserveCapacity(n); gyr.reserveCapacity(n); mag.reserveCapacity(n); att.reserveCapacity(n)
    let g0 = 9.80665
    var offUnit = 0
    for r in 0..<n {
        let row = table.values[(k * r)..<(k * r + k)]
        if let bad = WeAllWalkColumn.read.first(where: { !row[k * r + $0].isFinite }) {
            throw TraceError(
                .badValue, file: phoneFile, object: "line \(table.lineNumbers[r])",
                "column \(bad): expected a finite number, found \(num(row[k * r + bad]))")
        }
        func vector(_ c: Int) -> Vector3 { Vector3(row[k * r + c], row[k * r + c + 1], row[k * r + c + 2]) }
        acc.append(body.apply(vector(WeAllWalkColumn.rawAccelerometer) * -g0))
        gyr.append(body.apply(vector(gyroscope == .raw ? WeAllWalkColumn.rawGyroscope : WeAllWalkColumn.rotationRate)))
        mag.append(body.apply(vector(WeAllWalkColumn.rawMagnetometer)))
        let c = WeAllWalkColumn.quaternion
        let q = Quaternion(x: row[k * r + c], y: row[k * r + c + 1], z: row[k * r + c + 2], w: row[k * r + c + 3])
        // The file's quaternions are printed with 6 decimals; a few rows are off unit length by up
        // to 2 % (69 of 208,903 rows beyond 0.1 %): normalised, counted in a note.
        guard let u = q.unit(tolerance: 0.05) else {
            throw TraceError(
                .badValue, file: phoneFile, object: "line \(table.lineNumbers[r])",
                "columns 13–16 (attitude quaternion x y z w): not of unit length (norm \(num(q.norm)), expected within 5 % of 1)")
        }
        if abs(q.norm - 1) > 0.01 { offUnit += 1 }
        att.append(body.applyToOrientation(world.quaternion * u))
    }

    if offUnit > 0 {
        notes.append("\(phoneFile): \(offUnit) attitude quaternion(s) more than 1 % off unit length (up to 5 %): normalised")
    }
    let name = WeAllWalkWalkName(fileName: fileName(of: phoneFile))
    var attributes: [String: String] = [:]
    if let name {
        attributes = [
            "subject": String(name.subject), "mobility_aid": name.aid.rawValue, "path": "T\(name.path)", "phone": name.phone,
            "pocket": name.pocket, "dataset": "WeAllWalk (Flores & Manduchi, ACM TACCESS 11(1), 2018; CC BY 4.0; doi:10.7291/D17P46)",
        ]
    }
    var streams: [AnnotationStream] = []
    if let annotations {
        let walk = try parseWeAllWalkAnnotations(annotations)
        if let name {
            if let s = walk.subject, s != name.subject {
                throw TraceError(
                    .badValue, file: annotations, object: "SubjectID",
                    "subject \(s), but the phone file \(escapedForMessage(fileName(of: phoneFile))) is subject \(name.subject)'s")
            }
            if let p = walk.path, p != name.path {
                throw TraceError(
                    .badValue, file: annotations, object: "PathID",
                    "path \(p), but the phone file \(escapedForMessage(fileName(of: phoneFile))) walks T\(name.path)")
            }
        } else {
            if let s = walk.subject { attributes["subject"] = String(s) }
            if let p = walk.path { attributes["path"] = "T\(p)" }
            if let a = walk.aid { attributes["mobility_aid"] = a.rawValue }
        }
        let (clipped, clipNotes) = walk.streams(clippedTo: t[0]...t[n - 1], file: annotations)
        streams = clipped
        notes += clipNotes + walk.notes
    }

    // No route id: a walk is no route to replay (its path is the session attribute `path`).
    var session = Session(
        metadata: importMetadata(
            options, sessionID: fileName(of: phoneFile).replacingOccurrences(of: ".csv", with: ""),
            routeID: "", venue: "", device: "iPhone 6s in a trouser pocket (WeAllWalk)",
            frameConvention: SessionMetadata.arkitFrame
                + "; imu in ARKit's camera axes (x = −y, y = x, z = z of CoreMotion's device frame); attitude world = CoreMotion's reference frame (z up, yaw arbitrary) turned to y up; gyroscope = \(gyroscope == .raw ? "raw (with bias)" : "CoreMotion rotationRate")"
        ))
    session.imu = IMUStream(timestamps: t, accelerometer: acc, gyroscope: gyr, attitude: att, magnetometer: mag)
    session.annotations = streams
    session.attributes = attributes
    return ImportResult(session: session, notes: notes)
}

/// A walk's annotations as WeAllWalk's XML gives them.
public struct WeAllWalkAnnotations: Sendable {
    public struct Segment: Sendable {
        public var spatialID: String
        public var start: Double
        public var end: Double
        public var direction: String
        /// Signed nominal turn (deg, negative = clockwise = right); nil for a straight segment.
        public var turnDegrees: Double?
        public var steps: [(foot: String, time: Double)]
        public var isStraight: Bool { turnDegrees == nil && !direction.hasPrefix("Turn") }
    }
    public struct Event: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var description: String
    }
    public var path: Int?
    public var subject: Int?
    public var aid: MobilityAid?
    public var segments: [Segment] = []
    public var events: [Event] = []
    /// One line each: what was mended (unsorted heel strikes, strikes outside their segment).
    public var notes: [String] = []

    /// The annotation streams, cut to `span` (the phone file's samples), with a note for what was cut.
    public func streams(clippedTo span: ClosedRange<Double>, file: String) -> ([AnnotationStream], [String]) {
        var cut = 0
        func inside(_ s: Double, _ e: Double) -> (Double, Double)? {
            guard e >= span.lowerBound, s <= span.upperBound else { cut += 1; return nil }
            if s < span.lowerBound || e > span.upperBound { cut += 1 }
            return (max(s, span.lowerBound), min(e, span.upperBound))
        }
        var steps: [(Double, String)] = []
        for seg in segments { for s in seg.steps { if span.contains(s.time) { steps.append((s.time, s.foot)) } else { cut += 1 } } }
        steps.sort { $0.0 < $1.0 }
        var straight: [(Double, Double, String)] = [], turns: [(Double, Double, String, Double)] = []
        for seg in segments {
            guard let (s, e) = inside(seg.start, seg.end) else { continue }
            if seg.isStraight {
                straight.append((s, e, "\(seg.spatialID) \(seg.direction)"))
            } else {
                turns.append((s, e, "\(seg.spatialID) \(seg.direction)", seg.turnDegrees ?? .nan))
            }
        }
        var events: [(Double, Double, String)] = []
        for ev in self.events { if let (s, e) = inside(ev.start, ev.end) { events.append((s, e, ev.description)) } }
        straight.sort { $0.0 < $1.0 }; turns.sort { $0.0 < $1.0 }; events.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        let src = weAllWalkAnnotationSource
        var out: [AnnotationStream] = []
        if !steps.isEmpty {
            out.append(
                AnnotationStream(
                    name: AnnotationStream.WalkStream.heelStrikes, kind: .instants, source: src, start: steps.map(\.0), label: steps.map(\.1)))
        }
        if !straight.isEmpty {
            out.append(
                AnnotationStream(
                    name: AnnotationStream.WalkStream.straightSegments, kind: .intervals, source: src, start: straight.map(\.0),
                    end: straight.map(\.1),
                    label: straight.map(\.2)))
        }
        if !turns.isEmpty {
            out.append(
                AnnotationStream(
                    name: AnnotationStream.WalkStream.turns, kind: .intervals, source: src, start: turns.map(\.0), end: turns.map(\.1),
                    label: turns.map(\.2),
                    value: turns.map(\.3), valueUnits: "deg"))
        }
        if !events.isEmpty {
            out.append(
                AnnotationStream(
                    name: AnnotationStream.WalkStream.events, kind: .intervals, source: src, start: events.map(\.0), end: events.map(\.1),
                    label: events.map(\.2)))
        }
        let notes =
            cut > 0
            ? [
                "\(file): \(cut) annotation(s) reach past the phone file's samples (\(num(span.lowerBound))…\(num(span.upperBound)) s): cut to them"
            ] : []
        return (out, notes)
    }
}

/// Parses a WeAllWalk walk file (XML). External entities are never resolved.
///
/// - Throws: one line naming the file and the element: not XML, a time that is not a finite
///   number, a segment or event that ends before it starts, a turn without its angle.
public func parseWeAllWalkAnnotations(_ path: String) throws(TraceError) -> WeAllWalkAnnotations {
    let bytes = try readFileBytes(path)
    guard !bytes.isEmpty else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected a WeAllWalk walk XML") }
    guard bytes.count <= weAllWalkMaximumBytes else {
        throw TraceError(.tooLarge, file: path, "\(bytes.count) bytes; too large for a walk's annotations")
    }
    let collector = WeAllWalkXMLCollector()
    let parser = XMLParser(data: Data(bytes))
    parser.shouldResolveExternalEntities = false
    parser.delegate = collector
    guard parser.parse(), collector.problem == nil else {
        let where_ = "line \(parser.lineNumber)"
        throw TraceError(
            .corrupt, file: path, object: where_,
            collector.problem
                ?? "not well-formed XML (\(parser.parserError.map { String(describing: $0) } ?? "parse error")); expected a WeAllWalk walk file")
    }
    var walk = WeAllWalkAnnotations()
    func number(_ text: String?, _ what: String) throws(TraceError) -> Double {
        guard let text else { throw TraceError(.missing, file: path, object: what, "missing; expected a number of seconds or degrees") }
        let s = text.trimmedASCIISpace
        guard let v = parseFiniteNumber(s) else {
            throw TraceError(.badValue, file: path, object: what, "expected a finite number, found \"\(escapedForMessage(s, limit: 60))\"")
        }
        return v
    }
    func integer(_ text: String?) -> Int? {
        text.flatMap { Int($0.trimmedASCIISpace) }.flatMap { (0...9_999).contains($0) ? $0 : nil }
    }
    walk.path = integer(collector.root["PathID"])
    walk.subject = integer(collector.root["SubjectID"])
    walk.aid = collector.root["MobilityTool"].flatMap { MobilityAid(weAllWalkCode: $0.trimmedASCIISpace) }
    var outside = 0, worst = 0.0
    for (i, raw) in collector.segments.enumerated() {
        let at = "PathSegment \(i + 1)"
        let start = try number(raw.fields["StartTime"], "\(at)/StartTime")
        let end = try number(raw.fields["EndTime"], "\(at)/EndTime")
        guard end >= start else {
            throw TraceError(.badValue, file: path, object: at, "ends (\(num(end)) s) before it starts (\(num(start)) s)")
        }
        let direction = (raw.fields["Direction"] ?? "").trimmedASCIISpace
        var turn: Double?
        if let text = raw.fields["TurnInDegrees"] {
            let a = try number(text, "\(at)/TurnInDegrees")
            guard abs(a) <= 360 else {
                throw TraceError(.badValue, file: path, object: "\(at)/TurnInDegrees", "expected degrees in [−360, 360], found \(num(a))")
            }
            turn = a
        } else if direction.hasPrefix("Turn") {
            throw TraceError(.missing, file: path, object: at, "a turn segment (\(escapedForMessage(direction, limit: 40))) without TurnInDegrees")
        }
        var steps: [(foot: String, time: Double)] = []
        for (j, s) in raw.steps.enumerated() {
            let time = try number(s.time, "\(at)/Step \(j + 1)/Time")
            if time < start || time > end {
                outside += 1
                worst = max(worst, time < start ? start - time : time - end)
            }
            steps.append((s.foot.trimmedASCIISpace, time))
        }
        walk.segments.append(
            .init(
                spatialID: (raw.fields["SpatialSegmentID"] ?? "").trimmedASCIISpace, start: start, end: end,
                direction: direction, turnDegrees: turn, steps: steps))
        for (j, f) in raw.features.enumerated() {
            let fs = try number(f.start, "\(at)/Feature \(j + 1)/StartTime")
            let fe = try number(f.end, "\(at)/Feature \(j + 1)/EndTime")
            guard fe >= fs else {
                throw TraceError(.badValue, file: path, object: "\(at)/Feature \(j + 1)", "ends (\(num(fe)) s) before it starts (\(num(fs)) s)")
            }
            walk.events.append(.init(start: fs, end: fe, description: f.description.trimmedASCIISpace))
        }
    }
    guard !walk.segments.isEmpty else { throw TraceError(.missing, file: path, object: "Segments", "no PathSegment; expected a WeAllWalk walk file") }
    if outside > 0 {
        walk.notes.append(
            "\(path): \(outside) heel strike(s) lie outside their segment's StartTime…EndTime (by up to \(num((worst * 1000).rounded() / 1000)) s): kept at their times (scores assign strikes to segments by time)"
        )
    }
    let times = walk.segments.flatMap { $0.steps.map(\.time) }
    if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
        walk.notes.append("\(path): heel strikes are not in time order across segments: sorted by time")
    }
    return walk
}

/// A finite number from a whole token: the decimal reader of every numeric text file
/// (`parseDecimal`, correctly rounded; a NUL or trailing text is no number).
func parseFiniteNumber(_ s: String) -> Double? {
    guard !s.isEmpty, s.utf8.count <= 64 else { return nil }
    return Array(s.utf8).withUnsafeBufferPointer { parseDecimal($0) }.flatMap { $0.isFinite ? $0 : nil }
}

/// Collects the few elements a WeAllWalk walk file has; anything else is ignored.
private final class WeAllWalkXMLCollector: NSObject, XMLParserDelegate {
    struct RawSegment {
        var fields: [String: String] = [:]
        var steps: [(foot: String, time: String)] = []
        var features: [(start: String, end: String, description: String)] = []
    }
    var root: [String: String] = [:]
    var segments: [RawSegment] = []
    var problem: String?
    private var stack: [String] = []
    private var text = ""
    private var step: (foot: String, time: String) = ("", "")
    private var feature: (start: String, end: String, description: String) = ("", "", "")
    static let maximumElements = 5_000_000
    private var elements = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:])
    {
        elements += 1
        if elements > Self.maximumElements {
            problem = "more than \(Self.maximumElements) elements; not a WeAllWalk walk file"
            parser.abortParsing()
            return
        }
        stack.append(name)
        text = ""
        switch name {
        case "PathSegment": segments.append(RawSegment())
        case "Step": step = ("", "")
        case "Feature": feature = ("", "", "")
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < 65_536 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { if !stack.isEmpty { stack.removeLast() }; text = "" }
        let parent = stack.count >= 2 ? stack[stack.count - 2] : ""
        switch (parent, name) {
        case ("root", _) where stack.count == 2: root[name] = text
        case ("Step", "WhichFoot"): step.foot = text
        case ("Step", "Time"): step.time = text
        case ("Steps", "Step"): if !segments.isEmpty { segments[segments.count - 1].steps.append(step) }
        case ("Feature", "StartTime"): feature.start = text
        case ("Feature", "EndTime"): feature.end = text
        case ("Feature", "Description"): feature.description = text
        case ("Features", "Feature"): if !segments.isEmpty { segments[segments.count - 1].features.append(feature) }
        case ("PathSegment", _): if !segments.isEmpty { segments[segments.count - 1].fields[name] = text }
        default: break
        }
    }
}

extension String {
    /// Without leading and trailing ASCII spaces, tabs and line ends (what XML text nodes carry
    /// around a value); Foundation's `trimmingCharacters` cost an eighth of reading a walk.
    var trimmedASCIISpace: String {
        let u = utf8
        func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = u.firstIndex(where: { !space($0) }) else { return "" }
        let last = u.lastIndex(where: { !space($0) })!
        return String(self[first...last])
    }
}
