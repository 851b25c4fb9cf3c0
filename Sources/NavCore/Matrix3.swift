/// A 3×3 matrix of `Double`, stored as three rows.
///
/// Used for rotations (SO(3)), covariances and the small linear algebra of the
/// alignment algorithms. All operations are exact IEEE arithmetic in the order written;
/// nothing here allocates.
///
/// - Complexity: every operation is O(1).
public struct Matrix3: Hashable, Sendable, CustomStringConvertible {
    public var row0: Vector3, row1: Vector3, row2: Vector3

    @inlinable public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        row0 = r0; row1 = r1; row2 = r2
    }

    /// From nine numbers in row-major order.
    @inlinable public init(
        _ m00: Double, _ m01: Double, _ m02: Double,
        _ m10: Double, _ m11: Double, _ m12: Double,
        _ m20: Double, _ m21: Double, _ m22: Double
    ) {
        row0 = Vector3(m00, m01, m02); row1 = Vector3(m10, m11, m12); row2 = Vector3(m20, m21, m22)
    }

    /// From nested arrays `[[row0], [row1], [row2]]` (the layout of `Quaternion.rotationMatrix`).
    public init(_ m: [[Double]]) {
        self.init(m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2])
    }

    /// From three column vectors.
    @inlinable public init(columns c0: Vector3, _ c1: Vector3, _ c2: Vector3) {
        self.init(c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z)
    }

    /// Rotation matrix of a unit quaternion (no allocation; same formula as `Quaternion.rotationMatrix`).
    @inlinable public init(_ q: Quaternion) {
        let x = q.x, y = q.y, z = q.z, w = q.w
        self.init(
            1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
            2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y))
    }

    public static let identity = Matrix3(1, 0, 0, 0, 1, 0, 0, 0, 1)
    public static let zero = Matrix3(0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Diagonal matrix.
    @inlinable public static func diagonal(_ d: Vector3) -> Matrix3 { Matrix3(d.x, 0, 0, 0, d.y, 0, 0, 0, d.z) }

    /// Outer product a·bᵀ.
    @inlinable public static func outer(_ a: Vector3, _ b: Vector3) -> Matrix3 {
        Matrix3(rows: a.x * b, a.y * b, a.z * b)
    }

    /// Element (row i, column j).
    @inlinable public subscript(i: Int, j: Int) -> Double {
        get { i == 0 ? row0[j] : (i == 1 ? row1[j] : row2[j]) }
        set {
            switch i {
            case 0: row0[j] = newValue
            case 1: row1[j] = newValue
            default: row2[j] = newValue
            }
        }
    }

    @inlinable public var column0: Vector3 { Vector3(row0.x, row1.x, row2.x) }
    @inlinable public var column1: Vector3 { Vector3(row0.y, row1.y, row2.y) }
    @inlinable public var column2: Vector3 { Vector3(row0.z, row1.z, row2.z) }

    @inlinable public var transpose: Matrix3 { Matrix3(columns: row0, row1, row2) }

    @inlinable public var trace: Double { row0.x + row1.y + row2.z }

    /// Determinant by cofactor expansion along the first row.
    @inlinable public var determinant: Double { row0.dot(row1.cross(row2)) }

    /// Frobenius norm √(Σ m_ij²).
    @inlinable public var frobeniusNorm: Double { (row0.dot(row0) + row1.dot(row1) + row2.dot(row2)).squareRoot() }

    /// Nested-array form, row-major (for JSON and `Quaternion(rotationMatrix:)`).
    public var rows: [[Double]] { [[row0.x, row0.y, row0.z], [row1.x, row1.y, row1.z], [row2.x, row2.y, row2.z]] }

    /// The unit quaternion (w ≥ 0) of a rotation matrix (Shepperd's method, then normalised).
    public var quaternion: Quaternion { Quaternion(rotationMatrix: rows).normalized }

    @inlinable public static func * (a: Matrix3, v: Vector3) -> Vector3 {
        Vector3(a.row0.dot(v), a.row1.dot(v), a.row2.dot(v))
    }

    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transpose
        return Matrix3(
            a.row0.dot(bt.row0), a.row0.dot(bt.row1), a.row0.dot(bt.row2),
            a.row1.dot(bt.row0), a.row1.dot(bt.row1), a.row1.dot(bt.row2),
            a.row2.dot(bt.row0), a.row2.dot(bt.row1), a.row2.dot(bt.row2))
    }

    @inlinable public static func * (s: Double, a: Matrix3) -> Matrix3 { Matrix3(rows: s * a.row0, s * a.row1, s * a.row2) }
    @inlinable public static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2) }
    @inlinable public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2) }
    @inlinable public static func += (a: inout Matrix3, b: Matrix3) { a = a + b }

    public var description: String { "[\(row0.x), \(row0.y), \(row0.z); \(row1.x), \(row1.y), \(row1.z); \(row2.x), \(row2.y), \(row2.z)]" }
}

extension Pose {
    /// Rotation part as a matrix.
    public var rotationMatrix3: Matrix3 { Matrix3(rotation) }
}
