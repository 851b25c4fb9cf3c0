import Foundation
import NavCore
import NavTestSupport

/// Path of a committed fixture.
func fixture(_ name: String) -> String { bundledFixture(.module, name) }

/// Decodes a committed JSON fixture (snake_case keys).
func loadFixture<T: Decodable>(_ name: String, as: T.Type) throws -> T {
    let data = try Data(contentsOf: URL(fileURLWithPath: fixture(name)))
    let dec = JSONDecoder()
    dec.keyDecodingStrategy = .convertFromSnakeCase
    return try dec.decode(T.self, from: data)
}

/// A random unit quaternion from a seeded generator.
func randomRotation(_ rng: inout SeededRandom) -> Quaternion {
    Quaternion(x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian(), w: rng.gaussian()).normalized
}

func randomVector(_ rng: inout SeededRandom, scale: Double = 1) -> Vector3 {
    Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * scale
}

/// Angle between two rotations, radians.
func angleBetween(_ a: Quaternion, _ b: Quaternion) -> Double {
    let d = abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w) / (a.norm * b.norm)
    let v = (a.conjugate * b)
    return 2 * atan2((v.x * v.x + v.y * v.y + v.z * v.z).squareRoot(), abs(v.w)) * (d.isNaN ? .nan : 1)
}
