import Foundation

/// Path of a committed fixture.
func fixture(_ name: String) -> String {
    Bundle.module.path(forResource: "Fixtures/" + name, ofType: nil)
        ?? Bundle.module.bundlePath + "/Fixtures/" + name
}

/// A fresh temporary folder for one test.
func temporaryFolder(_ label: String = #function) -> String {
    let dir = NSTemporaryDirectory() + "navbench-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
