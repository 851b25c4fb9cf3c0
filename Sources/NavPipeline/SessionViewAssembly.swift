import Foundation
import NavCore
import NavGuidance
import NavReport

/// What `navbench view` shows of a navigation session guided along a recording (`runGuidance`
/// with `options`): the true route's keypoints, the true and estimated paths in the venue frame
/// ((x, −z): east, north), every guidance event (spoken ones read out by the slider), every event
/// of the navigation's annotation streams (none left out: the page lists them compactly,
/// `sessionViewPage`) and its series: accelerometer magnitude, compass heading and BLE RSSI when
/// present (decimated for display by the page, `decimatedForDisplay`).
public func sessionView(
    recording: Session, navigation: Session, options: GuidanceOptions, force: Bool = false,
    names: (recording: String, navigation: String)? = nil
) throws -> SessionView {
    let run = try runGuidance(recording: recording, navigation: navigation, options: options, force: force, names: names)
    var events: [SessionView.Event] = run.estimated.events.map { e in
        switch e.kind {
        case .instruction: return .init(time: e.time, kind: "instruction", text: e.text, spoken: true)
        case .correction: return .init(time: e.time, kind: "correction", text: e.text, spoken: true)
        case .arrival: return .init(time: e.time, kind: "arrival", text: "arrived at keypoint \(e.keypoint)", spoken: true)
        case .arrived: return .init(time: e.time, kind: "arrived", text: "arrived at the end of the route", spoken: true)
        case .pulse: return .init(time: e.time, kind: "pulse", text: "haptic pulse", spoken: false)
        }
    }
    for a in navigation.annotations {
        for i in 0..<a.count { events.append(.init(time: a.start[i], kind: a.name, text: a.label[i], spoken: false, annotation: true)) }
    }
    var series: [SessionView.Series] = []
    if let imu = navigation.imu {
        series.append(.init(name: "accelerometer magnitude", unit: "m/s²", times: imu.timestamps, values: imu.accelerometer.map(\.norm)))
    }
    if let c = navigation.compass { series.append(.init(name: "compass heading", unit: "deg", times: c.timestamps, values: c.heading)) }
    if let b = navigation.ble { series.append(.init(name: "BLE RSSI (every beacon)", unit: "dBm", times: b.timestamps, values: b.rssi)) }
    let n = min(run.pathTimes.count, run.truePath.count, run.estimatedPath.count)
    return SessionView(
        title: "Route \(run.routeID), navigation \(run.navigationID)",
        keypoints: run.trueRoute.keypoints.map { (x: $0.position.x, y: -$0.position.z) },
        truePath: (0..<n).map { (t: run.pathTimes[$0], x: run.truePath[$0].x, y: -run.truePath[$0].z) },
        estimatedPath: (0..<n).map { (t: run.pathTimes[$0], x: run.estimatedPath[$0].x, y: -run.estimatedPath[$0].z) },
        events: events, series: series)
}
