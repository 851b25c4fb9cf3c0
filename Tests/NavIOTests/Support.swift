import Foundation
import NavTestSupport

/// Path of a committed fixture.
func fixture(_ name: String) -> String { bundledFixture(.module, name) }
